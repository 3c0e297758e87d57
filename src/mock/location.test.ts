import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

describe('the mock of a 201 answered with a named example of the document', () => {
  const exampled = `openapi: 3.0.3
info: {title: Created with examples, version: 1.0.0}
security: [{bearer: []}]
paths:
  /plants:
    post:
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Plant'}
      responses:
        '201':
          description: Created
          headers:
            Location: {required: true, schema: {type: string}}
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Plant'}
              examples:
                rose: {value: {id: 7, name: Rose}}
        '400':
          description: Refused
          content:
            application/json:
              schema:
                type: object
                required: [error, message]
                properties: {error: {type: integer}, message: {type: string}}
components:
  securitySchemes:
    bearer: {type: http, scheme: bearer}
  schemas:
    Plant:
      type: object
      required: [id, name]
      properties: {id: {type: integer, format: int64}, name: {type: string}}
`;
  let exampledMock: MockServer;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mock-location-'));
    const spec = join(dir, 'created-examples.yaml');
    await writeFile(spec, exampled);
    exampledMock = await createMockServer({ spec });
  });
  afterAll(async () => {
    await exampledMock.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('still writes the required Location, naming the example plant', async () => {
    const answered = await fetch(`${exampledMock.url}/plants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${DEV_TOKEN}`, 'content-type': 'application/json', prefer: 'example=rose' },
      body: '{"id": 12, "name": "Fern"}',
      signal: AbortSignal.timeout(10_000),
    });
    expect(answered.status).toBe(201);
    expect(await answered.json()).toEqual({ id: 7, name: 'Rose' });
    expect(answered.headers.get('location')).toBe('/plants/7');
  });
});
