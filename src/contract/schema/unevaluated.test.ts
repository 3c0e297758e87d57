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
    expect(schema.invalid.map((variant) => variant.keyword)).toContain('additionalProperties');
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
