import fc from 'fast-check';
import { LosslessNumber, stringify } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import {
  JsonDepthError,
  JsonSyntaxError,
  numberText,
  parsedFormOf,
  parseExactJson,
  stringifyExactJson,
} from './exact-json.js';
import { expectSameParse } from './same-parse.case.js';

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

  it('gives every parsed number the text it was written with, short integers included', () => {
    // Short canonical integers are not kept (numberText answers String(value) for them): this pins
    // that the answer is still the written text, through both parsers (a repeated key takes lossless-json).
    const digits = fc.stringMatching(/^[0-9]{1,22}$/);
    const numberText_ = fc.oneof(
      fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 1e15 })).map(([minus, n]) => `${minus ? '-' : ''}${n}`),
      fc.tuple(fc.boolean(), digits).map(([minus, d]) => `${minus ? '-' : ''}${d.replace(/^0+(?=.)/, '')}`),
      fc
        .tuple(fc.boolean(), digits, fc.option(digits), fc.option(fc.tuple(fc.constantFrom('e', 'E+', 'e-'), digits)))
        .map(
          ([minus, whole, fraction, exponent]) =>
            `${minus ? '-' : ''}${whole.replace(/^0+(?=.)/, '')}${fraction === null ? '' : `.${fraction}`}${exponent === null ? '' : `${exponent[0]}${exponent[1]}`}`,
        ),
      fc.constantFrom('0', '-0', '-0.0', '1e2', '100', '999999999999999', '1000000000000000', '-999999999999999'),
    );
    fc.assert(
      fc.property(numberText_, (text) => {
        const plain = parseExactJson(`{"a":${text},"b":[${text}]}`) as Record<string, unknown>;
        const lossless = parseExactJson(`{"a":${text},"a":${text},"b":[${text}]}`) as Record<string, unknown>;
        for (const parsed of [plain, lossless]) {
          expect(numberText(parsed, 'a')).toBe(text);
          expect(numberText(parsed.b as object, 0)).toBe(text);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('answers no text for a value that is not a number, or not an integer of at most 15 digits', () => {
    const value = { text: '5', big: 1e15, fraction: 0.5, negativeZero: -0, small: -42 };
    expect(numberText(value, 'text')).toBeUndefined();
    expect(numberText(value, 'big')).toBeUndefined();
    expect(numberText(value, 'fraction')).toBeUndefined();
    expect(numberText(value, 'negativeZero')).toBeUndefined();
    expect(numberText(value, 'missing')).toBeUndefined();
    expect(numberText(value, 'small')).toBe('-42');
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

  it("parsedFormOf gives what parsing the written text gives, numbers' texts included, or leaves it", () => {
    let read = 0;
    fc.assert(
      fc.property(anyValue, (value) => {
        const parsed = parsedFormOf(value);
        if (parsed === undefined) return;
        read++;
        expectSameParse(parsed, parseExactJson(stringifyExactJson(value)));
      }),
      { numRuns: 3000, seed: 22 },
    );
    // Most generated values hold only what stringifyExactJson writes itself: those are read.
    expect(read).toBeGreaterThan(1000);
  });

  it('parsedFormOf reads values nested as deep as parsing takes, and leaves deeper ones', () => {
    const nested = (levels: number): unknown => (levels === 0 ? 1n : [nested(levels - 1)]);
    expectSameParse(parsedFormOf(nested(256)), parseExactJson(stringifyExactJson(nested(256))));
    expect(parsedFormOf(nested(257))).toBeUndefined();
    expect(() => parseExactJson(stringifyExactJson(nested(257)))).toThrow(JsonDepthError);
  });
});
