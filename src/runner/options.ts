import type { Suite } from './check.js';
import type { Reporter, RunEvent } from './events.js';

/** Options of `runConformance`; every one has a default. */
export interface ConformanceOptions {
  /** The target, e.g. `https://staging.example.com/api`. Default: the reference, started in-process. */
  readonly baseUrl?: string | undefined;
  /** The bearer token the target accepts (required with `baseUrl`). Never written anywhere. */
  readonly token?: string | undefined;
  /** Seed of the generated cases; random (and reported) when absent. */
  readonly seed?: number | undefined;
  /** Cases per probe at share 1 (default 100). */
  readonly runs?: number | undefined;
  /** Requests in flight at once (default 16, sized for a remote staging URL). */
  readonly concurrency?: number | undefined;
  /** Per-request deadline in ms (default 10 000). */
  readonly timeoutMs?: number | undefined;
  /** Deadline of the whole run in ms, shrinking included (default: the larger of 60 s and 6 timeouts). */
  readonly budgetMs?: number | undefined;
  /** Run only these check ids. */
  readonly checks?: readonly string[] | undefined;
  /** Skip these check ids. */
  readonly skipChecks?: readonly string[] | undefined;
  /**
   * The suites to run. The package's `runConformance` defaults to `BUILT_IN_SUITES`; the runner
   * itself knows no suites and must be given them.
   */
  readonly suites?: readonly Suite[] | undefined;
  /** OpenAPI document of the contract (default: the package's openapi.yaml). */
  readonly spec?: string | undefined;
  /** Run one recorded case again: the replay string of a failure (its `rerun.replay`). */
  readonly replay?: string | undefined;
  /** Largest response body read, in bytes (default 1 MiB; from 64 KiB to 1 GiB). */
  readonly maxBodyBytes?: number | undefined;
  /** Render the run as it happens and when it ends, in this order (see {@link Reporter}). */
  readonly reporters?: readonly Reporter[] | undefined;
  /** Called with every event of the run, before the reporters. */
  readonly onProgress?: ((event: RunEvent) => void) | undefined;
}

/** What the runner itself takes: the options, with the suites to run given. */
export type RunnerOptions = ConformanceOptions & { readonly suites: readonly Suite[] };

/** The name of an option of `runConformance`, as notes, skip reasons and errors refer to it. */
export type OptionName = Exclude<keyof ConformanceOptions, 'onProgress' | 'reporters' | 'suites'>;

/** The whole-number options and their bounds (inclusive): `runConformance` refuses others, and the CLI's flags take these. */
export const WHOLE_NUMBER_OPTIONS = {
  seed: [0, 2 ** 31 - 1],
  runs: [1, 1_000_000],
  concurrency: [1, 1024],
  timeoutMs: [1, 3_600_000],
  budgetMs: [1, 86_400_000],
  // The plants the runner sends come back in answers of up to about 16 KiB (a default document): a smaller
  // limit cut correct answers and failed the target for the runner's own limit.
  maxBodyBytes: [65_536, 1_073_741_824],
} as const satisfies Partial<Record<OptionName, readonly [number, number]>>;

/** The defaults of `runs`, `concurrency` and `timeoutMs`. */
export const DEFAULTS = { runs: 100, concurrency: 16, timeoutMs: 10_000 } as const;
