import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../http/server-kit.js';
import { loadContract, type Contract } from '../contract/index.js';
import { DEV_TOKEN } from './dev-token.js';
import { createMockServer, type MockServer, type MockServerOptions } from './mock-server.js';
import { createPrismEngine, type PrismQuestion } from './prism-engine.js';

interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly json: unknown;
}

async function send(
  baseUrl: string,
  headers: Record<string, string> = {},
  body = '{"id": 1, "name": "Fern"}',
): Promise<Reply> {
  const response = await fetch(`${baseUrl}/plants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${DEV_TOKEN}`, 'content-type': 'application/json', ...headers },
    body,
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: JSON.parse(text) };
}

async function withMock<T>(options: MockServerOptions, use: (server: MockServer) => Promise<T>): Promise<T> {
  const server = await createMockServer(options);
  try {
    return await use(server);
  } finally {
    await server.close();
  }
}

let mock: MockServer;
let contract: Contract;

beforeAll(async () => {
  contract = await loadContract();
  mock = await createMockServer();
});
afterAll(() => mock.close());

describe('Prefer', () => {
  it('code=400 forces the documented Error, contract-valid, saying why', async () => {
    const reply = await send(mock.url, { prefer: 'code=400' });
    expect(reply.status).toBe(400);
    expect(contract.check.error(reply.json)).toEqual([]);
    expect(reply.json).toMatchObject({ error: 4001, message: expect.stringContaining('Prefer: code=400') as string });
  });

  it('code=200 answers the echo', async () => {
    const reply = await send(mock.url, { prefer: 'code=200' }, '{"id": 2, "name": "Ivy"}');
    expect(reply).toMatchObject({ status: 200, json: { name: 'Ivy' } });
  });

  it.each([
    ['code=401', /code=401 .*200, 400/],
    ['code=abc', /not an HTTP status/],
    ['dynamic=maybe', /dynamic=true or dynamic=false/],
    ['example=no-such-example', /no example/],
  ])('%s gets a 400 Error explaining what the mock cannot do', async (prefer, explanation) => {
    const reply = await send(mock.url, { prefer });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ error: 4002, message: expect.stringMatching(explanation) as string });
  });

  it('an invalid body wins over Prefer: the real problem is reported', async () => {
    const reply = await send(mock.url, { prefer: 'code=200' }, '{"id": 1}');
    expect(reply.json).toMatchObject({ error: 1005 });
  });

  it('dynamic=true returns a generated, schema-valid plant instead of the echo', async () => {
    const reply = await send(mock.url, { prefer: 'dynamic=true' }, '{"id": 3, "name": "Echo me"}');
    expect(reply.status).toBe(200);
    expect(contract.check.plant(reply.json)).toEqual([]);
    expect(reply.json).not.toEqual({ name: 'Echo me' });
  });

  it('an Accept that excludes JSON, or is no media type at all, gets a 400 Error from Prism negotiation', async () => {
    expect(await send(mock.url, { accept: 'application/xml' })).toMatchObject({ status: 400, json: { error: 4003 } });
    expect(await send(mock.url, { accept: 'garbage;;;' })).toMatchObject({ status: 400, json: { error: 4003 } });
    const browserLike = await send(mock.url, { accept: 'text/html,application/xml;q=0.9,*/*;q=0.8' });
    expect(browserLike.status).toBe(200);
  });
});

describe('--dynamic and --seed', () => {
  async function plants(seed: number, count: number): Promise<unknown[]> {
    return withMock({ dynamic: true, seed }, async (server) => {
      const bodies: unknown[] = [];
      for (let i = 0; i < count; i++) bodies.push((await send(server.url)).json);
      return bodies;
    });
  }

  it('generates schema-valid plants, the same for the same seed, others for another seed', async () => {
    const first = await plants(42, 5);
    for (const plant of first) expect(contract.check.plant(plant)).toEqual([]);
    expect(new Set(first.map((p) => JSON.stringify(p))).size).toBeGreaterThan(1);
    expect(await plants(42, 5)).toEqual(first);
    expect(await plants(43, 5)).not.toEqual(first);
  });

  it('dynamic=false in dynamic mode answers the echo', async () => {
    await withMock({ dynamic: true, seed: 1 }, async (server) => {
      const reply = await send(server.url, { prefer: 'dynamic=false' }, '{"id": 1, "name": "Fern", "tag": "t"}');
      expect(reply.json).toEqual({ name: 'Fern', tag: 't' });
    });
  });
});

describe('CORS', () => {
  it('answers a preflight from another origin with 204 and what the browser asked for', async () => {
    const response = await fetch(`${mock.url}/plants`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type, x-request-id',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(response.headers.get('access-control-allow-methods')).toBe('POST');
    expect(response.headers.get('access-control-allow-credentials')).toBe('true');
    expect(response.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type, x-request-id');
    expect(Number(response.headers.get('access-control-max-age'))).toBeGreaterThan(0);
  });

  it('lets a page on another origin read answers and the WWW-Authenticate header', async () => {
    const ok = await send(mock.url, { origin: 'http://localhost:5173' });
    expect(ok.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    const denied = await send(mock.url, { origin: 'http://localhost:5173', authorization: '' });
    expect(denied.status).toBe(401);
    expect(denied.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(denied.headers.get('access-control-expose-headers')).toContain('WWW-Authenticate');
    expect(denied.headers.get('access-control-allow-credentials')).toBe('true');
  });

  it('lets a preflighted PUT through, so the page reads the 405 Error and its Allow header', async () => {
    const preflight = await fetch(`${mock.url}/plants`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'PUT' },
    });
    expect(preflight.headers.get('access-control-allow-methods')).toBe('PUT');
    expect(preflight.headers.get('access-control-allow-credentials')).toBe('true');
    const put = await fetch(`${mock.url}/plants`, {
      method: 'PUT',
      headers: { origin: 'http://localhost:5173', authorization: `Bearer ${DEV_TOKEN}` },
      body: '{}',
    });
    await put.arrayBuffer();
    expect(put.status).toBe(405);
    expect(put.headers.get('access-control-expose-headers')).toContain('Allow');
  });

  it('puts CORS headers on the 400 the server writes itself (oversize headers), and logs it', async () => {
    const entries: RequestLogEntry[] = [];
    const server = await createMockServer({ onRequest: (entry) => entries.push(entry) });
    try {
      const { port } = new URL(server.url);
      const raw = await rawExchange(
        Number(port),
        `POST /plants HTTP/1.1\r\nHost: x\r\nOrigin: http://localhost:5173\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      );
      expect(raw).toMatch(/^HTTP\/1\.1 400/);
      expect(raw.toLowerCase()).toContain('access-control-allow-origin: *');
      expect(raw).toContain('"error":1013');
      expect(entries.map((entry) => entry.status)).toEqual([400]);
      expect(entries[0]?.problem).toContain('headers');
    } finally {
      await server.close();
    }
  });
});

/** Writes raw bytes to the server and resolves with everything it sends back before closing. */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let received = '';
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer')));
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
  });
}

describe('Prism is asked only what only Prism decides', () => {
  it('decides on Prefer and Accept, never on the body or the credentials it is not shown', async () => {
    const engine = await createPrismEngine(contract, false);
    const plain: PrismQuestion = { accept: undefined, preferences: {} };
    const statusOf = async (question: Partial<PrismQuestion>): Promise<number> => {
      const decision = await engine.decide({ ...plain, ...question });
      return decision.kind === 'response' ? decision.response.statusCode : decision.status;
    };
    const answers = [];
    for (let round = 0; round < 2; round++) {
      answers.push(
        await statusOf({}),
        await statusOf({ preferences: { code: 400 } }),
        await statusOf({ accept: 'text/plain' }),
        await statusOf({ preferences: { code: 401 } }),
      );
    }
    expect(answers).toEqual([200, 400, 406, 404, 200, 400, 406, 404]);
  });

  it('a remembered static decision is the one Prism made for that class', async () => {
    const engine = await createPrismEngine(contract, false);
    const first = await engine.decide({ accept: 'application/json', preferences: { code: 400 } });
    const again = await engine.decide({ accept: 'application/json', preferences: { code: 400 } });
    expect(again).toBe(first);
    const other = await engine.decide({ accept: 'application/json', preferences: {} });
    expect(other).not.toBe(first);
  });

  it('a dynamic decision is generated afresh for every request', async () => {
    const engine = await createPrismEngine(contract, true);
    const bodies = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const decision = await engine.decide({ accept: undefined, preferences: { seed: `s-${i}` } });
      if (decision.kind === 'response') bodies.add(JSON.stringify(decision.response.body));
    }
    expect(bodies.size).toBeGreaterThan(1);
  });

  it('the pipeline, not Prism, judges credentials: another scheme gets the 401 Error with its code', async () => {
    const reply = await send(mock.url, { authorization: 'Basic eDp5' });
    expect(reply).toMatchObject({ status: 401, json: { error: 2002 } });
  });
});
