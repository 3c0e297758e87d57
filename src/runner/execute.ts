import type { GeneratedCase } from './cases.js';
import type { Exchange, TargetClient } from './http/client.js';
import { isThrottled } from './judge.js';
import type { PlannedRequest } from './probe.js';

/** A case and the exchanges it produced (one per planned request). */
export interface CaseRun {
  readonly generated: GeneratedCase;
  readonly exchanges: readonly Exchange[];
  /** Position in the run's order of cases. */
  readonly order: number;
}

/** Why dispatch stopped before every case was sent. */
export type StopReason = 'budget' | 'unresponsive';

export interface DispatchResult {
  /** How many cases were sent (each judged as it finished, then let go). */
  readonly sent: number;
  /** Answers that were 429 or 503: throttling, not judged. */
  readonly throttled: number;
  readonly unsent: number;
  readonly stopped?: StopReason;
}

export interface DispatchOptions {
  readonly concurrency: number;
  /** `Date.now()` after which no new case starts. */
  readonly deadline: number;
  onCaseDone?(run: CaseRun, done: number): void;
  /** Checked before each case: true ends dispatch (the run is being abandoned). */
  shouldStop?(): boolean;
}

/** Sends a case's requests one after another (a repeat must follow its original). */
export async function sendSequence(client: TargetClient, plans: readonly PlannedRequest[]): Promise<Exchange[]> {
  if (client.sendOnOneConnection && plans.some((plan) => plan.sameConnection)) return client.sendOnOneConnection(plans);
  const exchanges: Exchange[] = [];
  for (const plan of plans) exchanges.push(await client.send(plan));
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
function pauses(generated: GeneratedCase): boolean {
  return generated.plans.some((plan) => plan.splitBody === true);
}

/** Most paused cases set aside at once (each holds a plant and its body). */
const MAX_SET_ASIDE = 4096;

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
  private taken = 0;
  private pausedInFlight = 0;
  private exhausted = false;

  constructor(
    private readonly source: Iterator<GeneratedCase>,
    private readonly pausedSlots: number,
  ) {}

  /** The next case to send, or `undefined` when none is left. */
  next(): QueuedCase | undefined {
    if (this.setAside.length > 0 && this.pausedInFlight < this.pausedSlots) return this.start(this.setAside.shift());
    while (!this.exhausted) {
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
    }
    // Nothing else left to send: the set-aside cases go now, whatever is in flight.
    return this.start(this.setAside.shift());
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
  const queue = new CaseQueue(cases[Symbol.iterator](), pausedCaseSlots(concurrency));
  let throttled = 0;
  const giveUpAfter = options.concurrency + 8;
  let done = 0;
  let failuresInARow = 0;
  let stopped: StopReason | undefined;
  const worker = async (): Promise<void> => {
    while (stopped === undefined && options.shouldStop?.() !== true) {
      if (Date.now() > options.deadline) {
        stopped = 'budget';
        break;
      }
      const next = queue.next();
      if (next === undefined) break;
      const exchanges = await sendSequence(client, next.generated.plans);
      queue.done(next);
      for (const exchange of exchanges) {
        failuresInARow = exchange.response.status === 0 ? failuresInARow + 1 : 0;
        if (isThrottled(exchange.response)) throttled++;
      }
      if (failuresInARow >= giveUpAfter) stopped ??= 'unresponsive';
      options.onCaseDone?.({ generated: next.generated, exchanges, order: next.order }, ++done);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { sent: done, throttled, unsent: Math.max(0, planned - done), ...(stopped ? { stopped } : {}) };
}
