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
  const source = cases[Symbol.iterator]();
  let throttled = 0;
  const giveUpAfter = options.concurrency + 8;
  let taken = 0;
  let done = 0;
  let failuresInARow = 0;
  let stopped: StopReason | undefined;
  let exhausted = false;
  const worker = async (): Promise<void> => {
    while (stopped === undefined && !exhausted && options.shouldStop?.() !== true) {
      if (Date.now() > options.deadline) {
        stopped = 'budget';
        break;
      }
      const next = source.next();
      if (next.done) {
        exhausted = true;
        break;
      }
      const generated = next.value;
      const index = taken++;
      const exchanges = await sendSequence(client, generated.plans);
      for (const exchange of exchanges) {
        failuresInARow = exchange.response.status === 0 ? failuresInARow + 1 : 0;
      }
      if (failuresInARow >= giveUpAfter) stopped ??= 'unresponsive';
      const run = { generated, exchanges, order: index };
      throttled += exchanges.filter((exchange) => isThrottled(exchange.response)).length;
      options.onCaseDone?.(run, ++done);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  return { sent: done, throttled, unsent: Math.max(0, planned - done), ...(stopped ? { stopped } : {}) };
}
