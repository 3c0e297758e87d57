import {
  defineCheck,
  defineSuite,
  fail,
  invalidBodies,
  isClientError,
  isQueryTwin,
  invalidParameters,
  isJudgeable,
  queryMembers,
  isLargeBody,
  isServerError,
  isSuccess,
  PASS,
  plantIdSlots,
  responseJson,
  saysRepeat,
  warn,
  wrongMediaTypes,
  type Exchange,
  type JudgeContext,
  type PlannedRequest,
} from '../src/runner/suite-kit.js';
import { INT64, isRefusalStatus, type RefusalStatus } from '../src/contract/index.js';
import {
  ACCEPTED_ONCE_TRIMMED,
  DOUBLES_DEFECT,
  integersOf,
  requestKind,
  roundedAt,
  statusDefect,
  undeclaredAuthDefect,
} from '../src/runner/defects.js';
import { isValidNewPlant } from '../src/runner/generate/new-plant.js';
import { ownRepeatCode, sentObject } from './acceptance.js';
import { trimmedJsonText } from './echo-habits.js';

/**
 * The defect of a request the target should have refused and accepted: for an invalid body, its kind;
 * for a parameter, the parameter (a server that ignores it fails its missing and its refused values alike).
 */
export function acceptedDefect(plan: PlannedRequest): string {
  const { intent } = plan;
  if (intent.kind === 'invalid-parameter') return `a request breaking the ${intent.parameter} parameter accepted`;
  return `${requestKind(plan, true)} accepted`;
}

export const negativeRejection = defineCheck({
  id: 'negative-rejection',
  title: 'Invalid requests are rejected',
  rule: 'Only a valid NewPlant of the document (every keyword of its schema: in the seed contract, id an int64 integer, name a string, tag a string when present) sent as `application/json` is created; anything else fails, and rule 2 says a failed request answered 400 carries an Error. Invalid bodies break one keyword at a time, or are JSON only lenient parsers read. A body with no Content-Type at all may be examined and accepted (RFC 9110, 8.3): a warning. A request that leaves out a required header, query or cookie parameter of the document, or gives one (required or optional) a value its schema refuses, is not a valid request either.',
  probes: [invalidBodies, wrongMediaTypes, invalidParameters, queryMembers],
  judge(exchange, context, caseExchanges) {
    const { plan, response } = exchange;
    const { intent } = plan;
    if (intent.kind !== 'invalid-body' && intent.kind !== 'media-type' && intent.kind !== 'invalid-parameter')
      return undefined;
    if (!isJudgeable(response) || isServerError(response.status)) return undefined;
    const { status } = response;
    if (intent.kind === 'invalid-parameter') {
      // A document may declare a credential as a parameter (an X-API-Key header, a session cookie): HTTP
      // refuses a missing or wrong one with 401 or 403, which the contract leaves open.
      if (isRefusalStatus(context.contract.refusal, status) || status === 401 || status === 403) return PASS;
      return isSuccess(status)
        ? fail(
            `A valid NewPlant sent with ${intent.what} was accepted with ${status}; the document's parameters are part of a valid request.`,
            { defect: acceptedDefect(plan) },
          )
        : fail(`A request with ${intent.what} was answered ${status}; ${refusalRule(context.contract.refusal)}`, {
            defect: wrongStatusDefect(exchange, context),
          });
    }
    if (intent.kind === 'media-type') {
      if (!isSuccess(status))
        return isRefusalStatus(context.contract.refusal, status) || status === 415
          ? PASS
          : fail(
              `A body sent with ${intent.what} was answered ${status}; a failed request is answered 400 with an Error (or 415, HTTP's status for an unsupported media type).`,
              {
                defect: wrongStatusDefect(exchange, context),
              },
            );
      if (intent.missing) {
        return warn(
          `A NewPlant sent with no Content-Type was accepted (${status}). The contract's request says "Content-Type: application/json"; RFC 9110 (8.3) lets a server examine an unlabelled body to find its type, so this is lenient parsing, not a violation. A body labelled as another type must still be refused.`,
        );
      }
      return fail(
        `A NewPlant sent with ${intent.what} was accepted (${status}); the contract's request is "Content-Type: application/json", and a request of another type is not a valid NewPlant request.`,
        { defect: `${requestKind(plan, true)} accepted` },
      );
    }
    // HTTP's answer to a body over the server's limit; the contract shows no limit.
    if (status === 413 && isLargeBody(plan)) return PASS;
    if (isQueryTwin(plan)) {
      // Beside the same body without the query, accepted: that finding's (the member is never checked).
      const first = withoutQuery(exchange, caseExchanges);
      if (first === undefined || isSuccess(first.response.status)) return undefined;
      if (excusedQueryAnswer(exchange)) return PASS;
    }
    if (isRefusalStatus(context.contract.refusal, status)) {
      const repeat = refusedAsRepeat(exchange, context);
      if (repeat !== undefined) {
        return fail(
          `An invalid body (${intent.what}) was refused as a repeated id: ${repeat.why}, so it read the body as a NewPlant whose id it already holds (and would have created it otherwise: a target that does not hold that id accepts it).`,
          // One defect with the acceptance below: which answer shows it depends on what the target holds.
          { defect: repeat.rounded ? DOUBLES_DEFECT : `${requestKind(plan, true)} accepted` },
        );
      }
      return PASS;
    }
    // A mutation meant to break one keyword can leave a body the document accepts (a top-level integer set to
    // 2^53+N.5, which a double reads as whole, on a draft that holds what the rest of the schema needs).
    if (isSuccess(status) && plan.body !== null && isValidNewPlant(context.contract, plan.body)) return undefined;
    if (isSuccess(status))
      return fail(
        `An invalid body (${intent.what}) was accepted with ${status}; only a valid NewPlant may be created.${trimHint(plan, context)}${emptyAnswerHint(response)}`,
        { defect: brokenNumberRounded(exchange) ? DOUBLES_DEFECT : `${requestKind(plan, true)} accepted` },
      );
    return fail(
      `An invalid body (${intent.what}) was answered ${status}; ${refusalRule(context.contract.refusal)}${queryNote(exchange, caseExchanges)}`,
      { defect: wrongStatusDefect(exchange, context) },
    );
  },
});

/**
 * How `query-member`'s second request may be answered whatever its body holds, as a server may answer a query string
 * it does not expect: any 4xx (an unknown query parameter refused, a router matching `req.url === '/plants'` answering
 * 404), or a 307 or 308 to the same URL without its query (the client sends the POST and its body there again, and is
 * refused there). Anything else is judged as an invalid body's answer: a 2xx, a 5xx, or a 301, 302 or 303, after which
 * clients send a GET without the body.
 */
export function excusedQueryAnswer({ plan, request, response }: Exchange): boolean {
  if (!isQueryTwin(plan)) return false;
  if (isClientError(response.status)) return true;
  return (
    (response.status === 307 || response.status === 308) &&
    isSameUrlWithoutQuery(request.url, response.headers.location)
  );
}

function isSameUrlWithoutQuery(url: string, location: string | undefined): boolean {
  if (location === undefined) return false;
  try {
    const [from, to] = [new URL(url), new URL(location, url)];
    from.search = '';
    to.hash = '';
    return to.href === from.href;
  } catch {
    return false;
  }
}

/** The case's request before `query-member`'s second: the same body without the query string. */
export function withoutQuery(exchange: Exchange, caseExchanges: readonly Exchange[]): Exchange | undefined {
  return caseExchanges.find((other) => other.plan.intent.kind === 'invalid-body' && other !== exchange);
}

/**
 * What a finding on `query-member`'s second request says of it: it carried a query string, and how the same body
 * without one was answered, so a user sees that the answer is about the query string (`''` for any other request).
 */
export function queryNote(exchange: Exchange, caseExchanges: readonly Exchange[]): string {
  if (!isQueryTwin(exchange.plan)) return '';
  const first = withoutQuery(exchange, caseExchanges);
  const { search } = new URL(exchange.request.url);
  const before = first === undefined ? '' : `, and the same body without it was answered ${first.response.status}`;
  const after =
    exchange.response.status >= 300 && exchange.response.status <= 399
      ? ' A client turns a POST redirected with 301, 302 or 303 into a GET without its body: answer the request itself (ignoring the query string or refusing it with any 4xx), or redirect with 307 or 308, which keep the method and body.'
      : '';
  return ` The request carried the query string "${search}"${before}: this answer is about the query string.${after}`;
}

/**
 * How an invalid body's refusal shows that the target read it as a NewPlant whose id it holds: its own `error` value
 * for a repeat, or, for a body with an integer past int64 that a double reads inside it (-2^63-1 is -2^63), its repeat
 * message naming that double. Perl's JSON::PP reads an integer one past the IV range with `0+$v`, a double in range
 * once rounded: refused only because the run had stored -2^63, which it always sends first (hy11's nvrange server).
 */
function refusedAsRepeat(exchange: Exchange, context: JudgeContext): { why: string; rounded: boolean } | undefined {
  const code = ownRepeatCode(exchange, context);
  if (code !== undefined)
    return { why: `the answer's error ${code} is the target's own value for a repeat`, rounded: false };
  const answer = responseJson(exchange);
  const message = answer.ok ? (answer.value as { message?: unknown } | null)?.message : undefined;
  if (typeof message !== 'string' || !saysRepeat(exchange, context)) return undefined;
  const zero = zeroIdRead(exchange, context, message);
  if (zero !== undefined) return { why: zero, rounded: false };
  const read = roundedIntoRange(exchange.plan.body).find(([sent, rounded]) => {
    const quoted = new Set(message.match(/-?\d+/g));
    return quoted.has(String(rounded)) && !quoted.has(String(sent));
  });
  // Digits lost through a double: the doubles' finding (a reader without bignums takes 2^53+N.5 too).
  const why =
    read &&
    `the answer is the target's message for a repeat, naming ${read[1]}: the body's ${read[0]} read as a double`;
  return why === undefined ? undefined : { why, rounded: true };
}

/**
 * How a repeat message naming id 0 shows a body without a usable id read as the zero value: the id left out, null,
 * `""` or `false` read as 0 (Jackson binding into a primitive `long`, Go's `int64` field), then refused only because an
 * earlier such body stored plant 0 (hj10's pojo-defaults: the acceptance showed or not by which came first).
 */
function zeroIdRead({ plan }: Exchange, { contract }: JudgeContext, message: string): string | undefined {
  const quoted: readonly string[] = message.match(/-?\d+/g) ?? [];
  if (!quoted.includes('0')) return undefined;
  const sent = sentObject(plan);
  const unread = (value: unknown): boolean => value === undefined || value === null || value === '' || value === false;
  const slot = sent && plantIdSlots(contract).find(({ key }) => unread(sent[key]));
  if (slot === undefined || sent === undefined) return undefined;
  const held = Object.hasOwn(sent, slot.key) ? `"${slot.key}" ${JSON.stringify(sent[slot.key])}` : `no "${slot.key}"`;
  return `the answer is the target's message for a repeat, naming id 0: the body's ${held} read as 0`;
}

/** The integers of a JSON body outside int64 that a double reads inside it, each with that double's value. */
function roundedIntoRange(body: string | null): [bigint, bigint][] {
  const inInt64 = (value: bigint): boolean => value >= INT64.min && value <= INT64.max;
  return integersOf(body).flatMap((sent) => {
    const double = Number(sent);
    if (inInt64(sent) || !Number.isFinite(double)) return [];
    const rounded = BigInt(double);
    return inInt64(rounded) ? [[sent, rounded] as [bigint, bigint]] : [];
  });
}

/**
 * An invalid body that is a valid NewPlant once the whitespace at the ends of its strings is cut: a reader that
 * trims before validating (pydantic's `str_strip_whitespace`) accepts it. Beside strings echoed trimmed the
 * runner folds the acceptance into that finding.
 */
function trimHint(plan: PlannedRequest, context: JudgeContext): string {
  const trimmed = plan.body === null ? undefined : trimmedJsonText(plan.body);
  if (trimmed === undefined || !isValidNewPlant(context.contract, trimmed)) return '';
  return ` ${ACCEPTED_ONCE_TRIMMED}: a target that trims strings before validating them (pydantic's str_strip_whitespace) accepts it, and echoes trimmed strings.`;
}

/**
 * A success with no body and no Content-Type is what a server sends by default when the handler died
 * without writing an answer: WEBrick does for an exception that is not a `StandardError` (a
 * `SystemStackError` on deep nesting, which `JSON.load`'s `max_nesting: false` lets happen).
 */
function emptyAnswerHint(response: Exchange['response']): string {
  const empty = response.body === null || response.body === '';
  if (!empty || response.headers['content-type'] !== undefined) return '';
  return " The answer had no body and no Content-Type, as a server's default answer when the handler died without writing one (WEBrick sends 200 so after an exception that is not a StandardError, such as a SystemStackError from deep nesting).";
}

/** The place an invalid body breaks, as its description names it first: `"id" holds 9223372036854775808: ...`, `"id" set to 2^53+N.5`. */
const BROKEN_PLACE = /^"([^"]+)" (?:holds|set to) /;
/** An invalid body whose integer is a number above 2^53 with a half (`"id" set to 2^53+N.5`). */
const BROKEN_BY_FRACTION = /^"[^"]+" set to 2\^53\+N\.5$/;

/**
 * Whether the number an accepted invalid body breaks came back rounded through a double (2^63 echoed
 * as 9223372036854776000): a target reading numbers as doubles cannot tell it from 2^63-1, so the
 * acceptance is that one defect's, not a missing range check's.
 */
function brokenNumberRounded(exchange: Exchange): boolean {
  const { intent } = exchange.plan;
  // A fraction echoed whole shows fractions read as doubles, not integers (PHP's json_decode, Python's json under
  // Django REST framework read integers exactly): its own finding unless the integers show it too.
  if (intent.kind !== 'invalid-body' || BROKEN_BY_FRACTION.test(intent.what)) return false;
  const place = BROKEN_PLACE.exec(intent.what)?.[1];
  const sent = place === undefined ? undefined : sentObject(exchange.plan);
  const answer = sent === undefined ? undefined : responseJson(exchange);
  return place !== undefined && answer?.ok === true && roundedAt(sent, answer.value, place);
}

/**
 * The defect of a refusal with the wrong status: a credential the document does not ask for demanded
 * (one finding with positive-acceptance's), else the status itself.
 */
function wrongStatusDefect(exchange: Exchange, { contract }: JudgeContext): string {
  const { status } = exchange.response;
  return undeclaredAuthDefect(contract.auth, status, exchange.request.headers) ?? statusDefect(status, exchange.plan);
}

/** What the document says a refused request is answered with: the contract's rule 2, or the document's own Error status. */
function refusalRule(refusal: RefusalStatus): string {
  return refusal.status === 400
    ? 'rule 2: a failed request is answered 400 with an Error.'
    : `the document answers a failed request ${refusal.status} with its Error (the contract's 400 is taken too).`;
}

/** Invalid bodies and media types never create a plant. */
export default defineSuite({
  name: 'rejection',
  description: 'Bodies that are not valid NewPlants are rejected, never created.',
  checks: [negativeRejection],
});
