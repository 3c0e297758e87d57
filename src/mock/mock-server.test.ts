import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract, type Contract } from '../contract/index.js';
import { DEV_TOKEN } from './dev-token.js';
import { createMockServer, type MockServer } from './mock-server.js';
import type { RequestLogEntry } from '../http/server-kit.js';

interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly json: unknown;
}

async function send(
  baseUrl: string,
  body: string | undefined,
  headers: Record<string, string> = {},
  method = 'POST',
  path = '/plants',
): Promise<Reply> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${DEV_TOKEN}`, 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body }),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text === '' ? undefined : JSON.parse(text) };
}

let mock: MockServer;
let contract: Contract;
const log: RequestLogEntry[] = [];

beforeAll(async () => {
  contract = await loadContract();
  mock = await createMockServer({ onRequest: (entry) => log.push(entry) });
});
afterAll(() => mock.close());

function expectError(reply: Reply, status: number, code: number): string {
  expect(reply.status).toBe(status);
  expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
  expect(contract.check.error(reply.json)).toEqual([]);
  const error = reply.json as { error: number; message: string };
  expect(error.error).toBe(code);
  return error.message;
}

describe('gaps of raw Prism the mock closes', () => {
  it('answers malformed JSON with the contract Error, not Prism invalid_json', async () => {
    const message = expectError(await send(mock.url, '{"id": 1, "name": '), 400, 1001);
    expect(message).toMatch(/not valid JSON/);
  });

  it.each(['9223372036854775807', '-9223372036854775808', '9007199254740993', '770.0', '1e2'])(
    'accepts the valid int64 id %s that Prism bounds to 2^53-1',
    async (id) => {
      const reply = await send(mock.url, `{"id": ${id}, "name": "Fern", "tag": "fern"}`);
      expect(reply.status).toBe(200);
      expect(reply.json).toEqual({ name: 'Fern', tag: 'fern' });
    },
  );

  it.each(['9223372036854775808', '-9223372036854775809', '1.5', '1e400'])(
    'rejects the id %s naming the field',
    async (id) => {
      const message = expectError(await send(mock.url, `{"id": ${id}, "name": "Fern"}`), 400, 1007);
      expect(message).toContain('"id"');
    },
  );

  it('answers missing credentials with a 401 Error and WWW-Authenticate, not problem+json', async () => {
    const reply = await send(mock.url, '{"id": 1, "name": "Fern"}', { authorization: '' });
    expectError(reply, 401, 2001);
    expect(reply.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('accepts the bearer scheme in any letter case', async () => {
    for (const scheme of ['bearer', 'BEARER', 'BeArEr']) {
      const reply = await send(mock.url, '{"id": 1, "name": "Fern"}', { authorization: `${scheme} ${DEV_TOKEN}` });
      expect(reply.status).toBe(200);
    }
  });

  it.each([
    ['another scheme', `Basic ${DEV_TOKEN}`, 2002],
    ['an empty bearer token', 'Bearer ', 2002],
    ['an unknown token', 'Bearer not-the-dev-token', 2003],
  ])('rejects %s with a 401 Error', async (_label, authorization, code) => {
    const reply = await send(mock.url, '{"id": 1, "name": "Fern"}', { authorization });
    expectError(reply, 401, code);
    expect(reply.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('says in the Error message which field is wrong and how', async () => {
    expect(expectError(await send(mock.url, '{"id": 1}'), 400, 1005)).toContain('field "name" is required');
    expect(expectError(await send(mock.url, '{"id": 1, "name": 7}'), 400, 1006)).toContain(
      'field "name" must be a string',
    );
    expect(expectError(await send(mock.url, '{"id": "1", "name": "F"}'), 400, 1006)).toContain('field "id"');
    expect(expectError(await send(mock.url, '[1]'), 400, 1004)).toContain('JSON object');
  });
});

describe('answers outside the validation gaps', () => {
  it('echoes name and tag byte for byte and leaves an absent tag absent', async () => {
    const name = ' \u0000Fe\u0301rn 🌿\u202e ';
    const withTag = await send(mock.url, JSON.stringify({ id: 5, name, tag: '' }));
    expect(withTag.json).toEqual({ name, tag: '' });
    const withoutTag = await send(mock.url, `{"id": 6, "name": ${JSON.stringify(name)}, "__proto__": {"x": 1}}`);
    expect(withoutTag.json).toEqual({ name });
  });

  it('answers other paths 404 and other methods 405 with Allow: POST', async () => {
    expectError(await send(mock.url, '{}', {}, 'POST', '/plants/1'), 404, 3001);
    const reply = await send(mock.url, undefined, {}, 'GET');
    expectError(reply, 405, 3002);
    expect(reply.headers.get('allow')).toBe('POST');
    expectError(await send(mock.url, undefined, {}, 'OPTIONS'), 405, 3002);
  });

  it('rejects a wrong Content-Type and an empty body with an Error', async () => {
    expectError(await send(mock.url, '{"id":1,"name":"F"}', { 'content-type': 'text/plain' }), 400, 1003);
    expectError(await send(mock.url, ''), 400, 1002);
  });

  it('logs each request with what was wrong and never the token', async () => {
    log.length = 0;
    await send(mock.url, '{"id": 1}');
    await send(mock.url, '{"id": 1, "name": "F"}');
    expect(log.map((entry) => [entry.method, entry.path, entry.status])).toEqual([
      ['POST', '/plants', 400],
      ['POST', '/plants', 200],
    ]);
    expect(log[0]?.problem).toContain('"name"');
    expect(log[1]?.problem).toBeUndefined();
    expect(JSON.stringify(log)).not.toContain(DEV_TOKEN);
  });
});

describe('configured tokens', () => {
  it('accepts only the configured tokens, not the development token', async () => {
    const server = await createMockServer({ tokens: ['t-one', 't-two'] });
    try {
      expect((await send(server.url, '{"id":1,"name":"F"}', { authorization: 'Bearer t-two' })).status).toBe(200);
      expectError(await send(server.url, '{"id":1,"name":"F"}'), 401, 2003);
      expect(server.accepting).not.toContain('t-one');
    } finally {
      await server.close();
    }
  });

  it('accepts any non-empty token with anyToken, and still no missing one', async () => {
    const server = await createMockServer({ anyToken: true });
    try {
      expect((await send(server.url, '{"id":1,"name":"F"}', { authorization: 'Bearer whatever' })).status).toBe(200);
      expectError(await send(server.url, '{"id":1,"name":"F"}', { authorization: 'Bearer' }), 401, 2002);
      expect(server.accepting).toMatch(/any/i);
    } finally {
      await server.close();
    }
  });
});
