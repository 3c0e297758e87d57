import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileSchema, ContractError, type SchemaCheck } from '../contract/index.js';
import { objectView } from '../contract/object-view.js';
import { fillValues } from './schema-fill.js';

/** Accepts an object whose `kind` is "a" or "b", as a compiled check would. */
const check: SchemaCheck = (value) =>
  ['a', 'b'].includes(String((value as Record<string, unknown>).kind))
    ? []
    : [
        {
          kind: 'constraint',
          field: 'kind',
          keyword: 'enum',
          pointer: '/kind',
          message: 'field "kind" must be one of a, b',
        },
      ];

const fill = (kind: Record<string, unknown>, sample: unknown): string | undefined => {
  const written = objectView({ required: ['kind'], properties: { kind } });
  const source = { check, sample: () => sample as never, subject: 'The Plant schema', written };
  return fillValues(['kind'], source).get('kind');
};

describe('fillValues', () => {
  it('takes a valid default first, then a valid example, then one of the examples', () => {
    expect(fill({ default: 'a', example: 'b' }, { kind: 'b' })).toBe('"a"');
    expect(fill({ default: 'z', example: 'b' }, { kind: 'a' })).toBe('"b"');
    expect(fill({ examples: ['z', 'b'] }, { kind: 'a' })).toBe('"b"');
  });

  it('falls back to the generated valid value when the document offers none that is valid', () => {
    expect(fill({ default: 'z' }, { kind: 'b' })).toBe('"b"');
    expect(fill({}, { kind: 'a' })).toBe('"a"');
  });

  it('refuses, naming the property, when nothing valid can be found', () => {
    expect(() => fill({ default: 'z' }, undefined)).toThrow(ContractError);
    expect(() => fill({}, undefined)).toThrow(/requires "kind"/);
  });
});

describe('fillValues for a property the server sets', () => {
  const schemaOf = (createdAt: Record<string, unknown>) => ({
    type: 'object',
    required: ['createdAt'],
    properties: { createdAt: { type: 'string', readOnly: true, ...createdAt } },
  });
  const fillCreatedAt = (createdAt: Record<string, unknown>): string => {
    const schema = schemaOf(createdAt);
    const compiled = compileSchema(schema, { dialect: 'openapi-3.1', subject: 'a Plant' });
    const sample = () => fc.sample(compiled.valid, { seed: 20261123, numRuns: 1 })[0];
    const source = { check: compiled.check, sample, subject: 'The Plant schema', written: objectView(schema) };
    return JSON.parse(fillValues(['createdAt'], source).get('createdAt') ?? 'null') as string;
  };

  it('fills a date-time with the current time as toISOString writes it, a date with today, a uuid with a random one', () => {
    const before = new Date().toISOString();
    const filled = fillCreatedAt({ format: 'date-time', example: '2020-01-01T00:00:00Z' });
    expect(filled >= before && filled <= new Date().toISOString()).toBe(true);
    expect(filled).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(fillCreatedAt({ format: 'date' })).toBe(new Date().toISOString().slice(0, 10));
    expect(fillCreatedAt({ format: 'uuid' })).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it('keeps to the document where the current time does not satisfy the schema', () => {
    expect(fillCreatedAt({ format: 'date-time', maxLength: 20, example: '1999-12-31T23:59:59Z' })).toBe(
      '1999-12-31T23:59:59Z',
    );
    expect(fillCreatedAt({ format: 'date-time', const: '2001-02-03T04:05:06Z' })).toBe('2001-02-03T04:05:06Z');
  });
});
