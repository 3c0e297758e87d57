import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AnswerTimes } from './answer-times.js';

describe('AnswerTimes', () => {
  it('gives a bound at or above the exact quantile and within a fifth of it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 60_000, noNaN: true }), { minLength: 1, maxLength: 200 }),
        fc.double({ min: 0.01, max: 1, noNaN: true }),
        (times, fraction) => {
          const counted = new AnswerTimes();
          for (const ms of times) counted.add(ms);
          const exact = [...times].sort((a, b) => a - b)[Math.ceil(fraction * times.length) - 1]!;
          const bound = counted.quantile(fraction);
          expect(bound).toBeGreaterThanOrEqual(exact - 1e-9);
          expect(bound + 1).toBeLessThanOrEqual((exact + 1) * 2 ** 0.25 + 1e-9);
        },
      ),
      { seed: 42, numRuns: 200 },
    );
  });

  it('is not moved by a few slow answers: nine in ten came quickly', () => {
    const counted = new AnswerTimes();
    for (let index = 0; index < 90; index++) counted.add(20);
    for (let index = 0; index < 8; index++) counted.add(1_200);
    expect(counted.quantile(0.9)).toBeLessThan(25);
    expect(counted.quantile(1)).toBeGreaterThanOrEqual(1_200);
  });

  it('is 0 with no answer', () => {
    expect(new AnswerTimes().quantile(0.9)).toBe(0);
  });
});
