import type { CheckResult, Report } from './report.js';

/** What the runner knows when a run starts. */
export interface RunStart {
  readonly target: Report['target'];
  readonly seed: number;
  /** How many cases the run means to send (before shrinking). */
  readonly plannedCases: number;
}

/** Where the run stands after a case; sent often, so listeners must keep their handling cheap. */
export interface CaseProgress {
  /** Cases finished so far. */
  readonly done: number;
  /** Cases planned in all (grows while failures are shrunk). */
  readonly planned: number;
  /** Cases that broke at least one check so far. */
  readonly failed: number;
  /** `shrink` while the runner minimises a counterexample. */
  readonly phase?: 'run' | 'shrink';
}

/** A run's progress as one stream, in the order it happens: `runConformance`'s `onProgress` gets each. */
export type RunEvent =
  | ({ readonly kind: 'run-start' } & RunStart)
  | ({ readonly kind: 'case' } & CaseProgress)
  | { readonly kind: 'check'; readonly check: CheckResult };

/**
 * Renders a run: pass reporters as `runConformance({ reporters })`. Every hook is optional; the runner
 * calls `onRunStart` once, `onCaseDone` after each case, `onCheckDone` as each check's verdict is
 * final, and `onRunEnd` once with the finished report, reporter after reporter. A hook that throws
 * rejects the run: a reporter that must not (a report file that cannot be written) catches its own.
 */
export interface Reporter {
  readonly name: string;
  /** The file this reporter writes, if it writes one. */
  readonly file?: string;
  onRunStart?(run: RunStart): void;
  onCaseDone?(progress: CaseProgress): void;
  onCheckDone?(check: CheckResult): void;
  /**
   * Renders the finished run. `written` lists what the reporters before this one resolved to (the
   * report files they wrote). Resolves to the path it wrote, if it wrote one; other values are ignored.
   */
  onRunEnd?(report: Report, written: readonly string[]): unknown;
}

/** Sends one event to a reporter's matching hook. */
export function deliver(reporter: Reporter, event: RunEvent): void {
  if (event.kind === 'run-start') reporter.onRunStart?.(event);
  else if (event.kind === 'case') reporter.onCaseDone?.(event);
  else reporter.onCheckDone?.(event.check);
}

/** Runs every reporter's `onRunEnd` in order, each told the files written before it. */
export async function endRun(reporters: readonly Reporter[], report: Report): Promise<void> {
  const written: string[] = [];
  for (const reporter of reporters) {
    const file = await reporter.onRunEnd?.(report, [...written]);
    if (typeof file === 'string') written.push(file);
  }
}
