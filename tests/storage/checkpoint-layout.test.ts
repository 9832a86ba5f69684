import { describe, expect, it } from 'vitest';
import {
  checkpointDirectory,
  exclusiveStatePath,
  jobDirectory,
  metadataPath,
  normalizeDirectory,
  parseJobPath,
  randomHex,
  savepointDirectory,
  sharedFilePath,
  taskOwnedFilePath,
} from '../../engine/storage/checkpoint-layout.ts';

const LOCATION = { checkpointDir: 's3://bucket/flink/checkpoints/', jobId: '1a3bc71ac57f33961637adf340e9c28f' };

describe('the checkpoint directory layout (FsCheckpointStorageAccess)', () => {
  it('lays out a job directory as Flink does', () => {
    const job = 's3://bucket/flink/checkpoints/1a3bc71ac57f33961637adf340e9c28f';
    expect(jobDirectory(LOCATION)).toBe(job);
    expect(checkpointDirectory(LOCATION, 60)).toBe(`${job}/chk-60`);
    expect(metadataPath(checkpointDirectory(LOCATION, 60))).toBe(`${job}/chk-60/_metadata`);
    expect(sharedFilePath(LOCATION, 'count_0_a1-000042-abcd.sst')).toBe(`${job}/shared/count_0_a1-000042-abcd.sst`);
    expect(taskOwnedFilePath(LOCATION, 'changelog-1')).toBe(`${job}/taskowned/changelog-1`);
    expect(exclusiveStatePath(checkpointDirectory(LOCATION, 60), { vertexId: 'window join', subtaskIndex: 3 })).toBe(`${job}/chk-60/op-window%20join-3`);
  });

  it('normalizes trailing slashes but keeps a bare scheme', () => {
    expect(normalizeDirectory('file:///tmp/ckpt///')).toBe('file:///tmp/ckpt');
    expect(normalizeDirectory('file:///')).toBe('file:///');
    expect(jobDirectory({ checkpointDir: 'file:///', jobId: 'j' })).toBe('file:///j');
    expect(normalizeDirectory('/')).toBe('/');
    expect(() => normalizeDirectory('')).toThrow(RangeError);
    expect(() => checkpointDirectory(LOCATION, -1)).toThrow(RangeError);
    expect(() => sharedFilePath(LOCATION, 'a/b')).toThrow(RangeError);
  });

  it('names savepoint directories savepoint-<6 chars of the job id>-<12 hex>, deterministically from a seed', () => {
    const dir = savepointDirectory('hdfs:///savepoints/', LOCATION.jobId, 7);
    expect(dir).toMatch(/^hdfs:\/\/\/savepoints\/savepoint-1a3bc7-[0-9a-f]{12}$/);
    expect(savepointDirectory('hdfs:///savepoints', LOCATION.jobId, 7)).toBe(dir);
    expect(savepointDirectory('hdfs:///savepoints', LOCATION.jobId, 8)).not.toBe(dir);
    expect(new Set(Array.from({ length: 200 }, (_, i) => randomHex(i))).size).toBe(200);
  });

  it('classifies paths under the job directory', () => {
    const job = jobDirectory(LOCATION);
    expect(parseJobPath(LOCATION, `${job}/chk-12/_metadata`)).toEqual({ kind: 'checkpoint', checkpointId: 12, name: '_metadata' });
    expect(parseJobPath(LOCATION, `${job}/shared/x.sst`)).toEqual({ kind: 'shared', name: 'x.sst' });
    expect(parseJobPath(LOCATION, `${job}/taskowned/y`)).toEqual({ kind: 'taskowned', name: 'y' });
    expect(parseJobPath(LOCATION, `${job}/chk-012/_metadata`)).toEqual({ kind: 'other', name: 'chk-012/_metadata' });
    expect(parseJobPath(LOCATION, `${job}/stray`)).toEqual({ kind: 'other', name: 'stray' });
    expect(parseJobPath(LOCATION, `${job}-other/chk-1/_metadata`)).toBeUndefined();
  });
});
