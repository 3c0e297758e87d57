import type fc from 'fast-check';
import { plansAt, type GeneratedCase } from './cases.js';
import type { CheckDefinition, JudgeContext } from './check.js';
import type { AnswerTimes } from './answer-times.js';
import { hangWaitMs, sendSequence } from './execute.js';
import { answersWithin } from './outage.js';
import { isGatewayAnswer } from './judge.js';
import type { FreshIds } from './generate/fresh-ids.js';
import { isValidNewPlant } from './generate/new-plant.js';
import type { Exchange, TargetClient } from './http/client.js';
import type { PlannedRequest } from './probe.js';
import { UNREACHABLE } from './http/transport-errors.js';
import { bodySize, reasonShape } from './findings.js';
import { failingExchange, judgeCase, type CaseVerdict } from './verdicts.js';
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
  /** Set when the target answered every other request well within the timeout: see {@link HangShrinking}. */
  readonly hangs?: HangShrinking;
}

/**
 * How a run that met timeouts, against a target that answers everything else quickly, shrinks: every
 * candidate is given `candidateWaitMs` (far longer than the target took to answer anything), not the
 * run's whole timeout, so a candidate another check's case turns into a hang costs that, not a timeout.
 * A counterexample that timed out takes the candidates unanswered that long, then the smallest ones are
 * sent again together with the whole timeout; the smallest still unanswered is the counterexample, else
 * the case as found. So a hang costs one whole timeout to shrink, not one per step.
 */
export interface HangShrinking {
  readonly candidateWaitMs: number;
  /** `Date.now()` after which no confirmation starts: the case as found is kept. */
  readonly confirmBy: number;
}

/** How many of the smallest hanging candidates are sent again, at once, with the whole timeout. */
export const HANGS_CONFIRMED_AT_ONCE = 3;

/**
 * How a run shrinks ({@link HangShrinking}): when it met timeouts, every candidate waits {@link hangWaitMs}
 * (when that is at most half the timeout); else (also when it met none) every candidate waits the whole timeout.
 */
export function hangShrinking(
  run: { readonly timeoutMs: number; readonly deadline: number },
  answers: { readonly times: AnswerTimes; readonly timeouts: number },
): HangShrinking | undefined {
  if (answers.timeouts === 0 || answers.times.count === 0) return undefined;
  const candidateWaitMs = hangWaitMs(answers.times, run.timeoutMs);
  return candidateWaitMs === undefined ? undefined : { candidateWaitMs, confirmBy: run.deadline - run.timeoutMs };
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
  // A case sent again alone with fresh ids (`alwaysFresh`) may have been stored when it was first sent.
  let stored = storedSome(first.exchanges) || first.alwaysFresh === true;
  // Its own `alwaysFresh` says how the counterexample's requests were rendered, which its replay string
  // repeats: a stored case left as found (no time or steps to shrink) sent the ids it claimed, not fresh ones.
  let current = first;
  const hangs = options.hangs !== undefined && timedOut(first) ? options.hangs : undefined;
  // The candidates taken while waiting less than the timeout, smallest last.
  const unconfirmed: Counterexample[] = [];
  let currentSize = plansSize(first.exchanges.map((exchange) => exchange.plan));
  const gatewayPage = isGatewayAnswer(failingExchange(first.exchanges, first.verdict)?.response ?? { status: 0 });
  let sent = 0;
  let improved = true;
  while (improved) {
    improved = false;
    let position = 0;
    for (const candidate of options.arbitrary.shrink(current.value.value, current.value.context)) {
      if (sent >= options.maxSteps || Date.now() > options.deadline) break;
      const path = [...current.path, position++];
      const alwaysFresh = stored;
      const plans = plansAt(generated, candidate.value, path, alwaysFresh, options);
      // A candidate must stay in its class: a valid case valid and an invalid one invalid, or the
      // smaller counterexample would show another defect than the one found.
      if (!keepsValidityClass(options.contract, plans)) continue;
      // Each candidate of a hang costs a wait: only one that sends less is worth it.
      if (hangs && plansSize(plans) >= currentSize) continue;
      // A gateway's page is what any candidate gets while the service it showed down is away: each is sent
      // once the service answers again, or shrinking ends (a supervisor may take a while).
      if (
        gatewayPage &&
        !(await answersWithin(options.client, Math.min(SERVICE_WAIT_MS, options.deadline - Date.now())))
      )
        break;
      sent++;
      const exchanges = await sendSequence(
        options.client,
        plans,
        options.hangs ? { timeoutMs: options.hangs.candidateWaitMs } : undefined,
      );
      // The target went away (e.g. the case crashed it): nothing sent now can fail for the defect.
      if (newlyUnreachable(exchanges, current.exchanges))
        return { counterexample: current, steps: current.path.length };
      stored ||= storedSome(exchanges);
      const verdict = judgeCase(check, exchanges, options.judgeContext);
      if (verdict?.outcome === 'fail' && sameDefect(check, verdict, current.verdict)) {
        current = { value: candidate, path, exchanges, verdict, alwaysFresh };
        if (hangs) {
          unconfirmed.push(current);
          currentSize = plansSize(plans);
        }
        improved = true;
        break;
      }
    }
  }
  if (hangs) current = await confirmedHang(check, first, unconfirmed, hangs, options);
  return { counterexample: current, steps: current.path.length };
}

/**
 * The smallest of the last {@link HANGS_CONFIRMED_AT_ONCE} hanging candidates still unanswered when sent
 * again with the run's whole timeout (all at once: one timeout for them all), else `first`, which was.
 */
async function confirmedHang(
  check: CheckDefinition,
  first: Counterexample,
  unconfirmed: readonly Counterexample[],
  hangs: HangShrinking,
  options: ShrinkOptions,
): Promise<Counterexample> {
  if (unconfirmed.length === 0 || Date.now() > hangs.confirmBy) return first;
  const smallest = unconfirmed.slice(-HANGS_CONFIRMED_AT_ONCE);
  const again = await Promise.all(
    smallest.map((taken) =>
      sendSequence(
        options.client,
        taken.exchanges.map((exchange) => exchange.plan),
      ),
    ),
  );
  for (let index = smallest.length - 1; index >= 0; index--) {
    const exchanges = again[index]!;
    const verdict = judgeCase(check, exchanges, options.judgeContext);
    if (verdict?.outcome === 'fail' && sameDefect(check, verdict, first.verdict) && timedOut({ exchanges, verdict }))
      return { ...smallest[index]!, exchanges, verdict };
  }
  return first;
}

/** The bodies planned requests send, measured as a finding's request is ({@link bodySize}). */
function plansSize(plans: readonly PlannedRequest[]): number {
  return plans.reduce((size, plan) => size + bodySize(plan.body ?? ''), 0);
}

/** Whether a failing case's judged exchange (else its last) got no answer within its wait. */
function timedOut({ exchanges, verdict }: Pick<Counterexample, 'exchanges' | 'verdict'>): boolean {
  return failingExchange(exchanges, verdict)?.response.transportError === 'timeout';
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
/** Longest wait, before a candidate of a gateway's page, for the service behind it to answer again. */
const SERVICE_WAIT_MS = 3_000;

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
