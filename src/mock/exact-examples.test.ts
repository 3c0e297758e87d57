import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_TOKEN } from './dev-token.js';
import { createMockServer, type MockServer } from './mock-server.js';

/**
 * Examples whose integers a double cannot hold, written as YAML numbers (as most documents write them),
 * and a concrete path beside a templated one that would also match it.
 */
const DOCUMENT = `openapi: 3.0.3
info: { title: Plant Store, version: 1.0.0 }
paths:
  /plants:
    post:
      security: [{ bearerAuth: [] }]
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: '#/components/schemas/NewPlant' }
      responses:
        '200':
          description: plant response
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Plant' }
              examples:
                largest: { value: { id: 9223372036854775807, name: Fern, tag: fern } }
                oneMore: { value: { id: 9007199254740993, name: Ivy } }
        '400':
          description: error
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Error' }
  /plants/{id}:
    get:
      security: [{ bearerAuth: [] }]
      parameters:
        - { name: id, in: path, required: true, schema: { type: integer, format: int64 } }
      responses:
        '200':
          description: one plant
          content:
            application/json:
              schema: { $ref: '#/components/schemas/Plant' }
              example: { id: -9223372036854775808, name: Moss }
  /plants/count:
    get:
      security: []
      responses:
        '200':
          description: how many plants are stored
          content:
            application/json:
              schema: { type: integer, format: int64 }
              example: 9007199254740993
components:
  securitySchemes:
    bearerAuth: { type: http, scheme: bearer }
  schemas:
    Plant:
      type: object
      required: [name]
      properties:
        id: { type: integer, format: int64 }
        name: { type: string }
        tag: { type: string }
    NewPlant:
      allOf:
        - $ref: '#/components/schemas/Plant'
        - { type: object, required: [id] }
    Error:
      type: object
      required: [error, message]
      properties:
        error: { type: integer, format: int32 }
        message: { type: string }
`;

const AUTHORIZED = { authorization: `Bearer ${DEV_TOKEN}` };
let folder: string;
let mock: MockServer;
beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'plantstore-exact-examples-'));
  const spec = join(folder, 'plants.yaml');
  writeFileSync(spec, DOCUMENT);
  mock = await createMockServer({ spec, seed: 1 });
});
afterAll(async () => {
  await mock.close();
  rmSync(folder, { recursive: true, force: true });
});

async function text(path: string, init: RequestInit = {}): Promise<{ status: number; body: string }> {
  const response = await fetch(`${mock.url}${path}`, { ...init, signal: AbortSignal.timeout(10_000) });
  return { status: response.status, body: await response.text() };
}

describe("the mock's answers from the document's examples", () => {
  it('writes an example of POST /plants with its integers to the last digit (Prefer: example=)', async () => {
    const post = (example: string) =>
      text('/plants', {
        method: 'POST',
        headers: { ...AUTHORIZED, 'content-type': 'application/json', prefer: `example=${example}` },
        body: '{"id":5,"name":"a"}',
      });
    expect(await post('largest')).toEqual({
      status: 200,
      body: '{"id":9223372036854775807,"name":"Fern","tag":"fern"}',
    });
    expect(await post('oneMore')).toEqual({ status: 200, body: '{"id":9007199254740993,"name":"Ivy"}' });
  });

  it("refuses an example asked for with another status than its own in the mock's words (it was Prism's NOT_FOUND, 1099)", async () => {
    // largest is the 200's example (Prism answered it with 200); nowhere is no example at all (Prism's NOT_FOUND).
    for (const example of ['largest', 'nowhere']) {
      const answer = await text('/plants', {
        method: 'POST',
        headers: { ...AUTHORIZED, 'content-type': 'application/json', prefer: `code=400, example=${example}` },
        body: '{"id":5,"name":"a"}',
      });
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toEqual({
        error: 4002,
        message: `Prefer: example=${example} names no example of the document for the 400 answer of POST /plants; leave code= out, or ask for the status whose example it is.`,
      });
    }
  });

  it("writes another operation's example exactly, an object's and one that is a single number", async () => {
    expect(await text('/plants/7', { headers: AUTHORIZED })).toEqual({
      status: 200,
      body: '{"id":-9223372036854775808,"name":"Moss"}',
    });
    expect(await text('/plants/count')).toEqual({ status: 200, body: '9007199254740993' });
  });

  it('answers a concrete path by its own operation, not by a templated path written before it', async () => {
    // `/plants/count` declares no security; `/plants/{id}`, which also matches it, needs the token.
    expect((await text('/plants/count')).status).toBe(200);
    expect((await text('/plants/count', { headers: AUTHORIZED })).status).toBe(200);
    expect((await text('/plants/12')).status).toBe(401);
  });
});
