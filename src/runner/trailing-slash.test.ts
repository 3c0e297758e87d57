import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_SUITES } from '../../suites/index.js';
import { runConformance } from '../index.js';

/*
 * Django REST framework and FastAPI routers document the operation as `/plants/`, and their servers
 * answer `/plants` with a redirect: plantstore calls the URL the document writes.
 */
describe('a document that writes POST /plants/ with its trailing slash', () => {
  const directory = mkdtempSync(join(tmpdir(), 'plantstore-slash-'));
  const spec = join(directory, 'openapi.json');
  const paths: string[] = [];
  let server: Server;
  beforeAll(async () => {
    const json = (schema: object) => ({ description: 'a body', content: { 'application/json': { schema } } });
    const plant = {
      type: 'object',
      required: ['id', 'name'],
      properties: { id: { type: 'integer' }, name: { type: 'string' } },
    };
    const error = {
      type: 'object',
      required: ['error', 'message'],
      properties: { error: { type: 'integer' }, message: { type: 'string' } },
    };
    const operation = { requestBody: json(plant), responses: { '200': json(plant), '400': json(error) } };
    writeFileSync(
      spec,
      JSON.stringify({
        openapi: '3.1.0',
        info: { title: 'Plant Store', version: '1' },
        paths: { '/plants/': { post: operation } },
      }),
    );
    server = createServer((req, res) => {
      paths.push(`${req.method ?? '?'} ${req.url ?? ''}`);
      req.resume();
      req.on('end', () => {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end('{"error":1,"message":"refused"}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(directory, { recursive: true, force: true });
  });

  it('sends every request of the run to /plants/, which its reproductions name', async () => {
    const { port } = server.address() as AddressInfo;
    const report = await runConformance({
      baseUrl: `http://127.0.0.1:${port}`,
      token: 'slash-token',
      spec,
      seed: 3,
      runs: 5,
      concurrency: 2,
      timeoutMs: 5_000,
      suites: BUILT_IN_SUITES,
    });
    const posts = paths.filter((line) => line.startsWith('POST '));
    expect(posts.length).toBeGreaterThan(10);
    expect(posts.filter((line) => !line.startsWith('POST /plants/'))).toEqual([]);
    const [finding] = report.findings ?? [];
    expect(finding?.counterexample.request.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/plants\//);
  }, 60_000);
});
