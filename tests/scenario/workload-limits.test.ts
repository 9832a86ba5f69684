/**
 * A valid scenario that asks for absurd work is refused up front, naming the field and the limit:
 * the inputs that hung the CLI, ran it out of memory or crashed it with "Invalid array length"
 * (issue 16's list), each as a row. Validation alone, so each row takes milliseconds.
 */
import { describe, expect, it } from 'vitest';
import { formatScenarioErrors, validateScenario } from '../../engine/scenario/scenario-validator.ts';
import { edgeChannels, MAX_CHANNELS } from '../../engine/scenario/workload-limits.ts';
import { minimalFile, type ScenarioFile } from './scenario-samples.ts';

type Edit = (file: ScenarioFile & { job: any; cluster?: any; run?: any; faults?: any; config?: any }) => void;

const source = (f: any) => f.job.vertices[0];

const ABSURD: Array<{ what: string; edit: Edit; path: string; allowed: RegExp }> = [
  { what: '10,000,000 hosts', edit: (f) => (f.cluster = { hosts: 10_000_000 }), path: 'cluster.hosts', allowed: /at most 64/ },
  { what: '1e308 hosts', edit: (f) => (f.cluster = { hosts: 1e308 }), path: 'cluster.hosts', allowed: /at most 64/ },
  { what: '1e308 TaskManagers per host', edit: (f) => (f.cluster = { task_managers_per_host: 1e308 }), path: 'cluster.task_managers_per_host', allowed: /at most 32/ },
  { what: '1e308 slots per TaskManager', edit: (f) => (f.cluster = { slots_per_task_manager: 1e308 }), path: 'cluster.slots_per_task_manager', allowed: /at most 128/ },
  { what: '64 hosts × 32 TaskManagers', edit: (f) => (f.cluster = { hosts: 64, task_managers_per_host: 32 }), path: 'cluster', allowed: /at most 256 TaskManagers/ },
  { what: 'a source of 1e308 keys', edit: (f) => (source(f).source.keys = 1e308), path: 'job.vertices[0].source.keys', allowed: /at most 10000000/ },
  { what: 'a count of 1e308 records', edit: (f) => (source(f).source.count = 1e308), path: 'job.vertices[0].source.count', allowed: /an integer/ },
  { what: 'a rate of 1e308 records/s', edit: (f) => (source(f).source.rate_per_s = 1e308), path: 'job.vertices[0].source.rate_per_s', allowed: /at most 1000000000/ },
  { what: 'a record cost of 1e308 µs', edit: (f) => (f.job.vertices[1].record_cost_us = 1e308), path: 'job.vertices[1].record_cost_us', allowed: /at most 1000000000/ },
  {
    what: 'a slow-operator factor of 1e308',
    edit: (f) => (f.faults = [{ at: '1 s', type: 'slow-operator', vertex: 'out', factor: 1e308 }]),
    path: 'faults[0].factor',
    allowed: /at most 1000000/,
  },
  {
    what: 'parallelism 10,000 on an unbounded source for a day',
    edit: (f) => {
      delete source(f).source.count;
      f.config = { 'parallelism.default': 10_000 };
      f.job.edges[0].partitioning = 'hash';
      f.cluster = { hosts: 64, task_managers_per_host: 4, slots_per_task_manager: 128 };
      f.run = { until: '1 d' };
    },
    path: 'job.edges',
    allowed: /at most 65,536 channels/,
  },
  {
    what: 'a million records a second for a day',
    edit: (f) => {
      delete source(f).source.count;
      source(f).source.rate_per_s = 1_000_000;
      f.run = { until: '1 d' };
    },
    path: 'run.until',
    allowed: /at most 1,000,000,000 records/,
  },
  { what: 'a bounded source of 2^52 records', edit: (f) => (source(f).source.count = 2 ** 52), path: 'run.until', allowed: /lower count or rate_per_s/ },
];

describe('absurd work', () => {
  it.each(ABSURD)('is refused up front: $what', ({ edit, path, allowed }) => {
    const file = minimalFile() as any;
    edit(file);
    const result = validateScenario(file);
    expect(result.ok, 'validated').toBe(false);
    if (result.ok) return;
    const error = result.errors.find((e) => e.path === path);
    expect(error, formatScenarioErrors(result.errors)).toBeDefined();
    expect(error!.allowed).toMatch(allowed);
  });

  it('still allows the largest work within every limit', () => {
    const file = minimalFile() as any;
    file.config = { 'parallelism.default': 128 };
    file.cluster = { hosts: 4, task_managers_per_host: 4, slots_per_task_manager: 8 };
    source(file).source.keys = 10_000_000;
    const result = validateScenario(file);
    expect(result.ok, result.ok ? '' : formatScenarioErrors(result.errors)).toBe(true);
  });

  it.each([
    { partitioning: 'forward', upstream: 8, downstream: 8, channels: 8 },
    { partitioning: 'hash', upstream: 8, downstream: 4, channels: 32 },
    { partitioning: 'rebalance', upstream: 256, downstream: 256, channels: MAX_CHANNELS },
  ] as const)('counts $channels channels on a $partitioning edge of $upstream → $downstream', ({ partitioning, upstream, downstream, channels }) => {
    expect(edgeChannels({ partitioning }, upstream, downstream)).toBe(channels);
  });
});
