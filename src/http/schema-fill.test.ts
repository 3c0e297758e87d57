import { describe, expect, it } from 'vitest';
import { ContractError, type SchemaCheck } from '../contract/index.js';
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
