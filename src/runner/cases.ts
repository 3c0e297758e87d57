import type fc from 'fast-check';
import type { Contract } from '../contract/index.js';
import { caseBias, caseRandom } from './generate/case-random.js';
import { alwaysFreshIds, recordingClaims, unclaimedFreshIds, type FreshIds } from './generate/fresh-ids.js';
import type { PlannedRequest, Probe } from './probe.js';

/** One generated case: the fast-check Value (kept for shrinking) and the requests it became. */
export interface GeneratedCase {
  readonly probe: Probe<unknown>;
  readonly index: number;
  readonly value: fc.Value<unknown>;
  readonly plans: readonly PlannedRequest[];
  /** The fixed ids this case claimed for the run: its shrink candidates may send them again. */
  readonly claimedIds: readonly bigint[];
}

/** Everything generation depends on: same inputs, same cases. */
export interface GenerationInputs {
  readonly contract: Contract;
  readonly seed: number;
  readonly runs: number;
  readonly fresh: FreshIds;
  readonly arbitraries: ArbitraryCache;
}

/**
 * How many cases a probe gets in a run of `runs`: its share, and at least one per variant; none for a
 * probe with no variants for this document (the invalid parameters of a document that declares none).
 */
export function caseCount(probe: Probe<unknown>, runs: number, contract: Contract): number {
  const variants = probe.variants?.(contract) ?? 1;
  if (variants === 0) return 0;
  return Math.max(1, variants, Math.round(runs * probe.share));
}

/** The salt naming a case (and a shrink path below it) for its fresh ids; part of the replay string. */
export function caseSalt(probe: Probe<unknown>, index: number, path: readonly number[]): string {
  return `${probe.name}:${index}:${path.join('.')}`;
}

/**
 * The requests of a case's value (the generated one, or a shrink candidate at `path`), as shrinking sends them
 * and a replay string renders them again: fixed ids as the case claimed them, or with `alwaysFresh` every id
 * fresh (the target may hold the case). One function, so that a replay sends what was shown.
 */
export function plansAt(
  generated: GeneratedCase,
  value: unknown,
  path: readonly number[],
  alwaysFresh: boolean,
  inputs: { readonly contract: Contract; readonly fresh: FreshIds },
): PlannedRequest[] {
  return generated.probe.plan(value, {
    contract: inputs.contract,
    fresh: alwaysFresh ? alwaysFreshIds(inputs.fresh) : unclaimedFreshIds(inputs.fresh, generated.claimedIds),
    salt: caseSalt(generated.probe, generated.index, path),
  });
}

/**
 * One arbitrary instance per probe variant per run: shrink contexts belong to the instance that
 * generated them, and building one per case would cost more than generating.
 */
export type ArbitraryCache = (probe: Probe<unknown>, index: number) => fc.Arbitrary<unknown>;

export function createArbitraryCache(contract: Contract): ArbitraryCache {
  const cache = new Map<Probe<unknown>, Map<number, fc.Arbitrary<unknown>>>();
  return (probe, index) => {
    const variant = index % (probe.variants?.(contract) ?? 1);
    let arbitraries = cache.get(probe);
    if (!arbitraries) {
      arbitraries = new Map();
      cache.set(probe, arbitraries);
    }
    let arbitrary = arbitraries.get(variant);
    if (!arbitrary) {
      arbitrary = probe.arbitrary(contract, variant);
      arbitraries.set(variant, arbitrary);
    }
    return arbitrary;
  };
}

/**
 * Generates every case of every probe, in probe order then index order, lazily: the runner sends
 * the first cases while later ones are still to be generated. The order never changes, so fixed
 * ids are claimed the same way on every run with the same seed.
 */
export function* iterateCases(probes: readonly Probe<unknown>[], inputs: GenerationInputs): Generator<GeneratedCase> {
  for (const probe of probes) {
    // Counted once per probe: a probe's variants are derived from the document on each call.
    const count = caseCount(probe, inputs.runs, inputs.contract);
    const variants = probe.variants?.(inputs.contract) ?? 1;
    for (let index = 0; index < count; index++) {
      const arbitrary = inputs.arbitraries(probe, index);
      const value = arbitrary.generate(caseRandom(inputs.seed, probe.name, index), caseBias(index, variants));
      const salt = caseSalt(probe, index, []);
      const claimedIds: bigint[] = [];
      const fresh = recordingClaims(inputs.fresh, claimedIds);
      const plans = probe.plan(value.value, { contract: inputs.contract, fresh, salt });
      yield { probe, index, value, plans, claimedIds };
    }
  }
}

/** Every case of every probe, generated at once (see {@link iterateCases}). */
export function generateCases(probes: readonly Probe<unknown>[], inputs: GenerationInputs): GeneratedCase[] {
  return [...iterateCases(probes, inputs)];
}
