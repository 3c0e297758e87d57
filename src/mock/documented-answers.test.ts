import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_TOKEN } from './dev-token.js';
import { createMockServer, type MockServer } from './mock-server.js';

const DOCUMENT = 'src/fixtures/documents/reduced/springdoc-conflict-3.0.yaml';

let mock: MockServer;

beforeAll(async () => {
  mock = await createMockServer({ spec: DOCUMENT });
});
afterAll(() => mock.close());

async function preferring(prefer: string): Promise<{ status: number; type: string | null; json: unknown }> {
  const response = await fetch(`${mock.url}/plants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${DEV_TOKEN}`, 'content-type': 'application/json', prefer },
    body: '{"id": 1, "name": "Fern"}',
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, type: response.headers.get('content-type'), json: await response.json() };
}

describe('Prefer: code= a documented error status', () => {
  it.each([401, 409])(
    'code=%i without a documented example answers a problem of that status saying why, not placeholders',
    async (status) => {
      const reply = await preferring(`code=${status}`);
      expect(reply.status).toBe(status);
      expect(reply.type).toBe('application/problem+json');
      // Prism's static sample read {"title":"string","status":-2147483648,…}.
      expect(reply.json).toMatchObject({
        status,
        type: 'about:blank',
        detail: expect.stringContaining(`Prefer: code=${status}`) as string,
      });
      expect(JSON.stringify(reply.json)).not.toContain('"string"');
    },
  );

  it('code=422 answers the example the document gives that response', async () => {
    const reply = await preferring('code=422');
    expect(reply.status).toBe(422);
    expect(reply.json).toEqual({
      type: 'https://plants.example.com/problems/season',
      title: 'Out of season',
      status: 422,
      detail: 'Ferns are not sold in winter.',
    });
  });

  it('code=400 is still the 4001 Error', async () => {
    const reply = await preferring('code=400');
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ error: 4001, status: 400 });
  });
});
