import { createHash } from 'node:crypto';
import { Random } from 'fast-check';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { describe, expect, it } from 'vitest';
import { caseRandom } from './case-random.js';

/** The derivation every recorded seed and replay string was made with. */
function recordedRandom(seed: number, probe: string, index: number): Random {
  const digest = createHash('sha256').update(`${seed}\u0000${probe}\u0000${index}`).digest();
  return new Random(xoroshiro128plus(digest.readInt32BE(0)));
}

describe('caseRandom', () => {
  it('draws what the sha256 derivation of seed, probe and index has always drawn', () => {
    for (const [seed, probe, index] of [
      [1, 'valid', 0],
      [42, 'invalid-body', 17],
      [-7, 'ünïcödé', 1999],
    ] as const) {
      const draws = (random: Random): number[] => Array.from({ length: 5 }, () => random.nextInt(0, 1_000_000));
      expect(draws(caseRandom(seed, probe, index))).toEqual(draws(recordedRandom(seed, probe, index)));
    }
  });
});
