import fc from 'fast-check';
import { LosslessNumber, stringify } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { JsonDepthError, JsonSyntaxError, numberText, parseExactJson, stringifyExactJson } from './exact-json.js';

describe('parseExactJson', () => {
  it('keeps the digits of numbers beyond 2^53', () => {
    const value = parseExactJson('{"id": 9007199254740993, "list": [1.0, 1e2]}') as Record<string, unknown>;
    expect(numberText(value, 'id')).toBe('9007199254740993');
    expect(numberText(value.list as object, 0)).toBe('1.0');
    expect(numberText(value.list as object, 1)).toBe('1e2');
    expect(value.id).toBe(9007199254740992);
  });

  it('makes __proto__ and constructor ordinary keys', () => {
    const value = parseExactJson('{"__proto__": {"polluted": true}, "constructor": 1}') as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(value)).toBeNull();
  });

  it('rejects duplicate keys with different values', () => {
    expect(() => parseExactJson('{"id": 1, "id": 2}')).toThrow(JsonSyntaxError);
  });

  it('rejects nesting deeper than the limit without recursing', () => {
    expect(() => parseExactJson('['.repeat(100_000) + ']'.repeat(100_000))).toThrow(JsonDepthError);
  });

  it('turns numbers too large for a double into finite ones, keeping their text', () => {
    const value = parseExactJson('[1e400]') as unknown[];
    expect(value[0]).toBe(Number.MAX_VALUE);
    expect(numberText(value, 0)).toBe('1e400');
  });

  it.each(['', '{', '{"a":1,}', "{'a':1}", '[1 2]', 'NaN', '{"a":"\u0001"}'])('rejects %j as malformed', (text) => {
    expect(() => parseExactJson(text)).toThrow(JsonSyntaxError);
  });
});

describe('stringifyExactJson', () => {
  it('writes bigint values with every digit', () => {
    expect(stringifyExactJson({ id: 9223372036854775807n, name: 'a' })).toBe('{"id":9223372036854775807,"name":"a"}');
  });

  /** Values of every kind lossless-json writes: what generation and parsing make, and what they never do. */
  const anyValue = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.string({ unit: 'binary' }),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.bigInt(),
      fc.constantFrom(-0, NaN, Infinity),
      fc.constantFrom(new LosslessNumber('1.50'), new LosslessNumber('-12e400')),
      fc.constantFrom(undefined, Symbol('s'), () => 1, new Date(0), Object(true), Object('s')),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(fc.constantFrom('a', '__proto__', 'constructor', 'toJSON', '0', 'é"\\'), tie('value'), {
        maxKeys: 4,
      }),
      fc.dictionary(fc.string(), tie('value'), { maxKeys: 3, noNullPrototype: true }),
      fc.constant({ toJSON: () => ({ replaced: 1n }) }),
    ),
  })).value;

  it('writes every value as lossless-json writes it, or throws as it does', () => {
    fc.assert(
      fc.property(anyValue, (value) => {
        const expected = stringify(value);
        if (expected === undefined) expect(() => stringifyExactJson(value)).toThrow(TypeError);
        else expect(stringifyExactJson(value)).toBe(expected);
      }),
      { numRuns: 3000, seed: 21 },
    );
  });
});
