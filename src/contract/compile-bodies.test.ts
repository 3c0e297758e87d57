import { describe, expect, it } from 'vitest';
import { compileBody, withExactIntegers, withoutKeyword } from './compile-bodies.js';
import { parseExactJson } from './exact-json.js';

/** A recursive schema: a node whose children are nodes. */
function tree(extra: Record<string, unknown>, name: Record<string, unknown> = { type: 'string' }) {
  const node: Record<string, unknown> = { type: 'object', required: ['name'], ...extra };
  node.properties = { name, children: { type: 'array', items: node } };
  return node;
}

describe('compileBody', () => {
  it('compiles a recursive schema', () => {
    const result = compileBody({
      schema: tree({}),
      dialect: 'openapi-3.1',
      subject: 'a NewPlant',
      name: 'NewPlant',
      locate: (pointer) => `/components/schemas/Tree${pointer}`,
    });
    expect(result.problems).toEqual([]);
    expect(result.compiled?.check(parseExactJson('{"name":"a","children":[{"name":"b"}]}'))).toEqual([]);
  });

  it('names every construct it cannot honour, each at its place, and compiles nothing', () => {
    const schema = tree({ unevaluatedItems: false }, { type: 'string', pattern: '(?<=a)b' });
    const result = compileBody({
      schema,
      dialect: 'openapi-3.1',
      subject: 'a NewPlant',
      name: 'NewPlant',
      locate: (pointer) => `/components/schemas/Tree${pointer}`,
    });
    expect(result.compiled).toBeUndefined();
    expect(result.problems.map((problem) => problem.pointer).sort()).toEqual([
      '/components/schemas/Tree/properties/name/pattern',
      '/components/schemas/Tree/unevaluatedItems',
    ]);
    expect(result.problems[0]?.message).toMatch(/^the NewPlant schema's "\w+" cannot be honoured: /);
    expect(schema.unevaluatedItems).toBe(false);
  });

  it('says where the compiler saw a refused keyword when the document does not write it there', () => {
    const result = compileBody({
      schema: { type: 'array', unevaluatedItems: false },
      dialect: 'openapi-3.1',
      subject: 'an Error',
      name: 'Error',
      locate: (pointer) => (pointer === '' ? '/components/schemas/Error' : undefined),
    });
    expect(result.problems.map((problem) => problem.pointer)).toEqual(['/components/schemas/Error']);
    expect(result.problems[0]?.message).toMatch(
      /^the Error schema's "unevaluatedItems" \(at \/unevaluatedItems of the schema as plantstore reads it\) cannot be honoured/,
    );
  });
});

describe('withoutKeyword', () => {
  it('removes one keyword from a copy, keeping cycles, and leaves the original alone', () => {
    const schema = tree({ minProperties: 1 });
    const copy = withoutKeyword(schema, '/properties/children/items/minProperties');
    expect(copy?.minProperties).toBeUndefined();
    const items = (copy?.properties as { children: { items: unknown } }).children.items;
    expect(items).toBe(copy);
    expect(schema.minProperties).toBe(1);
    expect(withoutKeyword(schema, '/properties/nowhere/minLength')).toBeUndefined();
  });
});

describe('withExactIntegers', () => {
  it('puts the exact integer back where a parser rounded it, in a copy', () => {
    const id = { type: 'integer', maximum: 9007199254740992 };
    const schema = { properties: { id } };
    const exact = withExactIntegers(schema, new Map([[id, new Map([['maximum', 9007199254740993n]])]]));
    expect(exact).toEqual({ properties: { id: { type: 'integer', maximum: 9007199254740993n } } });
    expect(id.maximum).toBe(9007199254740992);
    expect(withExactIntegers(schema, new Map())).toBe(schema);
  });
});
