import type fc from 'fast-check';
import { requiredParameterValues, type Contract } from '../contract/index.js';
import { mediaTypeEssence } from '../contract/media-types.js';
import type { AuthHeader } from './generate/auth-probe.js';
import type { FreshIds } from './generate/fresh-ids.js';

/** What a valid NewPlant request carries, whichever way it is written. */
interface ValidPlant {
  /** The top-level string properties sent. (The echo check reads the whole body sent.) */
  readonly strings: Readonly<Record<string, string>>;
  /** The id is an exact fixed value an earlier run may have stored. */
  readonly idMayRepeat: boolean;
  /** Extra explanation for a failure, e.g. why this id is special. */
  readonly note?: string;
  /** The body's `__proto__` or `constructor` member, which some frameworks refuse by default. */
  readonly prototypeKey?: string;
}

/**
 * How a twin of a valid NewPlant is written other than the contract writes it: its id in another
 * spelling JSON Schema still counts as an integer (`5.0`), the scheme name in another letter case
 * (`bearer`), or the media type with a charset. Judged beside its plain first (kind `valid`).
 */
export type WrittenAs =
  | { readonly aspect: 'integer-spelling'; readonly written: string }
  | { readonly aspect: 'scheme'; readonly written: string }
  | { readonly aspect: 'media-type'; readonly written: string }
  /** Every header name in lower case (`authorization`, `content-type`), as HTTP/2 clients and proxies send them. */
  | { readonly aspect: 'header-names'; readonly written: string };

/** What a request is meant to test; checks judge an exchange by its intent. */
export type Intent =
  /** A valid NewPlant with a valid credential, written as the contract writes it: 200 with a Plant. */
  | ({ readonly kind: 'valid' } & ValidPlant)
  /** The same, written another way HTTP or JSON allows (see {@link WrittenAs}). */
  | ({ readonly kind: 'valid-variant'; readonly writtenAs: WrittenAs } & ValidPlant)
  | {
      readonly kind: 'invalid-body';
      readonly what: string;
      /**
       * The required member left out of the body and given in the query string instead (`?name=Fern`): any refusal
       * passes, since a server may refuse a query parameter it does not know.
       */
      readonly queryMember?: string;
    }
  /**
   * A valid NewPlant whose request leaves out a required header, query or cookie parameter of the
   * document, or gives one a value its schema refuses; every other parameter valid.
   */
  | {
      readonly kind: 'invalid-parameter';
      /** `required header "X-Request-ID" left out`, `query "api-version" holding "x": not one of enum [...]`. */
      readonly what: string;
      /** The parameter broken: `header "X-Request-ID"`. */
      readonly parameter: string;
    }
  | {
      readonly kind: 'media-type';
      readonly what: string;
      /** No Content-Type at all: RFC 9110 (8.3) lets a recipient examine the data to find its type. */
      readonly missing?: boolean;
    }
  | {
      readonly kind: 'auth';
      readonly what: string;
      /** The right token, only without its scheme: accepting it is lenient parsing, not an open door. */
      readonly lenient?: boolean;
    }
  /**
   * JSON the grammar allows but whose meaning is unpredictable (RFC 8259, 8.2): any documented answer. `notUtf8`: a
   * NewPlant whose bytes are not valid UTF-8 (the plan's `bodyBytes`), refused or read with replacement alike.
   */
  | { readonly kind: 'unpredictable'; readonly what: string; readonly notUtf8?: boolean }
  /** The same valid NewPlant sent again: the contract does not say what happens. */
  | { readonly kind: 'repeat' };

/** A request to send, with the credential described rather than included. */
export interface PlannedRequest {
  readonly method: string;
  /** Path below the base URL, e.g. `/plants`. */
  readonly path: string;
  readonly auth: AuthHeader;
  /** `undefined`: no Content-Type header. */
  readonly contentType: string | undefined;
  /** `null`: no body. */
  readonly body: string | null;
  /**
   * The body's exact bytes when they are not valid UTF-8, sent instead of `body` (then their lossy reading, U+FFFD
   * for each invalid sequence, which judging reads).
   */
  readonly bodyBytes?: Uint8Array;
  /**
   * More headers, names in lower case: the document's required header (and cookie) parameters. A plan of
   * intent `invalid-parameter` carries its own (and its own query), which {@link defineProbe} leaves as they are.
   */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Write every header name in lower case on the wire (and in the curl line): the runner writes them as curl does,
   * `Authorization`, `Content-Type`, otherwise. Names are case-insensitive (RFC 9110, 5.1).
   */
  readonly lowerCaseNames?: boolean;
  /** Send the body in two writes with a pause between them (as a slow network delivers it). */
  readonly splitBody?: boolean;
  /** Send the case's requests over one connection of their own, in order (see `sendOnOneConnection`). */
  readonly sameConnection?: boolean;
  readonly intent: Intent;
}

/** What a probe may use while turning a generated value into requests. */
export interface PlanContext {
  readonly contract: Contract;
  readonly fresh: FreshIds;
  /** Names the case (probe, index, shrink path) so fresh ids differ between cases. */
  readonly salt: string;
}

/**
 * A kind of case the runner sends: a fast-check arbitrary and how one generated value becomes a
 * short sequence of requests (sent one after another, on one case).
 */
export interface Probe<V = unknown> {
  /** Stable name, used in replay strings. */
  readonly name: string;
  /** What the probe sends, for people. */
  readonly title: string;
  /** Cases per run, as a fraction of `runs` (at least one case per variant is always sent). */
  readonly share: number;
  /**
   * How many variants the probe has (default 1): case `i` uses variant `i % variants`, so every kind of
   * invalid body or bad credential is sent even in a short run, and each case shrinks within its kind.
   * 0: the probe sends nothing for this document.
   */
  variants?(contract: Contract): number;
  arbitrary(contract: Contract, variant: number): fc.Arbitrary<V>;
  plan(value: V, context: PlanContext): PlannedRequest[];
}

/**
 * Declares a probe. Its plans carry the document's required header, query and cookie parameters
 * (valid values, the same for the same case), so no probe has to know them.
 */
export function defineProbe<V>(probe: Probe<V>): Probe<V> {
  return { ...probe, plan: (value, context) => withRequiredParameters(probe.plan(value, context), context) };
}

function withRequiredParameters(plans: PlannedRequest[], context: PlanContext): PlannedRequest[] {
  return plans.map((plan, index) =>
    plan.intent.kind === 'invalid-parameter'
      ? withDocumentMediaType(plan, context.contract)
      : withDocumentParameters(plan, context.contract, `${context.fresh.nonce}:${context.salt}:${index}`),
  );
}

/**
 * `plan` in the document's own JSON media type where the document does not take `application/json`
 * (`application/vnd.plants+json`): a JSON body is labelled with it, in the same spelling (parameters
 * and letter case kept), and Accept names the Plant's and the Error's types. A server taking only its
 * vendor type (Spring's `consumes`/`produces`) refuses `application/json` with 415 or 406.
 */
export function withDocumentMediaType(plan: PlannedRequest, contract: Contract): PlannedRequest {
  const { contentType } = plan;
  if (contract.requestMediaTypes.includes('application/json') || plan.intent.kind === 'media-type') return plan;
  const documented = mediaTypeEssence(contract.mediaTypes.newPlant);
  if (contentType === undefined || mediaTypeEssence(contentType) !== 'application/json') return plan;
  const spelled = contentType.replace(/application\/json/i, (written) =>
    written === 'application/json' ? documented : documented.toUpperCase(),
  );
  const answers = [...new Set([contract.mediaTypes.plant, contract.mediaTypes.error].map(mediaTypeEssence))];
  const accept = answers.filter((type) => !type.includes('*')).join(', ');
  return { ...plan, contentType: spelled, headers: { ...(accept === '' ? {} : { accept }), ...plan.headers } };
}

/**
 * `plan` with the document's required header, query and cookie parameters added (valid values, the same
 * for the same `salt`); `plan` itself when the document requires none. For requests sent outside a
 * probe, such as the preflight's. The salt names the run's nonce too: a server storing what it saw (an
 * `Idempotency-Key` with its body) meets another run's value only with that run's body.
 */
export function withDocumentParameters(given: PlannedRequest, contract: Contract, salt: string): PlannedRequest {
  const plan = withDocumentMediaType(given, contract);
  const values = requiredParameterValues(contract, salt);
  if (values === undefined) return plan;
  const path = values.query === '' ? plan.path : `${plan.path}${plan.path.includes('?') ? '&' : '?'}${values.query}`;
  return { ...plan, path, headers: { ...values.headers, ...plan.headers } };
}

/** The one operation of the contract. */
export const PLANTS_PATH = '/plants';
