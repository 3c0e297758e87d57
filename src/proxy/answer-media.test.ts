import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listenOnLoopback } from '../fixtures/target-fixture.js';
import { createProxyServer, type ProxyServer } from './index.js';

/**
 * GET /plants/{id} as Spring Boot documents it by hand: its refusals under `4XX`, in JSON (the Error)
 * or as RFC 9457 problem details, each media type with its own schema.
 */
const DOCUMENT = `openapi: 3.0.3
info: { title: Plant Store, version: 1.0.0 }
paths:
  /plants:
    post:
      requestBody:
        required: true
        content: { application/json: { schema: { $ref: '#/components/schemas/Plant' } } }
      responses:
        '200': { description: the plant, content: { application/json: { schema: { $ref: '#/components/schemas/Plant' } } } }
        '400': { description: an error, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
  /plants/{id}:
    get:
      parameters:
        - { name: id, in: path, required: true, schema: { type: integer, format: int64 } }
      responses:
        '200': { description: the plant, content: { Application/JSON; charset=utf-8: { schema: { $ref: '#/components/schemas/Plant' } } } }
        '4XX':
          description: a refusal
          content:
            application/json: { schema: { $ref: '#/components/schemas/Error' } }
            application/problem+json: { schema: { $ref: '#/components/schemas/Problem' } }
components:
  schemas:
    Plant:
      type: object
      required: [id, name]
      properties: { id: { type: integer, format: int64 }, name: { type: string } }
    Error:
      type: object
      required: [error, message]
      properties: { error: { type: integer, format: int32 }, message: { type: string } }
    Problem:
      type: object
      required: [title, status]
      properties: { type: { type: string }, title: { type: string }, status: { type: integer }, detail: { type: string } }
`;

let folder: string;
let spec: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'plantstore-answer-media-'));
  spec = join(folder, 'openapi.yaml');
  writeFileSync(spec, DOCUMENT);
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** How the upstream answers an unknown plant: Spring's ProblemDetail, or the Error, or a problem missing its title. */
type Refusal = 'problem' | 'error' | 'untitled-problem';

/** A plant store on node:http knowing plant 1, refusing others with a 404 written as `refusal` says. */
async function plantStore(refusal: Refusal): Promise<{ url: string }> {
  const send = (res: ServerResponse, status: number, type: string, body: unknown): void =>
    void res.writeHead(status, { 'Content-Type': type }).end(JSON.stringify(body));
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = /^\/plants\/(\d+)$/.exec(req.url ?? '')?.[1];
      if (id === '1') return send(res, 200, 'application/json;charset=UTF-8', { id: 1, name: 'Fern' });
      if (refusal === 'error') return send(res, 404, 'application/json', { error: 404, message: 'no such plant' });
      const problem = { type: 'about:blank', title: 'Not Found', status: 404, detail: `no plant ${id ?? ''}` };
      const untitled = { ...problem, title: undefined };
      send(res, 404, 'application/problem+json', refusal === 'problem' ? problem : untitled);
    });
  });
  const started = await listenOnLoopback(server, 'unused');
  cleanups.push(() => started.close());
  return started;
}

async function proxyInFrontOf(upstream: { url: string }): Promise<ProxyServer> {
  const proxy = await createProxyServer({ upstream: upstream.url, spec, onLog: () => undefined });
  cleanups.push(() => proxy.close());
  return proxy;
}

async function get(proxy: ProxyServer, path: string): Promise<number> {
  const response = await fetch(`${proxy.url}${path}`, { signal: AbortSignal.timeout(10_000) });
  await response.arrayBuffer();
  return response.status;
}

const failures = (proxy: ProxyServer) =>
  proxy
    .report()
    .checks.filter((check) => check.status === 'fail')
    .flatMap((check) => check.failures.map((failure) => ({ check: check.id, reason: failure.reason })));

describe('the proxy judges an answer by the media type it is labelled with', () => {
  it('judges a problem+json refusal by the problem schema, and a JSON one by the Error, under 4XX', async () => {
    for (const refusal of ['problem', 'error'] as const) {
      const proxy = await proxyInFrontOf(await plantStore(refusal));
      expect(await get(proxy, '/plants/1')).toBe(200);
      expect(await get(proxy, '/plants/2')).toBe(404);
      expect(failures(proxy)).toEqual([]);
    }
  });

  it('fails a problem+json refusal that breaks the problem schema, naming the 4xx response', async () => {
    const proxy = await proxyInFrontOf(await plantStore('untitled-problem'));
    expect(await get(proxy, '/plants/2')).toBe(404);
    expect(failures(proxy)).toEqual([
      {
        check: 'response-schema',
        reason: expect.stringMatching(/4XX response of GET \/plants\/\{id\}'s schema.*title/) as string,
      },
    ]);
  });

  it('refuses at start a document writing a range in lower case, as the schema of OpenAPI does', async () => {
    const lower = join(folder, 'lower.yaml');
    writeFileSync(lower, DOCUMENT.replace("'4XX':", "'4xx':"));
    const started = createProxyServer({ upstream: 'http://127.0.0.1:9', spec: lower, onLog: () => undefined });
    await expect(started).rejects.toThrow(/get\/responses: must NOT have additional properties/);
  });
});
