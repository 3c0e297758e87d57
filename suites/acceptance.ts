import {
  errorCodeOf,
  saysRepeat,
  exactIds,
  prototypeKeyPlants,
  type Exchange,
  defineCheck,
  defineSuite,
  fail,
  saysJson,
  isJudgeable,
  isClientError,
  isServerError,
  PASS,
  precisionPairs,
  responseJson,
  shown,
  validPlants,
  boundaryPlants,
  warn,
  integerSpellings,
  plantIdSlots,
  schemeSpellings,
  mediaTypeSpellings,
  headerNameSpellings,
  splitBodies,
  stringEscapes,
  keepAliveAfterRefusal,
  type JudgeContext,
  type PlannedRequest,
  type Verdict,
  type WrittenAs,
} from '../src/runner/suite-kit.js';
import {
  INT32,
  INT64,
  isRefusalStatus,
  isSuccessStatus,
  numberText,
  parseExactJson,
  refusesNullAt,
  type Contract,
  type SchemaCheck,
  type SuccessStatus,
} from '../src/contract/index.js';
import { exactJsonText } from '../src/contract/new-plant-request.js';
import { objectView } from '../src/contract/object-view.js';
import { escapePointer } from '../src/contract/operations.js';
import {
  echoedProperties,
  firstDifference,
  isDefaultValue,
  located,
  type EchoedProperties,
} from '../src/runner/echo-compare.js';
import {
  DOUBLES_DEFECT,
  isJsonText,
  LENGTHS_IN_UNITS,
  namesMember,
  notJsonDefect,
  redirectDefect,
  REFUSED_ONCE_TRIMMED,
  roundedAt,
  sizeLimitDefect,
  SPELLING_READ_AS_ANOTHER_ID,
  undeclaredAuthDefect,
  unknownMemberDefect,
} from '../src/runner/defects.js';
import { readSentBody } from '../src/runner/generate/sent-bodies.js';
import { changedByServer, stringHabit, trimmedJsonText } from './echo-habits.js';

/**
 * A 400 on an exact fixed id (2^63-1, 0, ...) may be a repeat: an earlier run, or any other client of
 * a shared target, may have stored it. Excused (a warning) when the target rejects repeats and its
 * answer says "repeat" (its own repeat `error` value or message) or it holds an earlier run's plants
 * (the canary); failed when its `error` value says otherwise, or nothing says "repeat".
 */
function repeatExcuse(idMayRepeat: boolean, exchange: Exchange, context: JudgeContext): Verdict | undefined {
  const { status } = exchange.response;
  if (!isRefusalStatus(context.contract.refusal, status) || !idMayRepeat) return undefined;
  // Nothing learned about repeats (the run's first valid NewPlant got a 5xx, a throttle or no answer): an earlier
  // run may have stored this fixed id, and the target may refuse repeats; the notes say the same of the run. A
  // target that refused that plant (a blank name) is judged as before: its refusals are not excused.
  if (context.targetRejectsRepeats === undefined && context.repeatsUnasked === true)
    return warn(
      `A valid NewPlant with a fixed id (such as 2^63-1 or 0) was answered ${status}. Whether this target rejects repeated ids is not known (the run's first valid NewPlant got neither a success nor a refusal), and an earlier plantstore run may have stored this id, so this is not counted as a failure. Against a target that holds no such plant, it would be.`,
    );
  if (context.targetRejectsRepeats !== true) return undefined;
  const code = errorCodeOf(exchange);
  if (context.repeatErrorCode !== undefined && code !== undefined && code !== context.repeatErrorCode) return undefined;
  const repeat = saysRepeat(exchange, context);
  if (!repeat && context.targetHoldsEarlierRun !== true) return undefined;
  return warn(
    `A valid NewPlant with a fixed id (such as 2^63-1 or 0) was answered ${status}. This target rejects repeated ids and ${repeat ? 'its answer says this id is already stored' : 'holds plants from an earlier plantstore run (it refused the canary plant as a repeat), which may have stored this id'}, so this is not counted as a failure. Against a target that holds no such plant, it would be.`,
  );
}

/**
 * The `error` value this answer carries when it is the target's own value for a repeat and no other refusal's
 * (`repeatCodeIsDistinct`): the target read the request as a NewPlant whose id it holds.
 */
export function ownRepeatCode(exchange: Exchange, context: JudgeContext): string | undefined {
  const code = errorCodeOf(exchange);
  return context.repeatCodeIsDistinct === true && code !== undefined && code === context.repeatErrorCode
    ? code
    : undefined;
}

/**
 * A twin refused only for how its request is written (the scheme name's letter case, a charset on
 * the media type), judged beside its accepted first. HTTP makes both the same request, but the
 * contract writes `Bearer` and `application/json`, and clients writing those are unaffected: a warning.
 */
function refusedTwinVerdict(
  twin: WrittenAs,
  status: number,
  caseExchanges: readonly Exchange[],
  success: SuccessStatus,
): Verdict | undefined {
  const first = caseExchanges.find((other) => other.plan.intent.kind === 'valid');
  if (first === undefined || !isSuccessStatus(success, first.response.status)) return undefined;
  switch (twin.aspect) {
    case 'scheme':
      return [400, 401, 403].includes(status)
        ? warn(
            `A valid NewPlant sent with "Authorization: ${twin.written} <token>" was answered ${status}, while the same request with "Bearer" was accepted. RFC 9110 makes the scheme name case-insensitive; clients that write "Bearer", as the contract does, are unaffected.`,
          )
        : undefined;
    case 'media-type':
      return [400, 415].includes(status)
        ? warn(
            `A valid NewPlant sent with "Content-Type: ${twin.written}" was answered ${status}, while the same request with "application/json" was accepted. RFC 9110 makes media types case-insensitive with parameters allowed, and RFC 8259 says a charset has no effect; clients that add one (jQuery, for instance) are refused.`,
          )
        : undefined;
    case 'header-names':
      return status >= 300
        ? fail(
            `A valid NewPlant sent with its header names in lower case ("authorization", "content-type") was answered ${status}, while the same request with "Authorization" and "Content-Type" was accepted. RFC 9110 (5.1) makes header names case-insensitive, and HTTP/2 clients and proxies send them in lower case: the target reads a name case-sensitively (PHP's getallheaders()['Authorization'], a lookup in the raw header list; read it through a case-insensitive lookup, such as $_SERVER['HTTP_AUTHORIZATION'] or the framework's request headers).`,
            { defect: HEADER_NAMES_DEFECT },
          )
        : undefined;
    case 'integer-spelling':
      // Judged by integer-spellings, beside its plain twin.
      return undefined;
  }
}

/** The defect of a valid NewPlant refused only because its header names were in lower case. */
export const HEADER_NAMES_DEFECT =
  'header names read case-sensitively (a valid NewPlant refused when they are in lower case)';

/**
 * The defect of a valid NewPlant answered with another status: a redirect, a body size limit and a refused extra
 * member are each one root cause, apart from the other refusals (`status 400 for a valid NewPlant`).
 */
function refusedValidDefect(exchange: Exchange, contract: Contract): string {
  const { response, plan } = exchange;
  const declared = new Set(objectView(contract.compiled.newPlant.schema).properties.keys());
  return (
    redirectDefect(response.status) ??
    sizeLimitDefect(response.status, plan) ??
    unknownMemberDefect(response.status, Object.keys(sentObject(plan) ?? {}), declared, response.body) ??
    prototypeMemberDefect(exchange) ??
    `status ${response.status} for a valid NewPlant`
  );
}

/**
 * Why a refused body with a `__proto__` or `constructor` member was still valid, when the answer
 * shows that member was the reason (it names it, or prototypes): frameworks such as fastify refuse it
 * by default as "prototype poisoning". Said only where that is the cause, not on every refusal.
 */
function prototypeHint(key: string | undefined, exchange: Exchange): string | undefined {
  if (key === undefined || exchange.response.status !== 400) return undefined;
  // Fastify 5 says "Body is not valid JSON" of a body its onProtoPoisoning refuses, hapi 21 (@hapi/bourne's
  // protoAction 'error') "Invalid request payload JSON format".
  const answer = exchange.response.body ?? '';
  if (!/proto|constructor|valid JSON|JSON format/i.test(answer) || refusesNulName(exchange)) return undefined;
  // An answer quoting one of the body's integers refuses that value ("not valid JSON: Numeric value
  // (9223371360692086574) out of range of int", Jackson on an Integer id), not the member.
  if ((exchange.plan.body?.match(QUOTABLE_INTEGER) ?? []).some((digits) => answer.includes(digits))) return undefined;
  // Nor does one calling another sent member missing or empty (Rails' params.require lists every key after it).
  const others = Object.keys(sentObject(exchange.plan) ?? {}).filter((other) => other !== key && /^\w+$/.test(other));
  if (/missing|empty|blank|required/i.test(answer) && others.some((other) => namesMember(answer, other)))
    return undefined;
  return `The body has a "${key}" property, and the answer refers to it: an ordinary JSON member, and a NewPlant allows extra properties. Frameworks that refuse it by default as "prototype poisoning" (fastify's onProtoPoisoning/onConstructorPoisoning "error") need "remove" or "ignore".`;
}

/**
 * A refusal of a body holding a member name that starts with U+0000, whose answer speaks of a property name or a NUL
 * byte (PHP's `json_decode` into objects: "The decoded property name is invalid"; jansson's "NUL byte in object key"):
 * refused for that name ({@link nulNameHint}), even where a `"__proto__"` member sits beside it.
 */
function refusesNulName(exchange: Exchange): boolean {
  return holdsNulName(sentObject(exchange.plan)) && /property name|NUL byte/i.test(exchange.response.body ?? '');
}

/** Integers of 5 digits or more: one the answer quotes is what it refused (a fresh id has 12 or more). */
const QUOTABLE_INTEGER = /-?\d{5,}/g;

/**
 * A valid NewPlant refused for its `__proto__` or `constructor` member ({@link prototypeHint}: the answer says so) is
 * a root cause of its own (Fastify's and koa-bodyparser's default prototype-poisoning refusal), not one with every
 * other refusal of a valid NewPlant (a `minLength` the server added): that would hide it until the other is fixed.
 */
function prototypeMemberDefect(exchange: Exchange): string | undefined {
  const { intent } = exchange.plan;
  // Cases of other probes (and their shrunk candidates) carry no prototypeKey: the body sent tells.
  const key =
    (intent.kind === 'valid' ? intent.prototypeKey : undefined) ?? prototypeKeyOf(sentObject(exchange.plan), 0);
  if (prototypeHint(key, exchange) === undefined) return undefined;
  return `status ${exchange.response.status} for a valid NewPlant with a "__proto__" or "constructor" member`;
}

/** The first `__proto__` or `constructor` member name in a parsed body, at any depth. */
function prototypeKeyOf(value: unknown, depth: number): string | undefined {
  if (value === null || typeof value !== 'object' || depth > 32) return undefined;
  if (!Array.isArray(value)) {
    const key = Object.keys(value).find((name) => name === '__proto__' || name === 'constructor');
    if (key !== undefined) return key;
  }
  for (const inner of Object.values(value)) {
    const found = prototypeKeyOf(inner, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

function holdsNulName(value: unknown, depth = 0): boolean {
  if (value === null || typeof value !== 'object' || depth > 32) return false;
  if (!Array.isArray(value) && Object.keys(value).some((key) => key.startsWith('\u0000'))) return true;
  return Object.values(value).some((inner) => holdsNulName(inner, depth + 1));
}

/**
 * A 400 whose message calls an int64 id out of range of `long`: Jackson binding a 19-digit id to a `long` field,
 * as Debian bookworm's jackson-databind 2.14.0 beside its jackson-core 2.14.1 does for every 19-digit value.
 */
function longRangeHint(exchange: Exchange): string | undefined {
  if (exchange.response.status !== 400 || !/out of range of long/i.test(exchange.response.body ?? '')) return undefined;
  return "The answer calls the id out of range of long, but every int64 (-9223372036854775808 to 9223372036854775807) fits a Java long: Debian bookworm's jackson-databind 2.14.0 beside jackson-core 2.14.1 refuses every 19-digit value bound to a long field. Bind the id as a BigInteger (which takes them) and check its range.";
}

/**
 * A 400 whose message calls the id out of range of `int`: the id bound to a 32-bit integer (Java's `int` or
 * `Integer`, as Jackson says it), where the contract's id is an int64.
 */
function intRangeHint(exchange: Exchange): string | undefined {
  if (exchange.response.status !== 400 || !/out of range of int\b/i.test(exchange.response.body ?? ''))
    return undefined;
  return "The answer calls the id out of range of int: the target holds it in a 32-bit integer (Java's int or Integer), but the id is an int64, and every value from -9223372036854775808 to 9223372036854775807 must be accepted. Bind it as a long.";
}

/** Integers of 16 digits or more: beyond 2^53 some have other digits once read as doubles. */
const LONG_INTEGER = /-?\d{16,}/g;

/**
 * Whether a refusal quotes an integer of the request with other digits that are the same double (2^63-2
 * quoted as 9223372036854776000, in "a plant with id … already exists"): the target read it through a double,
 * and refused it as the id it became, one that it holds. Proof of the doubles defect, whatever the message says.
 */
function quotesIdAsDouble(exchange: Exchange): boolean {
  const { status, body } = exchange.response;
  if (!isClientError(status) || body === null || exchange.plan.body === null) return false;
  const sent = exchange.plan.body.match(LONG_INTEGER);
  if (sent === null) return false;
  const quoted = new Set(body.match(LONG_INTEGER) ?? []);
  // An id quoted with its own digits was read exactly; the other integers are the answer's own (Jackson's "out of
  // range of long (-9223372036854775808 - 9223372036854775807)" quotes 2^63-1, the same double as 2^63-2).
  const misread = sent.filter((id) => !quoted.has(id));
  // Digits the request itself holds are an id read exactly (a repeat of 2^63-1 beside a nested 2^63-512).
  const exact = new Set(sent);
  return [...quoted].some(
    (digits) =>
      !exact.has(digits) &&
      misread.some((id) => id !== digits && BigInt(id) !== BigInt(digits) && Number(id) === Number(digits)),
  );
}

/**
 * A 400 to a body with a member name starting with NUL: what PHP's json_decode into objects refuses, and C's
 * jansson whatever its flags.
 */
function nulNameHint(exchange: Exchange): string | undefined {
  if (exchange.response.status !== 400 || !holdsNulName(sentObject(exchange.plan))) return undefined;
  const body = exchange.response.body ?? '';
  if (!/property name|decod|json|malformed|u0000|\bnul/i.test(body)) return undefined;
  if (/NUL byte in object key/i.test(body))
    return 'The body has a member whose name starts with "\\u0000": an ordinary JSON member name. jansson refuses it whatever its flags ("NUL byte in object key not supported": JSON_ALLOW_NUL lets U+0000 into string values only), so a server reading bodies with jansson cannot take it.';
  return 'The body has a member whose name starts with "\\u0000": an ordinary JSON member name. PHP\'s json_decode refuses it when decoding into objects ("The decoded property name is invalid"); decode into arrays (json_decode($body, true)) instead.';
}

/**
 * A 4xx to a valid NewPlant holding a zero value (id 0, an empty name or tag) whose answer calls a field required
 * or empty: go-playground/validator's `required` (gin's `binding:"required"`) refuses a field's zero value, and
 * Laravel's `required` an empty string, where the contract's required means present.
 */
function zeroValueHint(exchange: Exchange): string | undefined {
  const { response, plan } = exchange;
  if (!refusesTheBody(response.status)) return undefined;
  if (!/required|empty|blank/i.test(response.body ?? '')) return undefined;
  const sent = sentObject(plan);
  if (sent === undefined) return undefined;
  const zero = (value: unknown) => value === 0 || value === 0n || value === '';
  const members = ['id', 'name', 'tag'].filter((key) => Object.hasOwn(sent, key));
  // An answer naming members speaks of those: "id is required" to an id of -1 read unsigned is not the "" name's.
  const named = members.filter((key) => namesMember(response.body ?? '', key));
  const zeros = (named.length > 0 ? named : members).filter((key) => zero(sent[key]));
  if (zeros.length === 0) return undefined;
  return `The body's ${zeros.map((key) => `"${key}"`).join(' and ')} ${zeros.length === 1 ? 'holds its' : 'hold their'} zero value (0 or ""), and the answer calls a field required or empty: the contract's required means present, and 0 and "" are valid values. go-playground/validator's required (gin's binding:"required") refuses a zero value: bind the field to a pointer (*int64, *string) or drop required; Laravel's required refuses "": use present.`;
}

/**
 * A 4xx to a valid NewPlant, labelled as the document asks, whose answer speaks of the Content-Type: the target's
 * check of the label is wrong (Twisted's `request.getHeader(b"content-type")` is bytes, never equal to a str).
 */
function labelHint(exchange: Exchange): string | undefined {
  const { response, plan } = exchange;
  if (!refusesTheBody(response.status)) return undefined;
  if (plan.contentType === undefined || !/content.?type|media.?type/i.test(response.body ?? '')) return undefined;
  return `The request was labelled ${plan.contentType}, as the document asks, and the answer speaks of the Content-Type: the target's check of the label refuses the right one (bytes compared with a str, as Twisted's request.getHeader(b"content-type") == "application/json"; or the header's whole value compared, parameters and letter case included).`;
}

/** The edges a format or JavaScript gives an id slot: bounds the document itself did not write. */
const UNWRITTEN_BOUNDS = new Set([INT64.min, INT64.max, INT32.min, INT32.max, -(2n ** 53n - 1n), 2n ** 53n - 1n]);

/**
 * A 4xx to a valid NewPlant whose id sits on a bound the document writes (`minimum: 1` and id 1, its
 * `maximum`): a range check off by one (`>` where `>=` is meant) refuses the edge and nothing else.
 */
function boundHint(exchange: Exchange, contract: Contract): string | undefined {
  const { response, plan } = exchange;
  if (!refusesTheBody(response.status)) return undefined;
  const sent = sentObject(plan);
  if (sent === undefined) return undefined;
  for (const slot of plantIdSlots(contract)) {
    const value = sent[slot.key];
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) continue;
    const id = BigInt(value);
    const edge = id === slot.min ? 'smallest' : id === slot.max ? 'largest' : undefined;
    if (edge === undefined || UNWRITTEN_BOUNDS.has(id)) continue;
    const written = edge === 'smallest' ? '> where >= is meant' : '< where <= is meant';
    return `The "${slot.key}" is ${id}, the ${edge} the document allows: a range check off by one (${written}) refuses it.`;
  }
  return undefined;
}

/**
 * What a valid request is owed: the seed contract's rule 1 where the document's success is 200, as
 * there; else the document's own word (`the document's success response is 201`), which rule 1 does not say.
 */
function successRule(success: SuccessStatus): string {
  return success.documented === '200' ? 'rule 1 says 200' : `the document's success response is ${success.documented}`;
}

/** Characters beyond U+FFFF: one code point, two UTF-16 units. */
const ASTRAL = /[\u{10000}-\u{10FFFF}]/u;

function holdsAstral(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return ASTRAL.test(value);
  if (value === null || typeof value !== 'object' || depth > 32) return false;
  return Object.values(value).some((inner) => holdsAstral(inner, depth + 1));
}

/**
 * A 400 that speaks of lengths, to a body holding characters beyond U+FFFF: JSON Schema's lengths count
 * code points, while JavaScript's `.length` (zod, Joi), Java and C# count UTF-16 units.
 */
function utf16Hint(exchange: Exchange, contract: Contract): string | undefined {
  const { response, plan } = exchange;
  // A refusal with the document's Error status too (tsoa's and FastAPI's 422), as integer-spellings judges it.
  const refusal = response.status === 400 || isRefusalStatus(contract.refusal, response.status);
  if (!refusal || !/character|length|long|short/i.test(response.body ?? '')) return undefined;
  const sent = sentObject(plan);
  if (sent === undefined || !holdsAstral(sent)) return undefined;
  return `${LENGTHS_IN_UNITS}.`;
}

/**
 * A 4xx to a valid NewPlant that the document refuses once the whitespace at the ends of its strings is cut
 * (`"   "` under `minLength: 1`): a reader that trims before validating (pydantic's `str_strip_whitespace`)
 * refuses it. Said on every such refusal; beside strings echoed trimmed the runner folds it into that finding.
 */
function trimHint(exchange: Exchange, contract: Contract): string | undefined {
  const check = contract.check.newPlant;
  const { response, plan } = exchange;
  if (!refusesTheBody(response.status)) return undefined;
  const trimmed = plan.body === null ? undefined : trimmedJsonText(plan.body);
  if (trimmed === undefined) return undefined;
  const [violation] = check(parseExactJson(trimmed));
  const declared = objectView(contract.compiled.newPlant.schema).properties.keys();
  if (violation === undefined || blamesAnotherMember(response.body, plan, violation.field, declared)) return undefined;
  return `${REFUSED_ONCE_TRIMMED} (${violation.message}): a target that trims strings before validating them (pydantic's str_strip_whitespace) refuses it, and echoes trimmed strings.`;
}

/**
 * Whether the refusal names members of the body sent, but not `field`'s: `{"message": "id out of range"}` to a
 * NewPlant whose blank name trimming would break speaks of the id (a double's 2^63), not of trimming.
 */
function blamesAnotherMember(
  body: string | null,
  plan: Exchange['plan'],
  field: string,
  declared: Iterable<string>,
): boolean {
  const sent = sentObject(plan);
  if (body === null || sent === undefined) return false;
  const named = (key: string) => namesMember(body, key);
  const member = field.split('.')[0] ?? field;
  // A declared member not sent counts too: "tag is required" to a body without tag is no trimming.
  const others = [...new Set([...Object.keys(sent), ...declared])].filter((key) => key !== member);
  return !named(member) && others.some(named);
}

/**
 * A note of any other request stands (a precision pair's: its ids are the same double). A request planned on the
 * connection of the one before it went on a new connection when that answer
 * closed it (`Connection: close`, or no answer): a note about reusing the connection is then untrue. So is it
 * where the answer is a JSON refusal naming a member the plant sent (`name must not be blank`): the target read
 * this body, not the one before it, and refused the plant itself.
 */
function sameConnectionNote(
  note: string | undefined,
  exchange: Exchange,
  caseExchanges: readonly Exchange[],
): string | undefined {
  if (note === undefined || exchange.plan.sameConnection !== true) return note;
  if (namesSentMember(exchange)) return undefined;
  const before = caseExchanges[caseExchanges.indexOf(exchange) - 1];
  if (before === undefined) return note;
  const closed =
    before.response.status === 0 || /(?:^|,)\s*close\s*(?:,|$)/i.test(before.response.headers.connection ?? '');
  return closed ? undefined : note;
}

/** Whether a JSON answer names a member of the JSON object the request sent, as a word (`"name"`, `name:`). */
function namesSentMember(exchange: Exchange): boolean {
  const sent = sentObject(exchange.plan);
  const { body } = exchange.response;
  if (sent === undefined || body === null || !isJsonText(body)) return false;
  return Object.keys(sent).some((key) => /^\w+$/.test(key) && namesMember(body, key));
}

export const positiveAcceptance = defineCheck({
  id: 'positive-acceptance',
  title: 'Valid NewPlants with valid authentication are accepted',
  rule: 'Rule 1: when a valid NewPlant body is sent with valid authentication, the response is 200 with a Plant body.',
  probes: [
    exactIds,
    validPlants,
    prototypeKeyPlants,
    boundaryPlants,
    precisionPairs,
    schemeSpellings,
    mediaTypeSpellings,
    headerNameSpellings,
    stringEscapes,
    splitBodies,
    keepAliveAfterRefusal,
  ],
  judge(exchange, context, caseExchanges) {
    const { plan, response } = exchange;
    const { intent } = plan;
    // Server errors are no-server-error's finding; one defect, one failing check.
    if (intent.kind === 'valid-variant' && intent.writtenAs.aspect === 'integer-spelling') return undefined;
    if ((intent.kind !== 'valid' && intent.kind !== 'valid-variant') || !isJudgeable(response)) return undefined;
    if (isServerError(response.status)) return undefined;
    const { success } = context.contract;
    if (isSuccessStatus(success, response.status)) return PASS;
    if (intent.kind === 'valid-variant') {
      // Refused as a repeat (an id an earlier run may have stored, in a narrow range): nothing about how it was written.
      if (repeatExcuse(intent.idMayRepeat, exchange, context) !== undefined || saysRepeat(exchange, context))
        return undefined;
      return refusedTwinVerdict(intent.writtenAs, response.status, caseExchanges, success);
    }
    if (quotesIdAsDouble(exchange))
      return fail(
        `A valid NewPlant, sent with the credential, was answered ${response.status}; ${successRule(success)} with a Plant. The answer quotes the id with other digits that are the same double (${shown(exchange.response.body ?? '', 120)}): the target holds ids as floating point, and took this one for another it holds.`,
        { defect: DOUBLES_DEFECT },
      );
    const excuse = repeatExcuse(intent.idMayRepeat, exchange, context);
    if (excuse) return excuse;
    const note = [
      sameConnectionNote(intent.note, exchange, caseExchanges),
      prototypeHint(intent.prototypeKey, exchange),
      nulNameHint(exchange),
      longRangeHint(exchange),
      intRangeHint(exchange),
      utf16Hint(exchange, context.contract),
      trimHint(exchange, context.contract),
      zeroValueHint(exchange),
      boundHint(exchange, context.contract),
      labelHint(exchange),
    ]
      .map((text) => (text ? ` ${text}` : ''))
      .join('');
    const refusedToken =
      response.status === 401 || response.status === 403
        ? ' If the token you gave is right, the target refuses valid credentials; if not, fix the token and run again.'
        : '';
    const undeclared = undeclaredAuthDefect(context.contract.auth, response.status, exchange.request.headers);
    if (undeclared !== undefined)
      return fail(
        `A valid NewPlant sent with no Authorization header (no token was given: the document asks for none) was answered ${response.status}; ${successRule(success)} with a Plant.`,
        { defect: undeclared },
      );
    return fail(
      `A valid NewPlant, sent with the credential, was answered ${response.status}; ${successRule(success)} with a Plant.${note}${refusedToken}`,
      { defect: refusedValidDefect(exchange, context.contract) },
    );
  },
});

/**
 * The body handed in already parsed (see {@link handSentObject}) and the plan it was sent with: one,
 * the plan being judged. A slot, not a `WeakMap` entry per plan: the proxy judges each exchange at once.
 */
let handedPlan: PlannedRequest | undefined;
let handedSent: Readonly<Record<string, unknown>> | undefined;

/**
 * Hands the echo check the body of `plan` as `parseExactJson` already read it (a JSON object), so
 * judging that plan does not parse it again: the proxy reads each request once, for its intent. Kept
 * until the next is handed in: hand it in right before the plan is judged.
 */
export function handSentObject(plan: PlannedRequest, sent: Readonly<Record<string, unknown>>): void {
  handedPlan = plan;
  handedSent = sent;
}

/**
 * The sent body as an object, parsed exactly (escapes decoded, numbers with their digits): handed in
 * by the proxy, read from the object it was written from, or parsed; `undefined` when not an object.
 */
export function sentObject(plan: PlannedRequest): Readonly<Record<string, unknown>> | undefined {
  if (plan === handedPlan) return handedSent;
  const { body } = plan;
  if (body === null) return undefined;
  try {
    const value = readSentBody(body);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Why the Plant answered with `status` does not carry `field` as sent, or `undefined` when it does. */
function echoProblem(
  field: string,
  sent: Record<string, unknown>,
  answer: { readonly plant: Record<string, unknown>; readonly status: number },
  { defaulted, requestDefaults, schemas }: Pick<EchoedProperties, 'defaulted' | 'requestDefaults' | 'schemas'>,
  plantSchema: Contract['compiled']['plant'],
): string | undefined {
  const { plant, status } = answer;
  const plantCheck = plantSchema.check;
  const wasSent = Object.hasOwn(sent, field);
  const came = Object.hasOwn(plant, field);
  // A typed server writes a property it was not given as null (Go, Jackson and pydantic by default): no
  // value either way, and whether null is allowed there is response-schema's call. A null that was sent
  // is a value the client chose, and must come back.
  if (!wasSent && came && plant[field] === null) return undefined;
  if (!wasSent) {
    return came && !defaulted.has(field) && !isDefaultValue(requestDefaults.get(field), plant, field)
      ? `No "${field}" was sent, but the ${status} Plant has "${field}": ${shownExact(plant, field)}.`
      : undefined;
  }
  // A null sent where the Plant refuses null (a NewPlant's nullable tag, a Plant's plain string) can only be
  // left out: Go's omitempty on a nil pointer, pydantic's exclude_none.
  if (!came && sent[field] === null && refusesNullAt(plantCheck, field, plant)) return undefined;
  // Nor is a value the document's Plant refuses there owed back (a Plant id `minimum: 1` beside a NewPlant's plain
  // int64, a narrower tag enum): echoed, the answer would break the document. It is left out, or, where the Plant
  // requires the property, replaced.
  const owed = (replaced: boolean): boolean =>
    (replaced && !objectView(plantSchema.schema).required.has(field)) || !refusesSentAt(plantCheck, field, sent);
  if (!came)
    return owed(false)
      ? `"${field}" was sent as ${shownExact(sent, field)} but the ${status} Plant has no "${field}".`
      : undefined;
  const before = sent[field];
  const after = plant[field];
  // The same string, boolean, null or object: firstDifference finds none. Numbers are compared by
  // their digits (2^53 and 2^53+1 are one double), never by value.
  if (before === after && typeof before !== 'number') return undefined;
  const where = firstDifference(located(sent, field), located(plant, field), `/${field}`, schemas.get(field));
  if (where === undefined || !owed(true)) return undefined;
  if (typeof before === 'string' && typeof after === 'string') {
    return `"${field}" was sent as ${shown(before)} (${utf16Units(before)}) but came back as ${shown(after)} (${utf16Units(after)}).`;
  }
  const inside = where === `/${field}` ? '' : ` (first difference at ${where})`;
  return `"${field}" was sent as ${shownExact(sent, field)} but came back as ${shownExact(plant, field)}${inside}.`;
}

/**
 * Whether `check` refuses the value sent as the member `name` (at that member or inside it), judged on its JSON
 * text so that integers keep their digits.
 */
function refusesSentAt(check: SchemaCheck, name: string, sent: Readonly<Record<string, unknown>>): boolean {
  const pointer = `/${escapePointer(name)}`;
  return check(parseExactJson(`{${JSON.stringify(name)}:${exactJsonText(sent, name)}}`)).some(
    (violation) => violation.pointer === pointer || violation.pointer.startsWith(`${pointer}/`),
  );
}

/** `1 UTF-16 unit`, `11 UTF-16 units`: a string's length as `.length` counts it. */
function utf16Units(text: string): string {
  return `${text.length} UTF-16 unit${text.length === 1 ? '' : 's'}`;
}

/** A value as JSON for a message, numbers with the digits they were written with. */
function shownExact(parent: Record<string, unknown>, key: string): string {
  const value = parent[key];
  if (typeof value === 'number') return numberText(parent, key) ?? String(value);
  if (value === null || typeof value !== 'object') return shown(value);
  // Arrays and objects as the JSON they were (String would show [] as nothing, {} as [object Object]).
  const text = exactJsonText(parent, key);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

export const echo = defineCheck({
  id: 'echo',
  title: 'The 200 Plant carries the properties sent',
  rule: 'POST /plants creates the plant sent: the 200 Plant carries every Plant property of the NewPlant exactly as sent (strings with no trimming or normalisation, numbers of the same value to the last digit, arrays and objects alike), and none that was not sent (a property not sent may come back as null: no value either way).',
  probes: [validPlants, boundaryPlants, stringEscapes, splitBodies],
  judge(exchange, { contract, targetRejectsRepeats, targetHoldsEarlierRun }) {
    const { plan, response } = exchange;
    const { status } = response;
    if (plan.intent.kind !== 'valid' || !isSuccessStatus(contract.success, status) || !isJudgeable(response)) {
      return undefined;
    }
    // A fixed id an earlier run may have stored, on a target that answers repeats with 200: the
    // contract does not say which plant that answer carries (the stored one is a fair choice).
    const surelyNew = targetRejectsRepeats === true && targetHoldsEarlierRun !== true;
    const mayBeStored = plan.intent.idMayRepeat === true && !surelyNew;
    const body = responseJson(exchange);
    if (!body.ok) {
      return fail(`The ${status} answer does not carry the plant sent: ${body.reason}.`, {
        defect: notJsonDefect(status, response.headers['content-type'], saysJson(response.headers['content-type'])),
      });
    }
    if (body.value === null || typeof body.value !== 'object' || Array.isArray(body.value)) {
      return fail(`The ${status} answer does not carry the plant sent: its body is not a JSON object.`, {
        defect: `the ${status} body is not a JSON object`,
      });
    }
    const sent = sentObject(plan);
    if (sent === undefined) return undefined;
    const plant = body.value as Record<string, unknown>;
    // The answer read as the very value sent (the proxy's, when the answer's bytes are the request's):
    // every property is there as sent, so no comparison can find a difference.
    if (plant === sent) return PASS;
    const echoedHere = echoedProperties(contract);
    if (mayBeStored) return changedOnly(sent, plant, echoedHere.echoed, status);
    for (const field of echoedHere.echoed) {
      const problem = echoProblem(field, sent, { plant, status }, echoedHere, contract.compiled.plant);
      if (problem !== undefined)
        return fail(problem, {
          defect: roundedAt(sent, plant, field)
            ? DOUBLES_DEFECT
            : (stringHabit(sent[field], plant[field]) ?? `"${field}" not echoed as sent`),
        });
    }
    return PASS;
  },
});

/**
 * The echo of a plant whose id an earlier run may have stored, on a target that answers repeats with 200: the
 * answer may carry the stored plant, so only what a server's own code does to a value is a failure (a string
 * trimmed, upper-cased, normalised or cut; a number rounded through a double), and only when every other
 * property came back as sent. Anything else is left unjudged.
 */
function changedOnly(
  sent: Record<string, unknown>,
  plant: Record<string, unknown>,
  echoed: Iterable<string>,
  status: number,
): Verdict | undefined {
  let changed: { field: string; defect: string } | undefined;
  for (const field of echoed) {
    const [wasSent, came] = [Object.hasOwn(sent, field), Object.hasOwn(plant, field)];
    if (!wasSent && (!came || plant[field] === null)) continue;
    if (!wasSent || !came) return undefined;
    const [before, after] = [sent[field], plant[field]];
    if (typeof before === 'number' && roundedAt(sent, plant, field)) changed ??= { field, defect: DOUBLES_DEFECT };
    else if (typeof before === 'string' && typeof after === 'string' && changedByServer(before, after))
      changed ??= { field, defect: stringHabit(before, after) ?? `"${field}" not echoed as sent` };
    else if (!sameJson(sent, plant, field)) return undefined;
  }
  if (changed === undefined) return PASS;
  const { field, defect } = changed;
  return fail(
    `"${field}" was sent as ${shownExact(sent, field)} but the ${status} Plant has ${shownExact(plant, field)}.`,
    { defect },
  );
}

/** Whether a property is the same JSON in both (numbers by their digits). */
function sameJson(sent: Record<string, unknown>, plant: Record<string, unknown>, field: string): boolean {
  return exactJsonText(sent, field) === exactJsonText(plant, field);
}

export const integerSpellingsCheck = defineCheck({
  id: 'integer-spellings',
  title: 'Integers written as 1.0, 1e2 or -0 are accepted as ids',
  rule: 'The id is a JSON Schema (2020-12) integer, and JSON Schema counts any number with a zero fractional part as an integer: `5.0`, `5e0`, `1.2345e4` and `-0` are valid ids.',
  probes: [integerSpellings],
  notApplicable: (contract) =>
    plantIdSlots(contract).length > 0
      ? undefined
      : "Not applicable: the document's NewPlant has no integer id (a string id, or none the client sends), so no id is spelled 1.0, 1e2 or -0.",
  judge(exchange, context, caseExchanges) {
    const { plan, response } = exchange;
    const { intent } = plan;
    if (intent.kind !== 'valid-variant' || intent.writtenAs.aspect !== 'integer-spelling') return undefined;
    if (!isJudgeable(response)) return undefined;
    const spelling = intent.writtenAs.written;
    // Judged only beside a plain twin that was accepted: the spelling, not the id, must be the difference.
    const twin = caseExchanges.find((other) => other.plan.intent.kind === 'valid');
    const { success } = context.contract;
    if (twin === undefined || !isSuccessStatus(success, twin.response.status)) return undefined;
    if (isSuccessStatus(success, response.status)) return PASS;
    if (response.status !== 400 && !isRefusalStatus(context.contract.refusal, response.status)) return undefined;
    if (quotesIdAsDouble(exchange))
      return fail(
        `A valid NewPlant, sent with the credential, was answered ${response.status}; ${successRule(success)} with a Plant. The answer quotes the id with other digits that are the same double (${shown(exchange.response.body ?? '', 120)}): the target holds ids as floating point, and took this one for another it holds.`,
        { defect: DOUBLES_DEFECT },
      );
    const excuse = repeatExcuse(intent.idMayRepeat, exchange, context);
    if (excuse) return excuse;
    const code = ownRepeatCode(exchange, context);
    if (code !== undefined) {
      return fail(
        `A valid NewPlant whose id is written ${spelling} was refused as a repeated id: the answer's error ${code} is the target's own value for a repeat, and this run sent that id nowhere else, so the target read ${spelling} as another integer, one it holds (a reader taking the leading digits reads 1e2 as 1).`,
        { defect: SPELLING_READ_AS_ANOTHER_ID },
      );
    }
    return fail(
      `A valid NewPlant whose id is written ${spelling} was answered ${response.status}, while the same plant with a plain id was accepted; JSON Schema counts ${spelling} as an integer, so ${successRule(success)}.`,
      // The status the target answered (400, or the document's 422): a 400's label, and so its finding id, stays.
      { defect: `an integer id written as 1.0, 1e2 or -0 refused with ${response.status}` },
    );
  },
});

/** Valid requests: accepted, echoed, whatever the spelling of their integers. */
export default defineSuite({
  name: 'acceptance',
  description: 'Valid NewPlants with valid authentication are created and echoed.',
  checks: [positiveAcceptance, echo, integerSpellingsCheck],
});

/** A 4xx other than an authentication refusal (401, 403): the target refusing the request's body. */
function refusesTheBody(status: number): boolean {
  return isClientError(status) && status !== 401 && status !== 403;
}
