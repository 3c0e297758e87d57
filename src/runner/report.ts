/**
 * The value `runConformance` resolves to, and the shape of `report.json`. Stable: fields are only
 * ever added. Reporters (console, JSON, JUnit, HTML) render it; only the runner builds it.
 */

/** Stable identifiers of the conformance checks; each is tied to a sentence of the contract. */
export type CheckId =
  | 'positive-acceptance'
  | 'response-schema'
  | 'documented-status'
  | 'content-type'
  | 'negative-rejection'
  | 'auth-enforced'
  | 'no-server-error'
  | 'echo'
  | 'repeated-id'
  | 'integer-spellings';

/** `warn`: something a person should look at that the contract does not make a failure. */
export type CheckStatus = 'pass' | 'fail' | 'warn' | 'skip';

/**
 * A request as sent, with the credential replaced by `$PLANTSTORE_TOKEN`; damaged variants of it
 * sent by the auth probes read as shell expansions of that variable (`${PLANTSTORE_TOKEN}x`,
 * `${PLANTSTORE_TOKEN~~}` for the case-flipped token), so a curl line still needs no secret.
 */
export interface RecordedRequest {
  readonly method: string;
  /** Full URL. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The body exactly as sent (UTF-8 text), or `null` when none was sent. */
  readonly body: string | null;
  /** Set when the body is not valid UTF-8 text: the bytes as base64, and `body` is a lossy preview. */
  readonly bodyBase64?: string;
  /** Set when the header names went in lower case, as `headers` writes them (else as curl writes them: `Content-Type`). */
  readonly lowerCaseNames?: true;
}

/** What came back, or how the exchange failed at the transport level. */
export interface RecordedResponse {
  /** 0 when no HTTP response was received. */
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The body as text (capped; see `truncated`), or `null` when none arrived. */
  readonly body: string | null;
  /** True when the body was longer than the runner reads, and was cut. */
  readonly truncated?: boolean;
  /**
   * The body's bytes in base64, set only when they are not UTF-8 (`body` then reads each bad sequence as U+FFFD):
   * such a body is no JSON text (RFC 8259, 8.1).
   */
  readonly bodyBase64?: string;
  /** Transport failure: `timeout`, `connection-reset`, `connection-refused`, `incomplete-body`, `not-http`, ... */
  readonly transportError?: string;
  readonly durationMs: number;
}

/** One minimal counterexample of a failed (or warned) check. */
export interface Failure {
  /** What the target did wrong, in one or two sentences, citing the contract. */
  readonly reason: string;
  readonly request: RecordedRequest;
  readonly response: RecordedResponse;
  /**
   * A ready-to-paste curl command for any POSIX shell; the token reads `$PLANTSTORE_TOKEN`. Requests
   * that must share a connection are one command joined by `--next`.
   */
  readonly curl: string;
  /**
   * How to run exactly this case again, as text: the options of `rerun` from code, e.g.
   * `runConformance({ seed: 42, runs: 100, replay: 'positive-acceptance:17:0.3:9f86d081884c7d65' })`;
   * `plantstore test` writes the command instead (`plantstore test --seed 42 --runs 100 --replay …`).
   */
  readonly replay: string;
  /** The `runConformance` options that run exactly this case again (add the token and the suites). */
  readonly rerun?: Rerun;
  /** How many shrink steps led from the first failing case to this one. */
  readonly shrinkSteps: number;
  /**
   * How many requests the case sent up to the failing one, when more than one (a keep-alive pair, a precision
   * pair): its curl lines send them all, in order.
   */
  readonly requests?: number;
  /** The shape of the defect, with no generated value (e.g. `status 201 for a valid NewPlant`). */
  readonly defect?: string;
  /** The {@link Finding} this counterexample belongs to: stable across runs and seeds. */
  readonly fingerprint?: string;
  /**
   * The fingerprint of the finding it is reported under, when not its own: a null or a converted value
   * accepted for a field the target also reads wrongly another way (its type never read), which is that
   * field's finding. Judged alone (a replay, its curl line), the failure names its own `fingerprint`.
   */
  readonly foldedInto?: string;
  /**
   * The requests a target that stopped answering for good had in flight (the first four; the note `unresponsive`
   * names every one), this failure's among them: any may be the cause, none is known to be. Send each alone.
   */
  readonly candidates?: readonly FailureCandidate[];
}

/** A request that may have brought the target down: its curl line and the replay of its case. */
export interface FailureCandidate {
  readonly curl: string;
  readonly replay: string;
}

/**
 * One root cause: the failures of every check that share a defect. Its fingerprint depends only on
 * the defect's shape (a check id and a phrase such as `status 201 for a valid NewPlant`), never on a
 * seed, a nonce or a generated value, so a baseline can name it.
 */
export interface Finding {
  /** 16 hex digits; the same defect has the same fingerprint in every run. */
  readonly fingerprint: string;
  /** The defect in a few words, e.g. `status 201 for a valid NewPlant`. */
  readonly title: string;
  /** The failed checks it explains, in report order. */
  readonly checks: readonly string[];
  /** Its smallest counterexample (the shortest request body among the checks'). */
  readonly counterexample: Failure;
}

/** What the run's evidence says when the URL tested is not a Plant Store at all. */
export interface CouldNotJudge {
  /**
   * Stable: `not-found` (every valid NewPlant 404/405), `credential-refused` (401/403), `redirected`,
   * `ids-taken` (every valid NewPlant refused, each with an id of a narrow range an earlier run may have
   * stored), `not-http`, `html`, `tls`, `no-answer`, `replay-id-held` (a replayed case refused as a repeat of an id
   * the target holds, nothing failing: the run replayed stored it).
   */
  readonly code: string;
  /** One line: what was seen and the probable fix, options in backquotes (`` `baseUrl` ``). */
  readonly reason: string;
  /** The options the reason names, in order. */
  readonly options: readonly string[];
  /**
   * Whether the setup made the target's answers (a refused token, a wrong base path, scheme or port, a redirect
   * to another origin, another server's HTML pages): then no check failed for them and no finding was made.
   * False for `ids-taken` and `no-answer`, whose failures stand (the store, or a target hanging on every
   * request, may be the defect).
   */
  readonly setupsDoing: boolean;
}

/**
 * The run's verdict: `conformant`; `not-conformant` (a check failed); `could-not-judge` (the URL
 * does not answer like a Plant Store: see `couldNotJudge`); `incomplete` (nothing failed, but cases
 * went unsent or nothing was judged).
 */
export type RunVerdict = 'conformant' | 'not-conformant' | 'could-not-judge' | 'incomplete';

/** A report's findings compared with a baseline file (`plantstore test --baseline FILE`). */
export interface BaselineComparison {
  /** The baseline file, as given. */
  readonly file: string;
  /** Fingerprints of findings the baseline does not hold: only these fail the run. */
  readonly new: readonly string[];
  /** Fingerprints of findings the baseline holds that still occur. */
  readonly known: readonly string[];
  /** Findings the baseline holds that this run did not see (fixed, or not reached). */
  readonly fixed: readonly { readonly fingerprint: string; readonly title: string }[];
  /**
   * Findings the baseline holds that this run did not see because none of the checks the file lists for them judged
   * anything (another defect left them nothing, or they were not selected): not fixed, still to be kept.
   */
  readonly unjudged?: readonly { readonly fingerprint: string; readonly title: string }[];
  /**
   * Entries the file lists under a fingerprint an older plantstore gave the finding (its defect since worded
   * otherwise), known under the `current` one(s) this run saw: `--write-baseline` records those.
   */
  readonly renamed?: readonly { readonly fingerprint: string; readonly current: readonly string[] }[];
}

/** The options that re-run one case: spread them into `runConformance`. */
export interface Rerun {
  readonly seed: number;
  readonly runs: number;
  /** Absent when the embedded reference was tested. */
  readonly baseUrl?: string;
  /** The document the run followed; absent for the packaged openapi.yaml. */
  readonly spec?: string;
  /** The replay string naming the case and its shrink path. */
  readonly replay: string;
}

/** A note about the run as data: what it is about, and which options its message names. */
export interface RunNote {
  /** Stable: `not-tested`, `answer-unjudged`, `one-connection`, `connection-limit`, `replayed`, `not-found`, `credential-refused`, `nonce`, `repeats-held`, `repeats-fresh`, `repeats-unknown`, `repeats-accepted`, `budget`, `unresponsive`, `answered-alone`, `throttled`, `delayed-bodies`. */
  readonly code: string;
  /** The message, naming each option in backquotes (`` `budgetMs` ``); the CLI shows flags there. */
  readonly message: string;
  /** The options the message names, in order. */
  readonly options: readonly string[];
}

/** The outcome of one check over every case it judged. */
export interface CheckResult {
  // A user's own suites add ids of their own; CheckId documents the built-in ones.
  // eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents
  readonly id: CheckId | string;
  readonly title: string;
  /** The contract sentence (or HTTP rule) this check enforces. */
  readonly rule: string;
  readonly status: CheckStatus;
  /** How many cases this check judged. */
  readonly cases: number;
  /** Minimal counterexamples, the most useful first; empty when the check passed. */
  readonly failures: readonly Failure[];
  /** Why the check was skipped, when it was; options are named in backquotes, as in notes. */
  readonly skipReason?: string;
}

/** The whole result of a conformance run. */
export interface Report {
  readonly tool: { readonly name: 'plantstore'; readonly version: string };
  readonly target: {
    readonly baseUrl: string;
    /** True when the embedded reference implementation was tested. */
    readonly embedded: boolean;
  };
  /** The seed that reproduces this run's cases. */
  readonly seed: number;
  /** `proxy` when `plantstore proxy` wrote it from the traffic it saw (its `seed` is 0 and replays nothing). */
  readonly source?: 'proxy';
  readonly startedAt: string;
  readonly summary: {
    readonly cases: number;
    readonly passed: number;
    readonly failed: number;
    readonly warnings: number;
    readonly skipped: number;
    /** Planned cases never sent: the budget ran out or the target stopped answering. */
    readonly unsent?: number;
    /** Answers still 429 or 503 after the waits (not judged); absent when none. */
    readonly throttled?: number;
    readonly durationMs: number;
  };
  readonly checks: readonly CheckResult[];
  /** Problems with the run itself (budget exhausted, target throttling), not with the target. */
  readonly notes: readonly string[];
  /** The same notes as data, in the same order: `noteDetails[i].message` is `notes[i]`. */
  readonly noteDetails?: readonly RunNote[];
  /** The verdict of the run (see {@link RunVerdict}). */
  readonly verdict?: RunVerdict;
  /** Set when the verdict is `could-not-judge`: why, and the probable fix. */
  readonly couldNotJudge?: CouldNotJudge;
  /** The failures grouped by root cause, most checks explained first. */
  readonly findings?: readonly Finding[];
  /** Set by `plantstore test --baseline`: which findings are new, known, or no longer seen. */
  readonly baseline?: BaselineComparison;
}
