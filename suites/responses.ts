import {
  defineCheck,
  defineSuite,
  fail,
  hasSeveralValues,
  isJudgeable,
  isMediaType,
  isLargeBody,
  isServerError,
  mediaTypeEssence,
  PASS,
  responseJson,
  saysJson,
  type Exchange,
  type PlannedRequest,
  type Verdict,
} from '../src/runner/suite-kit.js';
import {
  carriesError,
  isRefusalStatus,
  isSuccessStatus,
  type Contract,
  type RefusalStatus,
  type SchemaCheck,
  type SuccessStatus,
  type Violation,
} from '../src/contract/index.js';
import { DOUBLES_DEFECT, labelDefect, notJsonDefect, roundedAt, statusDefect } from '../src/runner/defects.js';
import { pointerSegments } from '../src/contract/document-pointer.js';
import { echoedProperties, firstDifference, located } from '../src/runner/echo-compare.js';
import { valueAt } from '../src/runner/generate/pointer.js';
import { sentObject } from './acceptance.js';
import { acceptedDefect, excusedQueryAnswer, queryNote } from './rejection.js';

/** What an answer with `status` must carry: the Plant, the Error, another documented body, or nothing judged. */
function documentedBody(
  contract: Contract,
  status: number,
): { readonly name: string; readonly check: SchemaCheck; readonly mediaType: string } | undefined {
  if (isSuccessStatus(contract.success, status))
    return { name: 'Plant', check: contract.check.plant, mediaType: contract.mediaTypes.plant };
  if (carriesError(contract.refusal, status))
    return { name: 'Error', check: contract.check.error, mediaType: contract.mediaTypes.error };
  const answer = contract.answers.forStatus(status);
  return answer && { name: answer.key, check: answer.compiled.check, mediaType: answer.mediaType };
}

export const responseSchema = defineCheck({
  id: 'response-schema',
  title: 'A 200 carries a Plant, a 400 an Error',
  rule: "Responses: 200 is a JSON Plant; rule 2: when the request fails with status 400, the body is an Error object with both `error` (int32) and `message` present. Both are judged by the document's own Plant and Error schemas, and any other 4xx the document gives a JSON schema of its own (a 401, FastAPI's 422) by that schema.",
  probes: 'all',
  judge(exchange, { contract }) {
    const { status } = exchange.response;
    if (excusedQueryAnswer(exchange)) return undefined;
    const documented = isJudgeable(exchange.response) ? documentedBody(contract, status) : undefined;
    if (documented === undefined) return undefined;
    const schema = documented.name;
    const success = schema === 'Plant';
    const body = responseJson(exchange);
    const type = exchange.response.headers['content-type'];
    const accepted = success && mustBeRefused(exchange.plan);
    if (!body.ok)
      return fail(`The ${status} answer should carry ${carried(schema)}, but ${body.reason}.`, {
        defect: accepted ? acceptedDefect(exchange.plan) : notJsonDefect(status, type, saysJson(type)),
      });
    const violations = documented.check(body.value);
    if (violations.length === 0) return success ? headersVerdict(contract, exchange.response) : PASS;
    // Nulls written for properties not sent (Go, Jackson, pydantic without exclude_none) are one root
    // cause whatever the property: named by the first other violation, else as that.
    const sent = success ? sentObject(exchange.plan) : undefined;
    const first = violations.find((violation) => !isUnsentNull(violation, body.value, sent));
    const { intent } = exchange.plan;
    // An invalid body accepted and echoed gives an invalid Plant: one root cause, negative-rejection's.
    const rounded = success && roundedPlace(exchange.plan, body.value, violations);
    // A valid NewPlant's property answered with another value that breaks the Plant is echo's defect too.
    const changed =
      intent.kind === 'valid' && first !== undefined ? changedEcho(contract, first, body.value, sent) : undefined;
    return fail(
      `The ${status} body is not ${valid(schema)}: ${violations
        .map((v) => v.message)
        .slice(0, 3)
        .join('; ')}.`,
      {
        defect: rounded
          ? DOUBLES_DEFECT
          : accepted
            ? acceptedDefect(exchange.plan)
            : changed !== undefined
              ? `"${changed}" not echoed as sent`
              : first === undefined
                ? `the ${status} body writes null for properties not sent, which the ${schema} does not allow`
                : `the ${status} body is not ${valid(schema)} (${first.keyword} at "${first.field}")`,
      },
    );
  },
});

/**
 * Whether a request is one the target must refuse (an invalid body, a body labelled with another media type,
 * a broken parameter), so that a success answer to it is negative-rejection's defect, whatever its body or
 * label shows: one root cause. WEBrick answers 200 with no body and no Content-Type when a handler dies of an
 * exception that is not a `StandardError` (`SystemStackError` on arrays nested 20,000 deep); that is the
 * invalid body accepted, not a second finding about the 200's label. A body sent with no Content-Type may
 * be accepted (negative-rejection only warns), so its answer is judged as any other.
 */
function mustBeRefused(plan: PlannedRequest): boolean {
  const { intent } = plan;
  if (intent.kind === 'media-type') return intent.missing !== true;
  return intent.kind === 'invalid-body' || intent.kind === 'invalid-parameter';
}

/**
 * The success answer's headers as the document declares them: each required one present (a 201's
 * `Location`), each present one valid under its schema.
 */
function headersVerdict(contract: Contract, response: Exchange['response']): Verdict {
  const { status } = response;
  for (const header of contract.successHeaders) {
    const value = response.headers[header.name.toLowerCase()];
    if (value === undefined) {
      if (!header.required) continue;
      return fail(
        `The ${status} answer has no ${header.name} header; the document's ${contract.success.documented} response requires it.`,
        { defect: `the ${status} answer has no ${header.name} header, which the document requires` },
      );
    }
    const problem = header.problem(value);
    if (problem === undefined) continue;
    return fail(`The ${status} answer's ${header.name} header ("${value}") ${problem}, as its schema says.`, {
      defect: `the ${status} answer's ${header.name} header breaks its schema`,
    });
  }
  return PASS;
}

/**
 * The echoed property a violation of the Plant is in, when the answer holds another value there than the
 * one sent: the echo check's defect (`"id" not echoed as sent`), one root cause with the broken Plant.
 */
function changedEcho(
  contract: Contract,
  violation: Violation,
  answered: unknown,
  sent: Readonly<Record<string, unknown>> | undefined,
): string | undefined {
  const [field] = pointerSegments(violation.pointer);
  if (field === undefined || sent === undefined || !Object.hasOwn(sent, field)) return undefined;
  if (answered === null || typeof answered !== 'object' || !Object.hasOwn(answered, field)) return undefined;
  const { echoed, schemas } = echoedProperties(contract);
  if (!echoed.includes(field)) return undefined;
  const where = firstDifference(located(sent, field), located(answered, field), `/${field}`, schemas.get(field));
  return where === undefined ? undefined : field;
}

/** Whether a violation is a null the answer holds where the request sent nothing (an unset field written out). */
function isUnsentNull(violation: Violation, answered: unknown, sent: object | undefined): boolean {
  if (sent === undefined || violation.pointer === '') return false;
  const found = valueAt(answered, violation.pointer);
  return found.present && found.value === null && !valueAt(sent, violation.pointer).present;
}

/** Whether a violation of the Plant is a number of the request that came back rounded through a double. */
function roundedPlace(plan: PlannedRequest, answered: unknown, violations: readonly Violation[]): boolean {
  const sent = sentObject(plan);
  return sent !== undefined && violations.some(({ field }) => roundedAt(sent, answered, field));
}

/** What an answer carries: `a Plant`, `an Error`, `the body its 401 response documents`. */
function carried(schema: string): string {
  if (schema === 'Plant') return 'a Plant';
  if (schema === 'Error') return 'an Error';
  return `the body its ${schema} response documents`;
}

/** `a valid Plant`, `a valid Error`, `valid under the document's 401 response schema`. */
function valid(schema: string): string {
  return schema === 'Plant' || schema === 'Error'
    ? `a valid ${schema}`
    : `valid under the document's ${schema} response schema`;
}

export const contentType = defineCheck({
  id: 'content-type',
  title: 'JSON answers say their documented media type',
  rule: "The contract documents the 200 and 400 bodies as `application/json`; a document's own media type for the Plant and the Error (`application/problem+json`, say) takes its place. Any letter case and parameters such as charset are allowed, per RFC 9110.",
  probes: 'all',
  judge(exchange, { contract }) {
    if (excusedQueryAnswer(exchange)) return undefined;
    const { plan, response } = exchange;
    const body = isJudgeable(response) ? documentedBody(contract, response.status) : undefined;
    if (body === undefined) return undefined;
    const type = response.headers['content-type'];
    const documented = mediaTypeEssence(body.mediaType);
    if (isMediaType(type, documented)) return PASS;
    // A range (springdoc's `*/*`) leaves the type open: any single JSON type is the document's.
    if (documented.endsWith('/*') && saysJson(type) && !hasSeveralValues(type ?? '')) return PASS;
    if (type !== undefined && hasSeveralValues(type)) {
      return fail(
        `The ${response.status} answer has more than one Content-Type ("${type}"); the field takes a single value (RFC 9110, 8.3), and clients may read the body as the last one.`,
        { defect: `the ${response.status} answer has more than one Content-Type` },
      );
    }
    const accepted = body.name === 'Plant' && mustBeRefused(plan);
    return fail(
      `The ${response.status} answer has ${type === undefined ? 'no Content-Type' : `Content-Type "${type}"`}; the document gives ${documented}.`,
      { defect: accepted ? acceptedDefect(plan) : labelDefect(response.status, type) },
    );
  },
});

/**
 * The statuses a target may answer with for a request of this intent. The contract is silent on
 * authentication failures, so 401 and 403 are always documented answers (whether refusing was right
 * is positive-acceptance's and auth-enforced's business).
 */
function allowedStatuses(plan: PlannedRequest, success: SuccessStatus): readonly number[] {
  const { intent } = plan;
  // HTTP's own answer to a body in a media type the operation does not take.
  if (intent.kind === 'media-type' || (intent.kind === 'valid-variant' && intent.writtenAs.aspect === 'media-type')) {
    return [success.status, 400, 401, 403, 415];
  }
  // HTTP's own answer to a body over the server's limit, which the contract leaves open.
  // (A body of unpredictable meaning that large is one the proxy saw over its judging cap.)
  if ((intent.kind === 'invalid-body' || intent.kind === 'unpredictable') && isLargeBody(plan))
    return [success.status, 400, 401, 403, 413];
  return [success.status, 400, 401, 403];
}

/** The refusals a document adds to the contract's 400: its Error's status (422), other listed 4xx, `4XX`. */
function documentedRefusals(refusal: RefusalStatus): string[] {
  const listed = [refusal.status, ...refusal.listed].filter((status) => status !== 400).map(String);
  return [...new Set([...listed, ...(refusal.anyFourXX ? ['another 4xx'] : [])])];
}

export const documentedStatus = defineCheck({
  id: 'documented-status',
  title: 'Only documented statuses are answered',
  rule: 'POST /plants documents 200 and 400 only, plus what HTTP defines for what the contract leaves open: 401/403 for authentication, 415 for a wrong Content-Type, 413 for an invalid body over 16 KiB. 3xx redirects and other 4xx are undocumented.',
  probes: 'all',
  judge(exchange, { contract }, caseExchanges) {
    const { plan, response } = exchange;
    // Server errors belong to no-server-error, throttling is a note.
    if (!isJudgeable(response) || isServerError(response.status) || excusedQueryAnswer(exchange)) return undefined;
    const { success, refusal } = contract;
    const allowed = allowedStatuses(plan, success);
    if (allowed.includes(response.status) || isSuccessStatus(success, response.status)) return PASS;
    if (isRefusalStatus(refusal, response.status)) return PASS;
    const expected = [
      ...new Set([success.documented, ...allowed.slice(1).map(String), ...documentedRefusals(refusal)]),
    ];
    return fail(
      `The target answered ${response.status}, which the contract does not document for this request (expected ${expected.join(' or ')}).${redirectNote(plan, response)}${queryNote(exchange, caseExchanges)}`,
      { defect: undocumentedStatusDefect(response.status, plan) },
    );
  },
});

/**
 * Where a redirect points, and why that is not an answer: a sign-in page for a request without a valid credential
 * (a session-auth middleware), or the path with a slash appended (Django's APPEND_SLASH, echo's AddTrailingSlash).
 */
function redirectNote(plan: PlannedRequest, response: Exchange['response']): string {
  if (response.status < 300 || response.status > 399) return '';
  const location = response.headers.location;
  const where = location === undefined ? ' It gave no Location.' : ` It points to ${JSON.stringify(location)}.`;
  if (plan.intent.kind === 'auth')
    return `${where} The request had ${plan.intent.what}: an API answers a missing or wrong credential with 401 (or 400, 403) and an Error, where a redirect (to a sign-in page, as a session login does) leaves a client with nothing to read.`;
  if (location !== undefined && /\/plants\/(?:[?#]|$)/.test(location))
    return `${where} The same path with a slash appended: route ${plan.path} itself rather than redirecting to it (a client does not resend a POST body to a 301 or 302).`;
  return where;
}

/**
 * The defect of an undocumented status. JSON of unpredictable meaning a target took is a NewPlant to it: its
 * undocumented success (NestJS's `@Post()` answers 201) is the valid NewPlant's defect, not a second one.
 */
function undocumentedStatusDefect(status: number, plan: PlannedRequest): string {
  const takenAsValid = status >= 200 && status <= 299 && plan.intent.kind === 'unpredictable';
  if (takenAsValid) return statusDefect(status, { ...plan, intent: TAKEN_AS_VALID });
  return statusDefect(status, mayBeRefused(plan, status) ? { ...plan, intent: REFUSED } : plan);
}

const TAKEN_AS_VALID: PlannedRequest['intent'] = { kind: 'valid', strings: {}, idMayRepeat: false };
const REFUSED: PlannedRequest['intent'] = { kind: 'repeat' };

/**
 * A request a target may refuse, refused with an undocumented 4xx: a valid NewPlant written another way that
 * only warns when refused (its media type as `Application/JSON`, the scheme as `bearer`), or JSON of
 * unpredictable meaning (a lone surrogate). The defect is the target's refusal status, one finding with the
 * invalid bodies it refuses so (Elysia answers them all 422), not one per kind of request.
 */
function mayBeRefused(plan: PlannedRequest, status: number): boolean {
  const { intent } = plan;
  if (status < 400 || status > 499) return false;
  if (intent.kind === 'unpredictable') return true;
  return intent.kind === 'valid-variant' && intent.writtenAs.aspect !== 'integer-spelling';
}

/** The form of every answer: status, body schema, media type. */
export default defineSuite({
  name: 'responses',
  description: 'Every answer uses a documented status, carries the documented body and says it is JSON.',
  checks: [responseSchema, contentType, documentedStatus],
});
