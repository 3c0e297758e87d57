import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, type MockServer } from '../mock/mock-server.js';
import { DEV_TOKEN } from '../mock/dev-token.js';
import { createReferenceServer, type ReferenceServer } from './server.js';

const TOKEN = 'json-types-test-token';
// Swashbuckle declares the request body as application/json, text/json and application/*+json.
const DOCUMENT = 'src/fixtures/documents/reduced/swashbuckle-json-types-3.0.json';

let server: ReferenceServer;
let mock: MockServer;
beforeAll(async () => {
  server = await createReferenceServer({ tokens: [TOKEN], spec: DOCUMENT });
  mock = await createMockServer({ spec: DOCUMENT });
});
afterAll(async () => {
  await server.close();
  await mock.close();
});

let nextId = 1;
async function status(url: string, token: string, contentType: string): Promise<number> {
  const response = await fetch(`${url}/plants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    body: `{"id": ${nextId++}, "name": "Fern"}`,
    signal: AbortSignal.timeout(10_000),
  });
  await response.arrayBuffer();
  return response.status;
}

describe('a request body the document declares in several JSON media types', () => {
  // Before: serve and mock took application/json only and refused text/json with 400.
  it.each(['text/json', 'application/merge-patch+json', 'Application/Vnd.Plant+JSON; charset=utf-8'])(
    'is taken as %s, a type the document declares or its range covers',
    async (contentType) => {
      expect(await status(server.url, TOKEN, contentType)).toBe(200);
      expect(await status(mock.url, DEV_TOKEN, contentType)).toBe(200);
    },
  );

  it.each(['text/plain', 'application/xml', 'text/json; charset=latin1', 'text/jsonx'])(
    'is refused as %s, which it does not',
    async (contentType) => {
      expect(await status(server.url, TOKEN, contentType)).toBe(400);
      expect(await status(mock.url, DEV_TOKEN, contentType)).toBe(400);
    },
  );
});
