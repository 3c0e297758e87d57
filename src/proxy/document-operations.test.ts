import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { listenOnLoopback } from '../fixtures/target-fixture.js';
import { createProxyServer, type ProxyServer } from './index.js';

const TOKEN = 'proxy-operations-token-41f7';

/** A Plant Store's own document: POST /plants, GET /plants?limit, GET and DELETE /plants/{id}. */
const DOCUMENT = `openapi: 3.0.3
info: { title: Plant Store, version: 1.0.0 }
security: [{ bearerAuth: [] }]
paths:
  /plants:
    get:
      operationId: listPlants
      parameters:
        - { name: limit, in: query, required: false, schema: { type: integer, format: int32, minimum: 1, maximum: 100 } }
      responses:
        '200':
          description: the plants
          headers:
            X-Total-Count: { required: true, schema: { type: integer, minimum: 0 } }
          content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Plant' } } } }
        default: { description: an error, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
    post:
      operationId: addPlant
      requestBody:
        required: true
        content: { application/json: { schema: { $ref: '#/components/schemas/NewPlant' } } }
      responses:
        '200': { description: the plant, content: { application/json: { schema: { $ref: '#/components/schemas/Plant' } } } }
        '400': { description: an error, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
  /plants/{id}:
    parameters:
      - { name: id, in: path, required: true, schema: { type: integer, format: int64 } }
    get:
      operationId: getPlant
      responses:
        '200': { description: the plant, content: { application/json: { schema: { $ref: '#/components/schemas/Plant' } } } }
        '404': { description: no such plant, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
    patch:
      operationId: renamePlant
      requestBody:
        required: true
        content:
          application/json:
            schema: { type: object, additionalProperties: false, properties: { name: { type: string }, tag: { type: string } } }
      responses:
        '200': { description: the plant, content: { application/json: { schema: { $ref: '#/components/schemas/Plant' } } } }
        '400': { description: an error, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
        '404': { description: no such plant, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
    delete:
      operationId: deletePlant
      responses:
        '204': { description: deleted }
        '404': { description: no such plant, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
components:
  securitySchemes:
    bearerAuth: { type: http, scheme: bearer }
  schemas:
    NewPlant:
      type: object
      required: [id, name]
      properties: { id: { type: integer, format: int64 }, name: { type: string }, tag: { type: string } }
    Plant:
      type: object
      required: [id, name]
      properties: { id: { type: integer, format: int64 }, name: { type: string }, tag: { type: string } }
    Error:
      type: object
      required: [error, message]
      properties: { error: { type: integer, format: int32 }, message: { type: string } }
`;

/**
 * GET /plants/{id} as Spring Boot documents it by hand: its refusals under `4XX`, in JSON (the Error)
 * or as RFC 9457 problem details, each media type with its own schema.
 */
const REFUSALS_DOCUMENT = `openapi: 3.0.3
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
let refusalsSpec: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'plantstore-operations-'));
  spec = join(folder, 'openapi.yaml');
  writeFileSync(spec, DOCUMENT);
  refusalsSpec = join(folder, 'refusals.yaml');
  writeFileSync(refusalsSpec, REFUSALS_DOCUMENT);
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** How a broken upstream departs from the document; none: the correct one. */
interface Faults {
  readonly stringId?: boolean;
  readonly deleteAnswers200?: boolean;
  readonly teapot?: boolean;
  readonly noTotalCount?: boolean;
}

/**
 * A plant store as a Node developer writes one on node:http: a Map, a regex per route, `Number()` on the query, a
 * JSON error body for each refusal. `faults` breaks it the ways the tests name.
 */
async function plantStore(faults: Faults = {}): Promise<{ url: string }> {
  const plants = new Map<number, { id: number; name: string }>([[1, { id: 1, name: 'Fern' }]]);
  const send = (res: ServerResponse, status: number, body?: unknown): void => {
    if (body === undefined) return void res.writeHead(status).end();
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  };
  const rename = (res: ServerResponse, plant: { id: number; name: string }, text: string): void => {
    let changes: unknown;
    try {
      changes = JSON.parse(text);
    } catch {
      return error(res, 400, 'body is not JSON');
    }
    const { name } = changes as { name?: unknown };
    if (name !== undefined && typeof name !== 'string') return error(res, 400, 'name must be a string');
    if (typeof name === 'string') plant.name = name;
    send(res, 200, plant);
  };
  const error = (res: ServerResponse, status: number, message: string): void =>
    send(res, status, { error: status, message });
  const route = (req: IncomingMessage, res: ServerResponse, text: string): void => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return error(res, 401, 'unauthorized');
    if (url.pathname === '/plants' && req.method === 'GET') {
      const limit = url.searchParams.has('limit') ? Number(url.searchParams.get('limit')) : 20;
      if (!Number.isInteger(limit) || limit < 1 || limit > 100) return error(res, 400, 'limit must be 1 to 100');
      const page = [...plants.values()].slice(0, limit);
      if (!faults.noTotalCount) res.setHeader('X-Total-Count', String(plants.size));
      return send(res, 200, page);
    }
    const match = /^\/plants\/([^/]+)$/.exec(url.pathname);
    if (!match) return error(res, 404, 'not found');
    // As Express's `/plants/:id(\\d+)` route: another id matches no route, and the default handler's HTML 404 answers.
    if (!/^\d+$/.test(match[1] ?? ''))
      return void res
        .writeHead(404, { 'Content-Type': 'text/html' })
        .end(`<pre>Cannot ${req.method} ${url.pathname}</pre>`);
    const plant = plants.get(Number(match[1]));
    if (plant === undefined) return faults.teapot ? error(res, 418, "I'm a teapot") : error(res, 404, 'no such plant');
    if (req.method === 'GET') return send(res, 200, faults.stringId ? { ...plant, id: String(plant.id) } : plant);
    if (req.method === 'PATCH') return rename(res, plant, text);
    if (req.method === 'DELETE') return faults.deleteAnswers200 ? send(res, 200, { deleted: true }) : send(res, 204);
    return error(res, 405, 'method not allowed');
  };
  const server = createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => route(req, res, text));
  });
  const started = await listenOnLoopback(server, 'unused');
  cleanups.push(() => started.close());
  return started;
}

/** How the upstream answers an unknown plant: Spring's ProblemDetail, or the Error, or a problem missing its title. */
type Refusal = 'problem' | 'error' | 'untitled-problem';

/** A plant store on node:http knowing plant 1, refusing others with a 404 written as `refusal` says. */
async function refusingStore(refusal: Refusal): Promise<{ url: string }> {
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

async function proxyInFrontOf(
  upstream: { url: string },
  judgeBytes?: number,
  token: string | null = TOKEN,
  document = spec,
): Promise<{ proxy: ProxyServer; log: string[] }> {
  const log: string[] = [];
  const proxy = await createProxyServer({
    judgeBytes,
    upstream: upstream.url,
    spec: document,
    token: token ?? undefined,
    onLog: (line) => log.push(line),
  });
  cleanups.push(() => proxy.close());
  return { proxy, log };
}

/** A GET through the proxy without a credential: its status. */
async function getStatus(proxy: ProxyServer, path: string): Promise<number> {
  const response = await fetch(`${proxy.url}${path}`, { signal: AbortSignal.timeout(10_000) });
  await response.arrayBuffer();
  return response.status;
}

/** One request through the proxy with undici: its status and body as bytes. */
async function send(proxy: ProxyServer, method: string, path: string, token = TOKEN, body?: string) {
  const headers: Record<string, string> = token === '' ? {} : { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await request(`${proxy.url}${path}`, { method: method as 'GET', headers, body: body ?? null });
  return { status: response.statusCode, body: Buffer.from(await response.body.arrayBuffer()) };
}

/** The same with Debian's curl: the status it got. */
function curl(url: string, method: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const args = ['-sS', '--max-time', '10', '-o', '/dev/null', '-w', '%{http_code}', '-X', method, url];
    const child = spawn('curl', [...args, '-H', `Authorization: Bearer ${TOKEN}`]);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('latin1')));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Number(out)) : reject(new Error(`curl exited ${code}`))));
  });
}

const failures = (proxy: ProxyServer) =>
  proxy
    .report()
    .checks.filter((check) => check.status === 'fail')
    .flatMap((check) => check.failures.map((failure) => ({ check: check.id, reason: failure.reason })));

const clientWarnings = (proxy: ProxyServer): string[] =>
  proxy
    .report()
    .checks.filter((check) => check.id === 'client-requests')
    .flatMap((check) => check.failures.map((failure) => failure.reason));

describe('the proxy judges every operation the document defines', () => {
  it('in front of a correct plant store, valid traffic to each operation conforms and is judged', async () => {
    const { proxy, log } = await proxyInFrontOf(await plantStore());
    expect((await send(proxy, 'GET', '/plants?limit=10')).status).toBe(200);
    expect((await send(proxy, 'GET', '/plants/1')).status).toBe(200);
    expect((await send(proxy, 'GET', '/plants/2')).status).toBe(404);
    expect((await send(proxy, 'PATCH', '/plants/1', TOKEN, '{"name":"Moss"}')).status).toBe(200);
    expect(await curl(`${proxy.url}/plants/1`, 'DELETE')).toBe(204);
    expect(failures(proxy)).toEqual([]);
    expect(clientWarnings(proxy)).toEqual([]);
    expect(log.map((line) => line.replace(/ [\d.]+ms /, ' '))).toEqual([
      'GET /plants 200 conforms',
      'GET /plants/1 200 conforms',
      'GET /plants/2 404 conforms',
      'PATCH /plants/1 200 conforms',
      'DELETE /plants/1 204 conforms',
    ]);
    expect(proxy.report().findings).toEqual([]);
  });

  it('forwards the answer byte for byte while judging it', async () => {
    const { proxy } = await proxyInFrontOf(await plantStore());
    const { body } = await send(proxy, 'GET', '/plants/1');
    expect(body.toString('latin1')).toBe('{"id":1,"name":"Fern"}');
  });

  it('a client sending limit=0, a path id that is no integer or no credential is the client side; the refusal passes, an HTML 404 too', async () => {
    const { proxy, log } = await proxyInFrontOf(await plantStore());
    expect((await send(proxy, 'GET', '/plants?limit=0')).status).toBe(400);
    expect((await send(proxy, 'GET', '/plants/abc')).status).toBe(404);
    expect(await curl(`${proxy.url}/plants/1.5`, 'DELETE')).toBe(404);
    expect((await send(proxy, 'GET', '/plants/1', '')).status).toBe(401);
    expect((await send(proxy, 'PATCH', '/plants/1', TOKEN, '{"name":5}')).status).toBe(400);
    expect(failures(proxy)).toEqual([]);
    expect(log[0]).toMatch(
      /^GET \/plants 400 [\d.]+ms client broke the contract: sent a request with query "limit" holding "0": must be >= 1$/,
    );
    expect(log[1]).toMatch(/client broke the contract: sent a request with path "id" holding "abc"/);
    expect(log[2]).toMatch(/client broke the contract: sent a request with path "id" holding "1.5"/);
    expect(log[3]).toMatch(/client broke the contract: sent no Authorization header/);
    expect(log[4]).toMatch(
      /client broke the contract: sent a body that breaks its schema: field "name" must be a string/,
    );
    expect(clientWarnings(proxy)).toHaveLength(5);
  });

  it('in front of a broken plant store, each defect is reported once and blamed on the server', async () => {
    const { proxy, log } = await proxyInFrontOf(
      await plantStore({ stringId: true, deleteAnswers200: true, teapot: true }),
    );
    for (let i = 0; i < 2; i++) {
      expect((await send(proxy, 'GET', '/plants/1')).status).toBe(200);
      expect((await send(proxy, 'GET', '/plants/7')).status).toBe(418);
      expect(await curl(`${proxy.url}/plants/1`, 'DELETE')).toBe(200);
    }
    const found = failures(proxy).map(({ check, reason }) => `${check}: ${reason}`);
    expect(found).toHaveLength(3);
    expect(found[0]).toContain(
      `response-schema: The 200 answer's body breaks the document's 200 response of GET /plants/{id}'s schema: field "id" must be an integer`,
    );
    expect(found[1]).toContain(
      'documented-status: The target answered 418 to GET /plants/{id}, which the document does not document for it (it documents 200 and 404)',
    );
    expect(found[2]).toContain('documented-status: The target answered 200 to DELETE /plants/{id}');
    const findings = proxy.report().findings ?? [];
    expect(findings).toHaveLength(3);
    // The DELETE was accepted: its reproduction says a repeat may be answered otherwise (the plant is gone).
    expect(findings[2]?.counterexample.replay).toMatch(/accepted it \(200\), so what it changed may stay changed/);
    expect(findings[2]?.counterexample.curl).toMatch(
      /-X DELETE '.*\/plants\/1' -H "Authorization: Bearer \$PLANTSTORE_TOKEN"/,
    );
    expect(clientWarnings(proxy)).toEqual([]);
    expect(log.every((line) => line.includes('server broke the contract') && !line.includes('client'))).toBe(true);
  });

  it('a required response header left out is the server side', async () => {
    const { proxy, log } = await proxyInFrontOf(await plantStore({ noTotalCount: true }));
    expect((await send(proxy, 'GET', '/plants')).status).toBe(200);
    expect(failures(proxy)).toEqual([
      {
        check: 'response-schema',
        reason: "The 200 answer of GET /plants has no X-Total-Count header; the document's 200 response requires it.",
      },
    ]);
    expect(log).toHaveLength(1);
  });

  it('an answer over the judging cap is a long answer, not a flood: its body goes unjudged', async () => {
    const { proxy, log } = await proxyInFrontOf(await plantStore({ stringId: true }), 8);
    const { body } = await send(proxy, 'GET', '/plants/1');
    expect(body.toString('latin1')).toBe('{"id":"1","name":"Fern"}');
    expect(failures(proxy)).toEqual([]);
    expect(log[0]).toMatch(/^GET \/plants\/1 200 [\d.]+ms conforms$/);
  });

  it('a credential refused with a 401 the operation does not list is not blamed on the server', async () => {
    // Without PLANTSTORE_TOKEN the proxy cannot tell the token wrong: the server's refusal is HTTP's answer.
    const { proxy, log } = await proxyInFrontOf(await plantStore(), undefined, null);
    expect((await send(proxy, 'GET', '/plants/1', 'another-token')).status).toBe(401);
    expect(failures(proxy)).toEqual([]);
    expect(log[0]).toMatch(/^GET \/plants\/1 401 [\d.]+ms conforms$/);
  });

  it('with annotate, an answer of another operation carries its verdict', async () => {
    const upstream = await plantStore({ stringId: true });
    const proxy = await createProxyServer({ upstream: upstream.url, spec, token: TOKEN, annotate: true });
    cleanups.push(() => proxy.close());
    const read = async (path: string, token: string) => {
      const response = await request(`${proxy.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
      await response.body.dump();
      return response.headers['plantstore-violations'];
    };
    expect(await read('/plants/1', TOKEN)).toBe('server:response-schema');
    expect(await read('/plants/2', TOKEN)).toBe('none');
    expect(await read('/plants/abc', TOKEN)).toBe('client:invalid-parameter');
  });

  it('leaves paths and methods the document does not define outside the contract', async () => {
    const { proxy, log } = await proxyInFrontOf(await plantStore());
    expect((await send(proxy, 'PUT', '/plants/1')).status).toBe(405);
    expect((await send(proxy, 'GET', '/health')).status).toBe(404);
    expect(log.every((line) => line.endsWith('outside the contract (forwarded, not judged)'))).toBe(true);
    expect(failures(proxy)).toEqual([]);
  });
});

describe('the proxy judges an answer by the media type it is labelled with', () => {
  it('judges a problem+json refusal by the problem schema, and a JSON one by the Error, under 4XX', async () => {
    for (const refusal of ['problem', 'error'] as const) {
      const { proxy } = await proxyInFrontOf(await refusingStore(refusal), undefined, null, refusalsSpec);
      expect(await getStatus(proxy, '/plants/1')).toBe(200);
      expect(await getStatus(proxy, '/plants/2')).toBe(404);
      expect(failures(proxy)).toEqual([]);
    }
  });

  it('fails a problem+json refusal that breaks the problem schema, naming the 4xx response', async () => {
    const { proxy } = await proxyInFrontOf(await refusingStore('untitled-problem'), undefined, null, refusalsSpec);
    expect(await getStatus(proxy, '/plants/2')).toBe(404);
    expect(failures(proxy)).toEqual([
      {
        check: 'response-schema',
        reason: expect.stringMatching(/4XX response of GET \/plants\/\{id\}'s schema.*title/) as string,
      },
    ]);
  });

  it('refuses at start a document writing a range in lower case, as the schema of OpenAPI does', async () => {
    const lower = join(folder, 'lower.yaml');
    writeFileSync(lower, REFUSALS_DOCUMENT.replace("'4XX':", "'4xx':"));
    const started = createProxyServer({ upstream: 'http://127.0.0.1:9', spec: lower, onLog: () => undefined });
    await expect(started).rejects.toThrow(/get\/responses: must NOT have additional properties/);
  });
});
