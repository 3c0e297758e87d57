import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseExactJson, stringifyExactJson } from '../exact-json.js';
import { compileSchema, type ValueVariant } from './index.js';

const schema = compileSchema(
  {
    type: 'object',
    required: ['name'],
    properties: {
      name: { type: 'string', minLength: 3, maxLength: 64 },
      code: { type: 'string', pattern: '^[A-Z]+$', maxLength: 8 },
    },
  },
  { dialect: 'openapi-3.1', subject: 'NewPlant' },
);

function astralVariant(keyword: string, pointer = '/name'): ValueVariant | undefined {
  return [...schema.boundaries, ...schema.invalid].find(
    (variant) => variant.keyword === keyword && variant.pointer === pointer && variant.label.includes('astral'),
  );
}

function names(variant: ValueVariant): string[] {
  return fc.sample(variant.arbitrary, { numRuns: 30, seed: 5 }).map((value) => (value as { name: string }).name);
}

describe('length edges with an astral character (a server counting UTF-16 units misjudges them)', () => {
  test('the longest valid string is sent with an astral character: maxLength code points, one more UTF-16 unit', () => {
    const variant = astralVariant('maxLength');
    expect(variant?.valid).toBe(true);
    for (const name of names(variant as ValueVariant)) {
      expect([...name]).toHaveLength(64);
      expect(name).toHaveLength(65);
    }
  });

  test('a string one code point too short reaches minLength in UTF-16 units, and is refused', () => {
    const variant = astralVariant('minLength') as ValueVariant;
    expect(variant.valid).toBe(false);
    for (const value of fc.sample(variant.arbitrary, { numRuns: 30, seed: 5 })) {
      const { name } = value as { name: string };
      expect([...name]).toHaveLength(2);
      expect(name).toHaveLength(3);
      expect(schema.check(parseExactJson(stringifyExactJson(value))).map((problem) => problem.keyword)).toEqual([
        'minLength',
      ]);
    }
  });

  test('a patterned string gets none: its pattern decides its characters', () => {
    expect(astralVariant('maxLength', '/code')).toBeUndefined();
  });
});
