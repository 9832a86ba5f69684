/**
 * Compare mode in real Chromium: the Compare button opens the loaded scenario under both sides of
 * a variation in sim, both timelines on one clock; once both runs completed checkpoints, the
 * difference between full and incremental checkpoints is said in a sentence, in English and in
 * Chinese (screenshots in test-artifacts/screenshots/compare-mode-*.png). Through the API:
 * `compare(variation, { until })`, its refusal of an unknown variation, and `closeCompare()`; and
 * the lesson whose point is full vs incremental offering compare mode on its scenario.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en, zhCN } from '../../web/i18n/messages.ts';
import { inPage } from './playground-in-page.ts';
import { openBrowserSession, SCREENSHOT_DIR, type BrowserSession } from './browser-session.ts';


/** A message template with each `{param}` matching any text, as a whole-string pattern. */
function templatePattern(template: string, fixed: Record<string, string>): RegExp {
  const escaped = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace(/\{(\w+)\}/g, (_, name: string) => (name in fixed ? fixed[name]!.replace(/[.*+?^$()|[\]\\]/g, '\\$&') : '.+'))}$`);
}

/** Both runs wait on wa-sqlite and take checkpoints at 1 s intervals of virtual time; the machine is shared. */
const RUN_TIMEOUT_MS = 90_000;

describe('compare mode on the page', () => {
  let session: BrowserSession;
  const view = () => session.page.getByTestId('compare-view');
  const completedBars = (side: 'a' | 'b') => session.page.getByTestId(`compare-side-${side}`).locator('[data-testid="checkpoint-timeline"] g.bar[data-status="COMPLETED"]').count();
  const sizeSentence = () => session.page.getByTestId('compare-differences').locator('li[data-code="checkpointed-size-p50"]');

  beforeAll(async () => {
    session = await openBrowserSession({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    await session.page.goto(`${session.baseUrl}/?scenario=incremental-checkpoints.yaml`);
    // the Compare button is enabled once the scenario is loaded (rocksdb: after wa-sqlite)
    await session.page.waitForFunction(() => document.querySelector<HTMLButtonElement>('[data-testid="compare-button"]')?.disabled === false, null, { timeout: 30_000 });
  }, RUN_TIMEOUT_MS);

  afterAll(async () => {
    await session?.close();
  });

  it('opens with the variation the scenario is about (it kills a TaskManager: local recovery) and both timelines', async () => {
    await session.page.getByTestId('compare-button').click();
    await view().waitFor();
    await expect.poll(() => view().getAttribute('data-variation')).toBe('local-recovery');
    await session.page.getByTestId('compare-side-b').getByTestId('checkpoint-timeline').waitFor({ timeout: 30_000 });
    await expect(session.page.getByTestId('checkpoint-timeline').count()).resolves.toBe(2);
    await expect(session.page.getByTestId('checkpoint-dashboard').count()).resolves.toBe(2);
  }, RUN_TIMEOUT_MS);

  it('keeps the page\'s own run, hidden under compare mode, paused when Space is pressed', async () => {
    await session.page.getByTestId('compare-view').click({ position: { x: 5, y: 5 } });
    await session.page.keyboard.press('Space');
    await expect(inPage(session, (api) => api.status().then((s) => s.running), null)).resolves.toBe(false);
  });

  it('says how full and incremental checkpoints differ once both runs completed checkpoints on one clock', async () => {
    await session.page.getByTestId('compare-variation').selectOption('full-vs-incremental');
    await expect.poll(() => view().getAttribute('data-variation')).toBe('full-vs-incremental');
    await session.page.getByTestId('compare-side-b').getByTestId('checkpoint-timeline').waitFor({ timeout: 30_000 });
    await session.page.getByTestId('compare-view').getByLabel(en['controls.speed']).selectOption('5');
    await expect.poll(() => session.page.getByTestId('compare-run').isDisabled(), { timeout: 30_000 }).toBe(true);
    await expect.poll(async () => Math.min(await completedBars('a'), await completedBars('b')), { timeout: RUN_TIMEOUT_MS }).toBeGreaterThanOrEqual(3);
    await sizeSentence().waitFor({ timeout: 30_000 });
    await expect.poll(async () => (await sizeSentence().textContent())?.trim()).toMatch(
      templatePattern(en['compare.difference'], {
        figure: en['compare.figure.checkpointed-size-p50'],
        sideA: en['compare.side.full-vs-incremental.a'],
        sideB: en['compare.side.full-vs-incremental.b'],
      }),
    );
    await session.page.getByTestId('compare-pause').click();
    // one clock: once the advance under way ends, both runs are at the time the page shows
    await expect
      .poll(async () => {
        const clock = Number(await session.page.getByTestId('compare-clock').getAttribute('data-value'));
        const shown = await inPage(session, (api) => api.comparison(), null);
        return [shown?.a.time, shown?.b.time, shown?.time].every((time) => time === clock) && clock > 0;
      })
      .toBe(true);
    const comparison = await inPage(session, (api) => api.comparison(), null);
    const size = comparison?.differences.find((d) => d.code === 'checkpointed-size-p50');
    expect(size!.b).toBeLessThan(size!.a);
    await session.screenshot('compare-mode-en', { fullPage: true });
  }, RUN_TIMEOUT_MS * 2);

  it('says the difference in Chinese', async () => {
    await session.page.getByTestId('locale-select').selectOption({ label: '中文' });
    await expect.poll(async () => (await sizeSentence().textContent())?.trim()).toMatch(
      templatePattern(zhCN['compare.difference'], {
        figure: zhCN['compare.figure.checkpointed-size-p50'],
        sideA: zhCN['compare.side.full-vs-incremental.a'],
        sideB: zhCN['compare.side.full-vs-incremental.b'],
      }),
    );
    await expect(session.page.getByTestId('compare-run').textContent()).resolves.toContain(zhCN['compare.run']);
    await session.screenshot('compare-mode-zh-CN', { fullPage: true });
    await session.page.getByTestId('locale-select').selectOption({ label: 'English' });
  });

  it('says why both runs are in the sim and not on live workers, in English and in Chinese', async () => {
    const why = () => session.page.getByTestId('compare-why-sim').textContent();
    await expect(why()).resolves.toBe(en['compare.whySim']);
    await session.page.getByTestId('locale-select').selectOption({ label: '中文' });
    await expect.poll(why).toBe(zhCN['compare.whySim']);
    await session.page.getByTestId('locale-select').selectOption({ label: 'English' });
  });

  it('compares through the API up to a time, refuses an unknown variation, and closes', async () => {
    const compared = await inPage(session, (api) => api.compare('min-pause', { until: '6 s' }), null);
    expect(compared.variation).toBe('min-pause');
    expect([compared.time, compared.a.time, compared.b.time]).toEqual([6000, 6000, 6000]);
    expect(compared.a.options['execution.checkpointing.min-pause']).toBe(0);
    expect(compared.b.options['execution.checkpointing.min-pause']).toBe(500);
    expect(compared.a.figures['completed-checkpoints']).toBeGreaterThan(0);
    const refused = await inPage(
      session,
      (api) => api.compare('fast-vs-slow' as never).then(
        () => 'resolved',
        (error: Error) => error.message,
      ),
      null,
    );
    expect(refused).toMatch(/^variation: "fast-vs-slow" is not a compare variation; allowed: full-vs-incremental, /);
    await inPage(session, (api) => api.closeCompare(), null);
    await expect(inPage(session, (api) => api.comparison(), null)).resolves.toBeNull();
    await session.page.getByTestId('run-button').waitFor();
    expect(session.errors).toEqual([]);
  }, RUN_TIMEOUT_MS);

  it('offers compare mode from a lesson whose point is a contrast, on the lesson scenario', async () => {
    await inPage(session, (api) => api.openLesson('full-vs-incremental').then(() => undefined), null);
    await session.page.getByTestId('lesson-compare').click();
    await expect.poll(() => view().getAttribute('data-variation')).toBe('full-vs-incremental');
    await session.page.getByTestId('compare-side-b').getByTestId('checkpoint-timeline').waitFor({ timeout: 30_000 });
    await expect(session.page.getByTestId('lesson-compare').textContent()).resolves.toContain(en['compare.variation.full-vs-incremental']);
    const comparison = await inPage(session, (api) => api.comparison(), null);
    expect([comparison?.a.name, comparison?.b.name]).toEqual([en['compare.side.full-vs-incremental.a'], en['compare.side.full-vs-incremental.b']]);
    await inPage(session, (api) => api.closeCompare(), null);
    expect(session.errors).toEqual([]);
    expect(session.svelteWarnings).toEqual([]);
  }, RUN_TIMEOUT_MS);
});
