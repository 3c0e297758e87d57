import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract, parseExactJson } from '../contract/index.js';
import { DEV_TOKEN } from './dev-token.js';
import { createMockServer, type MockServer } from './mock-server.js';

const DOCUMENT = 'src/fixtures/documents/reduced/price-multiple-of-3.0.yaml';
const DECLARED = ['id', 'name', 'tag', 'price', 'supplierEmail', 'link'];

let mock: MockServer;
beforeAll(async () => {
  mock = await createMockServer({ spec: DOCUMENT, dynamic: true, seed: 1 });
});
afterAll(() => mock.close());

describe('generated plants when Prism misses a keyword', () => {
  it("keep Prism's plant and replace only what breaks the schema: valid, no undeclared members", async () => {
    const contract = await loadContract(DOCUMENT);
    for (let request = 0; request < 6; request++) {
      const response = await postPlant(mock, '{"id": 1, "name": "Fern"}');
      const text = await response.text();
      expect(response.status).toBe(200);
      expect(contract.check.plant(parseExactJson(text))).toEqual([]);
      // Before, the whole plant came from the conformance generator: "constructor", "" and astral keys.
      expect(Object.keys(JSON.parse(text) as object).filter((name) => !DECLARED.includes(name))).toEqual([]);
    }
  });
});

describe('generated plants where Prism breaks a member the document gives an example', () => {
  it("answer the document's example for it, not a generated value", async () => {
    const mock = await createMockServer({
      spec: 'src/mock/test-documents/price-example-3.0.yaml',
      dynamic: true,
      seed: 1,
    });
    try {
      for (let request = 0; request < 4; request++) {
        const response = await postPlant(mock, '{"id": 1, "name": "Fern"}');
        // Before, the generated plant's price (5841.25, 9999.25: valid, but no price of the document's).
        expect((JSON.parse(await response.text()) as { price?: unknown }).price).toBe(4.75);
      }
    } finally {
      await mock.close();
    }
  });
});

describe('generated plants of a discriminated oneOf (springdoc kinds)', () => {
  const KINDS = 'src/mock/test-documents/springdoc-kinds-3.0.yaml';
  let kinds: MockServer;
  beforeAll(async () => {
    kinds = await createMockServer({ spec: KINDS, dynamic: true, seed: 1 });
  });
  afterAll(() => kinds.close());

  it('carry a kind the mapping lists and match one branch as written: valid under both readings', async () => {
    const contract = await loadContract(KINDS);
    for (let request = 0; request < 6; request++) {
      const response = await postPlant(kinds, `{"id": ${request + 1}, "name": "Basil", "kind": "HERB"}`);
      const plant = parseExactJson(await response.text());
      expect(response.status).toBe(200);
      expect(contract.check.plant(plant)).toEqual([]);
      // Before, Prism's plants of any kind ("adipisicing culpa"), valid only as JSON Schema alone reads them.
      expect(contract.compiled.plant.ambiguities(plant)).toEqual([]);
    }
  });

  it("read as Prism's plants with the kind mended, not as the conformance generator's test values", async () => {
    for (let request = 0; request < 6; request++) {
      const response = await postPlant(kinds, `{"id": ${request + 1}, "name": "Basil", "kind": "HERB"}`);
      const text = await response.text();
      // Before, Prism's unmapped kinds fell back to the generator's plant: "toString" members, control characters.
      expect(textsOf(JSON.parse(text))).not.toContainEqual(expect.stringMatching(/[^\x20-\x7e]|^toString$/));
      expect((JSON.parse(text) as { kind?: unknown }).kind).toMatch(/^(TREE|HERB)$/);
    }
  });
});

describe('generated plants of a discriminated oneOf below the root (a pot by shape)', () => {
  const NESTED = 'src/mock/test-documents/nested-kinds-3.1.yaml';
  let nested: MockServer;
  beforeAll(async () => {
    nested = await createMockServer({ spec: NESTED, dynamic: true, seed: 5 });
  });
  afterAll(() => nested.close());

  it("keep Prism's plant and pot, the shape mended to one the mapping lists: valid, unambiguous, no test values", async () => {
    const contract = await loadContract(NESTED);
    for (let request = 0; request < 4; request++) {
      const response = await postPlant(
        nested,
        `{"id": ${request + 1}, "name": "Fern", "pot": {"shape": "square-pot"}}`,
      );
      const text = await response.text();
      expect(response.status).toBe(200);
      expect(contract.check.plant(parseExactJson(text))).toEqual([]);
      expect(contract.compiled.plant.ambiguities(parseExactJson(text))).toEqual([]);
      // Before, a pot no mapping lists made the whole plant the generator's: `"name":""`, `toString`, control characters.
      expect(textsOf(JSON.parse(text))).not.toContainEqual(expect.stringMatching(/[^\x20-\x7e]|^toString$|^$/));
    }
  });
});

/** POST /plants to a mock with its development token. */
function postPlant(server: MockServer, body: string): Promise<Response> {
  return fetch(`${server.url}/plants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${DEV_TOKEN}`, 'content-type': 'application/json' },
    body,
    signal: AbortSignal.timeout(10_000),
  });
}

/** Every member name and string of a JSON value. */
function textsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value === null || typeof value !== 'object') return [];
  if (Array.isArray(value)) return value.flatMap(textsOf);
  return Object.entries(value).flatMap(([name, member]) => [name, ...textsOf(member)]);
}
