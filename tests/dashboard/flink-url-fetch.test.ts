/**
 * The URL import's pure parts (web/dashboard/flink-url-fetch.ts): which URLs the page fetches, the
 * REST path behind a proxy's prefix, and the curl line quoted so a shell runs it as written. The
 * fetch itself (CORS refused, allowed, HTTP errors) is tested in Chromium: flink-url-import.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { CheckpointSubtaskDetails, ImportedFlinkStatistics } from '../../engine/interop/flink-statistics-import.ts';
import { curlLine, httpUrl, restPathOf, withVertexOfPath } from '../../web/dashboard/flink-url-fetch.ts';
import { endpointOfPath } from '../../engine/interop/flink-endpoint.ts';

describe('httpUrl', () => {
  it.each(['http://localhost:8081/jobs/abc/checkpoints', ' https://flink.example.com/jobs/abc/checkpoints/config '])('fetches %s', (input) => {
    expect(httpUrl(input)?.protocol).toMatch(/^https?:$/);
  });

  it.each(['file:///etc/passwd', 'javascript:alert(1)', 'localhost:8081/jobs', '/jobs/abc/checkpoints', ''])('refuses %j', (input) => {
    expect(httpUrl(input)).toBeUndefined();
  });
});

describe('restPathOf', () => {
  it('keeps the path from /jobs/ on, behind a YARN proxy prefix too', () => {
    const path = restPathOf('/proxy/application_1700000000000_0001/jobs/a1b2/checkpoints/details/7/subtasks/cbc357ccb763df2852fee8c4fc7d55f2');
    expect(path).toBe('/jobs/a1b2/checkpoints/details/7/subtasks/cbc357ccb763df2852fee8c4fc7d55f2');
    expect(endpointOfPath(path!)).toEqual({
      endpoint: '/jobs/:jobid/checkpoints/details/:checkpointid/subtasks/:vertexid',
      checkpointId: 7,
      vertexId: 'cbc357ccb763df2852fee8c4fc7d55f2',
    });
  });

  it('is undefined for a path that names no job', () => {
    expect(restPathOf('/overview')).toBeUndefined();
  });
});

describe('curlLine', () => {
  it('writes the response to a file the importer opens', () => {
    expect(curlLine('http://localhost:8081/jobs/abc/checkpoints')).toBe("curl -sS -o flink-response.json 'http://localhost:8081/jobs/abc/checkpoints'");
  });

  it("quotes a ' in the URL so the shell passes it through unchanged", () => {
    expect(curlLine("http://h/jobs/a'b")).toBe("curl -sS -o flink-response.json 'http://h/jobs/a'\\''b'");
  });
});

describe('withVertexOfPath', () => {
  const subtasksResponse = (vertexId: string | null): ImportedFlinkStatistics => ({
    endpoint: '/jobs/:jobid/checkpoints/details/:checkpointid/subtasks/:vertexid',
    flinkVersions: [],
    checkpointSubtaskDetails: [{ checkpointId: 7, vertexId, statistics: {} as CheckpointSubtaskDetails['statistics'] }],
  });

  it('names the operator of a subtasks response fetched by URL', () => {
    const named = withVertexOfPath(subtasksResponse(null), '/jobs/a1b2/checkpoints/details/7/subtasks/cbc357cc');
    expect(named.checkpointSubtaskDetails![0]!.vertexId).toBe('cbc357cc');
  });

  it('leaves a response alone when the URL names no operator or the response already does', () => {
    expect(withVertexOfPath(subtasksResponse(null), '/jobs/a1b2/checkpoints').checkpointSubtaskDetails![0]!.vertexId).toBeNull();
    expect(withVertexOfPath(subtasksResponse('map'), '/jobs/a1b2/checkpoints/details/7/subtasks/other').checkpointSubtaskDetails![0]!.vertexId).toBe('map');
  });
});
