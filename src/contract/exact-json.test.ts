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
});
