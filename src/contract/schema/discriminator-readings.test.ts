import { Ajv } from 'ajv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DISCRIMINATOR_VALUES } from '../discriminator-values.js';
import { parseExactJson, stringifyExactJson } from '../exact-json.js';
import { compileSchema } from './compile.js';

/**
 * springdoc's sealed hierarchy (HK11's d08): a Tree or a Herb, each `allOf` an open base with `kind` any string. As
 * JSON Schema alone reads it every Tree is also a Herb (Herb adds only an optional member), so oneOf fails for it.
 */
function springdocKinds(herbRequires: string[] = []): Record<string, unknown> {
  const base = {
    type: 'object',
    required: ['id', 'name', 'kind'],
    properties: {
      id: { type: 'integer', format: 'int64' },
      name: { type: 'string' },
      kind: { type: 'string' },
    },
  };
  const tree = {
    allOf: [
      base,
      { type: 'object', required: ['heightM'], properties: { heightM: { type: 'number', minimum: 0, maximum: 120 } } },
    ],
  };
  const herb = {
    allOf: [base, { type: 'object', required: herbRequires, properties: { culinary: { type: 'boolean' } } }],
  };
  return {
    oneOf: [tree, herb],
    discriminator: {
      propertyName: 'kind',
      mapping: { TREE: '#/components/schemas/Tree', HERB: '#/components/schemas/Herb' },
    },
    [DISCRIMINATOR_VALUES]: [['TREE'], ['HERB']],
  };
}

/** JSON Schema's reading alone, by a validator that is not ours (python-jsonschema's, ajv's). */
function plainOneOf(schema: Record<string, unknown>): (value: unknown) => boolean {
  const written = JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
  delete written.discriminator;
  delete written[DISCRIMINATOR_VALUES];
  const validate = new Ajv({ strict: false }).compile(written);
  return (value) => validate(value);
}

function sample(schema: Record<string, unknown>, seed: number): Record<string, unknown>[] {
  const compiled = compileSchema(schema, { dialect: 'openapi-3.0', subject: 'a NewPlant' });
  return fc
    .sample(compiled.valid, { numRuns: 150, seed })
    .map((value) => JSON.parse(stringifyExactJson(value)) as Record<string, unknown>);
}

describe('a discriminated oneOf whose branches overlap as JSON Schema alone reads them', () => {
  it('generates only values both readings take: a mapped kind, and one branch as written', () => {
    const schema = springdocKinds();
    const plain = plainOneOf(schema);
    const values = sample(schema, 7);
    expect(values.filter((value) => !plain(value))).toEqual([]);
    expect(new Set(values.map((value) => value.kind))).toEqual(new Set(['HERB']));
  });

  it('still generates each kind whose values match one branch only', () => {
    const schema = springdocKinds(['culinary']);
    const plain = plainOneOf(schema);
    const values = sample(schema, 3);
    expect(values.filter((value) => !plain(value))).toEqual([]);
    expect(new Set(values.map((value) => value.kind))).toEqual(new Set(['TREE', 'HERB']));
  });

  it('judges an answer by either reading, and faults one that neither takes', () => {
    const compiled = compileSchema(springdocKinds(), { dialect: 'openapi-3.0', subject: 'a Plant' });
    const judge = (text: string) => compiled.check(parseExactJson(text)).map(({ keyword }) => keyword);
    expect(judge('{"id":1,"name":"Oak","kind":"TREE","heightM":3}')).toEqual([]);
    expect(judge('{"id":1,"name":"Basil","kind":"any text"}')).toEqual([]);
    // Prism's dynamic mock: no mapped kind, and a Tree and a Herb at once.
    expect(judge('{"id":1,"name":"x","kind":"adipisicing culpa","heightM":106.86}')).toEqual(['anyOf']);
  });

  it('names the reading a value is valid under only one of as its ambiguity', () => {
    const compiled = compileSchema(springdocKinds(), { dialect: 'openapi-3.0', subject: 'a NewPlant' });
    const ambiguous = (text: string) => compiled.ambiguities(parseExactJson(text)).map(({ keyword }) => keyword);
    expect(ambiguous('{"id":1,"name":"Oak","kind":"TREE","heightM":3}')).toEqual(['oneOf']);
    expect(ambiguous('{"id":1,"name":"Basil","kind":"any text"}')).toEqual(['oneOf']);
    expect(ambiguous('{"id":1,"name":"Basil","kind":"HERB"}')).toEqual([]);
  });

  it("falls back to the discriminator's reading when no value is valid under both", () => {
    const schema = springdocKinds();
    const [tree, herb] = schema.oneOf as Record<string, unknown>[];
    // Each kind now only optional members of its own: every value matches both branches as written.
    (tree?.allOf as Record<string, unknown>[])[1] = { type: 'object', properties: { heightM: { type: 'number' } } };
    schema.oneOf = [tree, herb];
    const values = sample(schema, 5);
    expect(new Set(values.map((value) => value.kind))).toEqual(new Set(['TREE', 'HERB']));
  });
});
