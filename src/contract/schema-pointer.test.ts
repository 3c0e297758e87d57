import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { documentPointer } from './document-pointer.js';
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

/** Schema-like trees whose keys avoid the ones with a meaning here (`allOf`, `$defs`, `$ref`). */
const trees = fc.letrec((tie) => ({
  tree: fc.dictionary(
    fc.constantFrom('type', 'properties', 'items', 'a/b', 'x~y', 'name', '0'),
    fc.oneof({ depthSize: 'small' }, fc.constant(true), fc.integer(), tie('tree')),
    { maxKeys: 4 },
  ),
})).tree;

/** The pointer of every value in a tree. */
function pointersOf(node: unknown, prefix = ''): string[] {
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) => {
    const pointer = `${prefix}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    return [pointer, ...pointersOf(value, pointer)];
  });
}

describe('givenPointer, as a law', () => {
  it('keeps every pointer of the schema as given, and finds it in the allOf branch that holds it', () => {
    fc.assert(
      fc.property(trees, (tree) => {
        const wrapped = { allOf: [{}, tree] };
        for (const pointer of pointersOf(tree)) {
          expect(givenPointer(tree, pointer)).toBe(pointer);
          expect(givenPointer(wrapped, pointer)).toBe(`/allOf/1${pointer}`);
        }
      }),
      { numRuns: 200, seed: 11 },
    );
  });

  it('maps every pointer under a $ref back to where the document writes it', () => {
    fc.assert(
      fc.property(trees, (tree) => {
        const document = { components: { schemas: { S: tree } }, body: { $ref: '#/components/schemas/S' } };
        for (const pointer of pointersOf(tree)) {
          expect(documentPointer(document, '/body', pointer)).toBe(`/components/schemas/S${pointer}`);
        }
      }),
      { numRuns: 200, seed: 12 },
    );
  });
});
