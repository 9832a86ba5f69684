import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { importFlinkStatistics } from '../../engine/interop/flink-statistics-import.ts';
import { FLINK_VERSIONS, type FlinkVersion } from '../../engine/interop/flink-versions.ts';
import { keyOrderMismatches } from '../flink-reference/document-key-order.ts';
import { flinkResponseSchema, flinkResponseValidator, type FlinkResponseSchemaName } from '../flink-reference/flink-schema.ts';
import {
  checkpointConfig,
  checkpointingStatistics,
  checkpointStatistics,
  taskCheckpointStatisticsWithSubtaskDetails,
} from './flink-document-arbitraries.ts';
import { configInVersionShape, expectedConfigImport, expectedImport, inVersionShape } from './flink-version-shapes.ts';

const validators = new Map<FlinkResponseSchemaName, (document: unknown) => string[]>();
const validatorFor = (name: FlinkResponseSchemaName) => {
  if (!validators.has(name)) validators.set(name, flinkResponseValidator(name));
  return validators.get(name)!;
};

/** Round-trips through JSON text, as a saved response would: Long.MAX_VALUE and all. */
const asResponse = (document: unknown): unknown => JSON.parse(JSON.stringify(document));

function importedOk(document: unknown) {
  const result = importFlinkStatistics(asResponse(document));
  if (!result.ok) throw new Error(`not imported: ${JSON.stringify(result.problems.slice(0, 3))}`);
  return result.statistics;
}

const ENDPOINTS = [
  { schema: 'checkpointing-statistics', arbitrary: checkpointingStatistics, pick: (s: ReturnType<typeof importedOk>) => s.checkpoints },
  { schema: 'checkpoint-statistics', arbitrary: checkpointStatistics(true), pick: (s: ReturnType<typeof importedOk>) => Object.values(s.checkpointDetails ?? {})[0] },
  { schema: 'task-checkpoint-statistics', arbitrary: taskCheckpointStatisticsWithSubtaskDetails, pick: (s: ReturnType<typeof importedOk>) => s.checkpointSubtaskDetails?.[0]?.statistics },
] as const;

describe.each(FLINK_VERSIONS)('documents in the shape Flink %s writes', (version: FlinkVersion) => {
  it.each(ENDPOINTS)('normalize $schema to the current shape, schema-valid, keys in order, with the release among those it fits', ({ schema, arbitrary, pick }) => {
    fc.assert(
      fc.property(arbitrary as fc.Arbitrary<unknown>, (current) => {
        expect(validatorFor(schema)(current), 'the generator writes current documents').toEqual([]);
        const statistics = importedOk(inVersionShape(current, version));
        const normalized = pick(statistics);
        expect(normalized).toEqual(asResponse(expectedImport(current, version)));
        expect(validatorFor(schema)(normalized)).toEqual([]);
        expect(keyOrderMismatches(flinkResponseSchema(schema), normalized)).toEqual([]);
        expect(statistics.flinkVersions).toContain(version);
      }),
      { numRuns: 25 },
    );
  });

  it('normalize the checkpoint config, filling in what the release did not report', () => {
    fc.assert(
      fc.property(checkpointConfig, (current) => {
        const statistics = importedOk(configInVersionShape(current as never, version));
        expect(statistics.endpoint).toBe('/jobs/:jobid/checkpoints/config');
        expect(statistics.checkpointConfig).toEqual(asResponse(expectedConfigImport(current as never, version)));
        expect(validatorFor('checkpoint-config')(statistics.checkpointConfig)).toEqual([]);
        expect(statistics.flinkVersions).toContain(version);
      }),
      { numRuns: 25 },
    );
  });
});

describe('telling releases apart', () => {
  it('places a history entry in the releases of its shape: 1.9–1.11, 1.12–1.13, 1.14, 1.15–1.16, 1.17 on', () => {
    const eras = new Map<string, FlinkVersion[]>();
    const sample = fc.sample(checkpointingStatistics.filter((d) => d.history.length > 0), { numRuns: 1, seed: 7 })[0]!;
    for (const version of FLINK_VERSIONS) {
      const fits = importedOk(inVersionShape(sample, version)).flinkVersions.join(' ');
      eras.set(fits, [...(eras.get(fits) ?? []), version]);
    }
    expect([...eras.keys()]).toEqual(['1.9 1.10 1.11', '1.12 1.13', '1.14', '1.15 1.16', '1.17 1.18 1.19 1.20 2.0 2.1 2.2']);
  });

  it('fits no release for a mix of shapes (className with no checkpointed_size)', () => {
    const sample = fc.sample(checkpointStatistics(false), { numRuns: 1, seed: 3 })[0]!;
    const { checkpointed_size: _dropped, ...mixed } = sample as unknown as Record<string, unknown>;
    expect(importedOk({ ...mixed, tasks: {} }).flinkVersions).toEqual([]);
  });
});
