import { hash } from 'node:crypto';
import fc from 'fast-check';
import { isLosslessNumber } from 'lossless-json';
import { parseExactJson, stringifyExactJson } from './exact-json.js';
import type { CompiledSchema, ExactJson } from './schema/compiled-schema.js';
import { compileSchema } from './schema/index.js';
import { declaredParameters, type DeclaredParameter, type ParameterPlace } from './parameter-declarations.js';
import { isObject } from './operations.js';
import { problem, type Problem } from './problems.js';
import { OPERATION, type Contract } from './spec.js';

/** A header, query or cookie parameter of POST /plants, as the document declares it. */
export interface OperationParameter {
  readonly name: string;
  readonly in: ParameterPlace;
  readonly required: boolean;
  /** JSON pointer of the Parameter Object in the document. */
  readonly pointer: string;
  /** OpenAPI's `explode` (default: true for query and cookie, false for header). */
  readonly explode: boolean;
  /** The value's schema compiled; `undefined` when the compiler cannot honour it (only documented values are sent). */
  readonly compiled: CompiledSchema | undefined;
  /** The value is written as JSON (`content: application/json`), not in OpenAPI's `style`. */
  readonly json: boolean;
  /** Values the document gives (`example`, `examples`, `default`, `enum`, `const`), in that order. */
  readonly documented: readonly ExactJson[];
  /** A query parameter with `allowEmptyValue: true`: an empty value is allowed whatever its schema says. */
  readonly allowEmptyValue: boolean;
}

/** The required parameters' values for one request: extra headers and a query (`a=1&b=2`, or ``). */
export interface ParameterValues {
  readonly headers: Readonly<Record<string, string>>;
  readonly query: string;
}

type JsonObject = Record<string, unknown>;

/** The operation's parameters, compiled once per contract, and the required ones among them (asked for per request). */
interface CompiledParameters {
  readonly all: readonly OperationParameter[];
  readonly required: readonly OperationParameter[];
}

const compiledByContract = new WeakMap<Contract, CompiledParameters>();

function parametersOf(contract: Contract): CompiledParameters {
  let found = compiledByContract.get(contract);
  if (!found) {
    const all = declaredParameters(contract.document, contract.operationPath, OPERATION.method).map((parameter) =>
      compiledParameter(parameter, contract),
    );
    found = { all, required: all.filter((parameter) => parameter.required) };
    compiledByContract.set(contract, found);
  }
  return found;
}

const compiledAt = new WeakMap<Contract, Map<string, readonly OperationParameter[]>>();

/**
 * The path, header, query and cookie parameters of any operation of the document (`/plants/{id}`, `get`),
 * compiled once per contract: what the proxy reads of every operation it judges.
 */
export function parametersAt(contract: Contract, path: string, method: string): readonly OperationParameter[] {
  let byOperation = compiledAt.get(contract);
  if (byOperation === undefined)
    compiledAt.set(contract, (byOperation = new Map<string, readonly OperationParameter[]>()));
  const key = `${method} ${path}`;
  let found = byOperation.get(key);
  if (found === undefined) {
    const declared = declaredParameters(contract.document, path, method, true);
    found = declared.map((parameter) => compiledParameter(parameter, contract));
    byOperation.set(key, found);
  }
  return found;
}

/**
 * The header, query and cookie parameters of POST /plants: the path item's, overridden by the
 * operation's of the same name and place (header names in any letter case), in declaration order.
 */
export function operationParameters(contract: Contract): readonly OperationParameter[] {
  return parametersOf(contract).all;
}

function compiledParameter(parameter: DeclaredParameter, contract: Contract): OperationParameter {
  const { declaration, name } = parameter;
  const place = parameter.in;
  const content = isObject(declaration.content) ? Object.values(declaration.content).find(isObject) : undefined;
  const schema = isObject(declaration.schema) ? declaration.schema : isObject(content?.schema) ? content.schema : {};
  // A path parameter in `label` or `matrix` style (`.5`, `;id=5`) is not read: only `simple` is.
  const unread = place === 'path' && declaration.style !== undefined && declaration.style !== 'simple';
  const compiled = unread ? undefined : compiledValue(schema, contract, `the ${place} parameter "${name}"`);
  return {
    name,
    in: place,
    required: parameter.required,
    pointer: parameter.pointer,
    explode: typeof declaration.explode === 'boolean' ? declaration.explode : place === 'query' || place === 'cookie',
    compiled,
    json: content !== undefined,
    documented: documentedValues(declaration, content, schema),
    allowEmptyValue: place === 'query' && declaration.allowEmptyValue === true,
  };
}

function compiledValue(schema: JsonObject, contract: Contract, subject: string): CompiledSchema | undefined {
  try {
    return compileSchema(schema, { dialect: contract.dialect, subject });
  } catch {
    return undefined;
  }
}

function documentedValues(parameter: JsonObject, content: JsonObject | undefined, schema: JsonObject): ExactJson[] {
  const values: unknown[] = [];
  for (const holder of [parameter, content, schema]) {
    if (!holder) continue;
    if ('example' in holder) values.push(holder.example);
    if (isObject(holder.examples)) {
      for (const example of Object.values(holder.examples)) if (isObject(example)) values.push(example.value);
    } else if (Array.isArray(holder.examples)) values.push(...(holder.examples as unknown[]));
  }
  if ('default' in schema) values.push(schema.default);
  if (Array.isArray(schema.enum)) values.push(...(schema.enum as unknown[]));
  if ('const' in schema) values.push(schema.const);
  return values.filter((value) => value !== undefined) as ExactJson[];
}

/** At most this many generated values are tried for one parameter before documented ones. */
const DRAWS = 40;

/**
 * Values of the document's required parameters for one request, the same for the same `salt`
 * (so a replayed or shrunk case sends them again): generated from each schema and kept only when
 * HTTP can carry them as written (a header value of visible ASCII, a cookie of cookie octets),
 * else the first documented value that can. `undefined` when the operation requires none.
 */
export function requiredParameterValues(contract: Contract, salt: string): ParameterValues | undefined {
  const { required } = parametersOf(contract);
  if (required.length === 0) return undefined;
  return assembled(required.map((parameter) => [parameter, parameterValue(parameter, salt)]));
}

/**
 * How one request breaks the document's parameters: a required one left out (`written` undefined), or
 * one (required or optional) written as `written` (its form on the wire: see {@link writeParameter}).
 */
export interface ParameterFault {
  readonly parameter: OperationParameter;
  readonly written: WrittenParameter | undefined;
}

/**
 * The parameters of one request with `fault` applied and every other required parameter valid (the
 * values {@link requiredParameterValues} gives for `salt`), in declaration order.
 */
export function parameterValuesWith(contract: Contract, salt: string, fault: ParameterFault): ParameterValues {
  const { all } = parametersOf(contract);
  const values: [OperationParameter, string][] = [];
  for (const parameter of all) {
    if (parameter === fault.parameter) {
      if (fault.written !== undefined) values.push([parameter, fault.written.wire]);
    } else if (parameter.required) values.push([parameter, parameterValue(parameter, salt)]);
  }
  return assembled(values);
}

function assembled(values: readonly [OperationParameter, string][]): ParameterValues {
  const headers: Record<string, string> = {};
  const query: string[] = [];
  const cookies: string[] = [];
  for (const [parameter, value] of values) {
    if (parameter.in === 'header') headers[parameter.name.toLowerCase()] = value;
    else if (parameter.in === 'query') query.push(value);
    else cookies.push(value);
  }
  if (cookies.length > 0) headers.cookie = cookies.join('; ');
  return { headers, query: query.join('&') };
}

/** A parameter's value as it travels and as a server reads it back. */
export interface WrittenParameter {
  /** The header value, or `name=value` (URL-encoded for a query) for a query or cookie. */
  readonly wire: string;
  /** The text a server reads: the header or cookie value, the query value decoded (a list joined by `,`). */
  readonly text: string;
}

/**
 * A value in the parameter's style (OpenAPI 3: `simple` for headers, `form` for query and cookie), or
 * `undefined` when HTTP cannot carry it as it is (a header with a control character or beyond ASCII,
 * a cookie with a space or a `;`, a query with a lone surrogate).
 */
export function writeParameter(parameter: OperationParameter, value: ExactJson): WrittenParameter | undefined {
  const parts = parameter.json ? [[undefined, stringifyExactJson(value)] as const] : styledParts(parameter, value);
  if (parts === undefined) return undefined;
  const text = parts.map(([, part]) => part).join(',');
  try {
    const wire = serialise(parameter, parts, text);
    return wire === undefined ? undefined : { wire, text };
  } catch {
    return undefined; // encodeURIComponent refuses a lone surrogate
  }
}

/**
 * Why the servers' parameter step refuses `text` as the parameter's value (the reasons {@link parameterCheck}
 * gives), or `undefined` when it is valid under one of its readings.
 */
export function parameterRefusal(parameter: OperationParameter, text: string): string | undefined {
  return valueProblem(parameter, text);
}

/** Words common parsers read as a boolean (pydantic, Spring, Go's strconv.ParseBool). */
const BOOLEAN_LIKE = /^(?:true|false|[01tfyn]|yes|no|on|off)$/i;
/** A number as lenient parsers read one (Go's strconv, Java's parseInt, pydantic): a sign, leading zeros, spaces. */
const LENIENT_NUMBER = /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

/**
 * Whether a value the document refuses is one common servers read as a valid one, so that accepting it is
 * lenient, not wrong: an empty value of an optional parameter (many frameworks take it as absent), a value
 * valid once trimmed (Spring trims what it converts), a boolean-like word where a boolean is valid, a number
 * written with a sign, leading zeros or spaces where that number is valid (`+5`, `05`), a member of an enum
 * in another letter case (.NET binds enums ignoring case), and a cookie value in double quotes or with `%XX`
 * escapes that is valid once unquoted or decoded (RFC 6265 quotes; Express's cookie-parser URL-decodes).
 * The runner sends no such value as invalid, and the proxy blames only the client for one.
 */
export function readsAsValidLeniently(parameter: OperationParameter, text: string): boolean {
  const check = parameter.compiled?.check;
  if (check === undefined) return false;
  if (text === '' && !parameter.required) return true;
  const valid = (reading: string): boolean => parameterRefusal(parameter, reading) === undefined;
  const trimmed = text.trim();
  if (trimmed !== text && valid(trimmed)) return true;
  const accepts = (value: unknown): boolean => check(value).length === 0;
  if (BOOLEAN_LIKE.test(trimmed) && (accepts(true) || accepts(false))) return true;
  if (LENIENT_NUMBER.test(text) && Number.isFinite(Number(text)) && accepts(Number(text))) return true;
  const enumBreak = check(trimmed).some((violation) => violation.keyword === 'enum' || violation.keyword === 'const');
  if (enumBreak && sameButForCase(parameter, trimmed)) return true;
  if (parameter.in !== 'cookie') return false;
  const unquoted = /^"(.*)"$/s.exec(text)?.[1] ?? text;
  let decoded = unquoted;
  try {
    decoded = decodeURIComponent(unquoted);
  } catch {
    // Not an escape sequence a decoder reads: the text as it is.
  }
  return decoded !== text && valid(decoded);
}

/** Whether the text is a valid value in another letter case (`DE` for enum `de`). */
function sameButForCase(parameter: OperationParameter, text: string): boolean {
  const folded = text.toLowerCase();
  if (folded === text && text.toUpperCase() === text) return false;
  if (
    parameterRefusal(parameter, folded) === undefined ||
    parameterRefusal(parameter, text.toUpperCase()) === undefined
  )
    return true;
  return parameter.documented.some((value) => typeof value === 'string' && value.toLowerCase() === folded);
}

/** One parameter written as it travels: the header value, or `name=value` for a query or cookie. */
function parameterValue(parameter: OperationParameter, salt: string): string {
  const seed = hash('sha256', `${salt}\u0000${parameter.in}\u0000${parameter.name}`, 'buffer').readInt32LE(0);
  const { compiled } = parameter;
  if (compiled !== undefined) {
    // One draw at a time: nearly always the first one can be written, and a draw costs far more than a test.
    for (let attempt = 0; attempt < DRAWS; attempt++) {
      const [value] = fc.sample(compiled.valid, { seed: seed + attempt, numRuns: 1 });
      const written = value === undefined ? undefined : writeParameter(parameter, value);
      if (written !== undefined) return written.wire;
    }
  }
  for (const value of parameter.documented) {
    if (compiled !== undefined && compiled.check(parseExactJson(stringifyExactJson(value))).length > 0) continue;
    const written = writeParameter(parameter, value);
    if (written !== undefined) return written.wire;
  }
  throw new Error(
    `plantstore cannot write a value of the required ${parameter.in} parameter "${parameter.name}" (${parameter.pointer}) that HTTP carries as it is: give it an example of visible ASCII.`,
  );
}

const HEADER_VALUE = /^(?:[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?)?$/;
const COOKIE_VALUE = /^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*$/;
const PERCENT_ESCAPE = /%[0-9A-Fa-f]{2}/;

/** The parts of a value on the wire (see {@link writeParameter}), `undefined` when HTTP cannot carry them. */
function serialise(
  parameter: OperationParameter,
  parts: readonly (readonly [string | undefined, string])[],
  text: string,
): string | undefined {
  if (parameter.in === 'header') return HEADER_VALUE.test(text) ? text : undefined;
  // Cookie libraries URL-decode values (Express's cookie-parser, Go's net/http does not): `%61` would be read as `a`.
  if (parameter.in === 'cookie')
    return COOKIE_VALUE.test(text) && !PERCENT_ESCAPE.test(text) ? `${parameter.name}=${text}` : undefined;
  const name = encodeURIComponent(parameter.name);
  if (parameter.explode && parts.length > 1) {
    return parts
      .map(([key, part]) => `${encodeURIComponent(key ?? parameter.name)}=${encodeURIComponent(part)}`)
      .join('&');
  }
  return `${name}=${parts.map(([, part]) => encodeURIComponent(part)).join(',')}`;
}

/** The pieces of a value as OpenAPI's styles write them: `[key, text]`, key set for an exploded object's members. */
function styledParts(parameter: OperationParameter, value: ExactJson): [string | undefined, string][] | undefined {
  if (value === null) return [[undefined, '']];
  if (typeof value !== 'object') return [[undefined, scalarText(value)]];
  if (Array.isArray(value)) {
    if (value.some((item) => item !== null && typeof item === 'object' && !isLosslessNumber(item))) return undefined;
    return value.map((item) => [undefined, scalarText(item)]);
  }
  if (isLosslessNumber(value)) return [[undefined, value.toString()]];
  const members = Object.entries(value as Record<string, ExactJson>);
  if (members.some(([, item]) => item !== null && typeof item === 'object' && !isLosslessNumber(item)))
    return undefined;
  if (parameter.explode) {
    return parameter.in === 'header'
      ? members.map(([key, item]) => [undefined, `${key}=${scalarText(item)}`])
      : members.map(([key, item]) => [key, scalarText(item)]);
  }
  return members.flatMap(([key, item]): [undefined, string][] => [
    [undefined, key],
    [undefined, scalarText(item)],
  ]);
}

function scalarText(value: ExactJson): string {
  if (typeof value === 'string') return value;
  if (value === null) return '';
  return stringifyExactJson(value);
}

/** The parts of a request the parameter check reads: headers as Node gives them (lower-case names) and the target. */
export interface ParameterSource {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly url?: string | undefined;
}

/**
 * The servers' parameter step: `undefined` when POST /plants declares no parameter, else a check
 * giving a 400 problem for a required parameter that is missing, and for any declared parameter
 * whose value its schema refuses (read as text, else as a JSON number, boolean or null).
 */
export function parameterCheck(contract: Contract): ((request: ParameterSource) => Problem | undefined) | undefined {
  // A schema the compiler cannot honour judges no value, but a required parameter must still be there.
  const parameters = operationParameters(contract).filter(
    (parameter) => parameter.compiled !== undefined || parameter.required,
  );
  if (parameters.length === 0) return undefined;
  return (request) => {
    const query = parameters.some((parameter) => parameter.in === 'query') ? queryOf(request.url) : undefined;
    const cookies = parameters.some((parameter) => parameter.in === 'cookie')
      ? cookiesOf(request.headers.cookie)
      : undefined;
    for (const parameter of parameters) {
      const text =
        parameter.in === 'header'
          ? headerText(request.headers[parameter.name.toLowerCase()])
          : parameter.in === 'query'
            ? queryText(query, parameter.name)
            : cookies?.get(parameter.name);
      if (text === undefined) {
        if (!parameter.required) continue;
        return problem('invalidParameter', `The required ${parameter.in} parameter "${parameter.name}" is missing.`);
      }
      if (text === '' && parameter.allowEmptyValue) continue;
      const refused = valueProblem(parameter, text);
      if (refused !== undefined) {
        return problem('invalidParameter', `The ${parameter.in} parameter "${parameter.name}" ${refused}.`);
      }
    }
    return undefined;
  };
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The query of a request target (`/plants?a=1` reads `a=1`). */
export function queryOf(url: string | undefined): URLSearchParams {
  const at = url?.indexOf('?') ?? -1;
  return new URLSearchParams(at < 0 || url === undefined ? '' : url.slice(at + 1));
}

/** A query parameter's values joined by `,` (`a=1&a=2` reads `1,2`); `''` when named without a value. */
export function queryText(query: URLSearchParams | undefined, name: string): string | undefined {
  if (query === undefined || !query.has(name)) return undefined;
  return query.getAll(name).join(',');
}

/** The cookies of a Cookie header (Node joins repeated ones with `; `), the last of a name winning. */
export function cookiesOf(header: string | string[] | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const pair of (headerText(header) ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at > 0) cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
  }
  return cookies;
}

/** Why the schema refuses a parameter's text, or `undefined`: as a string first, then as JSON (`5`, `true`), then as a list. */
function valueProblem(parameter: OperationParameter, text: string): string | undefined {
  const check = parameter.compiled?.check;
  if (check === undefined) return undefined;
  const readings: unknown[] = [text];
  try {
    readings.push(parseExactJson(text));
  } catch {
    // Not JSON: the text itself is the only reading.
  }
  if (!parameter.json) readings.push(text === '' ? [] : text.split(','));
  let first: string | undefined;
  let typed: string | undefined;
  for (const reading of readings) {
    const [violation] = check(reading);
    if (violation === undefined) return undefined;
    first ??= violation.message;
    // `0` for `minimum: 1` says `must be >= 1` as the number it reads as, not `must be an integer` as text.
    if (violation.kind !== 'type') typed ??= violation.message;
  }
  return `is not valid: ${typed ?? first ?? 'its schema refuses it'}`;
}
