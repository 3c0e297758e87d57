import type { Exchange } from './http/client.js';
import type { PlannedRequest } from './probe.js';
import { brokenRule } from './defects.js';
import { isClientError, isSuccess } from './judge.js';
import { isQueryTwin } from './probes/rejections.js';

/**
 * How a crash (a 5xx or no answer, as a check's defect names it) showed: `status 500`, `connection-reset`, and the
 * request it met. A gateway's answer (`status 502 (a gateway's: …)`) names no request: one defect whatever was asked.
 */
const CRASH =
  /^(status 5\d\d|[\w-]+) (?:for|on) (?:an invalid body|a valid NewPlant|JSON of unpredictable meaning|a body that is not valid UTF-8)/;

/**
 * What a crash shows of its cause, worked out from its (shrunk) counterexample:
 * - `characters`: where the run shows characters are the cause ({@link charactersNeeded}), a string holds a
 *   character beyond ASCII (a lone surrogate included; which strings: {@link charactersIn}): a latin-1 column
 *   raising on 🌱 and on U+2028 alike.
 * - `parse`: a body no parser reads (malformed JSON, arrays nested past a recursive parser's stack, a number of a
 *   thousand digits or more: Python refuses to convert one of more than 4,300; bytes that are not UTF-8): the parser's
 *   error left unhandled; and JSON of unpredictable meaning (a lone surrogate) crashing the way such bodies did.
 * - `non-object`: JSON that is no object (`[]`, `42`): a handler using members of whatever was parsed.
 * - `member:…`: an object breaking a member, by the defect's class of break.
 * Anything else (a valid NewPlant's crash with plain strings, a gateway's answer): undefined.
 */
export function crashClass(
  plan: PlannedRequest | undefined,
  defect: string | undefined,
  evidence: CrashEvidence,
): CrashClass | undefined {
  const way = CRASH.exec(defect ?? '')?.[1];
  if (plan === undefined || way === undefined) return undefined;
  // A strict decoder's error unhandled is the parser's: `json.loads(body.decode())` fails on `{` and on 0xFF alike. Its
  // body is a lossy preview (U+FFFD): no evidence of characters.
  if (notUtf8(plan)) return { way, name: 'parse' };
  const unread = unreadable(plan.body ?? '');
  const value = unread ? { ok: false as const } : parsed(plan.body);
  if (evidence.characters && value.ok && charactersIn(plan, value.value, evidence.objectRefused).some(beyondAscii))
    return { way, name: 'characters' };
  // A parser that refuses a lone surrogate escape (Ruby's json, Perl's JSON::PP) fails on it as on malformed JSON: where
  // bodies no parser reads crashed the same way, the surrogate's crash is that unhandled error too.
  if (plan.intent.kind === 'unpredictable' && (evidence.unreadableKinds?.get(way)?.size ?? 0) > 0)
    return { way, name: 'parse' };
  if (plan.intent.kind !== 'invalid-body') return undefined;
  if (!value.ok) return { way, name: 'parse' };
  if (!isObject(value.value)) return { way, name: 'non-object' };
  return { way, name: `member:${defect ?? ''}` };
}

/** What the run showed beside a crash: whether the target refused some invalid object; whether characters may be the cause. */
export interface CrashEvidence {
  readonly objectRefused: boolean;
  /**
   * The one member every invalid object the target refused broke, where it accepted none (`id`, outside int64): those
   * are its handler's own refusals, and every refusal of its validator crashed ({@link refusedOnlyIn}).
   */
  readonly refusedOnlyIn?: string;
  /**
   * No request carrying the run's credential got an answer but a crash (a 5xx or none): the target fails whatever it
   * is sent once the credential is good ({@link answeredWithoutCrash}).
   */
  readonly everyRequestCrashed?: boolean;
  /** False when a crash on a readable body held no character beyond ASCII ({@link charactersNeeded}). */
  readonly characters: boolean;
  /** The kinds of unreadable body ({@link unreadableKind}) each way of crashing met, over all the check's cases. */
  readonly unreadableKinds?: ReadonlyMap<string, ReadonlySet<string>>;
}

/**
 * What kind of body no parser reads a crash met (`truncated JSON`, `a trailing comma before a closing bracket`,
 * `arrays nested 20,000 deep instead of an object`, bytes that are not UTF-8), with its way of crashing: counted over
 * every case, since the kept cases hold only the first of a cause. Undefined for anything else.
 */
export function unreadableKind(
  plan: PlannedRequest | undefined,
  defect: string | undefined,
): { way: string; kind: string } | undefined {
  const way = CRASH.exec(defect ?? '')?.[1];
  if (plan === undefined || way === undefined) return undefined;
  if (notUtf8(plan)) return { way, kind: 'bytes that are not UTF-8' };
  if (plan.intent.kind !== 'invalid-body') return undefined;
  return unreadable(plan.body ?? '') || !parsed(plan.body).ok ? { way, kind: plan.intent.what } : undefined;
}

function notUtf8(plan: PlannedRequest): boolean {
  return plan.intent.kind === 'unpredictable' && plan.intent.notUtf8 === true;
}

/**
 * Whether characters are what a check's crashes need: one of them shrank to a short string holding a character beyond
 * ASCII ({@link shortBeyondAscii}), and every crash it kept on a readable body (a parser's own aside) holds one. A
 * crash on plain text beside them (a body of more than 60 bytes, `1e-1` for an id) says the characters others kept are
 * there by chance (bytes a length needs, a member as generated); so does none short (a name of 40 characters).
 */
export function charactersNeeded(
  crashes: readonly { readonly failure: { readonly defect?: string }; readonly plan: PlannedRequest | undefined }[],
  objectRefused: boolean,
): boolean {
  const strings = crashes.flatMap(({ failure, plan }) => {
    const crash = crashClass(plan, failure.defect, { objectRefused, characters: false });
    if (plan === undefined || crash === undefined || crash.name === 'parse') return [];
    const value = parsed(plan.body);
    return [value.ok ? charactersIn(plan, value.value, true) : []];
  });
  return strings.some((texts) => texts.some(shortBeyondAscii)) && strings.every((texts) => texts.some(beyondAscii));
}

/**
 * The strings that may hold the character a crash needs: all of a valid NewPlant's, of JSON of unpredictable meaning
 * (a lone surrogate) and of an invalid body where the target refused some invalid object; where it refused none,
 * the break is the cause (an invalid body's other members are left as generated: a `𐀈` member beside `"name": true`).
 */
function charactersIn(plan: PlannedRequest, value: unknown, objectRefused: boolean): string[] {
  const { kind } = plan.intent;
  const holds = kind === 'valid' || kind === 'valid-variant' || kind === 'unpredictable';
  return holds || (kind === 'invalid-body' && objectRefused) ? stringsOf(value) : [];
}

/** A crash's way of showing and its class ({@link crashClass}). */
export interface CrashClass {
  readonly way: string;
  readonly name: string;
}

/**
 * Whether a case's exchanges show the target refusing (4xx) an invalid body that is a readable JSON object: its
 * refusal path works, so crashes on members of some kinds are causes of their own, not the refusal path's.
 */
export function refusesAnObject(exchanges: readonly Exchange[]): boolean {
  return exchanges.some(({ plan, response }) => {
    if (!refusesBody(plan, response.status)) return false;
    if (unreadable(plan.body ?? '')) return false;
    const value = parsed(plan.body);
    return value.ok && isObject(value.value);
  });
}

/**
 * The members ({@link brokenRule}'s field: `id`, `care.water`) that the invalid objects a case's exchanges show refused
 * broke, and whether one was accepted (2xx): for {@link refusedOnlyIn}.
 */
export function objectRefusals(exchanges: readonly Exchange[]): { fields: string[]; accepted: boolean } {
  const objects = exchanges.filter(
    ({ plan }) => plan.intent.kind === 'invalid-body' && !isQueryTwin(plan) && isJsonObject(plan.body),
  );
  const refused = objects.filter(({ plan, response }) => refusesBody(plan, response.status));
  const accepted = objects.some(({ response }) => isSuccess(response.status));
  const fields = refused.map(({ plan }) =>
    plan.intent.kind === 'invalid-body' ? (brokenRule(plan.intent.what).split('\u0000')[0] ?? '') : '',
  );
  return { fields, accepted };
}

/**
 * The member every refused invalid object broke, where that is one member and no invalid object was accepted: the
 * refusal path fails though the target refused some (Fastify's default error handler writes a 400 its response schema
 * cannot serialize, a 500 for every validation error, while the handler's own check refuses an id outside int64).
 * Undefined otherwise; the empty string names a break of the body as a whole.
 */
export function refusedOnlyIn(fields: ReadonlySet<string>, accepted: boolean): string | undefined {
  return fields.size === 1 && !accepted ? [...fields][0] : undefined;
}

/**
 * Whether some request carrying the run's credential (every request but the bad-credential ones) and a JSON object was
 * answered with anything but a crash (a 5xx, no answer). Answers made before the body is read do not count: a body
 * parser's 400 to malformed JSON or to a JSON value that is no object (express.json()'s strict mode refuses `null`
 * and `"x"` whatever the handler does), a refusal of the credential as written (`bearer`), of a label (415,
 * `charset=utf-8` included) or of a broken parameter, and a throttle (429).
 */
export function answeredWithoutCrash(exchanges: readonly Exchange[]): boolean {
  return exchanges.some(
    ({ plan, response }) =>
      plan.intent.kind !== 'auth' &&
      isJsonObject(plan.body) &&
      response.transportError === undefined &&
      response.status > 0 &&
      response.status < 500 &&
      !BEFORE_THE_BODY.has(response.status) &&
      !(plan.intent.kind === 'invalid-parameter' && isClientError(response.status)),
  );
}

/** Answers a server gives before it reads the body: the credential, the label, throttling. */
const BEFORE_THE_BODY: ReadonlySet<number> = new Set([401, 403, 415, 429]);

/** Whether a case's exchanges show the target refusing (4xx) an invalid body of any kind, JSON or not. */
export function refusesAnInvalidBody(exchanges: readonly Exchange[]): boolean {
  return exchanges.some(({ plan, response }) => refusesBody(plan, response.status));
}

/**
 * Whether an answer refuses an invalid body: a 4xx about the body, to an invalid-body request that carries no query
 * string. A 4xx to query-member's twin may be about the query (a router matching `req.url === '/plants'` answers
 * 404 to any), and says nothing of the path a refused body takes.
 */
function refusesBody(plan: PlannedRequest, status: number): boolean {
  return plan.intent.kind === 'invalid-body' && !isQueryTwin(plan) && refusal(status);
}

function refusal(status: number): boolean {
  return isClientError(status) && !NOT_REFUSALS.has(status);
}

/** 4xx statuses that are not an answer about the body: the credential, throttling, its size. */
const NOT_REFUSALS: ReadonlySet<number> = new Set([401, 403, 413, 429]);

/** The titles of the findings the crash groups name, by a crash's way of showing. */
export const CRASH_GROUP_TITLES = {
  characters: (way: string) => `${way} for a body whose strings hold a character beyond ASCII`,
  refusalPath: (way: string) =>
    `${way} for an invalid body of every kind met (no invalid object was refused: the refusal path fails)`,
  parse: (way: string) => `${way} for bodies the JSON parser cannot read, of every kind met (its error not handled)`,
  oneMemberRefused: (way: string, member: string) =>
    `${way} for an invalid body of every kind met (none was refused but some breaking ${member === '' ? 'the body' : `"${member}"`}: the refusal path fails)`,
  everyRequest: (way: string) =>
    `${way} for every request with the credential, valid or not (no JSON object was answered otherwise: the target fails whatever it is sent)`,
};

/** Past a recursive parser's stack (Python's json: about 1,000 levels) or its number conversion (4,300 digits). */
const DEEP = 512;
const LONG_NUMBER = /\d{1000}/;

/**
 * Whether a body parses in JavaScript but not in common parsers: nesting past {@link DEEP} (too deep to walk by
 * recursion here too), a thousand-digit number.
 */
function unreadable(body: string): boolean {
  const outside = body.replace(/"(?:[^"\\]|\\.)*"/g, '""');
  if (LONG_NUMBER.test(outside)) return true;
  let [depth, deepest] = [0, 0];
  for (const character of outside) {
    if (character === '[' || character === '{') deepest = Math.max(deepest, ++depth);
    else if (character === ']' || character === '}') depth--;
  }
  return deepest > DEEP;
}

function isJsonObject(body: string | null): boolean {
  if (unreadable(body ?? '')) return false;
  const value = parsed(body);
  return value.ok && isObject(value.value);
}

function parsed(body: string | null): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(body ?? '') as unknown };
  } catch {
    return { ok: false };
  }
}

/** The strings of a JSON value, member names included. */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (isObject(value)) return Object.entries(value).flatMap(([key, item]) => [key, ...stringsOf(item)]);
  return [];
}

/**
 * Whether a string of at most {@link SHORT} code points holds a character beyond ASCII, a lone surrogate aside (a
 * UTF-8 writer fails on it alone: crashes on it join others only beside such a character). A crash that needs the
 * character shrinks to a short string holding it (`🌱`, `\ud800`); one that needs a length (a body of more than 60
 * bytes, a name of 40 characters) keeps a long one, whatever characters shrinking left in it.
 */
function shortBeyondAscii(text: string): boolean {
  return /[^\p{ASCII}\p{Surrogate}]/u.test(text) && [...text].length <= SHORT;
}

function beyondAscii(text: string): boolean {
  return /[^\p{ASCII}]/u.test(text);
}

const SHORT = 8;

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
