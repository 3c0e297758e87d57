import { AnswerTimes } from './answer-times.js';
import type { GeneratedCase } from './cases.js';
import type { Exchange, SendOptions, TargetClient } from './http/client.js';
import { isGatewayAnswer, isThrottled, unansweredHow } from './judge.js';
import { PLANTS_PATH, type PlannedRequest } from './probe.js';

/** A case and the exchanges it produced (one per planned request). */
export interface CaseRun {
  readonly generated: GeneratedCase;
  readonly exchanges: readonly Exchange[];
  /** Position in the run's order of cases. */
  readonly order: number;
  /** Set on the case an outage judged: what waiting and sending it again alone found stands (see `settleOutage`). */
  readonly judgedForOutage?: true;
  /**
   * Set on the case an outage judged when the target did not come back (see `settleOutage`): the cases it had
   * in flight when it stopped, this one among them, and how long it was waited for. None is known to be the
   * cause: nothing answered to send them again alone.
   */
  readonly wentAway?: { readonly suspects: readonly CaseRun[]; readonly waitedMs: number };
  /**
   * Set on a case sent again once a target that stopped answering was back (see `sendCutAgain`): the nonce
   * of its ids, every one fresh (a replay string's `~`), not the run's.
   */
  readonly nonce?: string;
}

/** Why dispatch stopped before every case was sent. */
export type StopReason = 'budget' | 'unresponsive';

export interface DispatchResult {
  /** How many cases were sent and judged (each judged as it finished, then let go). */
  readonly sent: number;
  /** Answers that were 429 or 503: throttling, not judged. */
  readonly throttled: number;
  readonly unsent: number;
  readonly stopped?: StopReason;
  /**
   * When the target stopped answering, or the run ended on transport failures no later answer followed:
   * those cases, in the order they ended, not judged here (they may show that the target went away, not
   * what it does with a request): see `settleOutage`.
   */
  readonly cut?: TargetStopped;
  /** The order the next case taken after these would have: a dispatch that goes on starts there. */
  readonly nextOrder: number;
}

/** The cases of the run of transport failures with which the target stopped answering. */
export interface TargetStopped {
  /** Cases judged before the first of them ended. */
  readonly after: number;
  /** Each case's run, in the order they ended. */
  readonly runs: readonly CaseRun[];
}

export interface DispatchOptions {
  readonly concurrency: number;
  /** `Date.now()` after which no new case starts. */
  readonly deadline: number;
  onCaseDone?(run: CaseRun, done: number): void;
  /** Checked before each case: true ends dispatch (the run is being abandoned). */
  shouldStop?(): boolean;
  /**
   * The run's per-request timeout, when a case that looks hung may leave its slot to the next
   * (see {@link WaitingCases}); leave it out for a target that serves few connections at once.
   */
  readonly timeoutMs?: number;
  /** The order of the first case taken (default 0): a dispatch going on after an outage starts past the cases before. */
  readonly firstOrder?: number;
  /** Where the complete answers' times are counted (the run's, across dispatches); a fresh count when left out. */
  readonly answerTimes?: AnswerTimes;
  /**
   * Whether the service has answered outside this dispatch (a liveness request at the run's start, an earlier
   * dispatch): then a gateway's 502 or 504 pages say it went away, as they do once a case got its answer.
   */
  serviceAnswered?(): boolean;
}

/**
 * A request that stores nothing and asks nothing of the contract: any HTTP answer says the target is up. The
 * operation's own method (a document may define no GET there, and an app may crash or misbehave on a route it
 * lacks, making the runner's own probe the cause of a finding), without credentials and with an empty object
 * (refused: no plant to store), as the connection-capacity probe sends.
 */
export const LIVENESS: PlannedRequest = {
  method: 'POST',
  path: PLANTS_PATH,
  auth: { kind: 'none' },
  contentType: 'application/json',
  body: '{}',
  intent: { kind: 'unpredictable', what: 'a request asking whether the target answers again' },
};

/**
 * Whether the target is there: it gives an HTTP answer (any status but a gateway's 502 or 504) to {@link LIVENESS},
 * or takes the request and answers nothing within the timeout. Such a target is up but slow or hung on every POST
 * (a single-threaded server stuck on a case): not gone, so the requests it had are sent again alone and judged.
 */
export async function answersNow(client: TargetClient): Promise<boolean> {
  return (await livenessOf(client)) !== 'none';
}

/**
 * What {@link LIVENESS} gets: an HTTP answer (any status but a gateway's 502 or 504), `taken` when the target
 * took the request and answered nothing within the timeout (up, but slow or hung), else `none`.
 */
export async function livenessOf(client: TargetClient): Promise<'answered' | 'taken' | 'none'> {
  const { response } = await client.send(LIVENESS);
  if (response.transportError === 'timeout') return 'taken';
  return response.status !== 0 && !isGatewayAnswer(response) ? 'answered' : 'none';
}

/** Sends a case's requests one after another (a repeat must follow its original). */
export async function sendSequence(
  client: TargetClient,
  plans: readonly PlannedRequest[],
  options?: SendOptions,
): Promise<Exchange[]> {
  if (client.sendOnOneConnection && plans.some((plan) => plan.sameConnection))
    return client.sendOnOneConnection(plans, options);
  const exchanges: Exchange[] = [];
  for (const plan of plans) exchanges.push(await client.send(plan, options));
  return exchanges;
}

/**
 * How many cases that hold their connection through a pause (a body sent in two halves) may be in
 * flight at once: all but a quarter of the slots, so the other cases keep the runner busy meanwhile.
 */
export function pausedCaseSlots(concurrency: number): number {
  return concurrency < 4 ? concurrency : concurrency - Math.floor(concurrency / 4);
}

/** A case that holds its connection through a pause: its body goes out in two halves. */
export function pauses(generated: GeneratedCase): boolean {
  return generated.plans.some((plan) => plan.splitBody === true);
}

/** Most cases with a transport failure held at once, waiting for an answer sent after them (the oldest go first). */
const MAX_HELD = 256;
/** Most paused cases set aside at once (each holds a plant and its body). */
const MAX_SET_ASIDE = 4096;
/** Most cases generated by one {@link CaseQueue.next}. */
const MAX_GENERATED_AT_ONCE = 64;
/** {@link CaseQueue.next}'s answer when it set aside as many cases as one turn may generate. */
const LATER = Symbol('later');

interface QueuedCase {
  readonly generated: GeneratedCase;
  /** Position in the run's order of cases (generation order), whenever it is sent. */
  readonly order: number;
  readonly paused: boolean;
}

/**
 * The cases in generation order, except that a case that pauses is set aside while
 * {@link pausedCaseSlots} of them are in flight, and sent once one of those finishes. A probe's paused
 * cases come as one block: sent in turn, they would fill every slot with pauses and leave the runner idle.
 */
class CaseQueue {
  private readonly setAside: QueuedCase[] = [];
  private taken: number;
  private pausedInFlight = 0;
  private exhausted = false;

  constructor(
    private readonly source: Iterator<GeneratedCase>,
    private readonly pausedSlots: number,
    firstOrder: number,
  ) {
    this.taken = firstOrder;
  }

  /**
   * The next case to send, `undefined` when none is left, or `LATER` when this turn generated
   * {@link MAX_GENERATED_AT_ONCE} cases and set them all aside: ask again in the next turn.
   */
  next(): QueuedCase | typeof LATER | undefined {
    if (this.setAside.length > 0 && this.pausedInFlight < this.pausedSlots) return this.start(this.setAside.shift());
    for (let scanned = 1; !this.exhausted; scanned++) {
      const next = this.source.next();
      if (next.done === true) {
        this.exhausted = true;
        break;
      }
      const queued = { generated: next.value, order: this.taken++, paused: pauses(next.value) };
      if (!queued.paused || this.pausedInFlight < this.pausedSlots || this.setAside.length >= MAX_SET_ASIDE) {
        return this.start(queued);
      }
      this.setAside.push(queued);
      // Cases are generated in one synchronous stretch: a bounded one, so answers already in are
      // not left waiting long enough to pass their deadline.
      if (scanned >= MAX_GENERATED_AT_ONCE) return LATER;
    }
    // Nothing else left to send: the set-aside cases go now, whatever is in flight.
    return this.start(this.setAside.shift());
  }

  /** The order the next case taken would have. */
  nextOrder(): number {
    return this.taken;
  }

  /** A case from {@link next} finished. */
  done(queued: QueuedCase): void {
    if (queued.paused) this.pausedInFlight--;
  }

  private start(queued: QueuedCase | undefined): QueuedCase | undefined {
    if (queued?.paused === true) this.pausedInFlight++;
    return queued;
  }
}

/**
 * Cases left waiting for an answer while the run goes on. A target that never answers some requests
 * (a handler that forgets to end its answer) would hold a slot for the whole timeout with each, and the
 * run would go on in waves of timeouts; so a case still unanswered after {@link hangWaitMs} leaves its
 * slot to the next case and waits on, its verdict the same, up to the concurrency of such cases at once.
 * Only once `concurrency` answers came (a target slow to start is not hanging), and only with `timeoutMs`.
 */
class WaitingCases {
  private readonly waiting = new Set<Promise<void>>();

  constructor(
    private readonly concurrency: number,
    private readonly timeoutMs: number | undefined,
    private readonly times: AnswerTimes,
  ) {}

  /** Counts the complete answers of a finished case. */
  answered(exchanges: readonly Exchange[]): void {
    for (const { response } of exchanges) {
      if (response.status !== 0 && response.transportError === undefined) this.times.add(response.durationMs);
    }
  }

  /** Resolves once the case is finished (`then` ran), or once it is left waiting. */
  async send(sending: Promise<Exchange[]>, then: (exchanges: Exchange[]) => void): Promise<void> {
    const finishing = sending.then(then);
    const patience = this.patienceMs();
    if (patience === undefined) return finishing;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), patience)));
    const leftWaiting = await Promise.race([finishing.then(() => false), late]);
    clearTimeout(timer);
    if (!leftWaiting) return;
    this.waiting.add(finishing);
    const forget = (): boolean => this.waiting.delete(finishing);
    void finishing.then(forget, forget);
  }

  /** Resolves once every case left waiting has finished. */
  async settled(): Promise<void> {
    while (this.waiting.size > 0) await Promise.all([...this.waiting]);
  }

  private patienceMs(): number | undefined {
    if (this.timeoutMs === undefined || this.times.count < this.concurrency || this.waiting.size >= this.concurrency)
      return undefined;
    return hangWaitMs(this.times, this.timeoutMs);
  }
}

/** Shortest wait before a request is taken for a hang, however quick the target's answers. */
const HANG_WAIT_FLOOR_MS = 1_000;
/** A request is taken for a hang after this many times the time nine answers in ten came within. */
const HANG_WAIT_FACTOR = 10;

/**
 * How long a request may go unanswered before it is taken for a hang: ten times the time nine in ten
 * complete answers of the run came within (a few slow ones, such as connections the kernel accepted only
 * on a retransmitted SYN, a second late, do not move it), at least a second; `undefined` when that is more
 * than half the timeout (the target is too slow to tell a hang from an answer).
 */
export function hangWaitMs(times: AnswerTimes, timeoutMs: number): number | undefined {
  const wait = Math.ceil(Math.max(HANG_WAIT_FLOOR_MS, HANG_WAIT_FACTOR * times.quantile(0.9)));
  return 2 * wait > timeoutMs ? undefined : wait;
}

/**
 * Sends cases concurrently, each case's requests in order. Stops starting cases at the deadline,
 * and when the target has stopped answering altogether (every recent request a transport failure),
 * so a dead or hanging target ends the run quickly instead of timing out case after case.
 */
export async function dispatch(
  cases: Iterable<GeneratedCase>,
  planned: number,
  client: TargetClient,
  options: DispatchOptions,
): Promise<DispatchResult> {
  const concurrency = Math.max(1, options.concurrency);
  const queue = new CaseQueue(cases[Symbol.iterator](), pausedCaseSlots(concurrency), options.firstOrder ?? 0);
  const waiting = new WaitingCases(concurrency, options.timeoutMs, options.answerTimes ?? new AnswerTimes());
  let throttled = 0;
  const giveUpAfter = options.concurrency + 8;
  let done = 0;
  let failuresInARow = 0;
  // Gateway pages before the service's first answer are what the URL answers (judged as such), not an outage.
  let answeredHere = false;
  const serviceAnswered = (): boolean => answeredHere || options.serviceAnswered?.() === true;
  let stopped: StopReason | undefined;
  // Cases with a transport failure wait for an answer to a request sent after their failure: should
  // the target have stopped answering, they are evidence of that, not of what it does with each request.
  // (An answer to a request sent before proves nothing: the target may have written it and then died.)
  let clock = 0;
  // When the latest case the target answered was sent (on `clock`).
  let answeredSince = 0;
  const held: { run: CaseRun; endedAt: number }[] = [];
  const release = (before: number): void => {
    while (held.length > 0 && (held[0]?.endedAt ?? 0) < before) options.onCaseDone?.(held.shift()!.run, ++done);
  };
  const finished = (next: QueuedCase, startedAt: number, exchanges: readonly Exchange[]): void => {
    queue.done(next);
    waiting.answered(exchanges);
    for (const { response } of exchanges) {
      // A gateway's page, once the service has answered, says the service went away (a restart, a
      // deploy). An answer cut after its status line neither lengthens nor ends a run of failures, nor
      // does a failure of a case sent before a case that got an answer (a hang left waiting, timed out).
      if (response.status === 0 || (serviceAnswered() && isGatewayAnswer(response))) {
        if (startedAt > answeredSince) failuresInARow++;
      } else if (unansweredHow(response) === undefined) {
        [failuresInARow, answeredHere, answeredSince] = [0, true, Math.max(answeredSince, startedAt)];
      }
      if (isThrottled(response)) throttled++;
    }
    if (failuresInARow >= giveUpAfter) stopped ??= 'unresponsive';
    const run = { generated: next.generated, exchanges, order: next.order };
    const unanswered = ({ response }: Exchange): boolean =>
      response.transportError !== undefined || (serviceAnswered() && isGatewayAnswer(response));
    if (exchanges.some(unanswered)) {
      held.push({ run, endedAt: ++clock });
      if (held.length > MAX_HELD) release(held[0]!.endedAt + 1);
      return;
    }
    release(startedAt);
    options.onCaseDone?.(run, ++done);
  };
  const worker = async (): Promise<void> => {
    while (stopped === undefined && options.shouldStop?.() !== true) {
      if (Date.now() > options.deadline) {
        stopped = 'budget';
        break;
      }
      const next = queue.next();
      if (next === undefined) break;
      if (next === LATER) {
        await new Promise((resolve) => setImmediate(resolve));
        continue;
      }
      const startedAt = ++clock;
      await waiting.send(sendSequence(client, next.generated.plans), (exchanges) =>
        finished(next, startedAt, exchanges),
      );
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  await waiting.settled();
  // Failures no later answer followed, however few, are an outage unless the target answers now: it may
  // have died near the end.
  const gone = stopped === 'unresponsive' || (held.length > 0 && !(await answersNow(client)));
  const cut = gone ? { after: done, runs: held.splice(0).map(({ run }) => run) } : undefined;
  release(Number.POSITIVE_INFINITY);
  const unsent = Math.max(0, planned - done - (cut?.runs.length ?? 0));
  const nextOrder = queue.nextOrder();
  return { sent: done, throttled, unsent, nextOrder, ...(stopped ? { stopped } : {}), ...(cut ? { cut } : {}) };
}
