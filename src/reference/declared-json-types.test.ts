import { describe, expect, it } from 'vitest';
import { DEV_TOKEN } from '../mock/dev-token.js';
import { serveDocumentForTests } from '../fixtures/served-document.js';

const TOKEN = 'json-types-test-token';
// Swashbuckle declares the request body as application/json, text/json and application/*+json.
const DOCUMENT = 'src/fixtures/documents/reduced/swashbuckle-json-types-3.0.json';

const served = serveDocumentForTests(DOCUMENT, TOKEN);

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
      expect(await status(served.reference.url, TOKEN, contentType)).toBe(200);
      expect(await status(served.mock.url, DEV_TOKEN, contentType)).toBe(200);
    },
  );

  it.each(['text/plain', 'application/xml', 'text/json; charset=latin1', 'text/jsonx'])(
    'is refused as %s, which it does not',
    async (contentType) => {
      expect(await status(served.reference.url, TOKEN, contentType)).toBe(400);
      expect(await status(served.mock.url, DEV_TOKEN, contentType)).toBe(400);
    },
  );
});
