import type { CaseProgress, Reporter, RunEvent, RunStart } from '../runner/events.js';

/** The runner's types a reporter implements and receives: one event stream, one reporter shape. */
export type { CaseProgress, Reporter, RunEvent, RunStart };

/** A stream a reporter writes text to: `process.stdout`, or a test's collector. */
export interface TextSink {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  /** Terminal width, when known. */
  readonly columns?: number;
}
