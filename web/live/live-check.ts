/**
 * The page `ckpt-lab check --live` drives in headless Chromium (node/live-check.ts): it runs one
 * scenario on the live runtime (a Web Worker per TaskManager, checkpoints in real IndexedDB,
 * rocksdb in OPFS) to its run length or until the job ends, and checks the scenario's
 * expectations with the same engine code as the sim check (engine/run/expectations.ts over
 * expectationInputs), so the report reads the same whichever runtime ran.
 *
 * Duplicates and missing records are counted as the playground's live driver counts them: against
 * a failure-free sim run matched to the live sources' offsets (live-output-reference.ts); once
 * the live job FINISHED, complete outputs against complete outputs, as the sim check does.
 */
import { checkExpectations, type ExpectationResult } from '../../engine/run/expectations.ts';
import { expectationInputs } from '../../engine/run/run-report.ts';
import { formatScenarioErrors, parseScenarioText, validateScenario } from '../../engine/scenario/scenario-validator.ts';
import type { Scenario } from '../../engine/scenario/scenario-types.ts';
import { LiveDriver } from '../../workers/live/live-driver.ts';
import { deleteCheckpointDatabase } from '../../workers/storage/indexeddb-checkpoint-storage.ts';
import { LiveOutputReference, sourceOffsetsOf, tapSinkWrites } from '../playground/oracle/live-output-reference.ts';

/** How the live run goes; the defaults are the playground's. */
export interface LiveCheckOptions {
  /** job ms per wall ms; default 1 */
  speed?: number;
  /** wall ms of heartbeat per configured ms; default the live runtime's (1/20) */
  heartbeatScale?: number;
}

/** One scenario's live run, as plain data for page.evaluate. */
export interface LiveCheckRun {
  scenario: string;
  jobStatus: string;
  /** the job time the run was checked at, ms */
  jobTimeMs: number;
  expectations: ExpectationResult[];
}

declare global {
  interface Window {
    liveCheck?: { run(scenarioText: string, options?: LiveCheckOptions): Promise<LiveCheckRun> };
  }
}

/** Wall ms between looks at the run: how late after its run length a run is checked, at most. */
const POLL_MS = 50;
/** Wall ms the failure-free reference may take per look, so the page keeps serving the workers' messages. */
const REFERENCE_SLICE_MS = 10;

function readScenario(text: string): Scenario {
  const parsed = parseScenarioText(text);
  if (!parsed.ok) throw new Error(`The scenario does not parse: ${formatScenarioErrors(parsed.errors)}`);
  const validated = validateScenario(parsed.value);
  if (!validated.ok) throw new Error(`The scenario is not valid:\n${formatScenarioErrors(validated.errors)}`);
  return validated.scenario;
}

async function run(scenarioText: string, options: LiveCheckOptions = {}): Promise<LiveCheckRun> {
  const scenario = readScenario(scenarioText);
  const driver = await LiveDriver.start(scenario, { scenarioText, ...options });
  const reference = new LiveOutputReference(scenario, driver.seed);
  tapSinkWrites(driver.sinkOutput, (records) => reference.oracle.mine(records));
  const follow = (deadline: number) => reference.follow(sourceOffsetsOf(driver.metrics().subtasks), driver.jobStatus === 'FINISHED', deadline);
  try {
    await new Promise<void>((resolve) => {
      const look = () => {
        if (driver.job.isTerminal || driver.now >= scenario.run.until_ms) return resolve();
        follow(performance.now() + REFERENCE_SLICE_MS);
        setTimeout(look, POLL_MS);
      };
      look();
    });
    // Taken at the run length, before the clean-up's requests: what the sim check sees at its end.
    const jobTimeMs = Math.min(driver.now, scenario.run.until_ms);
    // A job that ended discards or keeps its checkpoints (retention) through storage requests.
    if (driver.job.isTerminal) await driver.storageIdle();
    follow(Infinity);
    const expectations = checkExpectations(scenario.expectations, expectationInputs(driver, reference.oracle));
    return { scenario: scenario.name, jobStatus: driver.jobStatus, jobTimeMs, expectations };
  } finally {
    const database = driver.checkpointStorageSpec.databaseName;
    // Each run has its own database: drop it once the driver let go of its storage.
    await driver.dispose();
    await deleteCheckpointDatabase(database).catch(() => {});
  }
}

window.liveCheck = { run };
