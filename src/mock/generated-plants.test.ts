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
      const response = await fetch(`${mock.url}/plants`, {
        method: 'POST',
        headers: { authorization: `Bearer ${DEV_TOKEN}`, 'content-type': 'application/json' },
        body: '{"id": 1, "name": "Fern"}',
        signal: AbortSignal.timeout(10_000),
      });
      const text = await response.text();
      expect(response.status).toBe(200);
      expect(contract.check.plant(parseExactJson(text))).toEqual([]);
      // Before, the whole plant came from the conformance generator: "constructor", "" and astral keys.
      expect(Object.keys(JSON.parse(text) as object).filter((name) => !DECLARED.includes(name))).toEqual([]);
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
      const response = await fetch(`${kinds.url}/plants`, {
        method: 'POST',
        headers: { authorization: `Bearer ${DEV_TOKEN}`, 'content-type': 'application/json' },
        body: `{"id": ${request + 1}, "name": "Basil", "kind": "HERB"}`,
        signal: AbortSignal.timeout(10_000),
      });
      const plant = parseExactJson(await response.text());
      expect(response.status).toBe(200);
      expect(contract.check.plant(plant)).toEqual([]);
      // Before, Prism's plants of any kind ("adipisicing culpa"), valid only as JSON Schema alone reads them.
      expect(contract.compiled.plant.ambiguities(plant)).toEqual([]);
    }
  });
});
