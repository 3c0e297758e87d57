import type { CheckResult, Report } from './report.js';
import type { Suite } from './check.js';

/** Progress of a run, in the order it happens; the CLI feeds these to the reporters. */
export type RunProgress =
  | {
      readonly kind: 'run-start';
      readonly target: Report['target'];
      readonly seed: number;
      readonly plannedCases: number;
    }
  | {
      readonly kind: 'case';
      readonly done: number;
      readonly planned: number;
      readonly failed: number;
      readonly phase: 'run' | 'shrink';
    }
  | { readonly kind: 'check'; readonly check: CheckResult };

/** Options of `runConformance`; every one has a default. */
export interface ConformanceOptions {
  /** The target, e.g. `https://staging.example.com/api`. Default: the reference, started in-process. */
  readonly baseUrl?: string;
  /** The bearer token the target accepts (required with `baseUrl`). Never written anywhere. */
  readonly token?: string;
  /** Seed of the generated cases; random (and reported) when absent. */
  readonly seed?: number;
  /** Cases per probe at share 1 (default 100). */
  readonly runs?: number;
  /** Requests in flight at once (default 16, sized for a remote staging URL). */
  readonly concurrency?: number;
  /** Per-request deadline in ms (default 10 000). */
  readonly timeoutMs?: number;
  /** Deadline of the whole run in ms, shrinking included (default: the larger of 60 s and 6 timeouts). */
  readonly budgetMs?: number;
  /** Run only these check ids. */
  readonly checks?: readonly string[];
  /** Skip these check ids. */
  readonly skipChecks?: readonly string[];
  /** The suites to run (default: the built-in suites in suites/). */
  readonly suites?: readonly Suite[];
  /** OpenAPI document of the contract (default: the package's openapi.yaml). */
  readonly spec?: string;
  /** Run one recorded case again: the `--replay` string of a failure. */
  readonly replay?: string;
  /** Largest response body read, in bytes (default 1 MiB). */
  readonly maxBodyBytes?: number;
  onProgress?(event: RunProgress): void;
}

export const DEFAULTS = { runs: 100, concurrency: 16, timeoutMs: 10_000 } as const;
