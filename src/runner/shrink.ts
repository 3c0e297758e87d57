import type fc from 'fast-check';
import { caseSalt, type GeneratedCase } from './cases.js';
import type { CheckDefinition, JudgeContext } from './check.js';
import { sendSequence } from './execute.js';
import { alwaysFreshIds, unclaimedFreshIds, type FreshIds } from './generate/fresh-ids.js';
import type { Exchange, TargetClient } from './http/client.js';
import { judgeCase, type CaseVerdict } from './verdicts.js';
import type { Contract } from '../contract/index.js';

/** A counterexample: the value, the shrink path that led to it, what was sent and the verdict. */
export interface Counterexample {
  readonly value: fc.Value<unknown>;
  /** Index taken in each successive shrink stream; empty for the case as generated. */
  readonly path: readonly number[];
  readonly exchanges: readonly Exchange[];
  readonly verdict: CaseVerdict;
  /** Set when shrink candidates were sent with every id fresh (the target had stored the case). */
  readonly alwaysFresh?: boolean;
}

export interface ShrinkOptions {
  readonly contract: Contract;
  readonly client: TargetClient;
  readonly fresh: FreshIds;
  readonly judgeContext: JudgeContext;
  readonly arbitrary: fc.Arbitrary<unknown>;
  /** Most candidates sent. */
  readonly maxSteps: number;
  /** `Date.now()` after which shrinking stops with the smallest failure so far. */
  readonly deadline: number;
}

/**
 * Greedy shrinking with the arbitrary's own shrinker: send each candidate (with fresh ids of its
 * own, since the target keeps state) and move to the first one on which the check still fails.
 * Sequential on purpose: candidates depend on the previous answer.
 */
export async function shrinkCounterexample(
  check: CheckDefinition,
  generated: GeneratedCase,
  first: Counterexample,
  options: ShrinkOptions,
): Promise<{ counterexample: Counterexample; steps: number }> {
  let current = first;
  let sent = 0;
  let improved = true;
  // A target that accepted the case stored its ids: candidates must not repeat the exact ones.
  const stored = first.exchanges.some((exchange) => exchange.response.status >= 200 && exchange.response.status < 300);
  const fresh = stored ? alwaysFreshIds(options.fresh) : unclaimedFreshIds(options.fresh);
  while (improved) {
    improved = false;
    let position = 0;
    for (const candidate of options.arbitrary.shrink(current.value.value, current.value.context)) {
      if (sent >= options.maxSteps || Date.now() > options.deadline)
        return { counterexample: { ...current, alwaysFresh: stored }, steps: current.path.length };
      const path = [...current.path, position++];
      const plans = generated.probe.plan(candidate.value, {
        contract: options.contract,
        fresh,
        salt: caseSalt(generated.probe, generated.index, path),
      });
      sent++;
      const exchanges = await sendSequence(options.client, plans);
      const verdict = judgeCase(check, exchanges, options.judgeContext);
      if (verdict?.outcome === 'fail') {
        current = { value: candidate, path, exchanges, verdict };
        improved = true;
        break;
      }
    }
  }
  return { counterexample: { ...current, alwaysFresh: stored }, steps: current.path.length };
}

/** Follows a recorded shrink path from a generated value: the value a replay string names. */
export function followShrinkPath(
  arbitrary: fc.Arbitrary<unknown>,
  start: fc.Value<unknown>,
  path: readonly number[],
): fc.Value<unknown> | undefined {
  let current = start;
  for (const step of path) {
    let position = 0;
    let found: fc.Value<unknown> | undefined;
    for (const candidate of arbitrary.shrink(current.value, current.context)) {
      if (position++ === step) {
        found = candidate;
        break;
      }
    }
    if (!found) return undefined;
    current = found;
  }
  return current;
}
