import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReferenceServer, type ReferenceServer } from './server.js';

const TOKEN = 'location-test-token';
const DOCUMENT = 'src/fixtures/documents/reduced/created-location-3.0.yaml';

let server: ReferenceServer;
beforeAll(async () => {
  server = await createReferenceServer({ tokens: [TOKEN], spec: DOCUMENT });
});
afterAll(() => server.close());

async function create(body: string): Promise<Response> {
  return fetch(`${server.url}/plants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body,
    signal: AbortSignal.timeout(10_000),
  });
}

describe('a 201 whose document requires a Location header', () => {
  it('names the created plant below the base path, a string id percent-encoded', async () => {
    const created = await create('{"id": "12", "name": "Fern"}');
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe('/api/plants/12');
    expect((await create('{"id": "a b/1", "name": "Ivy"}')).headers.get('location')).toBe('/api/plants/a%20b%2F1');
    // A lone surrogate is a valid JSON string; encodeURIComponent throws on it (answered 400 "could not process").
    const lone = await create('{"id": "x\\ud800", "name": "Ivy"}');
    expect(lone.status).toBe(201);
    expect(lone.headers.get('location')).toBe('/api/plants/x%EF%BF%BD');
  });

  it('is not written on a refusal, nor an optional header on a success', async () => {
    const refused = await create('{"name": "Fern"}');
    expect(refused.status).toBe(400);
    expect(refused.headers.get('location')).toBeNull();
    expect((await create('{"id": "13", "name": "Fern"}')).headers.get('x-rate-limit-remaining')).toBeNull();
  });
});
