import { numberText } from '../contract/exact-json.js';
import { mediaTypeEssence } from '../contract/media-types.js';
import { LARGE_BODY_BYTES } from './judge.js';
import type { PlannedRequest, WrittenAs } from './probe.js';

type PlannedRequestAspect = WrittenAs['aspect'];

/**
 * What a request was, in words that hold no generated value: the phrase a check's `defect` uses,
 * so checks that fail on the same answer to the same kind of request name one defect.
 * `detail` adds what kind of invalid body or bad credential it was (for an acceptance, where that
 * kind is the root cause; a wrong refusal status is one defect whatever the body).
 */
export function requestKind(plan: PlannedRequest, detail = false): string {
  const { intent } = plan;
  switch (intent.kind) {
    case 'valid':
      return 'a valid NewPlant';
    case 'valid-variant':
      return `a valid NewPlant with its ${VARIANT_WORDS[intent.writtenAs.aspect]}`;
    case 'invalid-body':
      if (!detail) return 'an invalid body';
      if (CASE_RENAMED.test(intent.what)) return 'an invalid body (a required member named in upper case)';
      if (UNDECLARED.test(intent.what))
        return `an invalid body ("${FIELD.exec(intent.what)?.[1] ?? ''}": a member the document does not declare, where additionalProperties is false)`;
      return `an invalid body (${TYPE_READINGS[typeReading(intent.what) ?? ''] ?? familyShape(intent.what)})`;
    case 'invalid-parameter':
      return detail ? `a request with ${shapeOf(intent.what)}` : 'a request with a missing or invalid parameter';
    case 'media-type':
      // Which wrong type a seed (or a client) sent first is the counterexample's: a target that does not read the
      // label takes them all, one root cause whatever the type.
      if (!detail) return 'a body of another media type';
      return intent.missing === true ? 'a body sent with no Content-Type' : OTHER_MEDIA_TYPE;
    case 'auth':
      return detail ? `a request with ${credentialKind(intent.what)}` : 'a request without a valid credential';
    case 'unpredictable':
      return intent.notUtf8 === true ? NOT_UTF8 : 'JSON of unpredictable meaning';
    case 'repeat':
      return 'a repeated id';
  }
}

/** A NewPlant whose bytes are not valid UTF-8: refused or read with replacement, it is judged by its answer's form. */
export const NOT_UTF8 = 'a body that is not valid UTF-8';

/**
 * A member a closed object does not declare (`"unexpected" holds null: unexpected present though additionalProperties
 * is false (an undeclared property "unexpected") (keyword additionalProperties)`): titled without the value it holds
 * and the label's repetitions.
 */
const UNDECLARED = /^"[^"]+" holds .* \(keyword additionalProperties\)$/;

/**
 * A required member renamed to its upper case (`required "name" written as "NAME"`): a binder that matches
 * member names in any letter case (Go's encoding/json, ASP.NET's web defaults, Jackson's
 * ACCEPT_CASE_INSENSITIVE_PROPERTIES) takes every one of them, so the field is not the root cause.
 */
const CASE_RENAMED = /^required "[^"]+" written as "[^"]+"$/;

/**
 * How a target reads a value of the wrong JSON type, when the field is not the root cause: `null` taken for
 * a property the document does not let be null (Go's zero values, pydantic's `Optional`, ajv's
 * `coerceTypes` writing "" or 0), or a value of another type converted (ajv's `coerceTypes`, Fastify's
 * default `'array'` included, pydantic 1's lax `int` and `str`, Jackson's coercions: `"12"` read as 12, `true`
 * as "true", `"x"` as `["x"]`, `[1]` as 1). One reader does it to every property, so a finding per field would
 * repeat one root cause.
 */
export function typeReading(what: string): 'null' | 'converted' | undefined {
  if (NULL_FOR_TYPE.test(what) || NULL_REWRITE.test(what)) return 'null';
  if (SCALAR_FOR_SCALAR.test(what) || SCALAR_FOR_ARRAY.test(what) || CONVERTED_REWRITE.test(what)) return 'converted';
  return undefined;
}

const SCALARS = '(?:string|integer|number|boolean|null)';
const NULL_FOR_TYPE = /: [^:]* not of type [a-z ]+: a null \(keyword type\)$/;
const NULL_REWRITE = /^"[^"]+" set to null$/;
const SCALAR_FOR_SCALAR = new RegExp(
  `: [^:]* not of type ${SCALARS}(?: or ${SCALARS})*: (?:a boolean|an integer|a number|a string) \\(keyword type\\)$`,
);
const SCALAR_FOR_ARRAY = /: [^:]* not of type array: (?:a boolean|an integer|a number|a string) \(keyword type\)$/;
/**
 * `""` for an id (a number) is converted too: Jackson's scalar coercion (on by default) reads it as 0 as it reads
 * `"12"` as 12, and so do JavaScript's `Number()`, PHP's `(int)`, Ruby's `to_i`; one fix (strict types) for both.
 */
const CONVERTED_REWRITE =
  /^"[^"]+" set to (?:the numeric string "[^"]*"|"N"|""|\[1\]|true|false|the number \d+|the string "(?:true|false)")$/;

const TYPE_READINGS: Readonly<Record<string, string>> = {
  null: 'null for a property the document does not let be null',
  converted:
    'a value of another type that lenient readers convert: a numeric string or a boolean for a number, a number or boolean for a string, a single value for an array',
};

/** What a valid variant writes another way, in a user's words. */
const VARIANT_WORDS: Readonly<Record<PlannedRequestAspect, string>> = {
  'integer-spelling': 'id written as 1.0, 1e2 or -0',
  scheme: 'auth scheme in another letter case',
  'media-type': 'media type written another way',
  'header-names': 'header names in lower case',
};

/** Requests the target must refuse (or may, for a repeat): a wrong refusal status is one defect for all. */
const REFUSED_KINDS: ReadonlySet<string> = new Set(['invalid-body', 'invalid-parameter', 'media-type', 'repeat']);

/**
 * The defect of an answer with the wrong status: `status 422 for a request it refuses` whichever
 * invalid body, media type or repeat it was (one root cause: the target's refusal status), else
 * `status 201 for a valid NewPlant`, `status 500 for a repeated id`, ...
 */
export function statusDefect(status: number, plan: PlannedRequest): string {
  const redirect = redirectDefect(status) ?? sizeLimitDefect(status, plan);
  if (redirect !== undefined) return redirect;
  if (status >= 400 && status < 500 && REFUSED_KINDS.has(plan.intent.kind))
    return `status ${status} for a request it refuses`;
  return `status ${status} for ${requestKind(plan)}`;
}

/**
 * A 413 to a body of 16 KiB or less is the target's body size limit, one defect whichever request met it:
 * Go's `http.MaxBytesReader(w, r.Body, 4096)` refuses a long valid NewPlant and a long invalid id alike
 * (it was `status 413 for a valid NewPlant` beside `status 413 for a request it refuses`). A larger body
 * keeps its request's words: only a valid one can fail there.
 */
export function sizeLimitDefect(status: number, plan: PlannedRequest): string | undefined {
  if (status !== 413 || plan.body === null || Buffer.byteLength(plan.body) > LARGE_BODY_BYTES) return undefined;
  return `status 413 (a body size limit) for a body of ${LARGE_BODY_BYTES / 1024} KiB or less`;
}

/** How refusals of a member no schema names read: Go, Jackson, pydantic 1 and 2, class-validator, ajv, zod, .NET. */
const UNKNOWN_MEMBER_WORDS =
  /unknown (?:field|propert|key|member|name)|unrecogni[sz]ed|additional propert|extra (?:input|field|propert|key|member)s?|should not exist|not permitted|could not be mapped/i;

/**
 * The defect of a valid NewPlant refused for a member the document does not name (extra members are valid
 * unless the document closes the object): Go's `dec.DisallowUnknownFields()` (`json: unknown field "x"`),
 * Jackson's FAIL_ON_UNKNOWN_PROPERTIES, pydantic's `extra='forbid'`, class-validator's forbidNonWhitelisted,
 * Joi's `"x" is not allowed`. `undefined` unless the body holds such a member and the answer says that is why,
 * so a server refusing them and also miscounting lengths gets two findings (it was one, `status 400 for a
 * valid NewPlant`, shown by the extra member).
 */
export function unknownMemberDefect(
  status: number,
  sentKeys: readonly string[],
  declared: ReadonlySet<string>,
  answer: string | null,
): string | undefined {
  const extras = sentKeys.filter((key) => !declared.has(key));
  if (answer === null || extras.length === 0 || status < 400 || status > 499 || status === 401 || status === 403)
    return undefined;
  // Quoted as a JSON answer carries it: `\"x\"` inside a message string.
  const quotes = ['"', '\\"', "'", '`'];
  const named = extras.some((key) => quotes.some((quote) => answer.includes(`${quote}${key}${quote}`)));
  if (!UNKNOWN_MEMBER_WORDS.test(answer) && !(named && /is not allowed/i.test(answer))) return undefined;
  return `status ${status} for a valid NewPlant with a member the document does not name`;
}

/**
 * A 401 or 403 to a request that carried no Authorization header, on a document that lets POST /plants
 * be called without one (`auth` none or optional): the target demands a credential the document does not
 * ask for, one defect whichever request met it (a valid NewPlant, an invalid body, the auth probe's).
 */
export function undeclaredAuthDefect(
  auth: string,
  status: number,
  headers: Readonly<Record<string, string>>,
): string | undefined {
  if ((auth !== 'none' && auth !== 'optional') || (status !== 401 && status !== 403)) return undefined;
  if (Object.keys(headers).some((name) => name.toLowerCase() === 'authorization')) return undefined;
  return `status ${status} without a credential, which the document does not ask for`;
}

/**
 * A 3xx is where the target routes POST /plants (Django's APPEND_SLASH, nginx's `location /plants/`, an
 * http-to-https rule), not how it reads a request: one defect whatever was sent, as a gateway's 502 is.
 */
export function redirectDefect(status: number): string | undefined {
  return status >= 300 && status < 400 ? `status ${status}, a redirect (not followed)` : undefined;
}

/** The defect of an answer labelled other than JSON: `the 400 answer is labelled text/html`. */
export function labelDefect(status: number, contentType: string | undefined): string {
  const label = contentType === undefined ? 'with no Content-Type' : mediaTypeEssence(contentType);
  return `the ${status} answer is labelled ${label}`;
}

/**
 * The defect of a body that is not JSON: when its label is not JSON either (a framework's HTML
 * error page), the label's defect, so content-type and the body's checks name one root cause.
 */
export function notJsonDefect(status: number, contentType: string | undefined, labelIsJson: boolean): string {
  return labelIsJson ? `the ${status} body is not JSON` : labelDefect(status, contentType);
}

/** A quoted piece of a message, and a quoted plain name (a field or a nested path like `care.water` or `photos[0].width`, a code): the one kind kept. */
const QUOTED = /"(?:[^"\\]|\\.)*"/g;
const PLAIN_NAME = /^"[A-Za-z_][\w-]{0,40}(?:\[\d{1,6}\])*(?:\.[A-Za-z_][\w-]{0,40}(?:\[\d{1,6}\])*){0,8}"$/;
/**
 * Numbers that are values (not a label's `20,000`, the `2^53` and `2^63` of an edge's name, nor the digits
 * of a word: `int64`, `UTF-16`).
 */
const NUMBER = /(?<![\w,.^-])-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?![\w,^])/g;

/** What an invalid body's description says a field holds: `"name" holds "Ahdhdebaae": …`, a value whatever it looks like. */
const HELD = /holds $/;

/**
 * Text with each quoted value replaced by `"…"`: every quoted text but a plain name, and what a field holds
 * even when it reads like a name (`"name" holds "Ahdhdebaae"` under `^[A-Z][a-z]+$`): kept, each character a
 * shrink step changes made another defect, and the finding's title showed a generated value.
 */
export function withoutQuotedValues(text: string): string {
  return text.replace(QUOTED, (quoted: string, offset: number) =>
    PLAIN_NAME.test(quoted) && !HELD.test(text.slice(Math.max(0, offset - 6), offset)) ? quoted : '"…"',
  );
}

/**
 * A bad credential's kind as a defect names it: which scheme stood in for Bearer (a seed draws Basic,
 * Token or Digest; a client sends any) is the counterexample's, not the root cause's, so a baseline keeps
 * the finding whichever scheme a run met.
 */
function credentialKind(what: string): string {
  return shapeOf(what).replace(OTHER_SCHEME, 'a scheme other than Bearer');
}

const OTHER_SCHEME = /another scheme \([^)]*\)/;

const OTHER_MEDIA_TYPE = 'a body labelled with a media type the document does not take';

/**
 * A rewrite named by its family (`"id" set to a number with a fraction`), and a keyword's integer one past its
 * format's range (`id one above the int64 maximum`, `id one below the int64 minimum`) named by that range, as the
 * rewrite past it is (`"id" set to an integer outside int64`): one rule, so one title whichever a seed met first (a
 * target with no range check accepts them all). Else the description's shape.
 */
function familyShape(what: string): string {
  const range = FORMAT_RANGE.exec(what);
  if (range !== null) return `"${range[1]}" set to an integer outside ${range[2]}`;
  const words = FAMILY_WORDS[rewriteFamily(what) ?? ''];
  const field = REWRITE.exec(what)?.[1];
  return words === undefined || field === undefined ? shapeOf(what) : `"${field}" set to ${words}`;
}

/** `"id" holds 9223372036854775808: id one above the int64 maximum 9223372036854775807 (keyword format)`. */
const FORMAT_RANGE =
  /^"((?:[^"\\]|\\.)*)" holds .*: .* one (?:above|below) the (int32|int64) (?:maximum|minimum) -?\d+ \(keyword format\)$/;

/** A description with its generated values (numbers, quoted text) replaced. */
export function shapeOf(what: string): string {
  return withoutQuotedValues(what).replace(NUMBER, '#');
}

/**
 * The one defect of a target that reads JSON numbers as IEEE doubles (JavaScript's `JSON.parse`, Go's
 * `interface{}`, Python's float): integers beyond 2^53 come back with other digits. The echo, the Plant's
 * int64 range and an accepted 2^63 all show it; it is one root cause, so they name one defect.
 */
export const DOUBLES_DEFECT = 'integers beyond 2^53 go through floating point (digits lost)';

/**
 * An integer id written as `1e2` or `9.2e18` refused with the target's own repeat value while this run sent
 * that id nowhere else: the target read the spelling as another integer (its leading digits), one it holds.
 */
export const SPELLING_READ_AS_ANOTHER_ID = 'an integer id written as 1.0, 1e2 or -0 read as another id';

/**
 * Strings echoed with the whitespace at either end cut (Django REST framework's `CharField`, pydantic's
 * `str_strip_whitespace`): one finding whatever the fields (`suites/echo-habits.ts` names it).
 */
export const TRIMMED = 'strings trimmed of whitespace at either end';

/** Strings echoed cut at their first U+0000 (cJSON's C strings): one finding whatever the fields. */
export const CUT_AT_NUL = 'strings cut at their first U+0000 (read as C strings)';

/**
 * What positive-acceptance says of a valid NewPlant it saw refused that the document refuses once the
 * whitespace at the ends of its strings is cut (`"   "` under `minLength: 1`): beside echoes trimmed, the
 * same trimming refused it.
 */
export const REFUSED_ONCE_TRIMMED =
  'With the whitespace at the ends of its strings cut, this NewPlant is one the document refuses';

/**
 * What negative-rejection says of an invalid body it saw accepted that is a valid NewPlant once the whitespace
 * at the ends of its strings is cut (a name one over `maxLength`, its last character a space).
 */
export const ACCEPTED_ONCE_TRIMMED =
  'With the whitespace at the ends of its strings cut, this body is a valid NewPlant';

/**
 * What positive-acceptance says of a valid NewPlant holding characters beyond U+FFFF refused with an answer that
 * speaks of lengths: the target counts lengths in UTF-16 units or UTF-8 bytes, not in code points.
 */
export const LENGTHS_IN_UNITS =
  "The body holds characters beyond U+FFFF (such as 𐀀), and the answer speaks of lengths: minLength and maxLength count each as one code point, while JavaScript's .length (zod, Joi), Java and C# count two UTF-16 units, and a count of UTF-8 bytes (Python's len(s.encode()), Go's len(s)) four";

const NUMBER_TEXT = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;
const SAFE = 2 ** 53;

/** A JSON number's exact value in one spelling (`-12e3` for -12000, -12000.0 and -1.2e4), for equality. */
function exactDecimal(text: string): string | undefined {
  const match = NUMBER_TEXT.exec(text);
  if (match === null) return undefined;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  const digits = `${whole}${fraction}`.replace(/^0+/, '');
  if (digits === '') return '0';
  const trimmed = digits.replace(/0+$/, '');
  const power = BigInt(exponent) - BigInt(fraction.length) + BigInt(digits.length - trimmed.length);
  return `${sign}${trimmed}e${power}`;
}

/**
 * Whether `answered` is `sent` rounded through a double: `sent` a number beyond 2^53 (`9223372036854775807`,
 * `9007199254740993.5`), `answered` another value (`9223372036854776000`, `9.223372036854776e18`) that is
 * the same double.
 */
export function roundedThroughDouble(sent: string, answered: string): boolean {
  if (sent === answered || !(Math.abs(Number(sent)) >= SAFE) || Number(sent) !== Number(answered)) return false;
  const [one, two] = [exactDecimal(sent), exactDecimal(answered)];
  return one !== undefined && two !== undefined && one !== two;
}

/**
 * Whether the number at `path` (`id`, `care.leaves`, `photos[0].width`: a violation's or an invalid
 * body's field) came back rounded through a double.
 */
export function roundedAt(sent: unknown, answered: unknown, path: string): boolean {
  const keys = path.split(/\.|(?=\[)/).map((part) => (/^\[\d+\]$/.test(part) ? part.slice(1, -1) : part));
  let [one, two] = [sent, answered];
  for (const key of keys.slice(0, -1)) {
    if (!isContainer(one) || !isContainer(two)) return false;
    [one, two] = [one[key], two[key]];
  }
  const last = keys.at(-1);
  if (!last || !isContainer(one) || !isContainer(two) || !Object.hasOwn(one, last) || !Object.hasOwn(two, last))
    return false;
  if (typeof one[last] !== 'number' || typeof two[last] !== 'number') return false;
  // Numbers of arrays are remembered by index, of objects by name.
  const [sentText, answeredText] = [numberText(one, memberKey(one, last)), numberText(two, memberKey(two, last))];
  return sentText !== undefined && answeredText !== undefined && roundedThroughDouble(sentText, answeredText);
}

function memberKey(container: object, key: string): string | number {
  return Array.isArray(container) ? Number(key) : key;
}

function isContainer(value: unknown): value is Record<string | number, unknown> {
  return value !== null && typeof value === 'object';
}

/** The top-level member of a field path (`care` of `care.water` and of `labels[0].key`), when it names one. */
export function topMemberOf(path: string): string | undefined {
  const member = /^[^.[\]]+/.exec(path)?.[0];
  return member === undefined || member === '…' ? undefined : member;
}

/** The first quoted name of a description: the field an invalid body breaks (`"tag" holds null`). */
export const FIELD = /"((?:[^"\\]|\\.)*)"/;
/** The keyword a variant of the document breaks, as its description ends: `(keyword uniqueItems)`. */
const KEYWORD = /\(keyword (\w+)\)$/;
/**
 * Keywords about reading the value at all (its presence, type and format, and the rewrites that name no
 * keyword: `"id" set to 0.5`, `"ID"` for `"id"`): one cause, how the target reads the field. A `null` taken
 * as absent and a missing field defaulted are one habit; a repeated item or a length left unchecked is another.
 */
const READING_KEYWORDS: ReadonlySet<string> = new Set(['', 'type', 'format', 'required']);

/** The keyword a variant's description says it breaks (`uniqueItems`), when it says one. */
export function namedKeyword(what: string): string | undefined {
  return KEYWORD.exec(what)?.[1];
}

/**
 * Whether an invalid body breaks how its field is read at all (presence, type, format), and not by a lenient type
 * reading nor as a wrong number ({@link numberFamily}: how numbers are parsed is named across fields, not the field's).
 */
export function breaksReading(what: string): boolean {
  return typeReading(what) === undefined && READING_KEYWORDS.has(namedKeyword(what) ?? '') && !numberFamily(what);
}

/**
 * An array or an object accepted for a number (`"id" holds an array: id not of type integer: an array`): no lenient
 * reader converts those, so the field's type is never read (PHP's `(int)$body['id']` takes `[]` as 0).
 */
export function takesAnyTypeForNumber(what: string): boolean {
  return /: [^:]* not of type (?:integer|number)(?: or null)?: an? (?:array|object) \(keyword type\)$/.test(what);
}

/** The invalid body that is a valid NewPlant with more text after it (`{...} x`). */
const TEXT_AFTER_VALUE = /followed by text after its closing brace/;

/** The cause an invalid body's description names: its field, and the keyword unless it is about reading the field. */
export function brokenRule(what: string): string {
  // Text after the value is how the body is parsed (Go's json.Decoder reads the first value only), not how a field
  // or the body's type is read: it shared the field-less cause of a body `null` accepted, and one hid the other.
  if (TEXT_AFTER_VALUE.test(what)) return '\u0000text after the value';
  // A type read leniently is kept apart from the field's other readings: it may be a reader's habit across
  // fields (one finding) or, beside another wrong reading of the field, the field's own (withFieldsReadWrongly).
  const reading = typeReading(what);
  const keyword = namedKeyword(what) ?? '';
  const rule =
    reading !== undefined
      ? `type read as ${reading}`
      : READING_KEYWORDS.has(keyword)
        ? (numberFamily(what) ?? '')
        : keyword;
  return `${FIELD.exec(what)?.[1] ?? ''}\u0000${rule}`;
}

/** An id (or other member) rewritten to a fixed JSON value: `"id" set to N.5`, `"id" set to 1e19`. */
const REWRITE = /^"((?:[^"\\]|\\.)*)" set to (.+)$/;

/**
 * Which kind of wrong number a rewrite sets (the generator's preview of the value: `N.5`, `-N.25`, `1e-3`, `the
 * fraction 1.5`, `1e19`, `9999999999… (10000 characters)`): `fraction` (a number with a fraction, read as an integer by
 * truncation or through a double), `2^53` (`2^53+N.5`, which a double holds whole), `range` (an integer outside int64
 * in plain digits), `exponent` (one written with an exponent, `1e19`: a reader of leading digits takes it as 1, as
 * it takes 0.5 as 0), else undefined.
 */
export function rewriteFamily(what: string): 'fraction' | '2^53' | 'range' | 'exponent' | undefined {
  const value = REWRITE.exec(what)?.[2];
  if (value === undefined) return undefined;
  if (value.startsWith('2^53+')) return '2^53';
  if (value.startsWith('the fraction ')) return 'fraction';
  if (/^-?\d+… \(\d+ characters\)$/.test(value)) return 'range';
  if (!/^-?(?:N|\d)[\dN]*(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(value)) return undefined;
  const number = Number(value.replaceAll('N', '1'));
  if (Math.abs(number) >= 2 ** 63) return /^-?[\dN]+$/.test(value) ? 'range' : 'exponent';
  return Number.isInteger(number) ? undefined : 'fraction';
}

/**
 * A wrong number's family, rewrite or keyword variant alike (`"id" set to N.5`, `id not of type integer: a number with
 * a fraction`, `id one above the int64 maximum`): a number not written as a plain integer (a fraction, `2^53+N.5`,
 * `1e19`) and a plain integer outside the format's range are read wrongly in other ways than a member missing or of
 * another type (truncated, through a double, unchecked), each its own cause (Jackson's ACCEPT_FLOAT_AS_INT beside a
 * primitive's default 0; DRF's unbounded IntegerField beside its fractions read as doubles).
 */
export function numberFamily(what: string): 'fraction' | 'range' | undefined {
  const family = rewriteFamily(what);
  if (family !== undefined) return family === 'range' ? family : 'fraction';
  if (/: a number with a fraction \(keyword type\)$/.test(what)) return 'fraction';
  return /\bint(?:32|64)\b.* \(keyword format\)$/.test(what) ? 'range' : undefined;
}

/** What a rewrite's family is called in a finding's title: the same whichever value of it a seed met first. */
const FAMILY_WORDS: Readonly<Record<string, string>> = {
  fraction: 'a number with a fraction',
  range: 'an integer outside int64',
  exponent: 'an integer outside int64 written with an exponent',
};

/**
 * What a failure's cause is, whatever values showed it: for an invalid body the field and the rule it
 * breaks ({@link brokenRule}: a `null` accepted for an array and a repeated item accepted are two root
 * causes), and the defect with the request's own description left out. An accepted out-of-range id and a
 * wrong refusal status on another id are two defects of one field: neither may hide the other; bodies of
 * other media types accepted are one.
 */
export function causeOf(plan: PlannedRequest | undefined, defect: string | undefined): string {
  const intent = plan?.intent;
  const field = intent?.kind === 'invalid-body' ? brokenRule(intent.what) : '';
  const kind =
    defect === undefined || plan === undefined
      ? ''
      : defect.replace(requestKind(plan, true), '…').replace(requestKind(plan), '…');
  return `${field}\u0000${kind}`;
}

/** The long integers of a JSON body (16 digits or more), outside its strings. */
export function integersOf(body: string | null | undefined): bigint[] {
  const texts = (body ?? '').replace(/"(?:[^"\\]|\\.)*"/g, '""').match(/(?<![\d.eE+-])-?\d{16,}(?![.eE\d])/g);
  return (texts ?? []).map((text) => BigInt(text));
}

/** The JSON value a text holds, or `undefined` when it is none (`JSON.parse` never gives `undefined`). */
export function jsonOf(text: string | null | undefined): unknown {
  try {
    return JSON.parse(text ?? '') as unknown;
  } catch {
    return undefined;
  }
}

/** Whether a text is a JSON text. */
export function isJsonText(text: string | null | undefined): boolean {
  return jsonOf(text) !== undefined;
}

/**
 * Whether an answer names a member of the body as a word, in any letter case (`{"name": [...]}`, `name:`,
 * `'NewPlant.Name'`): the one test of "the answer speaks of this member" for the judges (a refusal naming another
 * sent member is about that member) and the folds. A key with no word character (`""`) is never named.
 */
export function namesMember(text: string, key: string): boolean {
  if (!/\w/.test(key)) return false;
  return new RegExp(`(?<![\\w-])${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`, 'i').test(text);
}
