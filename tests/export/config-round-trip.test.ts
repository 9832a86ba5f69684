import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readConfig } from '../../engine/config/flink-options.ts';
import { exportToFlink } from '../../engine/export/flink-export.ts';
import { LESSONS } from '../../engine/lessons/lesson-catalog.ts';
import { lessonScenarioInput } from '../../engine/lessons/lesson-scenario.ts';
import { validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { shippedScenarios, type ShippedScenario } from './shipped-scenarios.ts';

const SHIPPED = shippedScenarios().map((s) => [s.file, s] as const);

/** Each lesson's scenario as every step leaves it (the steps change options, sinks, parallelism). */
const LESSON_STEPS = LESSONS.flatMap((lesson) => {
  const file = shippedScenarios().find((s) => s.file === `public/${lesson.scenario}`);
  if (!file) throw new Error(`lesson ${lesson.id}: no scenario file public/${lesson.scenario}`);
  return lesson.steps.map((_step, i) => {
    const input = lessonScenarioInput(lesson, file.input, i + 1);
    const valid = validateScenario(input);
    if (!valid.ok) throw new Error(`${lesson.id} step ${i + 1}: ${JSON.stringify(valid.errors)}`);
    return [`${lesson.id} after step ${i + 1}`, { file: file.file, input, scenario: valid.scenario }] as const;
  });
});

/** The exported text pasted back as the scenario's `config:`, validated as any scenario is. */
function pastedBack(shipped: ShippedScenario, exported: string) {
  const config = (parse(exported) as Record<string, unknown> | null) ?? undefined;
  const valid = validateScenario({ ...shipped.input, config });
  if (!valid.ok) throw new Error(JSON.stringify(valid.errors));
  return valid;
}

describe('exported Flink configuration pasted back into the scenario', () => {
  it('finds the shipped scenarios and lessons', () => {
    expect(SHIPPED.length).toBeGreaterThanOrEqual(24);
  });

  it.each([...SHIPPED, ...LESSON_STEPS])('%s: the 2.x config.yaml gives the same options, key for key', (_file, shipped) => {
    const back = pastedBack(shipped, exportToFlink(shipped.scenario, 'config-yaml'));
    expect(back.scenario.config).toEqual(shipped.scenario.config);
    expect(back.notes.filter((n) => n.includes('deprecated'))).toEqual([]);
  });

  it.each([...SHIPPED, ...LESSON_STEPS])('%s: the 1.x flink-conf.yaml gives the same configuration', (_file, shipped) => {
    const exported = exportToFlink(shipped.scenario, 'config-yaml-1x');
    const original = readConfig(shipped.scenario.config);
    const back = readConfig(pastedBack(shipped, exported).scenario.config);
    if (original.localBackupEnabled === original.localRecovery) {
      expect(back).toEqual(original);
    } else {
      // 1.x's one state.backend.local-recovery key cannot split backup from recovery: the file says so
      expect(exported).toContain('# Not expressible in 1.x');
      expect({ ...back, localBackupEnabled: original.localBackupEnabled }).toEqual(original);
    }
  });
});
