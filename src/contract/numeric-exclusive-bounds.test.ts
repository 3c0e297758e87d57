import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseExactJson } from './exact-json.js';
import { loadContract } from './spec.js';

const DOCUMENT = fileURLToPath(new URL('../http/test-documents/numeric-exclusive-3.0.yaml', import.meta.url));

describe('an OpenAPI 3.0 document writing exclusive bounds as numbers (2020-12 form, as @fastify/swagger does)', () => {
  it('is read, not refused by the 3.0 meta-schema, and each bound means what its author wrote', async () => {
    const contract = await loadContract(DOCUMENT);
    const valid = (body: string): boolean => contract.check.newPlant(parseExactJson(body)).length === 0;
    expect(valid('{"id": 1, "name": "Fern"}')).toBe(true);
    expect(valid('{"id": 0, "name": "Fern"}')).toBe(false);
    expect(valid('{"id": 1, "name": "Fern", "price": 0.01}')).toBe(true);
    expect(valid('{"id": 1, "name": "Fern", "price": 0}')).toBe(false);
    // exclusiveMaximum 1000 beside maximum 500: the stronger one holds.
    expect(valid('{"id": 1, "name": "Fern", "price": 500}')).toBe(true);
    expect(valid('{"id": 1, "name": "Fern", "price": 500.5}')).toBe(false);
    // minimum 10 beside exclusiveMinimum 2: the stronger one holds.
    expect(valid('{"id": 1, "name": "Fern", "height": 10}')).toBe(true);
    expect(valid('{"id": 1, "name": "Fern", "height": 9}')).toBe(false);
  });

  it('leaves examples as written', async () => {
    const contract = await loadContract(DOCUMENT);
    const example = (contract.schemas.newPlant as { properties: { example: { example: unknown } } }).properties.example
      .example;
    expect(example).toEqual({ exclusiveMinimum: 7 });
  });
});
