import { describe, expect, it } from 'vitest';
import { compileSchema } from './compile.js';
import type { SchemaDialect } from './compiled-schema.js';

const compile = (schema: object, dialect: SchemaDialect) => compileSchema(schema, { dialect, subject: 'a NewPlant' });

describe('what a schema says survives the merging of its allOf parts', () => {
  // OpenAPI 3.0: nullable beside an enum without null leaves null open (either reading conforms).
  const tag = { type: 'string', enum: ['cactus', 'fern'], nullable: true };
  it.each([
    ['written on the property', { type: 'object', properties: { tag } }],
    ['inside an allOf of the property', { type: 'object', properties: { tag: { allOf: [tag], description: 'x' } } }],
    [
      'in one of two allOf parts that both declare it',
      {
        allOf: [
          { type: 'object', properties: { tag } },
          { type: 'object', properties: { tag: { maxLength: 9 } } },
        ],
      },
    ],
  ])('a null left open by nullable beside an enum stays open %s', (_where, schema) => {
    const compiled = compile(schema, 'openapi-3.0');
    expect(compiled.check({ tag: null })).toEqual([]);
    expect(compiled.ambiguities({ tag: null }).map((violation) => violation.keyword)).toEqual(['enum']);
    expect(compiled.check({ tag: 'rose' }).map((violation) => violation.keyword)).toEqual(['enum']);
  });

  it('a null refused by another part (type string) is refused after the merge', () => {
    const schema = { allOf: [{ type: 'object', properties: { tag } }, { properties: { tag: { type: 'string' } } }] };
    const compiled = compile(schema, 'openapi-3.0');
    expect(compiled.check({ tag: null }).map((violation) => violation.keyword)).toContain('type');
    expect(compiled.ambiguities({ tag: null })).toEqual([]);
  });

  it('an object closed by unevaluatedProperties: false gets its undeclared-property case named so', () => {
    const part = { type: 'object', required: ['name'], properties: { name: { type: 'string' } } };
    const closed = { allOf: [part], required: ['id'], properties: { id: { type: 'integer' } } };
    const labels = (schema: object) =>
      compile(schema, 'openapi-3.1')
        .invalid.filter((variant) => /Properties$/.test(variant.keyword))
        .map((variant) => `${variant.keyword}: ${variant.label}`);
    expect(labels({ ...closed, unevaluatedProperties: false })).toEqual([
      'unevaluatedProperties: unexpected present though unevaluatedProperties is false (an undeclared property "unexpected")',
    ]);
    expect(labels({ ...part, additionalProperties: false })).toEqual([
      'additionalProperties: unexpected present though additionalProperties is false (an undeclared property "unexpected")',
    ]);
  });
});
