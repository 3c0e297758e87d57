import {
  defineCheck,
  defineSuite,
  fail,
  isGatewayAnswer,
  isQueryTwin,
  isServerError,
  isThrottled,
  PASS,
  type Exchange,
  type PlannedRequest,
  type Verdict,
  notUtf8Bodies,
  repeatedIds,
  unpairedSurrogates,
} from '../src/runner/suite-kit.js';
import { namedKeyword, requestKind, statusDefect, typeReading } from '../src/runner/defects.js';
import { isRefusalStatus, isSuccessStatus } from '../src/contract/index.js';
import { queryNote, withoutQuery } from './rejection.js';

export const noServerError = defineCheck({
  id: 'no-server-error',
  title: 'No server errors, dropped connections or timeouts',
  rule: 'The contract documents 200 and 400 only: every request gets a complete HTTP answer within the timeout, never a 5xx (503 counts as throttling), a dropped connection or a truncated body.',
  probes: 'all',
  // Unpaired surrogate escapes (valid JSON of unpredictable meaning) and bodies that are not valid UTF-8 (which the
  // contract does not make refusals: RFC 8259 says SHALL, Express reads them as U+FFFD): only the answer's form is judged.
  alsoSends: [unpairedSurrogates, notUtf8Bodies],
  judge(exchange, _context, caseExchanges) {
    const { plan, response } = exchange;
    if (response.transportError !== undefined) {
      return fail(
        `No complete answer: ${response.transportError}${response.status ? ` after status ${response.status}` : ''}.`,
        // Broken framing after a status line is the server's, whatever was asked; a dropped connection is the request's.
        {
          defect: response.status
            ? `${response.transportError} after the status line`
            : `${response.transportError} on ${failedRequestKind(plan)}`,
        },
      );
    }
    if (response.truncated) {
      return fail(`The answer body is larger than the runner reads (flooding); it was cut.`, {
        defect: `an answer larger than the runner reads, to ${failedRequestKind(plan)}`,
      });
    }
    if (isThrottled(response)) return undefined;
    if (!isServerError(response.status)) return PASS;
    // 502 and 504 are a gateway's answers when the service behind it failed: one cause whatever was asked.
    if (isGatewayAnswer(response))
      return fail(`The target answered ${response.status}, a server error.`, {
        defect: `status ${response.status} (a gateway's: the service behind it failed or timed out)`,
      });
    if (isQueryTwin(plan)) return queryCrash(exchange, caseExchanges);
    return fail(`The target answered ${response.status}, a server error.`, {
      defect: `status ${response.status} for ${failedRequestKind(plan)}`,
    });
  },
});

/**
 * A 5xx to `query-member`'s second request: the query string's crash, one whatever member it carries (a handler
 * reading the query fails on any), unless the same body without it failed too (that crash's finding: one cause).
 */
function queryCrash(exchange: Exchange, caseExchanges: readonly Exchange[]): Verdict | undefined {
  const first = withoutQuery(exchange, caseExchanges)?.response;
  if (first !== undefined && (first.transportError !== undefined || isServerError(first.status))) return undefined;
  const { status } = exchange.response;
  return fail(`The target answered ${status}, a server error.${queryNote(exchange, caseExchanges)}`, {
    defect: `status ${status} for a request with a query string`,
  });
}

/**
 * What a request that got a 5xx or no answer was: a body with no Content-Type and one labelled another type are
 * one kind here. A handler that reads the body without checking its label (Express 5 leaves `req.body` undefined
 * when no parser ran) fails on both, and every run sends both: which one a seed sent first must not name the
 * finding. Accepted, they stay apart (rejection.ts): no label is only a warning there.
 */
function failedRequestKind(plan: PlannedRequest): string {
  // The whole body of another type (`null`, `[]`) is named as such: shrinking a member's break often ends there,
  // and a finding saying "a member" shown with the body `null` describes another request than the one it shows.
  if (plan.intent.kind === 'invalid-body' && WHOLE_BODY_TYPE.test(plan.intent.what))
    return 'an invalid body (a JSON value other than an object, null included)';
  if (plan.intent.kind === 'invalid-body' && breaksType(plan.intent.what))
    return 'an invalid body (a member of another JSON type, null included)';
  return plan.intent.kind === 'media-type' ? 'a body with a missing or wrong Content-Type' : requestKind(plan, true);
}

/**
 * An invalid body that is not an object at all: `the body not of type object: a null (keyword type)`, `[]`, `42`, a
 * NewPlant wrapped in an array. One class: a handler calling `data.get` on whatever was parsed fails on each alike,
 * and which one a seed met first must not name the finding. Arrays nested 20,000 deep are left out: a recursive
 * parser overflows on them, another cause.
 */
const WHOLE_BODY_TYPE =
  /^(?:the body not of type |(?:a JSON (?:array|string|number|boolean)|JSON null) instead of an object$|a valid NewPlant wrapped in an array$)/;

/**
 * Whether an invalid body gives a member a value of another JSON type (`null`, an array, a number for a string):
 * a handler that uses members without checking their types crashes on each of them alike (a Go type assertion
 * under chi's Recoverer, Python's `.strip()` on `None`), and which value was smallest in a seed must not name the
 * finding. Accepted, they stay apart (a null taken and a value converted are two readers' habits).
 */
function breaksType(what: string): boolean {
  return typeReading(what) !== undefined || namedKeyword(what) === 'type' || OTHER_TYPE_REWRITE.test(what);
}

/** An id rewritten to a value no integer reader takes (`"id" set to {}`, `"abc"`): Ruby's `.to_i` raises on `{}`. */
const OTHER_TYPE_REWRITE = /^"[^"]+" set to (?:\{\}|\[\]|"[^"]*")$/;

export const repeatedId = defineCheck({
  id: 'repeated-id',
  title: 'A repeated id gets a documented answer',
  rule: 'Rule 3: behaviour when the id already exists is not shown; whatever the target decides (200 or 400), it is a documented answer, not a 5xx.',
  probes: [repeatedIds],
  judge({ plan, response }, { contract: { success, refusal } }, caseExchanges) {
    if (plan.intent.kind !== 'repeat' || response.status === 0 || isThrottled(response)) return undefined;
    // A gateway's 502 or 504 says the service behind it failed, whatever was asked: no-server-error's one finding.
    if (isGatewayAnswer(response)) return undefined;
    // Only a repeat of an id the target did store says anything about repeats.
    const first = caseExchanges[0];
    if (first === undefined || !isSuccessStatus(success, first.response.status)) return undefined;
    if (isSuccessStatus(success, response.status) || isRefusalStatus(refusal, response.status)) return PASS;
    const documented = `${success.documented} and ${refusal.status === 400 ? '400' : `400 or ${refusal.status}`}`;
    return fail(`Sending an existing id again was answered ${response.status}; the contract documents ${documented}.`, {
      defect: statusDefect(response.status, plan),
    });
  },
});

/** The target survives whatever it is sent, repeats included. */
export default defineSuite({
  name: 'robustness',
  description: 'Every request gets a complete, documented answer: no crashes, hangs or server errors.',
  checks: [noServerError, repeatedId],
});
