import { LosslessNumber } from 'lossless-json';
import { exactInteger } from './integers.js';
import { JsonDepthError, numberText, parseExactJson } from './exact-json.js';
import { problem, type Problem, type ProblemKind } from './problems.js';
import type { ExactJson } from './schema/compiled-schema.js';
import type { Contract } from './spec.js';
import type { SchemaCheck, ViolationKind } from './schemas.js';

/**
 * A NewPlant read exactly from a request: every member of the body, whatever the document declares.
 * Integers are `bigint` (every digit kept), other numbers `LosslessNumber`s with their text, as in
 * generation's `ExactJson`; the object has no prototype, so `__proto__` is an ordinary member.
 */
export type NewPlant = Readonly<Record<string, ExactJson>>;

/** A NewPlant the document's schema accepted. */
export interface AcceptedNewPlant {
  /** The body as exact values. */
  readonly plant: NewPlant;
  /**
   * The body as `parseExactJson` returned it (plain numbers, no prototype): `numberText` gives each
   * number's digits as written, so an echo can write them back unchanged (see `exactJsonText`).
   */
  readonly parsed: Readonly<Record<string, unknown>>;
}

/** The outcome of reading a request body: the plant, or the problem to answer with. */
export type NewPlantResult =
  ({ readonly ok: true } & AcceptedNewPlant) | { readonly ok: false; readonly problem: Problem };

const KIND_OF_VIOLATION: Record<ViolationKind, ProblemKind> = {
  'not-object': 'notAnObject',
  required: 'missingField',
  type: 'wrongType',
  integer: 'invalidInteger',
  constraint: 'constraintViolated',
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads the body of `POST /plants` as the contract asks: `application/json` in UTF-8, a JSON
 * object that is a valid NewPlant, integers judged exactly. Every failure names what was wrong.
 */
export function readNewPlant(contract: Contract, contentType: string | undefined, body: Uint8Array): NewPlantResult {
  const mediaProblem = checkMediaType(contentType);
  if (mediaProblem) return fail(mediaProblem);
  return readNewPlantBody(contract.check.newPlant, body);
}

/** {@link readNewPlant} after the Content-Type was accepted: the body's bytes judged by `check`. */
export function readNewPlantBody(check: SchemaCheck, body: Uint8Array): NewPlantResult {
  if (body.length === 0)
    return fail(
      problem('emptyBody', 'The request body is empty: send a NewPlant as JSON, e.g. {"id": 1, "name": "Fern"}.'),
    );
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    return fail(problem('malformedJson', 'The request body is not valid UTF-8: JSON must be sent as UTF-8 text.'));
  }
  let value: unknown;
  try {
    value = parseExactJson(text);
  } catch (error) {
    if (error instanceof JsonDepthError)
      return fail(problem('tooDeep', `The request body is too deeply nested: ${error.message}.`));
    const reason = error instanceof Error ? error.message : String(error);
    return fail(problem('malformedJson', `The request body is not valid JSON: ${reason}.`));
  }
  const violations = check(value);
  const first = violations[0];
  if (first) {
    const shown = violations.slice(0, 5).map((v) => v.message);
    const more = violations.length > shown.length ? `; and ${violations.length - shown.length} more` : '';
    return fail(problem(KIND_OF_VIOLATION[first.kind], `Invalid NewPlant: ${shown.join('; ')}${more}.`));
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    // Only a schema that allows non-objects gets here: plantstore stores and echoes objects.
    return fail(problem('notAnObject', 'Invalid NewPlant: the body must be a JSON object.'));
  }
  return new AcceptedBody(value as Readonly<Record<string, unknown>>);
}

/**
 * An accepted body whose exact `plant` is built on first use: the mock answers from `parsed` alone
 * and never needs it. A class, not an object literal with a getter: V8 builds such a literal on a
 * slow path whose objects outlive young-generation collections, about 600 bytes a request promoted
 * to the old generation (and so more full collections) on a server under load.
 */
class AcceptedBody implements AcceptedNewPlant {
  readonly ok = true;
  #plant: NewPlant | undefined;
  constructor(readonly parsed: Readonly<Record<string, unknown>>) {}

  get plant(): NewPlant {
    return (this.#plant ??= exactMembers(this.parsed));
  }
}

function fail(failure: Problem): NewPlantResult {
  return { ok: false, problem: failure };
}

/** The members of a parsed object as exact values (see {@link NewPlant}). */
function exactMembers(parsed: Readonly<Record<string, unknown>>): NewPlant {
  const record = Object.create(null) as Record<string, ExactJson>;
  for (const key of Object.keys(parsed)) record[key] = exactValue(parsed, key);
  return record;
}

function exactValue(parent: object, key: string | number): ExactJson {
  const value = (parent as Record<string | number, unknown>)[key];
  if (typeof value === 'number') {
    const text = numberText(parent, key) ?? String(value);
    return exactInteger(text) ?? new LosslessNumber(text);
  }
  if (Array.isArray(value)) return value.map((_, index) => exactValue(value, index));
  if (value !== null && typeof value === 'object') return exactMembers(value as Record<string, unknown>);
  return value as ExactJson;
}

/**
 * The JSON text of the member `key` of a value parsed by `parseExactJson`, numbers written with the
 * digits they were sent with (`770.0` stays `770.0`, 2^63-1 keeps every digit), at any depth.
 */
export function exactJsonText(parent: object, key: string | number): string {
  const value = (parent as Record<string | number, unknown>)[key];
  if (typeof value === 'number') return numberText(parent, key) ?? JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((_, index) => exactJsonText(value, index)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members = Object.keys(value).map((name) => `${JSON.stringify(name)}:${exactJsonText(value, name)}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The store key of an accepted plant: its `id` member exactly (a `bigint` for an integer, so `1`,
 * `1.0` and `1e0` are one id; the JSON text otherwise), or `undefined` when it has none.
 */
export function plantIdKey(plant: NewPlant): bigint | string | undefined {
  if (!Object.hasOwn(plant, 'id')) return undefined;
  const id = plant.id;
  return typeof id === 'bigint' ? id : stringifyKey(id);
}

function stringifyKey(value: ExactJson | undefined): string {
  if (value instanceof LosslessNumber) return value.toString();
  if (typeof value === 'bigint') return value.toString();
  if (Array.isArray(value)) return `[${value.map(stringifyKey).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .map((name) => `${JSON.stringify(name)}:${stringifyKey((value as Record<string, ExactJson>)[name])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

function accepted(declared: string): string {
  return declared === 'application/json' ? '"application/json"' : `"${declared}" (or "application/json")`;
}

/**
 * `application/json`, or another JSON media type the document declares for the request body (e.g.
 * `application/vnd.plant+json`, accepted beside `application/json`), any letter case, with an
 * optional UTF-8 charset; `undefined` when acceptable.
 */
export function checkMediaType(contentType: string | undefined, declared = 'application/json'): Problem | undefined {
  if (contentType === undefined || contentType.trim() === '') {
    return problem('unsupportedMediaType', `The Content-Type header is missing: send "Content-Type: ${declared}".`);
  }
  const [mediaType = '', ...parameters] = contentType.split(';').map((part) => part.trim());
  const essence = mediaType.toLowerCase();
  if (essence !== 'application/json' && essence !== declared.toLowerCase()) {
    return problem(
      'unsupportedMediaType',
      `The Content-Type is "${mediaType.slice(0, 60)}", but this operation accepts only ${accepted(declared)}.`,
    );
  }
  for (const parameter of parameters) {
    const [name = '', rawValue = ''] = parameter.split('=').map((part) => part.trim());
    const value = rawValue.replace(/^"(.*)"$/, '$1').toLowerCase();
    if (name.toLowerCase() === 'charset' && value !== 'utf-8' && value !== 'utf8') {
      return problem(
        'unsupportedMediaType',
        `The charset "${value.slice(0, 30)}" is not supported: send the JSON as UTF-8.`,
      );
    }
  }
  return undefined;
}
