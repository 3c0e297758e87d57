import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseExactJson } from '../exact-json.js';
import { compileSchema, UnsupportedSchemaError } from './index.js';

const composed = {
  type: 'object',
  allOf: [{ type: 'object', required: ['name'], properties: { name: { type: 'string' } } }],
  required: ['id'],
  properties: { id: { type: 'integer' } },
  unevaluatedProperties: false,
};

describe('unevaluatedProperties', () => {
  it('closes an object over its own and its allOf parts’ properties, as additionalProperties would', () => {
    const schema = compileSchema(composed, { dialect: 'openapi-3.1', subject: 'a NewPlant' });
    expect(schema.check(parseExactJson('{"id":1,"name":"Fern"}'))).toEqual([]);
    expect(schema.check(parseExactJson('{"id":1,"name":"Fern","x":1}')).map((v) => v.keyword)).toEqual([
      'additionalProperties',
    ]);
    // Named by the keyword the document wrote, judged as the additionalProperties it means here.
    expect(schema.invalid.filter((variant) => variant.keyword === 'unevaluatedProperties')).toMatchObject([
      { judgedAs: 'additionalProperties' },
    ]);
  });

  it('takes a schema too: undeclared properties must match it', () => {
    const typed = { ...composed, unevaluatedProperties: { type: 'string' } };
    const schema = compileSchema(typed, { dialect: 'openapi-3.1', subject: 'a NewPlant' });
    expect(schema.check(parseExactJson('{"id":1,"name":"Fern","x":"y"}'))).toEqual([]);
    expect(schema.check(parseExactJson('{"id":1,"name":"Fern","x":1}'))).not.toEqual([]);
  });

  it('is refused beside oneOf, where which properties count as evaluated depends on the value', () => {
    const alternatives = { ...composed, oneOf: [{ required: ['a'] }, { required: ['b'] }] };
    expect(() => compileSchema(alternatives, { dialect: 'openapi-3.1', subject: 'a NewPlant' })).toThrow(
      UnsupportedSchemaError,
    );
  });
});

describe('if/then/else', () => {
  const conditional = {
    type: 'object',
    required: ['name'],
    properties: { name: { type: 'string' }, tag: { enum: ['herb', 'tree'] }, height: { type: 'number' } },
    if: { properties: { tag: { const: 'tree' } }, required: ['tag'] },
    then: { required: ['height'] },
  };

  it('judges a value by then when it meets if, and lets any other value be', () => {
    const schema = compileSchema(conditional, { dialect: 'openapi-3.1', subject: 'a NewPlant' });
    expect(schema.check(parseExactJson('{"name":"Oak","tag":"tree","height":3}'))).toEqual([]);
    expect(schema.check(parseExactJson('{"name":"Oak","tag":"tree"}'))).not.toEqual([]);
    expect(schema.check(parseExactJson('{"name":"Mint","tag":"herb"}'))).toEqual([]);
  });

  it('generates valid values of both branches, never a tree without a height', () => {
    const schema = compileSchema(conditional, { dialect: 'openapi-3.1', subject: 'a NewPlant' });
    const values = fc.sample(schema.valid, { numRuns: 200, seed: 11 }) as Record<string, unknown>[];
    expect(values.filter((value) => value.tag === 'tree' && !('height' in value))).toEqual([]);
    expect(values.some((value) => value.tag === 'tree')).toBe(true);
    expect(values.some((value) => value.tag !== 'tree')).toBe(true);
  });

  it('keeps then and else without an if as the nothing they say', () => {
    const withoutIf: Record<string, unknown> = { ...conditional };
    delete withoutIf.if;
    const schema = compileSchema(withoutIf, { dialect: 'openapi-3.1', subject: 'a NewPlant' });
    expect(schema.check(parseExactJson('{"name":"Oak","tag":"tree"}'))).toEqual([]);
  });
});
