import { plansAt } from './cases.js';
import type { CheckDefinition, JudgeContext } from './check.js';
import { sendSequence, type CaseRun } from './execute.js';
import { answersSteadily } from './outage.js';
import { createFreshIds, type FreshIds } from './generate/fresh-ids.js';
import type { Exchange, TargetClient } from './http/client.js';
import { UNREACHABLE } from './http/transport-errors.js';
import { unansweredHow } from './judge.js';
import { defectShape, type Counterexample } from './shrink.js';
import { failingExchange, judgeCase, type CaseVerdict } from './verdicts.js';
import type { Contract } from '../contract/index.js';

/**
 * How a check's failing cases went without an answer of the service (a dropped connection, a gateway's
 * 502 or 504; timeouts aside: see {@link timedOutOnce}): how many, the first and last of them in the run's
 * order, and when each came. A few, or a few bursts of them, may be load, a restart or a deploy.
 */
export class UnansweredFailures {
  count = 0;
  first = Number.POSITIVE_INFINITY;
  last = Number.NEGATIVE_INFINITY;
  /** How they went unanswered ({@link unansweredOnce}), counted. */
  readonly kinds = new Map<string, number>();
  /** When each of the first {@link MAX_FAILURES_KEPT} of them was judged (ms): more are never few. */
  private readonly failures: number[] = [];
  /** When each of the check's cases was judged (the first {@link MAX_JUDGED_KEPT}), to tell how dense a burst is. */
  private readonly judged: number[] = [];

  /** Counts a case the check judged, at `at` (`Date.now()` when it was judged). */
  add(run: CaseRun, verdict: CaseVerdict, at = Date.now()): void {
    if (this.judged.length < MAX_JUDGED_KEPT) this.judged.push(at);
    const how = verdict.outcome === 'fail' ? unansweredOnce(run, verdict) : undefined;
    if (how === undefined) return;
    this.count++;
    this.first = Math.min(this.first, run.order);
    this.last = Math.max(this.last, run.order);
    this.kinds.set(how, (this.kinds.get(how) ?? 0) + 1);
    if (this.failures.length < MAX_FAILURES_KEPT) this.failures.push(at);
  }

  /**
   * Whether these failures come in at most {@link MAX_SCATTERED} bursts, not counting those cut together within
   * {@link CUT_TOGETHER_MS} (each failure within {@link BURST_GAP_MS}
   * of the one before, with at most twice the run's concurrency and eight more cases judged between them:
   * requests cut together are), each over within {@link MAX_BURST_MS}, and each a lone failure or dense: at least
   * one in {@link DENSE_ONE_IN} of the check's cases judged meanwhile went unanswered, as when an instance of two
   * behind a gateway restarts (one in two). A few scattered ones, a restart, a rolling restart. Each is then sent
   * again alone before it is reported. A target that drops one request in 15 now and then makes one long sparse
   * burst, or many: its failures are reported as found.
   */
  fewOrTogether(concurrency: number): boolean {
    if (this.count > this.failures.length || this.judged.length >= MAX_JUDGED_KEPT) return false;
    const judged = [...this.judged].sort((a, b) => a - b);
    const bursts = burstsOf(this.failures, (from, to) => countBetween(judged, from, to) - 2 <= 2 * concurrency + 8);
    // Requests cut together at one moment while the target went on answering (a gateway's reload closing the
    // connections its old workers held) are one event however often it comes; each lone failure or longer burst
    // (an outage, however brief) counts.
    if (bursts.filter((burst) => !cutTogether(burst)).length > MAX_SCATTERED) return false;
    return bursts.every((burst) => burst.length === 1 || isDense(burst, judged));
  }
}

/** Whether a burst (failures' times, in order) is several failures within {@link CUT_TOGETHER_MS}. */
function cutTogether(burst: readonly number[]): boolean {
  return burst.length > 1 && burst[burst.length - 1]! - burst[0]! <= CUT_TOGETHER_MS;
}

/** Whether a burst (failures' times, in order) is over within {@link MAX_BURST_MS} and dense ({@link DENSE_ONE_IN}). */
function isDense(burst: readonly number[], judged: readonly number[]): boolean {
  const [from, to] = [burst[0]!, burst[burst.length - 1]!];
  return to - from <= MAX_BURST_MS && burst.length * DENSE_ONE_IN >= countBetween(judged, from, to);
}

/** Most bursts of failing cases without an answer (a lone failure is one) whose cases are each sent again alone. */
export const MAX_SCATTERED = 3;
/** Failures this close in time (ms) belong to one burst: a restarting instance cuts every request sent to it. */
export const BURST_GAP_MS = 1_000;
/** Longest burst (ms) that is the moment's: as long as the longest deploy behind a gateway the run waits out. */
export const MAX_BURST_MS = 30_000;
/**
 * A burst is dense when at least one case in this many of its span went unanswered: one instance of two behind a
 * gateway restarting cuts one in two; a gateway's reload, under load, one in two to five; a target dropping one
 * request in ten or 15, fewer.
 */
export const DENSE_ONE_IN = 8;
/** Several failures within this many ms were cut together (a reload, a restart), not one by one. */
export const CUT_TOGETHER_MS = 250;
/** Most failing cases without an answer kept to tell their bursts. */
const MAX_FAILURES_KEPT = 4096;
/** Most judged cases' times kept per check (a run of runs 100,000 has fewer). */
const MAX_JUDGED_KEPT = 1 << 20;

/**
 * The failures' times in order, cut where one came more than {@link BURST_GAP_MS} after the last, or where `close`
 * says too many cases were judged between them (the clean stretch between the restarts of two instances).
 */
function burstsOf(failures: readonly number[], close: (from: number, to: number) => boolean): number[][] {
  const bursts: number[][] = [];
  for (const at of [...failures].sort((a, b) => a - b)) {
    const burst = bursts[bursts.length - 1];
    const previous = burst?.[burst.length - 1];
    if (burst && previous !== undefined && at - previous <= BURST_GAP_MS && close(previous, at)) burst.push(at);
    else bursts.push([at]);
  }
  return bursts;
}

/** How many of the sorted `values` lie in `[low, high]`. */
function countBetween(values: readonly number[], low: number, high: number): number {
  return firstAtLeast(values, high + 1) - firstAtLeast(values, low);
}

/** The index of the first of the sorted `values` at least `bound`. */
function firstAtLeast(values: readonly number[], bound: number): number {
  let [low, high] = [0, values.length];
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (values[middle]! < bound) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * How a failing case's judged exchange went without an answer (not a timeout: see {@link timedOutOnce}), else `undefined`; also
 * for the case an outage judged, which was sent again alone already (see `settleOutage`).
 */
export function unansweredOnce(run: CaseRun, verdict: CaseVerdict): string | undefined {
  if (run.judgedForOutage === true) return undefined;
  const response = failingExchange(run.exchanges, verdict)?.response;
  const how = response === undefined ? undefined : unansweredHow(response);
  return how === undefined || WAITED_OUT.has(how) ? undefined : how;
}

/**
 * How a request goes unanswered when the target has more requests than it serves at once: its answer not in
 * time, or its connection not accepted in time (a listen queue full). Sent again alone, see {@link timedOutOnce}.
 */
const WAITED_OUT: ReadonlySet<string> = new Set(['timeout', 'connect-timeout']);

/**
 * Whether a failing case's judged exchange got no answer, or no connection, within the run's timeout; not for the case an
 * outage judged, which was sent again alone already (see `settleOutage`).
 */
export function timedOutOnce(run: CaseRun, verdict: CaseVerdict): boolean {
  if (run.judgedForOutage === true) return false;
  return waitedOut(run.exchanges, verdict);
}

/** Whether a failing verdict's exchange got no answer, or no connection, within its wait. */
export function waitedOut(exchanges: readonly Exchange[], verdict: CaseVerdict): boolean {
  return WAITED_OUT.has(failingExchange(exchanges, verdict)?.response.transportError ?? '');
}

/** Cases that timed out in the run and were answered when sent again alone: how many, and the slowest answer then. */
export interface TimeoutsAnsweredAlone {
  readonly count: number;
  readonly slowestMs: number;
}

/**
 * Sends failing cases again, alone, each once however many checks ask (with fresh ids: the target may
 * have stored the first sending before the connection dropped), and keeps, for the run's note, the
 * failures of the check that dismissed the most so.
 */
export class AloneResends {
  private readonly sent = new Map<number, Promise<Exchange[]>>();
  private dismissed: UnansweredFailures | undefined;
  /** The slowest answer, when sent alone, of each case that had timed out in the run, by its order. */
  private readonly timeoutsAnswered = new Map<number, number>();
  /** Whether a wait for the target to answer steadily ran out: later resends do not wait again. */
  private unsteady = false;

  constructor(
    private readonly target: {
      readonly contract: Contract;
      readonly client: TargetClient;
      readonly fresh: FreshIds;
      readonly judgeContext: JudgeContext;
      /** How long to wait for the target to answer steadily before a case is sent again (a restart behind a gateway). */
      readonly steadyWaitMs: number;
    },
  ) {}

  /**
   * The case as a counterexample sent alone when it fails again the same way (its replay has every id
   * fresh), `answered` when it was then answered without the failure (the failure was the moment's), or
   * the case as found when nothing listens any more.
   */
  async confirm(check: CheckDefinition, run: CaseRun, verdict: CaseVerdict): Promise<Counterexample | 'answered'> {
    const exchanges = await this.resend(run);
    // Nothing listens now (the target went away since): the case stands as found.
    if (exchanges.some(({ response }) => UNREACHABLE.has(response.transportError ?? '')))
      return { value: run.generated.value, path: [], exchanges: run.exchanges, verdict };
    const again = judgeCase(check, exchanges, this.target.judgeContext);
    if (again?.outcome !== 'fail' || defectShape(check, again) !== defectShape(check, verdict)) return 'answered';
    return { value: run.generated.value, path: [], exchanges, verdict: again, alwaysFresh: true };
  }

  /**
   * A case that timed out in the run, sent again alone with the whole timeout (a target that serves fewer
   * requests at once than the run sent times requests out only under the run's load): `answered` when it
   * was then answered and the check passes on that answer; else the case as a counterexample sent alone
   * (its replay has every id fresh), judged on that answer: a hang again, or what the answer shows. As found
   * when nothing listens any more. Also past the run's deadline: a finding whose curl line is answered at once
   * would blame a correct target, and the check sends again at most one hang of valid and one of invalid bodies.
   */
  async confirmTimeout(
    check: CheckDefinition,
    run: CaseRun,
    verdict: CaseVerdict,
  ): Promise<Counterexample | 'answered'> {
    const asFound = { value: run.generated.value, path: [], exchanges: run.exchanges, verdict };
    const exchanges = await this.resend(run);
    // Nothing listens now (the target went away since): the case stands as found. A connection not accepted
    // in time again is the case waited out again.
    const failures = exchanges.map(({ response }) => response.transportError ?? '');
    if (failures.some((failure) => UNREACHABLE.has(failure) && !WAITED_OUT.has(failure))) return asFound;
    const answered = !failures.some((failure) => WAITED_OUT.has(failure));
    if (answered)
      this.timeoutsAnswered.set(run.order, Math.max(...exchanges.map(({ response }) => response.durationMs)));
    const again = judgeCase(check, exchanges, this.target.judgeContext);
    if (again?.outcome !== 'fail') return 'answered';
    return { value: run.generated.value, path: [], exchanges, verdict: again, alwaysFresh: true };
  }

  /** The cases that timed out in the run and were answered sent again alone ({@link confirmTimeout}), if any. */
  timeoutsAnsweredAlone(): TimeoutsAnsweredAlone | undefined {
    if (this.timeoutsAnswered.size === 0) return undefined;
    return { count: this.timeoutsAnswered.size, slowestMs: Math.max(...this.timeoutsAnswered.values()) };
  }

  /** A check's failures for want of an answer, none of which failed again alone: kept for the run's note. */
  dismiss(failures: UnansweredFailures): void {
    if (failures.count > (this.dismissed?.count ?? 0)) this.dismissed = failures;
  }

  /** The most failures for want of an answer a check dismissed ({@link dismiss}), if any. */
  notReproduced(): UnansweredFailures | undefined {
    return this.dismissed;
  }

  private resend(run: CaseRun): Promise<Exchange[]> {
    let sending = this.sent.get(run.order);
    if (sending === undefined) {
      const { generated } = run;
      // As the replay string `~` with no shrink path renders it; once the target answers steadily: sent while
      // the other instance of a rolling restart behind a gateway is still down, it would meet its 502 page again.
      // A case sent again after an outage has ids of its own nonce, which its replay string names.
      const fresh = run.nonce === undefined ? this.target.fresh : createFreshIds(run.nonce);
      const plans = plansAt(generated, generated.value.value, [], true, { contract: this.target.contract, fresh });
      const { client, steadyWaitMs } = this.target;
      // One wait that ran out is enough: a gateway whose service never answers would cost it for every case.
      sending = answersSteadily(client, this.unsteady ? 0 : steadyWaitMs).then((steady) => {
        this.unsteady ||= !steady;
        return sendSequence(client, plans);
      });
      this.sent.set(run.order, sending);
    }
    return sending;
  }
}
