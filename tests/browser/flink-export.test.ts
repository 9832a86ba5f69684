/**
 * "Export to Flink" in real Chromium: the configuration panel shows the loaded scenario's options
 * in the picked format, the copy button answers, and the section speaks the page's language.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en, zhCN } from '../../web/i18n/messages.ts';
import { openBrowserSession, type BrowserSession } from './browser-session.ts';
import { CHECKPOINTING_SCENARIO } from './scenarios.ts';
import { openPlayground, setLocale } from './channel-view-helpers.ts';

describe('export to Flink', () => {
  let session: BrowserSession;

  beforeAll(async () => {
    session = await openBrowserSession({ viewport: { width: 1280, height: 800 } });
    await openPlayground(session);
    await session.page.evaluate((s) => window.playground!.load(s), CHECKPOINTING_SCENARIO);
  });

  afterAll(async () => {
    await session?.close();
  });

  it('shows the scenario as config.yaml, then in the picked format', async () => {
    const section = session.page.getByTestId('flink-export');
    const text = section.getByTestId('flink-export-text');
    await expect.poll(() => text.inputValue()).toContain('execution.checkpointing.min-pause: 300 ms');
    await section.getByTestId('flink-export-format').selectOption('config-yaml-1x');
    await expect.poll(() => text.inputValue()).toContain('# Flink 1.x conf/flink-conf.yaml');
    await section.getByTestId('flink-export-format').selectOption('sql-job');
    await expect.poll(() => text.inputValue()).toContain("'connector' = 'datagen'");
    await expect(text.getAttribute('readonly')).resolves.not.toBeNull();
  });

  it('copies the text, or says how to copy it by hand', async () => {
    const section = session.page.getByTestId('flink-export');
    await section.getByTestId('flink-export-copy').click();
    await expect
      .poll(() => section.textContent())
      .toMatch(new RegExp(`${en['export.copied']}|${en['export.copyFailed'].replace(/[.;]/g, '.')}`));
  });

  it('speaks Chinese when the page does', async () => {
    const page = session.page;
    await setLocale(page, '中文');
    await expect.poll(() => page.getByTestId('flink-export').locator('h3').textContent()).toBe(zhCN['export.title']);
    await expect(page.getByTestId('flink-export-format').locator('option').first().textContent()).resolves.toBe(zhCN['export.format.config-yaml']);
    await setLocale(page, 'English');
  });
});
