import { describe, expect, it } from 'vitest';
import { DEV_TOKEN } from '../mock/dev-token.js';
import { serveDocumentForTests } from '../fixtures/served-document.js';

const TOKEN = 'prefixed-slash-test-token';
// drf-spectacular writes the operation as /api/plants/: below /api, with Django's trailing slash.
const DOCUMENT = 'src/fixtures/documents/reduced/drf-null-enum-3.0.yaml';

const served = serveDocumentForTests(DOCUMENT, TOKEN);

async function status(url: string, token: string, id: number): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: `{"id": ${id}, "name": "Fern", "tag": null}`,
    signal: AbortSignal.timeout(10_000),
  });
  await response.arrayBuffer();
  return response.status;
}

describe('a document whose POST is /api/plants/ (a prefix and a trailing slash)', () => {
  // test --base-url <serve's URL> calls <base-url>/plants/: before, serve and mock answered it 404.
  it.each([
    ['/plants/', 1],
    ['/api/plants/', 2],
    ['/plants', 3],
  ])('is served at %s by serve and by mock', async (path, id) => {
    expect(await status(`${served.reference.url}${path}`, TOKEN, id)).toBe(201);
    expect(await status(`${served.mock.url}${path}`, DEV_TOKEN, id)).toBe(201);
  });
});
