import type { GeneratedCase } from './cases.js';
import type { Exchange, TargetClient } from './http/client.js';
import type { PlannedRequest } from './probe.js';

/** A case and the exchanges it produced (one per planned request). */
export interface CaseRun {
  readonly generated: GeneratedCase;
  readonly exchanges: readonly Exchange[];
}

/** Why dispatch stopped before every case was sent. */
export type StopReason = 'budget' | 'unresponsive';

export interface DispatchResult {
  /** Runs of the cases that were sent, in case order. */
  readonly runs: readonly CaseRun[];
  readonly unsent: number;
  readonly stopped?: StopReason;
}

export interface DispatchOptions {
  readonly concurrency: number;
  /** `Date.now()` after which no new case starts. */
  readonly deadline: number;
  onCaseDone?(run: CaseRun, done: number): void;
}

/** Sends a case's requests one after another (a repeat must follow its original). */
export async function sendSequence(client: TargetClient, plans: readonly PlannedRequest[]): Promise<Exchange[]> {
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
  cases: readonly GeneratedCase[],
  client: TargetClient,
  options: DispatchOptions,
): Promise<DispatchResult> {
  const runs: (CaseRun | undefined)[] = new Array<CaseRun | undefined>(cases.length);
  const giveUpAfter = options.concurrency + 8;
  let next = 0;
  let done = 0;
  let failuresInARow = 0;
  let stopped: StopReason | undefined;
  const worker = async (): Promise<void> => {
    while (stopped === undefined && next < cases.length) {
      if (Date.now() > options.deadline) {
        stopped = 'budget';
        break;
      }
      const index = next++;
      const generated = cases[index];
      if (!generated) break;
      const exchanges = await sendSequence(client, generated.plans);
      for (const exchange of exchanges) {
        failuresInARow = exchange.response.status === 0 ? failuresInARow + 1 : 0;
      }
      if (failuresInARow >= giveUpAfter) stopped ??= 'unresponsive';
      const run = { generated, exchanges };
      runs[index] = run;
      options.onCaseDone?.(run, ++done);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  const sent = runs.filter((run): run is CaseRun => run !== undefined);
  return { runs: sent, unsent: cases.length - sent.length, ...(stopped ? { stopped } : {}) };
}
