import { hash, randomBytes } from 'node:crypto';

/** How many bits of an id are fresh: enough that runs against the same server practically never collide. */
export const FRESH_BITS = 40n;

/**
 * Fresh id material for one run. Ids have a shape drawn from the seed (which edge, which offset)
 * and fresh bits drawn from the run's nonce, so the structure of a case is reproducible and its
 * value unused by earlier runs against a server that keeps its plants.
 */
export interface FreshIds {
  /** The run's nonce as hex, recorded in replay strings. */
  readonly nonce: string;
  /** A number in 1..2^40, the same for the same salt within a run. */
  bits(salt: string): bigint;
  /**
   * Claims a fixed id for this run; false when an earlier case of the run already sent it. Only
   * consulted while the run's cases are generated, in order, so the answer is reproducible.
   */
  claim(id: bigint): boolean;
  /** Whether a case of the run has claimed this fixed id (and so may have had it stored). Claims nothing. */
  claimed(id: bigint): boolean;
}

/** A random nonce; pass `nonce` to reproduce a recorded run. */
export function createFreshIds(nonce: string = randomBytes(8).toString('hex')): FreshIds {
  const claimed = new Set<bigint>();
  return {
    nonce,
    bits(salt) {
      // One-shot `hash`: the same digest as `createHash`, without a Hash object per id.
      const digest = hash('sha256', `${nonce}\u0000${salt}`, 'buffer');
      return (digest.readBigUInt64BE(0) % (1n << FRESH_BITS)) + 1n;
    },
    claim(id) {
      if (claimed.has(id)) return false;
      claimed.add(id);
      return true;
    },
    claimed: (id) => claimed.has(id),
  };
}

/**
 * For shrink candidates and their replays: a fixed id may be sent when no case of the run claimed it
 * or the shrunk case did itself (`own`); one another case claimed gets fresh bits (the target may
 * hold it from that case, and would answer a repeat). Nothing is claimed, so a replay renders each
 * candidate exactly as the shrinker sent it.
 */
export function unclaimedFreshIds(fresh: FreshIds, own: readonly bigint[] = []): FreshIds {
  return withClaim(fresh, (id) => !fresh.claimed(id) || own.includes(id));
}

/** `fresh`, noting in `claims` each fixed id a claim through it won: the ids a case claimed. */
export function recordingClaims(fresh: FreshIds, claims: bigint[]): FreshIds {
  return withClaim(fresh, (id) => {
    const won = fresh.claim(id);
    if (won) claims.push(id);
    return won;
  });
}

/**
 * `fresh` for work that starts beside the run's cases (the preflight): its claims are made until `end()`, which
 * the run calls before it generates its first case; after that an id no case has claimed is taken without being
 * claimed. A claim made once the cases are being generated would fall between two of them at a moment the network
 * decides, and a replay, which generates every case at once, would give the cases after it other ids than the run
 * sent. (A case generated later may then send such an id again: in a narrow range, which ids may repeat anyway.)
 */
export function claimingUntilEnd(fresh: FreshIds): { readonly fresh: FreshIds; end(): void } {
  let open = true;
  return {
    fresh: withClaim(fresh, (id) => (open ? fresh.claim(id) : !fresh.claimed(id))),
    end: () => {
      open = false;
    },
  };
}

/** A source whose claims always fail: every id gets fresh bits, as a target that stored the case needs. */
export function alwaysFreshIds(fresh: FreshIds): FreshIds {
  return withClaim(fresh, () => false);
}

/**
 * `fresh` with its claims made by `claim`, in one object literal: a spread of `fresh` with `claim`
 * added after it took a slow copy for every case.
 */
export function withClaim(fresh: FreshIds, claim: (id: bigint) => boolean): FreshIds {
  return { nonce: fresh.nonce, bits: (salt) => fresh.bits(salt), claimed: (id) => fresh.claimed(id), claim };
}
