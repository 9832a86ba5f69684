/**
 * Flink's enum names in real Chromium: they read in English as Flink shows them, in every locale,
 * and carry what they mean in the reader's language, on hover (title), for a screen reader
 * (aria-description), and for a keyboard: Tab reaches the name and its focus shows the same text.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en, zhCN } from '../../web/i18n/messages.ts';
import type { PlaygroundApi } from '../../web/playground/api/playground-api-types.ts';
import { openBrowserSession, type BrowserSession } from './browser-session.ts';
import { CHECKPOINTING_SCENARIO } from './scenarios.ts';

declare global {
  interface Window {
    playground?: PlaygroundApi;
  }
}

const JOB_STATUS = '[data-testid="job-status"] abbr';

/** Presses Tab until `selector` has the focus (at most `presses` times); whether it got there. */
async function tabTo(page: Page, selector: string, presses = 80): Promise<boolean> {
  for (let i = 0; i < presses; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return true;
  }
  return false;
}

/** What Chromium gives a screen reader for the first element `selector` matches: its accessible name and description. */
async function accessible(page: Page, selector: string): Promise<{ name: string | undefined; description: string | undefined }> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = await cdp.send('DOM.getDocument');
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
    const { nodes } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
    const node = nodes.find((n) => !n.ignored) ?? nodes[0];
    return { name: node?.name?.value as string | undefined, description: node?.description?.value as string | undefined };
  } finally {
    await cdp.detach();
  }
}

/** The text the name's focus tooltip shows (its ::after), `none` when it shows nothing. */
function focusTooltip(page: Page, selector: string): Promise<string> {
  return page.evaluate((s) => getComputedStyle(document.querySelector(s)!, '::after').content, selector);
}

describe('Flink enum names with their explanation', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openBrowserSession();
    const page = session.page;
    await page.goto(`${session.baseUrl}/`);
    await page.waitForFunction(() => window.playground !== undefined);
    await page.evaluate(async (scenario) => {
      await window.playground!.load(scenario);
      await window.playground!.runUntil(5_000);
    }, CHECKPOINTING_SCENARIO);
  });

  afterAll(async () => {
    await session?.close();
  });

  it('shows the job status as Flink does, explained on hover and for a screen reader', async () => {
    const status = session.page.locator(JOB_STATUS);
    await expect.poll(() => status.textContent()).toBe('RUNNING');
    expect(await status.getAttribute('title')).toBe(`RUNNING — ${en['flinkName.jobStatus.RUNNING']}`);
    expect(await status.getAttribute('aria-description')).toBe(en['flinkName.jobStatus.RUNNING']);
  });

  it('lets a keyboard reach the job status and shows its explanation on focus', async () => {
    const page = session.page;
    await page.locator('body').click({ position: { x: 1, y: 1 } });
    expect(await focusTooltip(page, JOB_STATUS)).toBe('none');
    expect(await tabTo(page, JOB_STATUS)).toBe(true);
    expect(await focusTooltip(page, JOB_STATUS)).toBe(JSON.stringify(`RUNNING — ${en['flinkName.jobStatus.RUNNING']}`));
  });

  it('names a Flink name by itself for a screen reader and says what it means once, as a description, focused too', async () => {
    const page = session.page;
    const expected = { name: 'RUNNING', description: en['flinkName.jobStatus.RUNNING'] };
    await page.locator('body').click({ position: { x: 1, y: 1 } });
    expect(await accessible(page, JOB_STATUS)).toEqual(expected);
    expect(await tabTo(page, JOB_STATUS)).toBe(true);
    expect(await accessible(page, JOB_STATUS)).toEqual(expected);
  });

  it("names the job graph's partitioner HASH for a screen reader and says what it does once, as a description", async () => {
    const label = '.edge-label[tabindex]';
    await session.page.locator(label).first().waitFor();
    expect(await accessible(session.page, label)).toEqual({ name: 'HASH', description: en['flinkName.partitioner.HASH'] });
  });

  it('keeps the names in English and explains them in Chinese when the page is Chinese', async () => {
    const page = session.page;
    await page.getByTestId('locale-select').selectOption({ label: '中文' });
    const status = page.locator(JOB_STATUS);
    await expect.poll(() => status.getAttribute('aria-description')).toBe(zhCN['flinkName.jobStatus.RUNNING']);
    expect(await status.textContent()).toBe('RUNNING');
    expect(await status.getAttribute('title')).toBe(`RUNNING — ${zhCN['flinkName.jobStatus.RUNNING']}`);

    await page.getByTestId('checkpoint-dashboard').getByRole('tab', { name: zhCN['checkpoints.tab.history'], exact: true }).click();
    const completed = page.locator('[data-testid="checkpoint-dashboard"] abbr[data-flink-name="COMPLETED"]').first();
    await expect.poll(() => completed.getAttribute('aria-description')).toBe(zhCN['flinkName.checkpointStatus.COMPLETED']);
    expect(await completed.textContent()).toBe('COMPLETED');

    await page.getByTestId('checkpoint-dashboard').getByRole('tab', { name: zhCN['checkpoints.tab.configuration'], exact: true }).click();
    const mode = page.locator('[data-testid="checkpoint-configuration"] tr[data-config="mode"] abbr');
    await expect.poll(() => mode.getAttribute('aria-description')).toBe(zhCN['flinkName.checkpointingMode.EXACTLY_ONCE']);
    expect(await mode.textContent()).toBe('Exactly Once');
    await page.getByTestId('locale-select').selectOption({ label: 'English' });
  });
});
