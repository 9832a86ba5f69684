/**
 * Flink's enum names stay in English as Flink shows them, and carry what they mean in the reader's
 * language: FlinkName.svelte, rendered on the server as the page renders it.
 */
import { render } from 'svelte/server';
import { afterEach, describe, expect, it } from 'vitest';
import FlinkName from '../../web/i18n/FlinkName.svelte';
import { i18n } from '../../web/i18n/i18n.svelte.ts';
import { en, zhCN } from '../../web/i18n/messages.ts';

const html = (kind: 'jobStatus' | 'checkpointStatus' | 'checkpointingMode', name: string) => render(FlinkName, { props: { kind, name } }).body;
/** The attribute as the browser reads it (the renderer escapes quotes and ampersands). */
const attribute = (markup: string, name: string) => {
  const match = new RegExp(`${name}="([^"]*)"`).exec(markup);
  return match?.[1]?.replaceAll('&quot;', '"').replaceAll('&amp;', '&').replaceAll('&lt;', '<');
};

describe('a Flink enum name with its explanation', () => {
  afterEach(() => i18n.setLocale('en', false));

  it('shows RUNNING as Flink does, explained in English, focusable for a keyboard', () => {
    const markup = html('jobStatus', 'RUNNING');
    expect(markup).toMatch(/<abbr[^>]*>RUNNING<\/abbr>/);
    expect(attribute(markup, 'title')).toBe(`RUNNING — ${en['flinkName.jobStatus.RUNNING']}`);
    expect(attribute(markup, 'aria-description')).toBe(en['flinkName.jobStatus.RUNNING']);
    expect(attribute(markup, 'tabindex')).toBe('0');
  });

  it('keeps the name in English and explains it in Chinese when the page is Chinese', async () => {
    await i18n.setLocale('zh-CN', false);
    const markup = html('jobStatus', 'RESTARTING');
    expect(markup).toMatch(/<abbr[^>]*>RESTARTING<\/abbr>/);
    expect(attribute(markup, 'title')).toBe(`RESTARTING — ${zhCN['flinkName.jobStatus.RESTARTING']}`);
    expect(attribute(markup, 'aria-description')).toBe(zhCN['flinkName.jobStatus.RESTARTING']);
  });

  it('shows a checkpoint status and a checkpointing mode with the label the dashboard gives them', async () => {
    expect(html('checkpointStatus', 'IN_PROGRESS')).toMatch(new RegExp(`>${en['checkpoints.status.inProgress']}</abbr>`));
    await i18n.setLocale('zh-CN', false);
    const mode = html('checkpointingMode', 'EXACTLY_ONCE');
    expect(mode).toMatch(/>Exactly Once<\/abbr>/);
    expect(attribute(mode, 'aria-description')).toBe(zhCN['flinkName.checkpointingMode.EXACTLY_ONCE']);
  });

  it('explains in Chinese with the words the rest of the Chinese page uses: checkpoint, not 检查点', () => {
    const explanations = Object.entries(zhCN).filter(([key]) => key.startsWith('flinkName.'));
    expect(explanations.length).toBeGreaterThan(0);
    expect(explanations.filter(([, text]) => text.includes('检查点')).map(([key]) => key)).toEqual([]);
  });

  it('shows a name it has no explanation for as plain text, with nothing to focus', () => {
    const markup = html('jobStatus', 'RECONCILING');
    expect(markup).toContain('RECONCILING');
    expect(markup).not.toContain('<abbr');
  });
});
