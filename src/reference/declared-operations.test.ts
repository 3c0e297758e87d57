import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReferenceServer, type ReferenceServer } from './server.js';

const TOKEN = 'declared-operations-token';
const DOCUMENT = 'src/fixtures/documents/reduced/more-operations-3.0.yaml';

let server: ReferenceServer;
beforeAll(async () => {
  server = await createReferenceServer({ tokens: [TOKEN], spec: DOCUMENT });
});
afterAll(() => server.close());

async function call(method: string, path: string): Promise<{ status: number; message: string }> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}` },
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, message: ((await response.json()) as { message: string }).message };
}

describe('serve --spec on a document with operations besides POST /plants', () => {
  it('says a request for one of them is in the document but not answered by serve, and where it is', async () => {
    // Before: 'GET is not allowed on /plants: use POST.' and 'There is no /plants/5 here: the only operation is POST /plants.'
    expect(await call('GET', '/api/v1/plants')).toEqual({
      status: 405,
      message:
        'GET /plants is in the document, but this server answers only POST /plants; plantstore mock answers it from the document.',
    });
    expect(await call('GET', '/plants/5')).toMatchObject({
      status: 404,
      message: expect.stringContaining('GET /plants/{id} is in the document') as string,
    });
  });

  it("answers a path the document does not have with the document's operations", async () => {
    expect(await call('GET', '/pets')).toEqual({
      status: 404,
      message:
        "There is no /pets here: the document's operations are POST /plants, GET /plants, GET /plants/{id}, below /api/v1.",
    });
    // The path as asked for, not the part below the document's server path (was 'There is no /nothing here').
    expect((await call('GET', '/api/v1/nothing')).message).toMatch(/^There is no \/api\/v1\/nothing here: /);
    expect((await call('DELETE', '/plants/5')).status).toBe(404);
  });
});
