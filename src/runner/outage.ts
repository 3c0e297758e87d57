import type { Contract } from '../contract/index.js';
import { plansAt } from './cases.js';
import { answersNow, LIVENESS, livenessOf, sendSequence, type CaseRun, type TargetStopped } from './execute.js';
import type { FreshIds } from './generate/fresh-ids.js';
import type { TargetClient } from './http/client.js';
import { UNREACHABLE } from './http/transport-errors.js';
import { isGatewayAnswer, unansweredHow } from './judge.js';

/** Most requests the target had when it stopped that are sent again, one at a time, to find the cause. */
export const MAX_SUSPECTS = 16;
/** How often a target that stopped answering is asked whether it answers again. */
const POLL_MS = 250;

/**
 * What the runner learnt about a target that stopped answering mid-run: `gone` (it did not answer
 * again within the wait), `restarted` (it answered again, and none of the requests it had then fails
 * again alone), or `caused` (it answered again, and `run`'s request, sent again alone, was cut again:
 * `stoppedAgain` when the target then did not answer at once, as when the request crashes it).
 */
export type OutageCause =
  | {
      readonly kind: 'gone';
      readonly waitedMs: number;
      /**
       * Whether something still takes connections there and drops every request (a reset, a close): not gone,
       * but failing each request. False when nothing listens (refused), or a gateway answers for a service gone.
       */
      readonly listening: boolean;
    }
  | { readonly kind: 'restarted'; readonly afterMs: number }
  | { readonly kind: 'caused'; readonly afterMs: number; readonly run: CaseRun; readonly stoppedAgain: boolean };

export interface Outage {
  readonly cut: TargetStopped;
  /** The cut cases the target had when it stopped ({@link wasInFlight}), at most {@link MAX_SUSPECTS}. */
  readonly suspects: readonly CaseRun[];
  readonly cause: OutageCause;
  /**
   * The case judged for the outage: the request found to stop the target (its second sending), else,
   * when the target did not come back, the first it had when it stopped; none when it came back or had none.
   */
  readonly judged?: CaseRun;
  /** How many of the cut cases were sent again once the target was back, answered and judged. */
  readonly rejudged?: number;
  /** Set when the run went on once the target was back: the cases sent after it. */
  readonly resumed?: number;
  /** An outage before this one, after which the run went on. */
  readonly earlier?: Outage;
}

/** The cases of an outage that got no verdict: cut, and neither the one judged nor one sent again and judged. */
export function unjudgedOf(outage: Outage): number {
  return outage.cut.runs.length - judgedOf(outage);
}

/** The cut cases of an outage that got a verdict: the one judged for it, and those sent again and judged. */
export function judgedOf({ judged, rejudged }: Outage): number {
  return (judged ? 1 : 0) + (rejudged ?? 0);
}

/** {@link unjudgedOf} an outage and of any before it. */
export function unjudgedCases(outage: Outage | undefined): number {
  return outage === undefined ? 0 : unjudgedOf(outage) + unjudgedCases(outage.earlier);
}

/** Whether a case's failure came while the target had its request (not a connection it refused). */
export function wasInFlight(run: CaseRun): boolean {
  const failure = unansweredOf(run);
  return failure !== undefined && !UNREACHABLE.has(failure);
}

/**
 * How a case went without an answer of the service ({@link unansweredHow}: a transport failure's name,
 * or a gateway's `status 502`), at its first exchange that did.
 */
export function unansweredOf(run: CaseRun): string | undefined {
  for (const { response } of run.exchanges) {
    const how = unansweredHow(response);
    if (how !== undefined) return how;
  }
  return undefined;
}

/** Whether a case went without an answer of the service because a gateway answered for it (its 502 or 504 page). */
export function metGatewayPage(run: CaseRun): boolean {
  const first = run.exchanges.find(({ response }) => unansweredHow(response) !== undefined)?.response;
  return first !== undefined && first.transportError === undefined && isGatewayAnswer(first);
}

/**
 * Waits up to `waitMs` for a target that stopped answering to answer again, steadily ({@link answersSteadily}:
 * behind a gateway, every instance); if it does, sends each request it had when it stopped again, alone
 * (cases of one request first, else in the order they ended), every id fresh from `fresh` (the first sending
 * may have been stored), until one stops it again: that one is the cause, with an exact reproduction (its
 * replay names that nonce). The waiting never goes past `deadline`.
 */
export async function settleOutage(
  client: TargetClient,
  cut: TargetStopped,
  options: {
    readonly waitMs: number;
    readonly deadline: number;
    readonly contract: Contract;
    readonly fresh: FreshIds;
  },
): Promise<Outage> {
  const started = Date.now();
  const suspects = cut.runs.filter(wasInFlight).slice(0, MAX_SUSPECTS);
  const waitMs = Math.max(0, Math.min(options.waitMs, options.deadline - started));
  if (!(await answersSteadily(client, waitMs))) {
    const first = suspects[0];
    const cause = { kind: 'gone', waitedMs: Date.now() - started, listening: await dropsEveryRequest(client) } as const;
    return { cut, suspects, cause, ...(first ? { judged: first } : {}) };
  }
  const afterMs = Date.now() - started;
  // Fewest requests first (a stable sort keeps the order they ended in otherwise): each request of a case
  // that hangs costs a whole timeout, and one request alone is the simpler reproduction.
  const inResendOrder = [...suspects].sort((a, b) => a.generated.plans.length - b.generated.plans.length);
  for (const suspect of inResendOrder) {
    if (Date.now() > options.deadline) break;
    const { generated } = suspect;
    const plans = plansAt(generated, generated.value.value, [], true, options);
    const again: CaseRun = { ...suspect, exchanges: await sendSequence(client, plans), nonce: options.fresh.nonce };
    if (!wasInFlight(again)) continue;
    // At once: a supervisor may restart a crashed target within a second.
    const stoppedAgain = !(await answersWithin(client, 0));
    return { cut, suspects, cause: { kind: 'caused', afterMs, run: again, stoppedAgain }, judged: again };
  }
  return { cut, suspects, cause: { kind: 'restarted', afterMs } };
}

/** Whether the target takes a liveness request's connection and then drops it unanswered (see `OutageCause`). */
async function dropsEveryRequest(client: TargetClient): Promise<boolean> {
  const failure = (await client.send(LIVENESS)).response.transportError;
  return failure !== undefined && !UNREACHABLE.has(failure);
}

/**
 * Once a target that stopped answering is back, the cases it cut but the one judged for it, sent again
 * (`concurrency` cases at once, each case's requests in order) with every id fresh from `fresh`, a source of
 * another nonce than the run's: the first sending of a request cut then may have been stored, and so may
 * its resending alone while the cause was sought. Those answered now are returned, carrying that nonce (their
 * replay strings name it), for the run to judge as any case; the others stay without a verdict.
 */
export async function sendCutAgain(
  client: TargetClient,
  outage: Outage,
  options: {
    readonly concurrency: number;
    readonly deadline: number;
    readonly contract: Contract;
    readonly fresh: FreshIds;
  },
): Promise<CaseRun[]> {
  const waiting = outage.cut.runs.filter((run) => run.order !== outage.judged?.order);
  const sentAgain: CaseRun[] = [];
  const worker = async (): Promise<void> => {
    for (let run = waiting.shift(); run !== undefined; run = waiting.shift()) {
      if (Date.now() > options.deadline) return;
      const { generated } = run;
      const plans = plansAt(generated, generated.value.value, [], true, options);
      sentAgain.push({ ...run, exchanges: await sendSequence(client, plans), nonce: options.fresh.nonce });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  return sentAgain.filter(isAnswered).sort((a, b) => a.order - b.order);
}

/** Whether each of a case's requests got an answer of the service. */
function isAnswered(run: CaseRun): boolean {
  return run.exchanges.every(({ response }) => unansweredHow(response) === undefined);
}

/** Answers in a row that show a target steadily up: behind a gateway, each of up to four instances answered. */
const STEADY_ANSWERS = 4;

/**
 * Whether the target answers {@link STEADY_ANSWERS} liveness requests in a row (see `answersNow`) within `ms`,
 * asked every {@link POLL_MS} until one is answered. Behind a gateway that sends requests to two instances in
 * turn (nginx's round robin), one answer says only that one of them is up: during a rolling restart the other
 * still answers the gateway's 502 page, and a request sent again alone then would be cut as if it had brought
 * the service down.
 */
export async function answersSteadily(client: TargetClient, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    let inARow = 0;
    for (let state = await livenessOf(client); state !== 'none'; state = await livenessOf(client)) {
      // Taken and not answered: up but hung, which no gateway's instances explain; each more would cost a timeout.
      if (state === 'taken' || ++inARow === STEADY_ANSWERS) return true;
    }
    if (Date.now() + POLL_MS > until) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * Whether the target gives an HTTP answer (any status but a gateway's 502 or 504: see `answersNow`) within
 * `ms`, asked every {@link POLL_MS}.
 */
export async function answersWithin(client: TargetClient, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (await answersNow(client)) return true;
    if (Date.now() + POLL_MS > until) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
