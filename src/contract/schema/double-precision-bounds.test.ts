import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileSchema, type ExactJson } from './index.js';
import { roundingInterval } from './numbers.js';

const TWO_63 = 2n ** 63n;

/** FastAPI's /openapi.json for pydantic 1's `conint(ge=-2**63, le=2**63 - 1)`: the bounds as doubles. */
const FASTAPI_INT64 = { type: 'integer', minimum: -9.223372036854776e18, maximum: 9.223372036854776e18 };

function sample(arbitrary: fc.Arbitrary<ExactJson>): bigint[] {
  return fc.sample(arbitrary, { numRuns: 30, seed: 7 }).map((value) => {
    if (typeof value !== 'bigint') throw new Error(`not an integer: ${JSON.stringify(value)}`);
    return value;
  });
}

describe('bounds written to a double precision beyond 2^53', () => {
  it('stand for the integers that round to that double', () => {
    expect(roundingInterval(2 ** 63)).toEqual({ low: TWO_63 - 512n, high: TWO_63 + 1024n });
    expect(roundingInterval(-(2 ** 63))).toEqual({ low: -TWO_63 - 1024n, high: -TWO_63 + 512n });
    expect(roundingInterval(2 ** 53)).toBeUndefined();
    expect(roundingInterval(1e6)).toBeUndefined();
  });

  it('make cases that every reading agrees on: the text, the double, and the int64 edge the writer meant', () => {
    const schema = compileSchema(FASTAPI_INT64, { dialect: 'openapi-3.0', subject: 'an id' });
    const variants = schema.boundaries.filter((variant) => ['minimum', 'maximum'].includes(variant.keyword));
    expect(variants.map((variant) => `${variant.keyword} ${String(variant.valid)}`).sort()).toEqual([
      'maximum false',
      'maximum true',
      'minimum false',
      'minimum true',
    ]);
    const int64 = (value: bigint): boolean => value >= -TWO_63 && value < TWO_63;
    for (const variant of variants) {
      for (const value of sample(variant.arbitrary)) expect(int64(value), variant.label).toBe(variant.valid);
    }
    for (const value of sample(schema.valid)) expect(int64(value)).toBe(true);
    expect(variants.map((variant) => variant.label)).toContain(
      'the body 9223372036854775296, the highest value surely allowed by maximum 9223372036854776000',
    );
  });

  it('leave a bound written as an exact integer exact', () => {
    const schema = compileSchema(
      { type: 'integer', minimum: 1, maximum: 2n ** 63n - 1n },
      { dialect: 'openapi-3.1', subject: 'an id' },
    );
    const labels = schema.boundaries.map((variant) => variant.label);
    expect(labels).toContain('the body 9223372036854775808, just outside maximum 9223372036854775807');
  });
});
