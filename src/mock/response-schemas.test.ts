import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract, parseExactJson } from '../contract/index.js';
import { DEV_TOKEN } from './dev-token.js';
import { createMockServer, type MockServer } from './mock-server.js';
import { responseSchemas } from './response-schemas.js';

const DOCUMENT = 'src/mock/test-documents/plant-shop-3.1.yaml';
const AUTHORIZED = { authorization: `Bearer ${DEV_TOKEN}` };

let mock: MockServer;
beforeAll(async () => {
  mock = await createMockServer({ spec: DOCUMENT, seed: 9 });
});
afterAll(() => mock.close());

async function ask(path: string, init: RequestInit = {}): Promise<{ response: Response; text: string }> {
  const response = await fetch(`${mock.url}${path}`, { ...init, signal: AbortSignal.timeout(10_000) });
  return { response, text: await response.text() };
}

describe("the mock's answers to the document's other operations", () => {
  it('names at startup the example its own schema refuses, and answers it as the user wrote it', async () => {
    expect(mock.invalidExamples).toEqual([
      expect.stringMatching(/^GET \/plants\/\{plantId\}\/lineage 200 example \(application\/json\): .*name/),
    ]);
    const { response, text } = await ask('/plants/5/lineage');
    expect(response.status).toBe(200);
    expect(JSON.parse(text)).toEqual({ name: '', parent: { name: 'Fern' } });
  });

  it("replaces Prism's sample the schema refuses (pattern, additionalProperties, oneOf) with a valid one, the same each time", async () => {
    const contract = await loadContract(DOCUMENT);
    const paths = contract.document.paths as Record<string, Record<string, unknown>>;
    const schema = responseSchemas(contract, paths['/plants']?.get).schemaOf(200, 'application/json');
    const first = await ask('/plants', { headers: AUTHORIZED });
    const again = await ask('/plants', { headers: AUTHORIZED });
    expect(first.response.status).toBe(200);
    expect(schema?.check(parseExactJson(first.text))).toEqual([]);
    expect(again.text).toBe(first.text);
    expect(first.response.headers.get('x-total-count')).toMatch(/^\d+$/);
  });

  it("writes a documented error status without an example as the operation's own problem details", async () => {
    const { response, text } = await ask('/plants/5', { headers: { ...AUTHORIZED, prefer: 'code=404' } });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(JSON.parse(text)).toMatchObject({
      status: 404,
      title: 'Not Found',
      detail: expect.stringContaining('Prefer') as string,
    });
  });

  it('takes every int64 in a path parameter declared on the path item with a camelCase name', async () => {
    for (const id of ['9007199254740993', '9223372036854775807']) {
      const { response } = await ask(`/plants/${id}`, { headers: AUTHORIZED });
      expect(response.status).toBe(200);
    }
    const past = await ask('/plants/9223372036854775808', { headers: AUTHORIZED });
    expect(past.response.status).toBe(400);
    expect(past.text).toContain('must be <= 9223372036854775807');
  });
});

describe('responseSchemas', () => {
  const contract = { dialect: 'openapi-3.1' as const, exactIntegers: new Map() };
  const error = { type: 'object', required: ['error'], properties: { error: { type: 'integer' } } };
  const problem = { type: 'object', required: ['title'], properties: { title: { type: 'string' } } };
  const operation = {
    responses: {
      '4XX': {
        description: 'a refusal',
        content: {
          'application/problem+json': { schema: problem },
          'Application/JSON; charset=utf-8': { schema: error },
        },
      },
      default: { description: 'any other', content: { '*/*': { schema: error }, 'text/plain': { schema: {} } } },
    },
  };
  const refuses = (status: number, contentType: string, body: unknown): boolean =>
    (responseSchemas(contract, operation).schemaOf(status, contentType)?.check(body).length ?? 0) > 0;

  it("reads the schema of the key the answer's label meets, its parameters and case aside", () => {
    expect(refuses(404, 'application/json', { title: 'Not Found' })).toBe(true);
    expect(refuses(404, 'application/json', { error: 404 })).toBe(false);
    expect(refuses(404, 'application/problem+json', { error: 404 })).toBe(true);
    expect(refuses(404, 'application/problem+json', { title: 'Not Found' })).toBe(false);
  });

  it('reads a range key for JSON labels, and no schema for a label of another type', () => {
    expect(refuses(500, 'application/json', { title: 'Oops' })).toBe(true);
    expect(responseSchemas(contract, operation).schemaOf(500, 'text/plain')).toBeUndefined();
  });
});
