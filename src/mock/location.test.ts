import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_TOKEN } from './dev-token.js';
import { createMockServer, type MockServer } from './mock-server.js';

const DOCUMENT = 'src/fixtures/documents/reduced/created-location-3.0.yaml';

let mock: MockServer;
beforeAll(async () => {
  mock = await createMockServer({ spec: DOCUMENT });
});
afterAll(() => mock.close());

async function create(headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${mock.url}/plants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${DEV_TOKEN}`, 'content-type': 'application/json', ...headers },
    body: '{"id": "12", "name": "Fern"}',
    signal: AbortSignal.timeout(10_000),
  });
}

describe('the mock of a 201 whose document requires a Location header', () => {
  it('writes it on the echo and on a generated plant, naming the plant answered', async () => {
    const echoed = await create();
    expect(echoed.status).toBe(201);
    expect(echoed.headers.get('location')).toBe('/api/plants/12');
    // A generated plant is the one created: the Location names its id, not the one sent.
    const generated = await create({ prefer: 'dynamic=true' });
    expect(generated.status).toBe(201);
    const { id } = (await generated.json()) as { id: string };
    expect(generated.headers.get('location')).toBe(`/api/plants/${encodeURIComponent(id)}`);
  });

  it('lets a page on another origin read it', async () => {
    const answered = await create({ origin: 'http://localhost:5173' });
    expect(answered.headers.get('access-control-expose-headers')).toContain('Location');
  });
});
