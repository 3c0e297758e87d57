import { describe, expect, it } from 'vitest';
import { DEV_TOKEN } from '../mock/dev-token.js';
import { serveDocumentForTests } from '../fixtures/served-document.js';

const TOKEN = 'assigned-id-test-token';
const DOCUMENT = 'src/fixtures/documents/reduced/server-assigned-id-3.0.yaml';

const served = serveDocumentForTests(DOCUMENT, TOKEN);

async function createdIds(url: string, token: string, count: number): Promise<unknown[]> {
  const ids: unknown[] = [];
  for (let index = 0; index < count; index += 1) {
    const response = await fetch(`${url}/plants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: `{"name": "Fern ${index}"}`,
      signal: AbortSignal.timeout(10_000),
    });
    expect(response.status).toBe(201);
    ids.push(((await response.json()) as { id?: unknown }).id);
  }
  return ids;
}

describe('a Plant id the server assigns (readOnly, not in the create model)', () => {
  it('is a new integer for each plant serve creates, not one value for all', async () => {
    const ids = await createdIds(served.reference.url, TOKEN, 3);
    expect(ids.every((id) => Number.isSafeInteger(id))).toBe(true);
    expect(new Set(ids).size).toBe(3);
  });

  it('is a new integer for each plant the mock creates', async () => {
    const ids = await createdIds(served.mock.url, DEV_TOKEN, 3);
    expect(new Set(ids).size).toBe(3);
  });
});
