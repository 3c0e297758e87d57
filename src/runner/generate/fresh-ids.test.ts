import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { claimingUntilEnd, createFreshIds, FRESH_BITS } from './fresh-ids.js';

/** The derivation every recorded nonce and replay string was made with. */
function recordedBits(nonce: string, salt: string): bigint {
  const digest = createHash('sha256').update(`${nonce}\u0000${salt}`).digest();
  return (digest.readBigUInt64BE(0) % (1n << FRESH_BITS)) + 1n;
}

describe('createFreshIds', () => {
  it('gives each salt the bits the sha256 derivation of nonce and salt has always given', () => {
    const fresh = createFreshIds('3ec361e03d09479f');
    for (const salt of ['preflight-seed', 'valid-plant:0::id', 'auth:17:0.1.2:id:invalid', 'ünïcödé 🌱']) {
      expect(fresh.bits(salt)).toBe(recordedBits('3ec361e03d09479f', salt));
    }
  });
});

describe('claimingUntilEnd', () => {
  it('claims until its end, then takes only ids no one claimed and claims none of them', () => {
    const fresh = createFreshIds('ab');
    const early = claimingUntilEnd(fresh);
    expect(early.fresh.claim(1n)).toBe(true);
    expect(fresh.claimed(1n)).toBe(true);
    early.end();
    expect(fresh.claim(2n)).toBe(true);
    expect(early.fresh.claim(2n)).toBe(false);
    expect(early.fresh.claim(3n)).toBe(true);
    expect(fresh.claimed(3n)).toBe(false);
  });
});
