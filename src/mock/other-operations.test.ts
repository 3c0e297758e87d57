import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract, parseExactJson } from '../contract/index.js';
import type { RequestLogEntry } from '../http/server-kit.js';
import { DEV_TOKEN } from './dev-token.js';
import { createMockServer, type MockServer } from './mock-server.js';

const DOCUMENT = 'src/fixtures/documents/reduced/more-operations-3.0.yaml';
const AUTHORIZED = { authorization: `Bearer ${DEV_TOKEN}` };

let mock: MockServer;
const logged: RequestLogEntry[] = [];
beforeAll(async () => {
  mock = await createMockServer({ spec: DOCUMENT, seed: 3, onRequest: (entry) => logged.push(entry) });
});
afterAll(() => mock.close());

async function get(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; response: Response; text: string }> {
  const response = await fetch(`${mock.url}${path}`, { headers, signal: AbortSignal.timeout(10_000) });
  return { status: response.status, response, text: await response.text() };
}

describe("the document's other operations", () => {
  it('GET /plants answers its documented example, at the server path too, without a token as the document allows', async () => {
    for (const path of ['/plants?limit=2', '/api/v1/plants']) {
      const reply = await get(path, { origin: 'http://localhost:5173' });
      expect(reply.status).toBe(200);
      expect(JSON.parse(reply.text)).toEqual([
        { name: 'Fern', tag: 'fern' },
        { name: 'Saguaro', tag: 'cactus' },
      ]);
      expect(reply.response.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
      expect(reply.response.headers.get('content-length')).toBe(String(Buffer.byteLength(reply.text)));
    }
  });

  it('GET /plants/{id} needs the bearer token as POST /plants does, and answers a valid Plant', async () => {
    const refused = await get('/api/v1/plants/5');
    expect(refused.status).toBe(401);
    expect(refused.response.headers.get('www-authenticate')).toContain('Bearer');
    expect(JSON.parse(refused.text)).toMatchObject({ error: 2001 });
    const contract = await loadContract(DOCUMENT);
    for (const prefer of [undefined, 'dynamic=true']) {
      const reply = await get('/api/v1/plants/5', { ...AUTHORIZED, ...(prefer ? { prefer } : {}) });
      expect(reply.status).toBe(200);
      expect(contract.check.plant(parseExactJson(reply.text))).toEqual([]);
    }
  });

  it('Prefer: code=404 answers the documented 404 as an Error saying why; an undocumented code is 4002', async () => {
    const missing = await get('/plants/5', { ...AUTHORIZED, prefer: 'code=404' });
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.text)).toMatchObject({
      error: 4001,
      message: expect.stringContaining('404 answer of GET /plants/{id}') as string,
    });
    const undocumented = await get('/plants/5', { ...AUTHORIZED, prefer: 'code=418' });
    expect([undocumented.status, (JSON.parse(undocumented.text) as { error: number }).error]).toEqual([400, 4002]);
    // As POST /plants says it (it was Prism's sentence, "Requested status code 418 is not defined in the document.").
    expect((JSON.parse(undocumented.text) as { message: string }).message).toMatch(
      /^Prefer: code=418 asks for a status the document does not list for GET \/plants\/\{id\}; use one of \d{3}(, \d{3})*\.$/,
    );
  });

  it('are logged and no longer listed as not served; an undeclared path is still 404', async () => {
    expect(mock.notServed).toEqual([]);
    expect(logged.some((entry) => entry.method === 'GET' && entry.path === '/plants?limit=…')).toBe(true);
    expect((await get('/plants/5/photos', AUTHORIZED)).status).toBe(404);
  });

  it("judges the operation's parameters as the document declares them: an invalid one is refused, saying which", async () => {
    // Before: 200 with a sample Plant for /plants/abc, though the document's id is an integer.
    const wrongId = await get('/plants/abc', AUTHORIZED);
    expect(wrongId.status).toBe(400);
    expect(JSON.parse(wrongId.text)).toEqual({
      error: 1015,
      message: 'Invalid request to GET /plants/{id}: the path parameter id must be integer.',
    });
    const overLimit = await get('/plants?limit=500');
    expect(overLimit.status).toBe(400);
    expect(JSON.parse(overLimit.text)).toMatchObject({
      error: 1015,
      message: expect.stringContaining('query parameter limit') as string,
    });
  });

  it('takes every int64 id of the document exactly, past 2^53, and refuses one past 2^63-1', async () => {
    // Before: 400 "the path parameter id must be <= 9007199254740991" for the int64 id 2^63-1.
    for (const id of ['9223372036854775807', '-9223372036854775808', '9007199254740993']) {
      expect((await get(`/plants/${id}`, AUTHORIZED)).status).toBe(200);
    }
    const beyond: [string, string][] = [
      ['9223372036854775808', 'must be <= 9223372036854775807'],
      ['-9223372036854775809', 'must be >= -9223372036854775808'],
    ];
    for (const [id, said] of beyond) {
      const refused = await get(`/plants/${id}`, AUTHORIZED);
      expect(refused.status).toBe(400);
      expect(JSON.parse(refused.text)).toMatchObject({ error: 1015, message: expect.stringContaining(said) as string });
    }
  });

  it('answers HEAD for a GET operation with its status and headers, without a body', async () => {
    const response = await fetch(`${mock.url}/plants`, { method: 'HEAD', signal: AbortSignal.timeout(10_000) });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.text()).toBe('');
  });
});

describe('a method the document does not give a path of its other operations', () => {
  /** The answer to `method` on `path`, with the token. */
  async function sent(method: string, path: string): Promise<{ status: number; allow: string | null; body: unknown }> {
    const response = await fetch(`${mock.url}${path}`, {
      method,
      headers: { ...AUTHORIZED, 'content-type': 'application/json' },
      ...(method === 'GET' || method === 'HEAD' ? {} : { body: '{}' }),
      signal: AbortSignal.timeout(10_000),
    });
    return { status: response.status, allow: response.headers.get('allow'), body: JSON.parse(await response.text()) };
  }

  it('is 405 with Allow naming the methods it has (it was a 404 "There is no /plants/5 here")', async () => {
    for (const [method, path] of [
      ['DELETE', '/plants/5'],
      ['PUT', '/api/v1/plants/9223372036854775807'],
      ['PATCH', '/plants/abc'],
      ['POST', '/plants/5'],
    ] as const) {
      const answer = await sent(method, path);
      expect([answer.status, answer.allow]).toEqual([405, 'GET, HEAD']);
      expect(answer.body).toEqual({
        error: 3002,
        message: expect.stringMatching(new RegExp(`^${method} is not allowed on /plants/[^:]+: use GET\\.$`)) as string,
      });
    }
  });

  it('on /plants, names its GET beside POST (Allow said POST alone)', async () => {
    const answer = await sent('PUT', '/plants');
    expect([answer.status, answer.allow]).toEqual([405, 'GET, HEAD, POST']);
    expect(answer.body).toEqual({ error: 3002, message: 'PUT is not allowed on /plants: use GET or POST.' });
  });

  it('leaves POST /plants and a path no operation has to the pipeline', async () => {
    for (const path of ['/plants', '/api/v1/plants', '/plants?dryRun=true'])
      expect((await sent('POST', path)).status).toBe(400);
    expect((await sent('DELETE', '/nowhere')).status).toBe(404);
  });
});

describe('a static answer Prism samples against a constrained schema (plant-shop: a page of PlantDetails)', () => {
  it("keeps Prism's sample items where the schema takes them, not the conformance generator's test values", async () => {
    const shop = await createMockServer({ spec: 'src/mock/test-documents/plant-shop-3.0.yaml', seed: 5 });
    try {
      const response = await fetch(`${shop.url}/plants`, { headers: AUTHORIZED, signal: AbortSignal.timeout(10_000) });
      const page = JSON.parse(await response.text()) as { items: { name: string; createdAt: string }[] };
      expect(response.status).toBe(200);
      // Before, the items were generated ones: names such as "IvUuemt㱤Fva𦳚ZEr",
      // createdAt "0278-12-10T04:11:37.563362-20:58".
      expect(page.items.map(({ name, createdAt }) => [name, createdAt])).toEqual([['string', '2019-08-24T14:15:22Z']]);
    } finally {
      await shop.close();
    }
  });
});
