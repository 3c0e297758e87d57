import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReferenceServer, type ReferenceServer } from './server.js';

const KEY = 'api-key-test-key';
const DOCUMENT = 'src/fixtures/documents/reduced/api-key-header-3.1.yaml';

let server: ReferenceServer;
beforeAll(async () => {
  server = await createReferenceServer({ tokens: [KEY], spec: DOCUMENT });
});
afterAll(() => server.close());

async function post(headers: Record<string, string>, id: number): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${server.url}/plants`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ id, name: 'Fern' }),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, json: await response.json() };
}

describe('serve --spec with an apiKey scheme', () => {
  it('accepts the key in the header the document names', async () => {
    expect(await post({ 'X-API-Key': KEY }, 1)).toEqual({ status: 201, json: { id: 1, name: 'Fern' } });
  });

  it('refuses a request without it, saying where the key goes, even with a bearer token', async () => {
    const reply = await post({ authorization: `Bearer ${KEY}` }, 2);
    expect(reply.status).toBe(401);
    expect(reply.json).toMatchObject({ error: 2001, message: expect.stringContaining('"X-API-Key"') as string });
  });

  it('refuses an unknown key', async () => {
    expect((await post({ 'X-API-Key': 'other' }, 3)).json).toMatchObject({ error: 2003 });
  });
});
