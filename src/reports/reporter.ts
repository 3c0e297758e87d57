import type { CheckResult, Report } from '../runner/report.js';

/** What the runner knows when a run starts. */
export interface RunStart {
  readonly target: Report['target'];
  readonly seed: number;
  /** How many cases the run means to send (before shrinking). */
  readonly plannedCases: number;
}

/** Where the run stands after a case; sent often, so reporters must keep this hook cheap. */
export interface CaseProgress {
  /** Cases finished so far. */
  readonly done: number;
  /** Cases planned in all (may grow while failures are shrunk). */
  readonly planned: number;
  /** Cases that broke at least one check so far. */
  readonly failed: number;
  /** `shrink` while the runner minimises a counterexample. */
  readonly phase?: 'run' | 'shrink';
}

/** The runner's progress as one event stream (the shape of `runConformance`'s `onProgress`). */
export type ProgressEvent =
  | ({ readonly kind: 'run-start' } & RunStart)
  | ({ readonly kind: 'case' } & CaseProgress)
  | { readonly kind: 'check'; readonly check: CheckResult };

/**
 * A reporter renders a run. Every hook is optional; the runner calls them in order:
 * `onRunStart` once, `onCaseDone` after each case, `onCheckDone` as each check's verdict is final,
 * and `onRunEnd` once with the finished report.
 */
export interface Reporter {
  readonly name: string;
  /** The file this reporter writes into the output directory, if it writes one. */
  readonly file?: string;
  onRunStart?(run: RunStart): void;
  onCaseDone?(progress: CaseProgress): void;
  onCheckDone?(check: CheckResult): void;
  /**
   * Renders the finished run. `written` lists the report files written before this reporter
   * (file reporters run first, so the console can name them). Resolves to the path written, if any.
   */
  onRunEnd?(report: Report, written: readonly string[]): Promise<string | void> | string | void;
}

/** A stream a reporter writes text to: `process.stdout`, or a test's collector. */
export interface TextSink {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  /** Terminal width, when known. */
  readonly columns?: number;
}
