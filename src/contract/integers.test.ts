import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exactInteger, INT32, INT64, integerProblem } from './integers.js';

describe('exactInteger', () => {
  it.each([
    ['0', 0n],
    ['-0', 0n],
    ['770.0', 770n],
    ['1e2', 100n],
    ['1E+2', 100n],
    ['0.5e1', 5n],
    ['100e-2', 1n],
    ['9223372036854775807', 9223372036854775807n],
    ['-9223372036854775808', -9223372036854775808n],
    ['9007199254740993', 9007199254740993n],
    ['92233720368547758.07e2', 9223372036854775807n],
  ])('reads %s as %s', (text, value) => {
    expect(exactInteger(text)).toBe(value);
  });

  it.each(['1.5', '1e-1', '1.0000000000000000001', '1e-400', '1e400', '1' + '0'.repeat(10_000), 'abc', '', '01', '+1'])(
    'has no int64 value for %s',
    (text) => {
      expect(exactInteger(text.slice(0, 100))).toBeUndefined();
    },
  );

  it('round-trips every int64 written in any JSON spelling', () => {
    fc.assert(
      fc.property(fc.bigInt(INT64.min, INT64.max), fc.nat(5), (value, zeros) => {
        const plain = value.toString();
        expect(exactInteger(plain)).toBe(value);
        expect(exactInteger(`${plain}.${'0'.repeat(zeros + 1)}`)).toBe(value);
        if (value !== 0n) expect(exactInteger(`${plain}${'0'.repeat(zeros)}e-${zeros}`)).toBe(value);
      }),
    );
  });
});

describe('integerProblem', () => {
  it('accepts both ends of int64 and rejects one past either end', () => {
    expect(integerProblem('9223372036854775807', INT64)).toBeUndefined();
    expect(integerProblem('-9223372036854775808', INT64)).toBeUndefined();
    expect(integerProblem('9223372036854775808', INT64)).toMatch(/int64 integer from -9223372036854775808 to/);
    expect(integerProblem('-9223372036854775809', INT64)).toMatch(/int64/);
  });

  it('accepts both ends of int32 and rejects one past either end', () => {
    expect(integerProblem('2147483647', INT32)).toBeUndefined();
    expect(integerProblem('-2147483648', INT32)).toBeUndefined();
    expect(integerProblem('2147483648', INT32)).toMatch(/int32/);
    expect(integerProblem('-2147483649.0', INT32)).toMatch(/int32/);
  });

  it('says a fraction is not a whole number', () => {
    expect(integerProblem('1.5', INT64)).toMatch(/whole number, got 1.5/);
  });

  it('keeps the message short for a number of ten thousand digits', () => {
    const message = integerProblem('9'.repeat(10_000), INT64) ?? '';
    expect(message.length).toBeLessThan(200);
    expect(message).toContain('10000 characters');
  });
});
