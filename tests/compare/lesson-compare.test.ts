/**
 * The lessons whose point is a contrast offer compare mode: each names a variation that applies to
 * its scenario (it checkpoints periodically, and both sides pass Flink's option rules).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareScenarios } from '../../engine/compare/compare-variation.ts';
import { LESSONS } from '../../engine/lessons/lesson-catalog.ts';
import { parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';

const contrasts = LESSONS.filter((lesson) => lesson.compare !== undefined);

describe('lessons that offer compare mode', () => {
  it('are the lessons about full vs incremental, unaligned, local recovery, min-pause and timers', () => {
    expect(Object.fromEntries(contrasts.map((l) => [l.id, l.compare]))).toEqual({
      'interval-and-min-pause': 'min-pause',
      'backpressure-and-unaligned': 'aligned-vs-unaligned',
      'full-vs-incremental': 'full-vs-incremental',
      'task-local-recovery': 'local-recovery',
      'timers-and-compression': 'heap-vs-rocksdb-timers',
    });
  });

  it.each(contrasts.map((l) => [l.id, l] as const))('%s: its variation applies to its scenario', (_, lesson) => {
    const text = parseScenarioText(readFileSync(join('public', lesson.scenario), 'utf8'));
    if (!text.ok) throw new Error(`${lesson.scenario}: not YAML`);
    const valid = validateScenario(text.value);
    if (!valid.ok) throw new Error(`${lesson.scenario}: invalid`);
    const compared = compareScenarios(valid.scenario, lesson.compare);
    expect(compared.ok ? 'ok' : compared.message).toBe('ok');
  });
});
