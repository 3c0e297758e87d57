import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from './mock-server.js';

const DOCUMENT = 'src/fixtures/documents/reduced/api-key-header-3.1.yaml';

let mock: MockServer;
beforeAll(async () => {
  mock = await createMockServer({ spec: DOCUMENT, tokens: ['k1'] });
});
afterAll(() => mock.close());

describe('mock --spec with an apiKey scheme', () => {
  it('accepts the key in its header and refuses a request without it, naming the header', async () => {
    const send = (headers: Record<string, string>): Promise<Response> =>
      fetch(`${mock.url}/plants`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: '{"id": 1, "name": "Fern"}',
        signal: AbortSignal.timeout(10_000),
      });
    expect((await send({ 'X-API-Key': 'k1' })).status).toBe(201);
    const refused = await send({ authorization: 'Bearer k1' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBeNull();
    expect(await refused.json()).toMatchObject({
      error: 2001,
      message: expect.stringContaining('"X-API-Key"') as string,
    });
  });

  it('says at startup where the development token goes', async () => {
    const own = await createMockServer({ spec: DOCUMENT });
    try {
      expect(own.accepting).toBe('accepting the development token: X-API-Key: plantstore-dev-token');
    } finally {
      await own.close();
    }
    expect(mock.accepting).toBe('accepting the configured token as the API key (header X-API-Key)');
  });
});
