/**
 * Turns untrusted input (a parsed JSON or YAML document) into a `Scenario`, filling defaults, or
 * reports every problem it finds with the path of the field as the user wrote it. It fails closed:
 * any error means no scenario, so nothing runs on invalid input. It never throws.
 *
 * The file uses the names of scenario-types.ts with two differences: durations are written in
 * Flink syntax without the `_ms` suffix (`at: 5 s`, `size: 10 s`, `run: { until: 60 s }`), and a
 * vertex's operator fields sit beside its own (`{ id: count, type: keyed-aggregate, aggregate: count }`).
 */

import { DURATION_ALLOWED, formatDuration } from '../config/duration.ts';
import type { FlinkConfig } from '../config/flink-config.ts';
import { describeValue } from '../config/value-description.ts';
import { checkSlots, readCluster } from './cluster-reader.ts';
import { readCosts } from './costs-reader.ts';
import { readEdges } from './edge-reader.ts';
import { readExpectations } from './expectation-reader.ts';
import { readFaults } from './fault-reader.ts';
import { Issues, ObjectReader } from './field-reader.ts';
import { documentShapeError } from './document-shape.ts';
import { checkJobGraph } from './job-graph-rules.ts';
import { readConfigSection } from './scenario-config.ts';
import { DEFAULT_DESCRIPTION, DEFAULT_SEED, MAX_SEED, RUN_UNTIL_JOB_FINISHES } from './scenario-defaults.ts';
import { scenarioError, type ScenarioError } from './scenario-error.ts';
import type { EngineMessage } from '../messages/message-codes.ts';
import type { FaultSpec, JobSpec, Scenario } from './scenario-types.ts';
import { JOB_FIELDS, RUN_FIELDS, SCENARIO_FIELDS } from './scenario-vocabulary.ts';
import { readVertices, type VertexEntry } from './vertex-reader.ts';
import { checkJobSize, checkSourceRecords, workloadLimits } from './workload-limits.ts';
import { readRuntime, readScale } from './scale-reader.ts';
import { type LocalizedTextRead, readLocalizedText, scenarioTranslations } from './localized-text.ts';
import { message } from '../messages/engine-message.ts';

// Error formatting comes with the validator (the text reader with scenario-validator.ts).
export { formatScenarioErrors, type ScenarioError } from './scenario-error.ts';

export type ScenarioValidation =
  /** `notes` in English; `noteMessages` the same notes as messages, for other languages */
  | { ok: true; scenario: Scenario; notes: string[]; noteMessages: EngineMessage[] }
  | { ok: false; errors: ScenarioError[] };

export const SCENARIO_VERSION = 1;

export function validateScenario(input: unknown): ScenarioValidation {
  const shape = documentShapeError(input);
  if (shape) return { ok: false, errors: [shape] };
  const issues = new Issues();
  const root = ObjectReader.of(issues, '', input, 'a scenario');
  if (!root) return { ok: false, errors: issues.errors };
  const scenario = readScenario(issues, root);
  if (issues.errors.length > 0) return { ok: false, errors: issues.errors };
  if (!scenario) return { ok: false, errors: [scenarioError('', message('scenario.unreadable'))] };
  return { ok: true, scenario, notes: issues.notes, noteMessages: issues.noteMessages };
}

function readScenario(issues: Issues, root: ObjectReader): Scenario | undefined {
  root.rejectUnknown(SCENARIO_FIELDS);
  root.string('$schema');
  const version = readVersion(root);
  const name = readLocalizedText(root, 'name', { required: true, blankAllowed: false });
  const description = readLocalizedText(root, 'description', { required: false, blankAllowed: true, default: DEFAULT_DESCRIPTION });
  const seed = root.integer('seed', { min: 0, max: MAX_SEED, default: DEFAULT_SEED });
  const runtime = readRuntime(root);
  const scale = readScale(issues, root, runtime);
  const limits = workloadLimits(runtime);
  const { config, flink } = readConfigSection(issues, root.raw('config'));
  const job = readJob(issues, root, flink, name?.text);
  const cluster = readCluster(issues, root.object('cluster', 'a cluster description'), config, flink, limits);
  const parallelisms = (job?.vertices ?? []).flatMap((v) => (v.parallelism === undefined ? [] : [v.parallelism]));
  if (cluster) checkSlots(issues, cluster, parallelisms);
  const costs = readCosts(root.object('costs', 'a map of costs'));
  const vertices = job?.vertices ?? [];
  const faults = readFaults({ issues, vertices, cluster }, root.list('faults', 'faults') ?? []);
  const until = readRunUntil(issues, root, vertices);
  if (job?.spec) checkJobSize(issues, job.spec, limits);
  if (job?.spec && until !== undefined && limits.recordsBounded) checkSourceRecords(issues, job.spec, until);
  const expectations = readExpectations({ issues, vertices, cluster }, root.list('expectations', 'expectations') ?? []);
  if (faults && until !== undefined) noteFaultsAfterRun(issues, faults, until);
  const parts = [version, name, description, seed, runtime, job?.spec, cluster, costs, faults, until, expectations];
  if (parts.some((p) => p === undefined) || (runtime === 'scale' && scale === undefined)) return undefined;
  return {
    version: SCENARIO_VERSION,
    // Only a file that names its runtime carries one: a records scenario reads as it always did.
    ...(root.has('runtime') ? { runtime: runtime! } : {}),
    ...(scale ? { scale } : {}),
    name: name!.text,
    description: description!.text,
    ...translationsOf(name!, description!),
    seed: seed!,
    job: job!.spec!,
    config,
    cluster: cluster!,
    costs: costs!,
    faults: faults!,
    run: { until_ms: until! },
    expectations: expectations!,
  };
}

/** Only a file that gives a translation carries `translations`: a one-language scenario reads as it always did. */
function translationsOf(name: LocalizedTextRead, description: LocalizedTextRead): Pick<Scenario, 'translations'> {
  const translations = scenarioTranslations(name, description);
  return Object.keys(translations).length === 0 ? {} : { translations };
}

function readVersion(root: ObjectReader): 1 | undefined {
  if (!root.has('version')) {
    root.issues.error('version', message('field.missing'), { allowed: message('names', { names: [String(SCENARIO_VERSION)] }) });
    return undefined;
  }
  if (root.raw('version') === SCENARIO_VERSION) return SCENARIO_VERSION;
  const given = root.raw('version');
  root.issues.error('version', message('scenario.unsupported-version', { version: typeof given === 'number' ? String(given) : describeValue(given) }), {
    allowed: message('names', { names: [String(SCENARIO_VERSION)] }),
  });
  return undefined;
}

interface JobRead {
  spec: JobSpec | undefined;
  vertices: VertexEntry[];
}

function readJob(issues: Issues, root: ObjectReader, flink: FlinkConfig, scenarioName: string | undefined): JobRead | undefined {
  const job = root.object('job', 'a job (its vertices and edges)', { required: true });
  if (!job) return undefined;
  job.rejectUnknown(JOB_FIELDS);
  const name = job.string('name', { default: scenarioName });
  const vertexItems = job.list('vertices', 'vertices', { required: true, nonEmpty: true });
  const edgeItems = job.list('edges', 'edges');
  const vertices = readVertices(issues, vertexItems ?? [], flink);
  const edges = readEdges(issues, edgeItems ?? [], vertices);
  if (vertexItems && edgeItems) checkJobGraph(issues, 'job', vertices, edges);
  const specs = vertices.map((v) => v.spec);
  const edgeSpecs = edges.map((e) => e.spec);
  const complete = name !== undefined && specs.every((s) => s) && edgeSpecs.every((e) => e);
  const spec = complete ? { name, vertices: specs.map((s) => s!), edges: edgeSpecs.map((e) => e!) } : undefined;
  return { spec, vertices };
}

/**
 * `run.until` may be left out only when every source is bounded (has a `count`); the run then
 * lasts until the job finishes (`RUN_UNTIL_JOB_FINISHES`).
 */
function readRunUntil(issues: Issues, root: ObjectReader, vertices: VertexEntry[]): number | undefined {
  const run = root.object('run', 'a run description (until)');
  run?.rejectUnknown(RUN_FIELDS);
  if (run?.has('until')) return run.duration('until', { required: true, min: 0, above: true });
  if (!run && root.has('run')) return undefined; // not a map: reported already
  const sources = vertices.filter((v) => v.type === 'source');
  if (sources.some((v) => v.spec === undefined)) return undefined; // already reported
  const unbounded = sources.filter((v) => v.spec?.operator.type === 'source' && v.spec.operator.source.count === undefined);
  if (unbounded.length === 0) return RUN_UNTIL_JOB_FINISHES;
  const ids = unbounded.map((v) => String(v.id));
  issues.error('run.until', message('run.until-required', { ids }), {
    allowed: DURATION_ALLOWED,
  });
  return undefined;
}

function noteFaultsAfterRun(issues: Issues, faults: FaultSpec[], untilMs: number): void {
  faults.forEach((fault, i) => {
    if (fault.at_ms <= untilMs) return;
    issues.note(message('run.fault-after-end', { index: i, type: fault.type, at: formatDuration(fault.at_ms), end: formatDuration(untilMs) }));
  });
}
