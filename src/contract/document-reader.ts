import type ParserTypes from '@apidevtools/swagger-parser';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, relative, resolve } from 'node:path';
import type * as Yaml from 'yaml';
import { ContractError, type DocumentProblem } from './contract-error.js';
import { discriminatedBasesAsOneOf, markDiscriminatorValues } from './discriminator-values.js';
import type { DocumentFiles } from './document-pointer.js';
import { asOpenApi31, isOpenApi32, openApi32Problems } from './openapi-3-2.js';
import { parserVersion } from './openapi-version.js';
import { isObject } from './operations.js';
import { locatedParserProblems } from './ref-problems.js';
import { anchorRefsAsPointers } from './schema-anchors.js';
import { condenseSchemaErrors, type SchemaErrorDetail } from './schema-error-problems.js';
import type { SchemaDialect } from './schema/compiled-schema.js';

type JsonObject = Record<string, unknown>;

const require = createRequire(import.meta.url);
let yaml: typeof Yaml | undefined;

/**
 * yaml's `parse`, loaded on first use: the bundled document comes prebuilt (prebuilt-document.ts), so a
 * default run never parses YAML, and yaml's modules cost more than the rest of the contract's loading.
 */
function parseYaml(text: string, options?: Yaml.ParseOptions & Yaml.DocumentOptions & Yaml.SchemaOptions): unknown {
  yaml ??= require('yaml') as typeof Yaml;
  // Merge keys (`<<: *anchor`) are YAML 1.1's, which js-yaml (swagger-parser's, Redocly's and Swagger
  // Editor's reader) merges; without this yaml keeps `<<` as a property and the schema is refused.
  return yaml.parse(text, { merge: true, ...options });
}

/**
 * Reads a JSON or YAML file (or http(s) URL) as written (no `$ref` resolved). A file that cannot be opened throws a
 * {@link ContractError}; one that is not JSON or YAML, or holds no object, is a problem of the document.
 */
export async function readDocument(source: string): Promise<ReadDocument | { problem: DocumentProblem }> {
  const text = await readText(source);
  let parsed: unknown;
  try {
    parsed = parseText(text);
  } catch (error) {
    const twice =
      error instanceof CommentInJson ? error.message : (duplicateKey(error, text) ?? doubleQuotedEscape(error));
    const message = twice ? `${source} ${twice}` : `${source} is neither JSON nor YAML: ${firstLine(error)}`;
    return { problem: { pointer: '', message } };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    const held = Array.isArray(parsed) ? 'a list' : parsed === null || parsed === undefined ? 'nothing' : typeof parsed;
    return {
      problem: { pointer: '', message: `${source} is not an OpenAPI document: it holds ${held}, not an object.` },
    };
  }
  return { document: parsed as JsonObject, exact: /\d{16}/.test(text) ? exactParse(text) : undefined };
}

/** A parsed document, and when it holds long numbers, the same text parsed with integers as `bigint`. */
export interface ReadDocument {
  readonly document: JsonObject;
  readonly exact: unknown;
}

function exactParse(text: string): unknown {
  try {
    return parseYaml(text, { intAsBigInt: true });
  } catch {
    return undefined;
  }
}

/** Integers written beyond 2^53, by the object of the dereferenced document holding them and their key. */
export type ExactIntegers = ReadonlyMap<object, ReadonlyMap<string, bigint>>;

/** Finds, in `lossy`, the places where `exact` holds an integer a double cannot: the numbers JSON.parse rounded. */
function findExactIntegers(exact: unknown, lossy: unknown, found = new Map<object, Map<string, bigint>>()) {
  if (exact === null || typeof exact !== 'object' || lossy === null || typeof lossy !== 'object') return found;
  for (const [key, value] of Object.entries(exact)) {
    const twin: unknown = (lossy as Record<string, unknown>)[key];
    if (typeof value === 'bigint' && !Number.isSafeInteger(Number(value)) && typeof twin === 'number') {
      const entries = found.get(lossy) ?? new Map<string, bigint>();
      entries.set(key, value);
      found.set(lossy, entries);
    } else {
      findExactIntegers(value, twin, found);
    }
  }
  return found;
}

/** The text of a file, or of an http(s) URL (as swagger-parser read them before). */
async function readText(source: string): Promise<string> {
  try {
    if (!/^https?:\/\//i.test(source)) return await readFile(source, 'utf8');
    const response = await fetch(source, { signal: AbortSignal.timeout(30_000) });
    if (!response.ok) throw new Error(`the server answered ${response.status} ${response.statusText}`.trim());
    return await response.text();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'it is a directory'
          : (unfetched(error) ?? (firstLine(error) || 'unknown reason'));
    throw new ContractError(`cannot read ${source}: ${reason}`);
  }
}

/** Why fetch got no answer for a document's URL, in words (its own message is only "fetch failed"). */
function unfetched(error: unknown): string | undefined {
  if (error instanceof Error && error.name === 'TimeoutError') return 'no answer within 30 s';
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  const code = typeof cause?.code === 'string' ? cause.code : '';
  if (code === 'ECONNREFUSED') return 'nothing listens there (connection refused)';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'its host name does not resolve';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'the connection was closed before an answer';
  if (/CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/.test(code))
    return `its TLS certificate is not trusted (${code}): point NODE_EXTRA_CA_CERTS at the certificate of its CA`;
  // fetch refuses some ports outright ("bad port": 9, 25, 6000, ...), with no code.
  const said = code || (typeof cause?.message === 'string' ? cause.message : '');
  return said === '' ? undefined : `fetch failed (${said})`;
}

/**
 * The other files of a document, read on demand (only to name where a problem is) and kept; a URL
 * or a file that cannot be read or parsed gives `undefined`.
 */
export function documentFiles(source: string): DocumentFiles {
  const files = new Map<string, unknown>();
  const read = (file: string): unknown => {
    if (/^https?:\/\//i.test(file)) return undefined;
    try {
      return parseText(readFileSync(file, 'utf8'));
    } catch {
      return undefined;
    }
  };
  return {
    source,
    read: (file) => {
      if (!files.has(file)) files.set(file, read(file));
      return files.get(file);
    },
  };
}

function parseText(text: string): unknown {
  // JSON is YAML, but JSON.parse reads large JSON documents many times faster.
  if (!/^\s*\{/.test(text)) return parseYaml(text);
  try {
    return JSON.parse(text);
  } catch (jsonError) {
    // YAML would read `// generated` before a key as part of that key, and the document would lose it silently.
    const comment = /^[ \t]*(\/\/|\/\*)(.*)$/m.exec(text);
    if (comment) {
      const line = text.slice(0, comment.index).split('\n').length;
      const written = `${comment[1] ?? ''}${comment[2] ?? ''}`.trim().slice(0, 60);
      throw new CommentInJson(
        `is not valid JSON: line ${line} holds a comment (${written}), which JSON does not allow: remove the comments.`,
      );
    }
    try {
      return parseYaml(text);
    } catch {
      // Written as JSON: JSON's own complaint says more than YAML's about flow maps.
      throw jsonError;
    }
  }
}

/** A JSON document with line or block comments (JSONC, as editors keep settings), said as such. */
class CommentInJson extends Error {}

/**
 * yaml's refusal of a key written twice in one mapping, said with the key: YAML 1.2 forbids it, js-yaml (swagger-parser's
 * reader) refuses it too, and which of the two a reader keeps is its own choice.
 */
function duplicateKey(error: unknown, text: string): string | undefined {
  const { code, linePos } = error as { code?: unknown; linePos?: { line: number; col: number }[] };
  const at = linePos?.[0];
  if (code !== 'DUPLICATE_KEY' || at === undefined) return undefined;
  const line = text.split(/\r?\n/)[at.line - 1] ?? '';
  const key = /^\s*(?:-\s+)?(['"]?)(.*?)\1\s*:/.exec(line.slice(Math.max(0, at.col - 1)))?.[2] ?? line.trim();
  return (
    `is not valid YAML: the key "${key}" is written twice in one mapping (line ${at.line}, column ${at.col}); ` +
    'YAML allows each key once: keep one.'
  );
}

/**
 * yaml's refusal of a backslash escape YAML does not have inside double quotes, most often a regular expression
 * (`pattern: "^\d{3}$"`), said with the two ways to write it.
 */
function doubleQuotedEscape(error: unknown): string | undefined {
  const { code, linePos, message } = error as {
    code?: unknown;
    linePos?: { line: number; col: number }[];
    message?: unknown;
  };
  const at = linePos?.[0];
  if (code !== 'BAD_DQ_ESCAPE' || at === undefined || typeof message !== 'string') return undefined;
  const escape = /Invalid escape sequence (\S+)/.exec(message)?.[1] ?? 'a backslash';
  return (
    `is not valid YAML: ${escape} inside double quotes is no YAML escape (line ${at.line}, column ${at.col}); ` +
    `write the text in single quotes, which keep every backslash ('…${escape}…'), or double the backslash ("…\\${escape}…").`
  );
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]?.trim() ?? '';
}

/**
 * Resolves every `$ref` of a parsed document (recursive schemas become cyclic objects) and, with
 * `metaValidate`, validates it against the OpenAPI schema of its version. Validation problems are
 * listed and the document is still dereferenced when it can be, so later problems are found too.
 */
export async function dereferenceDocument(
  source: string,
  read: ReadDocument,
  dialect: SchemaDialect,
  metaValidate: boolean,
): Promise<{ document?: JsonObject; exactIntegers?: ExactIntegers; problems: DocumentProblem[] }> {
  const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
  const raw = read.document;
  let exactIntegers: ExactIntegers = new Map();
  const external = new Map<object, Map<string, bigint>>();
  // Only the parse functions are given: ref-parser merges the rest of its parser settings in.
  // A `$ref` beside keywords in another file of the document is read as in the document itself.
  const rewrite = (parsed: unknown, url: string): void =>
    refsBesideKeywordsAsAllOf(parsed, dialect, `${shownFile(source, url)}#`);
  const options = { parse: exactParsers(external, rewrite) } as unknown as ParserTypes.Options;
  const withExternal = (): ExactIntegers => new Map([...exactIntegers, ...external]);
  // swagger-parser mutates what it is given (so the objects found here are the dereferenced ones),
  // and knows only the patch releases of its time.
  const copy = (): JsonObject => {
    const copied = { ...structuredClone(raw), openapi: parserVersion(dialect) };
    if (isOpenApi32(raw)) asOpenApi31(copied);
    normaliseHttpSchemes(copied);
    markDiscriminatorValues(copied);
    const found =
      read.exact === undefined ? new Map<object, Map<string, bigint>>() : findExactIntegers(read.exact, copied);
    if (dialect === 'openapi-3.0') booleanExclusiveBounds(copied, found);
    else anchorRefsAsPointers(copied);
    refsBesideKeywordsAsAllOf(copied, dialect);
    discriminatedBasesAsOneOf(copied);
    if (read.exact !== undefined) exactIntegers = found;
    return copied;
  };
  const restore = (document: unknown): JsonObject => Object.assign(document as JsonObject, { openapi: raw.openapi });
  let problems: DocumentProblem[] = isOpenApi32(raw) ? openApi32Problems(raw) : [];
  if (metaValidate) {
    try {
      return {
        document: restore(await SwaggerParser.validate(source, asParserInput(copy()), options)),
        exactIntegers: withExternal(),
        problems,
      };
    } catch (error) {
      problems = [...problems, ...withoutNamedLicenseProblem(parserProblems(error, raw, source), raw)];
      if (!hasDetails(error)) return { problems };
    }
  }
  try {
    return {
      document: restore(await SwaggerParser.dereference(source, asParserInput(copy()), options)),
      exactIntegers: withExternal(),
      problems,
    };
  } catch (error) {
    return { problems: [...problems, ...parserProblems(error, raw, source)] };
  }
}

/**
 * The problems without the one swagger-parser's OpenAPI 3.1 schema (of 2021) reports for a license with a name
 * only: it asks for exactly one of `identifier` and `url`, where OpenAPI 3.1 requires neither (they are only
 * mutually exclusive; the schema of 2022-10-07 says so), so `license: {name: MIT}` was refused.
 */
function withoutNamedLicenseProblem(problems: DocumentProblem[], document: JsonObject): DocumentProblem[] {
  const info = document.info;
  const license = isObject(info) ? info.license : undefined;
  if (!isObject(license) || license.identifier !== undefined || license.url !== undefined) return problems;
  return problems.filter(
    (problem) =>
      !(problem.pointer === '/info/license' && problem.message.includes("must have required property 'identifier'")),
  );
}

/**
 * Writes `scheme: Bearer` (any case) of an http security scheme as `bearer`. Scheme names are
 * case-insensitive (RFC 9110, 11.1), but swagger-parser's OpenAPI 3.0 schema lists `bearer` alone, so a
 * 3.0 document writing `scheme: Bearer` beside a `bearerFormat` failed its meta-validation. An http scheme's
 * `name` and `in` (an API key's members, which Litestar's JWTAuth and hand-written swagger-jsdoc comments add:
 * `name: Authorization, in: header`) are left out: an http scheme's credential is always in `Authorization`, and
 * OpenAPI's schema refused the whole document for them ('must NOT have unevaluated properties').
 */
function normaliseHttpSchemes(document: JsonObject): void {
  const components = document.components;
  const schemes = isObject(components) ? components.securitySchemes : undefined;
  if (!isObject(schemes)) return;
  for (const scheme of Object.values(schemes)) {
    if (!isObject(scheme) || scheme.type !== 'http') continue;
    if (typeof scheme.scheme === 'string' && scheme.scheme.toLowerCase() === 'bearer') scheme.scheme = 'bearer';
    delete scheme.name;
    delete scheme.in;
  }
}

/** Members whose values are data, not schemas: a walk for schema keywords does not enter them. */
const DATA_MEMBERS = new Set(['example', 'examples', 'default', 'enum', 'const']);

/** The JSON Schema keywords that constrain a value (assertions and applicators); annotations are not among them. */
const CONSTRAINING = new Set([
  'type',
  'enum',
  'const',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'required',
  'properties',
  'additionalProperties',
  'patternProperties',
  'propertyNames',
  'minProperties',
  'maxProperties',
  'dependentRequired',
  'dependentSchemas',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'uniqueItems',
  'contains',
  'minContains',
  'maxContains',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'unevaluatedProperties',
  'unevaluatedItems',
]);

/**
 * In OpenAPI 3.1 (JSON Schema 2020-12) a `$ref` beside other keywords applies with them, as one more `allOf`
 * branch. swagger-parser instead copies the named schema and lets each sibling replace its member of the same
 * name (a sibling `required: [id]` dropped the named schema's `required: [name]`), so such a `$ref` is moved
 * into `allOf` first, in place. A `$ref` beside annotations only (`description`) is left as it is.
 *
 * OpenAPI 3.0 says such siblings "SHALL be ignored", yet their authors mean them (`maxLength: 40` beside a shared
 * `Name`), and the replacing copy matched neither reading: they are read as in 3.1, the node is marked with
 * {@link REF_SIBLINGS} (the keywords) for `validate`'s read-as line. A 3.0 `nullable: true` beside a `$ref` is
 * moved likewise: null is then open where the named schema refuses it (canonicalise.ts, `partRefusesNull`).
 */
function refsBesideKeywordsAsAllOf(node: unknown, dialect: SchemaDialect, pointer = ''): void {
  if (Array.isArray(node)) {
    node.forEach((item, index) => refsBesideKeywordsAsAllOf(item, dialect, `${pointer}/${index}`));
    return;
  }
  if (!isObject(node)) return;
  const siblings = refSiblings(node);
  // 3.0's `nullable: true` beside a `$ref` too: swagger-parser's copy would make it the named schema's own, and
  // the schema compiler would read a type with null added; as an `allOf` part it reads as beside an `allOf`.
  if (siblings.length > 0 || (dialect === 'openapi-3.0' && typeof node.$ref === 'string' && node.nullable === true)) {
    const branches = Array.isArray(node.allOf) ? (node.allOf as unknown[]) : [];
    node.allOf = [{ $ref: node.$ref }, ...branches];
    delete node.$ref;
    if (dialect === 'openapi-3.0' && siblings.length > 0)
      node[REF_SIBLINGS] = { keywords: siblings, pointer } satisfies RefSiblings;
  }
  for (const [key, value] of Object.entries(node)) {
    if (!DATA_MEMBERS.has(key)) refsBesideKeywordsAsAllOf(value, dialect, `${pointer}/${escapeKey(key)}`);
  }
}

/** The constraining keywords beside a schema's `$ref`, which the reader moves into `allOf` with it (none: left as is). */
export function refSiblings(node: Record<string, unknown>): string[] {
  if (typeof node.$ref !== 'string') return [];
  // `required: true` beside the `$ref` of a request body, parameter or header is that object's, not a schema's.
  return Object.keys(node).filter((key) => CONSTRAINING.has(key) && (key !== 'required' || Array.isArray(node[key])));
}

/** Another file of the document as the reader is shown it: relative to the document's folder (an URL as it is). */
function shownFile(source: string, url: string): string {
  if (/^https?:\/\//i.test(url) || /^https?:\/\//i.test(source)) return url;
  return relative(dirname(resolve(source)), resolve(url));
}

function escapeKey(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * Marks a 3.0 schema whose `$ref` had constraining keywords beside it, an annotation to the compilers: a
 * {@link RefSiblings}.
 */
export const REF_SIBLINGS = 'x-plantstore-ref-siblings';

/** The keywords written beside a 3.0 `$ref`, and the pointer of that schema in the document as written. */
export interface RefSiblings {
  readonly keywords: readonly string[];
  readonly pointer: string;
}

/**
 * Writes a numeric `exclusiveMinimum`/`exclusiveMaximum` of an OpenAPI 3.0 document (JSON Schema 2020-12's
 * form, which @fastify/swagger and other generators write into 3.0 output) as 3.0's boolean form with the
 * bound it means (`exclusiveMinimum: 0` is `minimum: 0, exclusiveMinimum: true`; beside a `minimum`, the
 * stronger of the two). swagger-parser's 3.0 schema refuses the numeric form, and the schema compiler
 * reads both forms alike, so the document means what its author wrote either way.
 */
function booleanExclusiveBounds(node: unknown, exact: Map<object, Map<string, bigint>>): void {
  if (Array.isArray(node)) {
    for (const item of node) booleanExclusiveBounds(item, exact);
    return;
  }
  if (!isObject(node)) return;
  const exactOf = exact.get(node);
  // The exact integer where JSON.parse rounded one (bounds beyond 2^53), else the number as read.
  const valueOf = (key: string): unknown => exactOf?.get(key) ?? node[key];
  for (const [exclusive, bound, sign] of [
    ['exclusiveMinimum', 'minimum', 1],
    ['exclusiveMaximum', 'maximum', -1],
  ] as const) {
    const limit = valueOf(exclusive);
    if (typeof limit !== 'number' && typeof limit !== 'bigint') continue;
    const other = valueOf(bound);
    const stronger = typeof other !== 'number' && typeof other !== 'bigint' ? true : sign * compare(limit, other) >= 0;
    if (stronger) {
      node[bound] = node[exclusive];
      node[exclusive] = true;
      const exactLimit = exactOf?.get(exclusive);
      exactOf?.delete(exclusive);
      if (exactLimit !== undefined) exact.set(node, (exactOf ?? new Map<string, bigint>()).set(bound, exactLimit));
      else exactOf?.delete(bound);
    } else {
      delete node[exclusive];
      exactOf?.delete(exclusive);
    }
  }
  for (const [key, value] of Object.entries(node)) {
    if (!DATA_MEMBERS.has(key) && !key.startsWith('x-')) booleanExclusiveBounds(value, exact);
  }
}

/** The order of two bounds, exactly for integers (one may be beyond 2^53), else as doubles. */
function compare(a: number | bigint, b: number | bigint): number {
  const whole = (x: number | bigint): boolean => typeof x === 'bigint' || Number.isInteger(x);
  if ((typeof a === 'bigint' || typeof b === 'bigint') && whole(a) && whole(b)) {
    const [x, y] = [BigInt(a), BigInt(b)];
    return x === y ? 0 : x > y ? 1 : -1;
  }
  return Math.sign(Number(a) - Number(b));
}

/**
 * swagger-parser's JSON and YAML parsers for the other files of a document (`$ref: ./schemas.yaml`):
 * they read as its own do, and note each integer beyond 2^53 the way the main file's are noted, since
 * those files never pass through {@link readDocument}.
 */
function exactParsers(found: Map<object, Map<string, bigint>>, rewrite: (parsed: unknown, url: string) => void) {
  const parse = (file: { data: unknown; url?: unknown }): unknown => {
    const text = Buffer.isBuffer(file.data) ? file.data.toString('utf8') : file.data;
    if (typeof text !== 'string') return text;
    const lossy = parseText(text);
    if (/\d{16}/.test(text)) findExactIntegers(exactParse(text), lossy, found);
    rewrite(lossy, typeof file.url === 'string' ? file.url : '');
    return lossy;
  };
  return { json: { parse }, yaml: { parse } };
}

/**
 * The read document, given to swagger-parser as its input type: checking that it is a well-formed
 * OpenAPI document is swagger-parser's job (its `OpenAPI.Document` type lives in a package we do not
 * declare, so the value is passed as `never`, which every parameter type accepts).
 */
function asParserInput(document: JsonObject): never {
  return document as never;
}

function hasDetails(error: unknown): boolean {
  const details = (error as { details?: unknown }).details;
  return Array.isArray(details) && details.length > 0;
}

/** swagger-parser's error as problems: the schema violations condensed (see `condenseSchemaErrors`), or its message. */
function parserProblems(error: unknown, document: JsonObject, source: string): DocumentProblem[] {
  if (!hasDetails(error)) {
    const text = (error instanceof Error ? error.message : String(error)).trim().replace(/\s*\n\s*/g, ' ');
    return locatedParserProblems(text, document, error, documentFiles(source)) ?? [{ pointer: '', message: text }];
  }
  const details = (error as { details: SchemaErrorDetail[] }).details;
  return condenseSchemaErrors(details, document, documentFiles(source));
}
