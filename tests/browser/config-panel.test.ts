/**
 * The configuration editor in real Chromium: every Flink option the engine models is listed
 * with its key and explanation, grouped; edits and a pasted Flink configuration go through the
 * scenario validator and restart the scenario; invalid input names the field and what is
 * allowed, and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLINK_OPTIONS, OPTION_GROUPS } from '../../engine/config/flink-options.ts';
import { en, zhCN } from '../../web/i18n/messages.ts';
import { optionDescriptions } from '../../web/i18n/option-descriptions.ts';
import { openBrowserSession, type BrowserSession } from './browser-session.ts';
import { CHECKPOINTING_SCENARIO } from './scenarios.ts';
import { loadAndRunUntil, openPlayground } from './channel-view-helpers.ts';

async function checkpointConfig(session: BrowserSession) {
  return session.page.evaluate(() => window.playground!.stats().then((s) => ({ config: s.checkpointConfig, time: s.scenario.virtual_time_ms })));
}

describe('configuration editor', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openBrowserSession({ viewport: { width: 1280, height: 800 } });
    await openPlayground(session);
    await loadAndRunUntil(session, CHECKPOINTING_SCENARIO, 3000);
  });

  afterAll(async () => {
    await session?.close();
  });

  it('lists every Flink option with its key and one-line explanation, grouped', async () => {
    const panel = session.page.getByTestId('config-panel');
    // The closed groups' options mount one group per idle period after the open ones (ConfigPanel.svelte).
    const keys = () => panel.locator('[data-option]').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-option')));
    await expect.poll(async () => [...(await keys())].sort()).toEqual(FLINK_OPTIONS.map((o) => o.key).sort());
    const groups = await panel.locator('[data-group]').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-group')));
    expect(groups).toEqual([...OPTION_GROUPS]);
    const interval = panel.locator('[data-option="execution.checkpointing.interval"]');
    await expect(interval.textContent()).resolves.toContain(FLINK_OPTIONS.find((o) => o.key === 'execution.checkpointing.interval')!.description);
    await expect(interval.locator('input').inputValue()).resolves.toBe('1 s');
    await panel.scrollIntoViewIfNeeded();
    await session.screenshot('config-form');
  });

  it('applies edited options: the scenario restarts with them', async () => {
    const page = session.page;
    const panel = page.getByTestId('config-panel');
    await panel.locator('[data-option="execution.checkpointing.interval"] input').fill('500 ms');
    await panel.locator('[data-option="execution.checkpointing.unaligned.enabled"] select').selectOption('true');
    await expect(panel.textContent()).resolves.toContain(en['config.editor.pending']);
    await panel.getByTestId('config-apply').click();
    await expect(panel.getByTestId('config-applied').textContent()).resolves.toBe(en['config.editor.applied']);
    const { config, time } = await checkpointConfig(session);
    expect(time).toBeLessThan(3000);
    expect(config).toMatchObject({ interval: 500, unaligned_checkpoints: true, min_pause: 300 });
  });

  it('rejects an invalid value, names the field and what is allowed, and changes nothing', async () => {
    const page = session.page;
    await page.evaluate(() => window.playground!.runUntil(2000));
    const panel = page.getByTestId('config-panel');
    await panel.locator('[data-option="execution.checkpointing.interval"] input').fill('ten seconds');
    await panel.getByTestId('config-apply').click();
    const fieldError = panel.locator('[data-option="execution.checkpointing.interval"]').getByTestId('config-field-error');
    await expect(fieldError.textContent()).resolves.toMatch(/Allowed: a duration/);
    await expect(panel.locator('[data-option="execution.checkpointing.interval"] input').getAttribute('aria-invalid')).resolves.toBe('true');
    await expect(panel.getByTestId('config-errors').textContent()).resolves.toContain('execution.checkpointing.interval');
    const { config, time } = await checkpointConfig(session);
    expect(config?.interval).toBe(500);
    expect(time).toBe(2000);
    await panel.scrollIntoViewIfNeeded();
    await session.screenshot('config-invalid-field');
    await panel.getByTestId('config-revert').click();
    await expect(panel.locator('[data-option="execution.checkpointing.interval"] input').inputValue()).resolves.toBe('500 ms');
  });

  it('accepts a pasted Flink configuration (nested keys, as config.yaml) in the YAML view', async () => {
    const page = session.page;
    const panel = page.getByTestId('config-panel');
    await panel.getByTestId('config-mode-yaml').click();
    await expect(panel.getByTestId('config-yaml').inputValue()).resolves.toContain('execution.checkpointing.interval: 500 ms');
    await panel.getByTestId('config-yaml').fill(
      ['execution:', '  checkpointing:', '    interval: 2 s', '    min-pause: 1 s', '    timeout: 1 min', 'parallelism.default: 2', ''].join('\n'),
    );
    await panel.getByTestId('config-apply').click();
    await expect(panel.getByTestId('config-applied').isVisible()).resolves.toBe(true);
    const { config } = await checkpointConfig(session);
    expect(config).toMatchObject({ interval: 2000, min_pause: 1000, timeout: 60_000, unaligned_checkpoints: false });
    await expect(panel.getByTestId('config-yaml').inputValue()).resolves.toContain('execution.checkpointing.min-pause: 1 s');
  });

  it('shows a misspelt key in pasted YAML with the nearest valid key, and changes nothing', async () => {
    const page = session.page;
    const panel = page.getByTestId('config-panel');
    await panel.getByTestId('config-yaml').fill('execution.checkpointing.intervall: 10 s\nexecution.checkpointing.mode: EXACTLY_TWICE\n');
    await panel.getByTestId('config-apply').click();
    const errors = await panel.getByTestId('config-errors').textContent();
    expect(errors).toContain('execution.checkpointing.intervall');
    expect(errors).toContain('Did you mean execution.checkpointing.interval?');
    expect(errors).toContain('EXACTLY_ONCE, AT_LEAST_ONCE');
    const { config } = await checkpointConfig(session);
    expect(config?.interval).toBe(2000);
    await panel.scrollIntoViewIfNeeded();
    await session.screenshot('config-yaml-invalid');
    await panel.getByTestId('config-mode-form').click();
  });

  it('explains every option in Chinese too', async () => {
    const page = session.page;
    for (const option of FLINK_OPTIONS) expect(optionDescriptions['zh-CN'][option.key], option.key).toBeTruthy();
    await page.getByTestId('locale-select').selectOption('zh-CN');
    const panel = page.getByTestId('config-panel');
    await expect.poll(() => panel.locator('h2').textContent()).toBe(zhCN['config.editor.title']);
    await expect(panel.locator('[data-option="execution.checkpointing.min-pause"]').textContent()).resolves.toContain(
      optionDescriptions['zh-CN']['execution.checkpointing.min-pause'],
    );
    await panel.scrollIntoViewIfNeeded();
    await session.screenshot('config-form-zh');
    await page.getByTestId('locale-select').selectOption('en');
  });

  it('shows the validator\'s problems in Chinese when the page is in Chinese', async () => {
    const page = session.page;
    await page.getByTestId('locale-select').selectOption('zh-CN');
    const panel = page.getByTestId('config-panel');
    await panel.locator('[data-option="execution.checkpointing.interval"] input').fill('ten seconds');
    await panel.getByTestId('config-apply').click();
    const fieldError = panel.locator('[data-option="execution.checkpointing.interval"]').getByTestId('config-field-error');
    const text = await fieldError.textContent();
    expect(text).toContain('"ten seconds" 不是以数字开头');
    expect(text).toContain('允许的取值：时长，例如 500 ms、10 s 或 1 min');
    await panel.scrollIntoViewIfNeeded();
    await session.screenshot('config-invalid-field-zh');
    await panel.getByTestId('config-revert').click();
    await page.getByTestId('locale-select').selectOption('en');
  });

  it('shows the validator\'s notes in Chinese when the page is in Chinese', async () => {
    const page = session.page;
    await page.getByTestId('locale-select').selectOption('zh-CN');
    const panel = page.getByTestId('config-panel');
    await panel.locator('[data-option="execution.checkpointing.unaligned.enabled"] select').selectOption('false');
    await panel.locator('[data-option="execution.checkpointing.aligned-checkpoint-timeout"] input').fill('1 s');
    await panel.getByTestId('config-apply').click();
    await expect.poll(() => panel.locator('p.note').allTextContents()).toContain(
      '`execution.checkpointing.aligned-checkpoint-timeout`：除非 execution.checkpointing.unaligned.enabled 为 true，否则不起作用',
    );
    await page.getByTestId('locale-select').selectOption('en');
    await expect.poll(() => panel.locator('p.note').allTextContents()).toContain(
      '`execution.checkpointing.aligned-checkpoint-timeout`: has no effect unless execution.checkpointing.unaligned.enabled is true',
    );
  });

  it('logs no errors', () => {
    expect(session.errors).toEqual([]);
  });
});
