import type { DocumentProblem } from './contract-error.js';
import { documentPointer, pointerSegments, type DocumentFiles } from './document-pointer.js';

/** One violation of the OpenAPI schema, as ajv (through swagger-parser) reports it. */
export interface SchemaErrorDetail {
  readonly instancePath?: string;
  readonly message?: string;
}

/**
 * What ajv adds above the real violation of a Schema Object: the `oneOf: [Schema, Reference]` of the
 * OpenAPI schema reports the Reference branch's missing `$ref` and the oneOf itself, at every level up.
 */
const CASCADE = /^must (?:have required property '\$ref'|match exactly one schema in oneOf|match a schema in anyOf)$/;

/**
 * The OpenAPI schema's violations as problems a person can act on: each at the place the document
 * writes it (a schema used at five places is one problem, at its definition), the oneOf cascade above
 * a deeper violation left out, the messages of one place joined, and a hint for a type list in 3.0.
 */
export function condenseSchemaErrors(
  details: readonly SchemaErrorDetail[],
  raw: unknown,
  files: DocumentFiles | undefined,
): DocumentProblem[] {
  const given = details.map((detail) => detail.instancePath ?? '');
  const places = new Map<string, string[]>();
  for (const [index, detail] of details.entries()) {
    const at = given[index] ?? '';
    const message = at === '' ? `the document ${detail.message ?? 'is invalid'}` : (detail.message ?? 'invalid');
    // Judged where ajv reports it: a Schema behind a $ref is deeper than the $ref's own place.
    if (CASCADE.test(message) && given.some((other) => other.startsWith(`${at}/`))) continue;
    const pointer = at === '' ? '' : written(raw, at, files);
    const messages = places.get(pointer) ?? [];
    if (!messages.includes(message)) messages.push(message);
    places.set(pointer, messages);
  }
  return [...places].map(([pointer, messages]) => ({
    pointer,
    message: `${messages.join('; ')}${typeListHint(raw, pointer)}${exampleHint(raw, pointer, messages)}`,
  }));
}

function written(raw: unknown, pointer: string, files: DocumentFiles | undefined): string {
  try {
    return documentPointer(raw, '', pointer, files);
  } catch {
    return pointer;
  }
}

/** `type: [string, "null"]` is OpenAPI 3.1's (JSON Schema 2020-12); a 3.0 document says null with `nullable`. */
function typeListHint(raw: unknown, pointer: string): string {
  if (!pointer.endsWith('/type') || pointer.includes('#')) return '';
  const version = isRecord(raw) ? raw.openapi : undefined;
  if (typeof version !== 'string' || !version.startsWith('3.0')) return '';
  const value = pointerSegments(pointer).reduce<unknown>((node, key) => (isRecord(node) ? node[key] : undefined), raw);
  if (!Array.isArray(value)) return '';
  return ` (a list of types is OpenAPI 3.1: in ${version} write one type, with \`nullable: true\` for null, or declare \`openapi: 3.1.0\`)`;
}

/**
 * The OpenAPI schema says "example and examples are mutually exclusive" as `not: {required: [example,
 * examples]}` (media types, parameters, headers), which ajv reports as "must NOT be valid" alone.
 */
function exampleHint(raw: unknown, pointer: string, messages: readonly string[]): string {
  if (!messages.includes('must NOT be valid') || pointer.includes('#')) return '';
  const node = pointerSegments(pointer).reduce<unknown>((at, key) => (isRecord(at) ? at[key] : undefined), raw);
  if (!isRecord(node) || !Object.hasOwn(node, 'example') || !Object.hasOwn(node, 'examples')) return '';
  return ' (OpenAPI allows example or examples here, not both: keep one, e.g. move the example into examples)';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
