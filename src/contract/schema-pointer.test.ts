import { describe, expect, it } from 'vitest';
import { givenPointer } from './schema-pointer.js';

const plant = { type: 'object', properties: { tag: { type: 'string', pattern: 'x' } } };
const node: Record<string, unknown> = { type: 'object', properties: { name: { type: 'string', pattern: 'y' } } };
(node.properties as Record<string, unknown>).children = { type: 'array', items: node };
const schema = { properties: { tree: node }, allOf: [plant, { required: ['id'] }] };

describe('givenPointer', () => {
  it('keeps a pointer that is in the schema as given', () => {
    expect(givenPointer(schema, '/allOf/0/properties/tag/pattern')).toBe('/allOf/0/properties/tag/pattern');
  });

  it('finds a place of the allOf-merged schema in the branch that holds it', () => {
    expect(givenPointer(schema, '/properties/tag/pattern')).toBe('/allOf/0/properties/tag/pattern');
    expect(givenPointer(schema, '/required')).toBe('/allOf/1/required');
  });

  it("finds a place under the compiler's $defs at the nearest object holding it", () => {
    expect(givenPointer(schema, '/$defs/Schema/properties/name/pattern')).toBe(
      '/properties/tree/properties/name/pattern',
    );
  });

  it('is undefined for a place the schema does not have', () => {
    expect(givenPointer(schema, '/properties/nowhere/pattern')).toBeUndefined();
    expect(givenPointer(schema, '/$defs/Schema/properties/nowhere')).toBeUndefined();
  });
});
