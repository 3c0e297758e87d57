import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_TOKEN } from './dev-token.js';
import { createMockServer, type MockServer } from './mock-server.js';

/**
 * A document whose other operation (PUT /plants/{id}) requires a body, as a team's replace operation does,
 * and whose list operation documents its errors as `default` only.
 */
const DOCUMENT = `openapi: 3.0.3
info: { title: Plant Store, version: 1.0.0 }
security: [{ bearerAuth: [] }]
paths:
  /plants:
    post:
      requestBody:
        required: true
        content: { application/json: { schema: { $ref: '#/components/schemas/NewPlant' } } }
      responses:
        '201': { description: created, content: { application/json: { schema: { $ref: '#/components/schemas/Plant' } } } }
        '400': { description: bad, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
    get:
      parameters: [{ name: limit, in: query, schema: { type: integer, minimum: 1, maximum: 100 } }]
      responses:
        '200': { description: list, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Plant' } } } } }
        default: { description: error, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
  /plants/{id}:
    parameters: [{ name: id, in: path, required: true, schema: { type: integer, format: int64 } }]
    put:
      requestBody:
        required: true
        content: { application/json: { schema: { $ref: '#/components/schemas/NewPlant' } } }
      responses:
        '200': { description: replaced, content: { application/json: { schema: { $ref: '#/components/schemas/Plant' } } } }
        '400': { description: bad, content: { application/json: { schema: { $ref: '#/components/schemas/Error' } } } }
components:
  securitySchemes: { bearerAuth: { type: http, scheme: bearer } }
  schemas:
    Plant:
      type: object
      required: [name]
      properties: { name: { type: string }, tag: { type: string } }
    NewPlant:
      type: object
      required: [id, name]
      properties: { id: { type: integer, format: int64 }, name: { type: string }, tag: { type: string } }
    Error:
      type: object
      required: [error, message]
      properties: { error: { type: integer, format: int32 }, message: { type: string } }
`;

let folder: string;
let mock: MockServer;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'plantstore-other-bodies-'));
  const spec = join(folder, 'plants.yaml');
  writeFileSync(spec, DOCUMENT);
  mock = await createMockServer({ spec, seed: 1 });
});
afterAll(async () => {
  await mock.close();
  rmSync(folder, { recursive: true, force: true });
});

async function put(body: string | undefined): Promise<{ status: number; text: string }> {
  const response = await fetch(`${mock.url}/plants/5`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${DEV_TOKEN}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body }),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, text: await response.text() };
}

describe('another operation whose document requires a body', () => {
  it('answers a request that sends one (it was 400 "Body parameter is required" for every PUT)', async () => {
    const replaced = await put(JSON.stringify({ id: 5, name: 'Fern', tag: 'fern' }));
    expect(replaced.status).toBe(200);
    expect(JSON.parse(replaced.text)).toMatchObject({ name: expect.any(String) as string });
  });

  it('still refuses one that sends none, saying the body is required', async () => {
    const refused = await put(undefined);
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text)).toEqual({
      error: 1015,
      message: 'Invalid request to PUT /plants/{id}: Body parameter is required.',
    });
  });
});

describe('another operation whose errors the document gives as default', () => {
  it("refuses an invalid parameter with the status POST /plants refuses with (it was Prism's 422)", async () => {
    const response = await fetch(`${mock.url}/plants?limit=0`, {
      headers: { authorization: `Bearer ${DEV_TOKEN}` },
      signal: AbortSignal.timeout(10_000),
    });
    expect(response.status).toBe(400);
    expect(JSON.parse(await response.text())).toEqual({
      error: 1015,
      message: 'Invalid request to GET /plants: the query parameter limit must be >= 1.',
    });
  });
});
