import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../index.js';
import { createReferenceServer, type ReferenceServer } from './server.js';

const TOKEN = 'conflict-test-token';
const LISTS_409 = 'src/fixtures/documents/reduced/springdoc-conflict-3.0.yaml';

async function post(
  server: ReferenceServer,
  body: string,
): Promise<{ status: number; type: string | null; json: unknown }> {
  const response = await fetch(`${server.url}/plants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body,
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, type: response.headers.get('content-type'), json: await response.json() };
}

describe('a repeated id', () => {
  let listing: ReferenceServer;
  let seed: ReferenceServer;
  beforeAll(async () => {
    listing = await createReferenceServer({ tokens: [TOKEN], spec: LISTS_409 });
    seed = await createReferenceServer({ tokens: [TOKEN] });
  });
  afterAll(async () => {
    await listing.close();
    await seed.close();
  });

  it('is answered 409 Conflict, with the 409 response body, when the document lists 409', async () => {
    expect((await post(listing, '{"id": 7, "name": "Fern"}')).status).toBe(201);
    const repeat = await post(listing, '{"id": 7, "name": "Ivy"}');
    expect(repeat.status).toBe(409);
    expect(repeat.type).toBe('application/problem+json');
    expect(repeat.json).toMatchObject({ error: 1010, status: 409, detail: expect.stringContaining('id 7') as string });
  });

  it('is named 409, as answered, in the run note of plantstore test', async () => {
    const report = await runConformance({
      baseUrl: listing.url,
      token: TOKEN,
      spec: LISTS_409,
      seed: 4,
      runs: 5,
      concurrency: 2,
      checks: ['repeated-id'],
    });
    expect(report.notes.find((text) => text.startsWith('The target answers a repeated id with'))).toMatch(
      /^The target answers a repeated id with 409 /,
    );
  });

  it('stays the 400 Error (1010) when the document does not list 409', async () => {
    expect((await post(seed, '{"id": 7, "name": "Fern"}')).status).toBe(200);
    const repeat = await post(seed, '{"id": 7, "name": "Ivy"}');
    expect(repeat.status).toBe(400);
    expect(repeat.json).toMatchObject({ error: 1010 });
  });
});
