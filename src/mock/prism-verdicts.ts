import { createRequire } from 'node:module';
import type { PrismHttpComponents } from '@stoplight/prism-http';
import type { IHttpOperation } from '@stoplight/types';

/**
 * Prism's request validation and security check, remembered per class of requests on which their
 * verdict provably cannot differ. Prism still judges the first request of every class; a request
 * whose class cannot be named (see below) is always judged by Prism afresh.
 */

type Validator = PrismHttpComponents['validateInput'];
type Verdict = ReturnType<Validator>;
type Element = Parameters<Validator>[0]['element'];

const prismValidator = createRequire(import.meta.url)('@stoplight/prism-http/dist/validator/index.js') as {
  validateInput: Validator;
  validateSecurity: Validator;
};

/** At most this many verdicts (or decisions) are kept per memo; the oldest goes first when a new class arrives. */
export const VERDICTS_KEPT = 256;

/** A map that forgets its oldest entry when full: clients choose the keys, memory must not follow. */
export class BoundedMemo<V> {
  private readonly entries = new Map<string, V>();
  constructor(private readonly limit: number) {}

  get(key: string): V | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: V): void {
    if (this.entries.size >= this.limit && !this.entries.has(key)) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
    this.entries.set(key, value);
  }
}

/**
 * Wraps a validator so that requests of one operation with the same key share Prism's verdict. A
 * valid verdict carries the element it judged, so it is rebuilt around the current one; a failed
 * verdict (its diagnostics) depends only on the key. `keyOf` returns undefined when it cannot vouch
 * for a request, and Prism judges it. At most `limit` verdicts are kept per operation.
 */
export function memoizedValidator(
  validate: Validator,
  keyOf: (resource: IHttpOperation, element: Element) => string | undefined,
  limit = VERDICTS_KEPT,
): Validator {
  const memos = new WeakMap<IHttpOperation, BoundedMemo<Verdict>>();
  return (options) => {
    const key = keyOf(options.resource, options.element);
    if (key === undefined) return validate(options);
    let memo = memos.get(options.resource);
    if (!memo) {
      memo = new BoundedMemo(limit);
      memos.set(options.resource, memo);
    }
    let verdict = memo.get(key);
    if (verdict === undefined) {
      verdict = validate(options);
      memo.set(key, verdict);
    }
    return verdict._tag === 'Right' ? { _tag: 'Right', right: options.element } : verdict;
  };
}

/** Prism's request validation, remembered per body shape (see {@link inputVerdictKey}). */
export function memoizedInputValidation(): Validator {
  return memoizedValidator(prismValidator.validateInput, inputVerdictKey);
}

/** Prism's security check, remembered per form of the Authorization header (see {@link securityVerdictKey}). */
export function memoizedSecurityCheck(): Validator {
  return memoizedValidator(prismValidator.validateSecurity, securityVerdictKey);
}

const shapeOnlyOperations = new WeakMap<IHttpOperation, boolean>();

/**
 * The class of a request for Prism's input validation: which body fields are present and the
 * JSON type of each, plus the Content-Type and Content-Length headers Prism reads. It vouches only when
 * the operation has no parameters (Prism would read headers, query and path) and its body schemas
 * constrain nothing but types and presence (see {@link isShapeOnlySchema}), and only for bodies
 * whose values are strings, booleans, null or safe integers: for those Prism's verdict cannot
 * depend on a value. Anything else returns undefined, and Prism judges the request.
 */
export function inputVerdictKey(resource: IHttpOperation, element: Element): string | undefined {
  let shapeOnly = shapeOnlyOperations.get(resource);
  if (shapeOnly === undefined) {
    shapeOnly = hasShapeOnlyRequest(resource);
    shapeOnlyOperations.set(resource, shapeOnly);
  }
  if (!shapeOnly) return undefined;
  const shape = bodyShape(element.body);
  if (shape === undefined) return undefined;
  // Keys are built by hand, not JSON.stringify'd: this runs once per request. Every client-chosen
  // part is a JSON string (self-delimiting), so two different requests cannot share a key.
  let key = `${shape}|`;
  const headers = element.headers ?? {};
  for (const name of Object.keys(headers)) {
    // Prism reads these two headers in any letter case.
    const lower = name.toLowerCase();
    if (lower === 'content-type' || lower === 'content-length') {
      key += JSON.stringify(name) + JSON.stringify(headers[name]);
    }
  }
  return key;
}

/** Each field as its quoted name and the kind of its value, e.g. `"id"safe-integer,"name"string,`. */
function bodyShape(body: unknown): string | undefined {
  if (body === undefined) return '(none)';
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  let shape = '';
  for (const name of Object.keys(body)) {
    const kind = valueKind((body as Record<string, unknown>)[name]);
    if (kind === undefined) return undefined;
    shape += `${JSON.stringify(name)}${kind},`;
  }
  return shape;
}

function valueKind(value: unknown): string | undefined {
  if (value === null) return 'null';
  if (typeof value === 'string' || typeof value === 'boolean') return typeof value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return 'safe-integer';
  return undefined;
}

function hasShapeOnlyRequest(resource: IHttpOperation): boolean {
  const request = resource.request;
  if (!request) return true;
  if ([request.headers, request.query, request.path, request.cookie].some((list) => list && list.length > 0)) {
    return false;
  }
  return (request.body?.contents ?? []).every(
    (content) => content.schema === undefined || isShapeOnlySchema(content.schema),
  );
}

/** Keywords that never make a verdict depend on a value: annotations, and `x-` extensions. */
const ANNOTATIONS = new Set([
  '$schema',
  '$id',
  '$comment',
  'title',
  'description',
  'default',
  'example',
  'examples',
  'deprecated',
  'readOnly',
  'writeOnly',
  'nullable',
]);

/**
 * Whether a JSON Schema judges a safe integer, string, boolean or null by its type alone, and an
 * object by which properties are present and their types: only type, properties, required,
 * additionalProperties, allOf, anyOf, oneOf and not, annotations, `format: int64` (any integer
 * passes Prism's int64 format) and a minimum/maximum that every safe integer meets (the
 * ±(2^53-1) bounds Prism's spec reader puts on int64). Anything else (enum, pattern, lengths, other
 * formats, $ref) makes the memo stand aside.
 */
export function isShapeOnlySchema(schema: unknown): boolean {
  if (typeof schema === 'boolean') return true;
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return false;
  return Object.entries(schema).every(([keyword, value]) => isShapeOnlyKeyword(keyword, value));
}

function isShapeOnlyKeyword(keyword: string, value: unknown): boolean {
  if (ANNOTATIONS.has(keyword) || keyword.startsWith('x-')) return true;
  switch (keyword) {
    case 'type':
      return typeof value === 'string' || (Array.isArray(value) && value.every((type) => typeof type === 'string'));
    case 'required':
      return Array.isArray(value) && value.every((name) => typeof name === 'string');
    case 'properties':
      return typeof value === 'object' && value !== null && Object.values(value).every(isShapeOnlySchema);
    case 'additionalProperties':
    case 'not':
      return isShapeOnlySchema(value);
    case 'allOf':
    case 'anyOf':
    case 'oneOf':
      return Array.isArray(value) && value.every(isShapeOnlySchema);
    case 'format':
      return value === 'int64';
    case 'minimum':
      return typeof value === 'number' && value <= -Number.MAX_SAFE_INTEGER;
    case 'maximum':
      return typeof value === 'number' && value >= Number.MAX_SAFE_INTEGER;
    default:
      return false;
  }
}

/** Security schemes Prism checks with its bearer handler: `^Bearer\s.+$` on the Authorization header. */
const bearerOnlyOperations = new WeakMap<IHttpOperation, boolean>();

function hasBearerOnlySecurity(resource: IHttpOperation): boolean {
  return (resource.security ?? []).every((pairs) =>
    pairs.every(
      (scheme) =>
        scheme.type === 'oauth2' ||
        scheme.type === 'openIdConnect' ||
        (scheme.type === 'http' && scheme.scheme.toLowerCase() === 'bearer'),
    ),
  );
}

/**
 * The class of a request for Prism's security check when every scheme is bearer-like: no
 * Authorization header, or its first word and the one whitespace character after it, followed by
 * at least one character that is not a line terminator. Prism's `^Bearer\s.+$` gives every header of
 * one class the same answer (whether the first word is exactly `Bearer`), so the credentials
 * themselves are never part of the key. Other headers and other schemes return undefined.
 */
export function securityVerdictKey(resource: IHttpOperation, element: Element): string | undefined {
  let bearerOnly = bearerOnlyOperations.get(resource);
  if (bearerOnly === undefined) {
    bearerOnly = hasBearerOnlySecurity(resource);
    bearerOnlyOperations.set(resource, bearerOnly);
  }
  if (!bearerOnly) return undefined;
  const authorization = element.headers?.authorization;
  if (authorization === undefined) return '(none)';
  const form = /^(\S*)(\s)[^\n\r\u2028\u2029]+$/.exec(authorization);
  return form ? `${JSON.stringify(form[1])}${form[2]}` : undefined;
}
