/**
 * The capacity planner page (/planner/, issue 15) in real Chromium: reached from the playground's
 * header, it refuses an unreadable field by name, runs a small sweep in its worker, streams the
 * points into both plots and the table,
 * and names the smallest parallelism meeting the objective (the one planCapacity finds) in en and
 * zh-CN, with the rules of thumb beside the curves. The main thread's long tasks during the sweep
 * (aim: none) are a figure of `npm run bench -- --only long-tasks`, not an assertion here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planCapacity } from '../../engine/scale/capacity-plan.ts';
import { EXAMPLE_CAPACITY_FORM, readCapacityQuestion } from '../../engine/scale/capacity-question.ts';
import { formatDuration } from '../../web/dashboard/flink-format.ts';
import { formatMessage } from '../../web/i18n/message-format.ts';
import { en, zhCN } from '../../web/i18n/messages.ts';
import { openBrowserSession, type BrowserSession } from './browser-session.ts';

const SWEEP = '50, 100, 200';

function expectedSmallest() {
  const read = readCapacityQuestion({ ...EXAMPLE_CAPACITY_FORM, parallelisms: SWEEP });
  if (!read.ok) throw new Error('the sweep form should be readable');
  const { smallest } = planCapacity(read.question);
  if (!smallest) throw new Error('the sweep should have an answer');
  return { smallest, objectiveMs: read.question.recoveryObjectiveMs };
}

function verdict(messages: typeof en | typeof zhCN, locale: string): string {
  const { smallest, objectiveMs } = expectedSmallest();
  return formatMessage(
    messages['planner.verdict.smallest'],
    {
      objective: formatDuration(objectiveMs),
      parallelism: smallest.parallelism,
      hosts: smallest.hosts,
      spare: Math.round(smallest.spareCapacity * 100),
      recovery: formatDuration(Math.round(smallest.recoveryMs!)),
    },
    locale,
  );
}

describe('the capacity planner page', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openBrowserSession({ viewport: { width: 1280, height: 1400 } });
  });

  afterAll(async () => {
    await session?.close();
  });

  it('is linked from the playground’s header', async () => {
    const page = session.page;
    await page.goto(session.baseUrl);
    await page.getByTestId('planner-link').click();
    await expect(page.getByTestId('planner-title').textContent({ timeout: 60_000 })).resolves.toBe(en['planner.title']);
    expect(new URL(page.url()).pathname).toBe('/planner/');
    await expect(page.title()).resolves.toBe(`${en['planner.title']} — ${en['app.title']}`);
  });

  it('names an unreadable field and what it allows, and runs nothing', async () => {
    const page = session.page;
    await page.getByTestId('planner-field-ratePerS').fill('fast');
    await page.getByTestId('planner-run').click();
    const error = page.getByTestId('planner-error-ratePerS');
    await error.waitFor();
    const text = await error.textContent();
    expect(text).toContain(en['planner.field.ratePerS']);
    expect(text).toContain(en['planner.allowed.ratePerS']);
    expect(await page.getByTestId('planner-status').getAttribute('data-status')).toBe('invalid');
    expect(await page.getByTestId('planner-row').count()).toBe(0);
    await page.getByTestId('planner-field-ratePerS').fill(EXAMPLE_CAPACITY_FORM.ratePerS);
  });

  it('sweeps in a worker, plots each point and names the smallest configuration', async () => {
    const page = session.page;
    await page.getByTestId('planner-field-parallelisms').fill(SWEEP);
    await page.getByTestId('planner-run').click();
    await page.getByTestId('planner-verdict').waitFor({ timeout: 120_000 });

    expect(await page.getByTestId('planner-row').count()).toBe(3);
    expect(await page.getByTestId('planner-chart-checkpoint').getAttribute('data-points')).toBe('3');
    expect(await page.getByTestId('planner-chart-recovery').getAttribute('data-points')).toBe('3');
    await expect(page.getByTestId('planner-verdict').textContent()).resolves.toBe(verdict(en, 'en'));
    // 50 subtasks process exactly the input: no spare capacity, never caught up.
    await expect(page.getByTestId('planner-no-spare').textContent()).resolves.toBe(formatMessage(en['planner.noSpare'], { parallelism: 50 }, 'en'));
    const rules = await page.getByTestId('planner-rules').textContent();
    expect(rules).toContain(en['planner.rule.backpressure']);
    expect(rules).toContain(en['planner.rule.catchUp']);
    expect(await page.locator('[data-testid="planner-chart-recovery"] .u-legend').textContent()).toContain(en['planner.series.objective']);
    await session.screenshot('capacity-planner-en', { fullPage: true });
  });

  it('says the same in Chinese', async () => {
    const page = session.page;
    await page.getByTestId('locale-select').selectOption('zh-CN');
    await expect.poll(() => page.getByTestId('planner-title').textContent()).toBe(zhCN['planner.title']);
    await expect(page.getByTestId('planner-verdict').textContent()).resolves.toBe(verdict(zhCN, 'zh-CN'));
    expect(await page.getByTestId('planner-rules').textContent()).toContain(zhCN['planner.rule.catchUp']);
    await expect
      .poll(() => page.locator('[data-testid="planner-chart-recovery"] .u-legend').textContent())
      .toContain(zhCN['planner.series.objective']);
    expect(await page.getByTestId('planner-chart-recovery').getAttribute('data-points')).toBe('3');
    await session.screenshot('capacity-planner-zh-CN', { fullPage: true });
    expect(session.errors).toEqual([]);
    expect(session.svelteWarnings).toEqual([]);
  });
});
