/**
 * A validated scenario written back as a scenario file (YAML), as a user writes one: durations and
 * sizes in Flink's syntax ("10 s", "1 tb"), every default the validator filled in written out, the
 * Flink options as `config-yaml` writes them. A `runtime: scale` scenario keeps its runtime and
 * its `scale` section (state size, growth, churn, compaction, bandwidths), so the file runs in the
 * scale runtime again; a records scenario names no runtime, as it was read. Reading the text back
 * with validateScenario gives the same scenario. A name or description in several languages is
 * written as one text per language (`{ en, zh-CN }`), a one-language one as a plain string.
 */
import { stringify } from 'yaml';
import { formatDuration } from '../config/duration.ts';
import { formatMemorySize } from '../config/memory-size.ts';
import type { ExpectationSpec, FaultSpec, OperatorSpec, ScaleSpec, Scenario, VertexSpec } from '../scenario/scenario-types.ts';
import { localizedTextDocument } from '../scenario/localized-text.ts';
import { flinkOptionText, orderedOptions } from './flink-option-text.ts';

type Document = Record<string, unknown>;

export function exportScenarioFile(scenario: Scenario): string {
  return stringify(scenarioFileDocument(scenario), { lineWidth: 0 });
}

/** The scenario as the plain document a file holds (validateScenario accepts it). */
export function scenarioFileDocument(scenario: Scenario): Document {
  return {
    version: scenario.version,
    name: localizedTextDocument(scenario.name, scenario.translations ?? {}, 'name'),
    ...(scenario.description === '' ? {} : { description: localizedTextDocument(scenario.description, scenario.translations ?? {}, 'description') }),
    ...(scenario.runtime === undefined ? {} : { runtime: scenario.runtime }),
    seed: scenario.seed,
    job: { name: scenario.job.name, vertices: scenario.job.vertices.map(vertexDocument), edges: scenario.job.edges.map((e) => ({ ...e })) },
    config: Object.fromEntries(orderedOptions(scenario.config).map(([key, value]) => [key, optionValue(key, value)])),
    cluster: { ...scenario.cluster },
    costs: { ...scenario.costs },
    ...(scenario.scale === undefined ? {} : { scale: scaleDocument(scenario.scale) }),
    faults: scenario.faults.map(faultDocument),
    ...(scenario.run.until_ms === Infinity ? {} : { run: { until: formatDuration(scenario.run.until_ms) } }),
    expectations: scenario.expectations.map(expectationDocument),
  };
}

/** Numbers and booleans stay YAML scalars; durations and sizes become Flink's text. */
function optionValue(key: string, value: number | string | boolean): number | string | boolean {
  const text = flinkOptionText(key, value);
  return text === String(value) ? value : text;
}

/**
 * Sizes in Flink's memory syntax (`1 tb`, `200 mb`); bandwidths in MB/s as the fields say, left
 * out when unlimited (the default: a file cannot write infinity, and leaving it out means it).
 */
export function scaleDocument(scale: ScaleSpec): Document {
  const bandwidth = (key: string, mbPerS: number) => (Number.isFinite(mbPerS) ? { [key]: mbPerS } : {});
  return {
    state_size: formatMemorySize(scale.state_size_bytes),
    state_growth_per_s: formatMemorySize(scale.state_growth_bytes_per_s),
    state_churn_per_s: formatMemorySize(scale.state_churn_bytes_per_s),
    compaction_per_s: formatMemorySize(scale.compaction_bytes_per_s),
    ...bandwidth('host_bandwidth_mb_per_s', scale.host_bandwidth_mb_per_s),
    ...bandwidth('remote_store_bandwidth_mb_per_s', scale.remote_store_bandwidth_mb_per_s),
  };
}

function vertexDocument(vertex: VertexSpec): Document {
  return { id: vertex.id, name: vertex.name, type: vertex.operator.type, parallelism: vertex.parallelism, record_cost_us: vertex.record_cost_us, ...operatorFields(vertex.operator) };
}

/** In the file an operator's fields sit beside the vertex's own. */
function operatorFields(operator: OperatorSpec): Document {
  switch (operator.type) {
    case 'source':
      return { source: { ...operator.source } };
    case 'map':
      return { fn: operator.fn };
    case 'filter':
      return { filter: { ...operator.filter } };
    case 'keyed-aggregate':
      return { aggregate: operator.aggregate };
    case 'window':
      return { size: formatDuration(operator.size_ms), aggregate: operator.aggregate };
    case 'window-join':
      return { size: formatDuration(operator.size_ms) };
    case 'sink':
      return { sink: operator.sink };
  }
}

function faultDocument(fault: FaultSpec): Document {
  const { at_ms, ...rest } = fault;
  return { at: formatDuration(at_ms), ...rest };
}

/** Durations in Flink's syntax where the reader takes one (catch-up time, a duration statistic's bounds). */
function expectationDocument(expectation: ExpectationSpec): Document {
  if (expectation.type === 'catch-up-time') return withDurations(expectation, ['min', 'max']);
  if (expectation.type === 'statistic' && !['concurrent-checkpoints', 'persisted-data', 'checkpointed-size', 'checkpointed-fraction'].includes(expectation.statistic)) {
    return withDurations(expectation, ['min', 'max']);
  }
  return { ...expectation };
}

function withDurations<T extends object>(spec: T, keys: ReadonlyArray<keyof T>): Document {
  const document: Document = { ...(spec as Record<string, unknown>) };
  for (const key of keys) if (typeof spec[key] === 'number') document[key as string] = formatDuration(spec[key]);
  return document;
}
