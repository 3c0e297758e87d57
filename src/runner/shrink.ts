import type fc from 'fast-check';
import { caseSalt, type GeneratedCase } from './cases.js';
import type { CheckDefinition, JudgeContext } from './check.js';
import { sendSequence } from './execute.js';
import { alwaysFreshIds, unclaimedFreshIds, type FreshIds } from './generate/fresh-ids.js';
import { isValidNewPlant } from './generate/new-plant.js';
import type { Exchange, TargetClient } from './http/client.js';
import type { PlannedRequest } from './probe.js';
import { UNREACHABLE } from './http/transport-errors.js';
import { reasonShape } from './findings.js';
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
  // A target that accepted a request stored its ids: later candidates must not repeat the exact
  // ones, or the target's answer to a repeat would pass for the defect.
  const storedSome = (exchanges: readonly Exchange[]): boolean =>
    exchanges.some((exchange) => exchange.response.status >= 200 && exchange.response.status < 300);
  let stored = storedSome(first.exchanges);
  let current: Counterexample = { ...first, alwaysFresh: stored };
  let sent = 0;
  let improved = true;
  while (improved) {
    improved = false;
    let position = 0;
    for (const candidate of options.arbitrary.shrink(current.value.value, current.value.context)) {
      if (sent >= options.maxSteps || Date.now() > options.deadline) break;
      const path = [...current.path, position++];
      const alwaysFresh = stored;
      const plans = generated.probe.plan(candidate.value, {
        contract: options.contract,
        fresh: alwaysFresh ? alwaysFreshIds(options.fresh) : unclaimedFreshIds(options.fresh, generated.claimedIds),
        salt: caseSalt(generated.probe, generated.index, path),
      });
      // A candidate must stay in its class: a valid case valid and an invalid one invalid, or the
      // smaller counterexample would show another defect than the one found.
      if (!keepsValidityClass(options.contract, plans)) continue;
      sent++;
      const exchanges = await sendSequence(options.client, plans);
      // The target went away (e.g. the case crashed it): nothing sent now can fail for the defect.
      if (newlyUnreachable(exchanges, current.exchanges))
        return { counterexample: current, steps: current.path.length };
      stored ||= storedSome(exchanges);
      const verdict = judgeCase(check, exchanges, options.judgeContext);
      if (verdict?.outcome === 'fail' && sameDefect(check, verdict, current.verdict)) {
        current = { value: candidate, path, exchanges, verdict, alwaysFresh };
        improved = true;
        break;
      }
    }
  }
  return { counterexample: current, steps: current.path.length };
}

/**
 * Whether a candidate fails for the defect being shrunk: a candidate failing for another (a wrong refusal
 * status beside an accepted out-of-range id) would trade the defect found for the one already shown.
 */
export function sameDefect(check: Pick<CheckDefinition, 'id'>, candidate: CaseVerdict, current: CaseVerdict): boolean {
  return defectShape(check, candidate) === defectShape(check, current);
}

/** What a failing verdict is a case of, whatever the values it was found with: its defect, else its reason's shape. */
export function defectShape(
  check: Pick<CheckDefinition, 'id'>,
  verdict: Pick<CaseVerdict, 'defect' | 'reason'>,
): string {
  // A reason's shape keeps small numbers (statuses, counts): a string shrunk from 22 to 21 units is the same defect.
  return verdict.defect ?? reasonShape(String(check.id), verdict.reason ?? 'failed').replace(/\d+/g, '#');
}

/** Whether every planned request's body is still what its intent says: valid or invalid for the document. */
export function keepsValidityClass(contract: Contract, plans: readonly PlannedRequest[]): boolean {
  return plans.every((plan) => {
    const { kind } = plan.intent;
    if (plan.body === null) return true;
    // An invalid parameter is sent with a valid NewPlant: an invalid body would be another defect.
    if (kind === 'valid' || kind === 'valid-variant' || kind === 'invalid-parameter')
      return isValidNewPlant(contract, plan.body);
    if (kind === 'invalid-body') return !isValidNewPlant(contract, plan.body);
    return true;
  });
}

/** Whether `exchanges` found nothing listening, while the counterexample so far had not. */
function newlyUnreachable(exchanges: readonly Exchange[], before: readonly Exchange[]): boolean {
  const unreachable = (list: readonly Exchange[]) =>
    list.some((exchange) => UNREACHABLE.has(exchange.response.transportError ?? ''));
  return unreachable(exchanges) && !unreachable(before);
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
