import type { Contract } from '../contract/index.js';
import type { Exchange } from './http/client.js';
import type { Probe } from './probe.js';
import type { CheckId } from './report.js';

/** One check's judgement of one exchange. */
export interface Verdict {
  readonly outcome: 'pass' | 'fail' | 'warn';
  /** Why, for `fail` and `warn`: what the target did and the contract sentence it breaks. */
  readonly reason?: string;
  /**
   * The shape of the defect, in a few words and with no generated value, seed or nonce (e.g.
   * `status 201 for a valid NewPlant`): failures of any check with the same defect are one finding.
   */
  readonly defect?: string;
}

/** What a failing or warning verdict may say besides its reason. */
export interface VerdictDetails {
  /** See {@link Verdict.defect}. */
  readonly defect?: string;
}

/** What a check may know besides the exchange. */
export interface JudgeContext {
  readonly contract: Contract;
  /**
   * Whether the target answers a repeated id with 400 (probed before the run). `undefined` when
   * unknown.
   */
  readonly targetRejectsRepeats: boolean | undefined;
  /**
   * Set when the run's first valid NewPlant got neither a success nor a refusal (a 5xx, a throttle, no
   * answer): whether the target refuses repeats was never learned, unlike a target that refused that plant.
   */
  readonly repeatsUnasked?: boolean;
  /**
   * The target refused plantstore's canary plant as a repeat: it holds an earlier run's plants, so
   * a 400 on a fixed id may be about a repeat. Otherwise every fixed id must be accepted.
   */
  readonly targetHoldsEarlierRun?: boolean;
  /**
   * The `error` value (as written) of the target's own 400 to a repeated id, when it sent one: a 400
   * with another `error` value is, by the target's own account, not about a repeat.
   */
  readonly repeatErrorCode?: string;
  /** That value is the target's own for a repeat: its answers to a missing or a string id differ. */
  readonly repeatCodeIsDistinct?: boolean;
  /**
   * The `message` of the target's answer to a repeat, numbers written `#` (see `messageShapeOf`), when
   * it differs from its messages for a missing and a string id: a 400 saying the same is about a repeat.
   */
  readonly repeatMessageShape?: string;
}

/** A conformance check: a stable id, the rule it enforces, the probes it needs, and its judge. */
export interface CheckDefinition {
  // A user's own suites add ids of their own; CheckId documents the built-in ones.
  // eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents
  readonly id: CheckId | string;
  readonly title: string;
  /** The contract sentence (or HTTP rule) the check enforces, quoted in reports. */
  readonly rule: string;
  /** The probes whose cases this check needs; `'all'`: it judges whatever the other checks send. */
  readonly probes: readonly Probe<unknown>[] | 'all';
  /** Probes sent for this check on top of `'all'`: cases no other check needs but this one judges. */
  readonly alsoSends?: readonly Probe<unknown>[];
  /**
   * Why the check has nothing to judge on this document (it declares no authentication, say), shown as
   * its skip reason; `undefined` when it applies. A check that does not apply sends no cases of its own.
   */
  notApplicable?(contract: Contract): string | undefined;
  /**
   * Judges one exchange; `undefined` when the exchange says nothing about this check (another
   * intent, or a status another check owns).
   */
  judge(exchange: Exchange, context: JudgeContext, caseExchanges: readonly Exchange[]): Verdict | undefined;
}

/** A named group of checks; `runConformance` runs the checks of every suite it is given. */
export interface Suite {
  readonly name: string;
  readonly description: string;
  readonly checks: readonly CheckDefinition[];
}

/** Declares a check (identity, for type inference and a single place to find every check). */
export function defineCheck(check: CheckDefinition): CheckDefinition {
  return check;
}

/** Declares a suite of checks. */
export function defineSuite(suite: Suite): Suite {
  return suite;
}

/** The verdict of an exchange that satisfies the check. */
export const PASS: Verdict = { outcome: 'pass' };

/** A failing verdict; `details.defect` names the shape of the defect (see {@link Verdict.defect}). */
export function fail(reason: string, details: VerdictDetails = {}): Verdict {
  return { outcome: 'fail', reason, ...details };
}

/** A warning: worth a look, not a contract violation. */
export function warn(reason: string, details: VerdictDetails = {}): Verdict {
  return { outcome: 'warn', reason, ...details };
}
