import { isLosslessNumber } from 'lossless-json';

/** Which keywords of JSON Schema 2020-12 hold subschemas, and which the compiler cannot honour. */

/** Keywords whose value is one schema. */
export const SCHEMA_SINGLE = [
  'additionalProperties',
  'propertyNames',
  'items',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'additionalItems',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
] as const;

/** Keywords whose value is a list of schemas. */
export const SCHEMA_LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;

/** Keywords whose value maps names to schemas. */
export const SCHEMA_MAP = ['properties', 'patternProperties', 'dependentSchemas'] as const;

/** The keywords that bound a number. */
export const NUMBER_KEYWORDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'] as const;

/** Assertion keywords kept as they are (besides the subschema keywords). */
export const ASSERTIONS = new Set([
  'type',
  'enum',
  'const',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxContains',
  'minContains',
  'maxProperties',
  'minProperties',
  'required',
  'dependentRequired',
  'format',
]);

/** Constructs the compiler refuses, with the reason given to the user. */
export const REFUSED: Readonly<Record<string, string>> = {
  $dynamicRef: 'dynamic references are not supported; use $ref',
  $dynamicAnchor: 'dynamic anchors are not supported; use $ref',
  $recursiveRef: 'recursive references of draft 2019-09 are not supported; use $ref',
  $recursiveAnchor: 'recursive anchors of draft 2019-09 are not supported; use $ref',
  $ref: 'the reference was not resolved when the document was loaded',
  unevaluatedItems: 'unevaluatedItems is not supported; use items',
  contentSchema: 'contentSchema is not supported',
  dependencies: 'dependencies is not supported; use dependentRequired',
};

/** The JSON types of JSON Schema. */
export type JsonType = 'null' | 'boolean' | 'integer' | 'number' | 'string' | 'array' | 'object';

export const JSON_TYPES: readonly JsonType[] = ['null', 'boolean', 'integer', 'number', 'string', 'array', 'object'];

/** Appends a reference token to a JSON pointer, escaping `~` and `/`. */
export function childPointer(pointer: string, token: string | number): string {
  return `${pointer}/${String(token).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}

/** What the value of each assertion keyword must be (JSON Schema 2020-12, section 6), in words and as a test. */
const VALUE_KINDS = {
  number: { words: 'a number', test: isNumber },
  // JSON Schema: "strictly greater than 0". ajv's 2020-12 meta-schema (3.1) lets 0 through, and every value
  // then fails the validator's division while generation goes on, so valid NewPlants were refused.
  positive: { words: 'a number greater than 0', test: (value: unknown) => isNumber(value) && isPositive(value) },
  count: { words: 'a non-negative integer', test: (value: unknown) => isNumber(value) && isCount(value) },
  boolean: { words: 'true or false', test: (value: unknown) => typeof value === 'boolean' },
  text: { words: 'a string', test: (value: unknown) => typeof value === 'string' },
  names: {
    words: 'an array of distinct strings',
    test: (value: unknown) =>
      Array.isArray(value) && value.every((item) => typeof item === 'string') && new Set(value).size === value.length,
  },
} as const;

const KEYWORD_VALUES: Readonly<Record<string, keyof typeof VALUE_KINDS>> = {
  multipleOf: 'positive',
  maximum: 'number',
  minimum: 'number',
  maxLength: 'count',
  minLength: 'count',
  maxItems: 'count',
  minItems: 'count',
  maxContains: 'count',
  minContains: 'count',
  maxProperties: 'count',
  minProperties: 'count',
  uniqueItems: 'boolean',
  pattern: 'text',
  format: 'text',
  required: 'names',
};

/**
 * Why a keyword's value is not what JSON Schema asks (`maximum` written as the string "10"), with how to write it,
 * or `undefined` when it is fine or not one this table knows. Exclusive bounds are numbers (booleans in 3.0).
 */
export function keywordValueProblem(keyword: string, value: unknown): string | undefined {
  const exclusive = keyword === 'exclusiveMaximum' || keyword === 'exclusiveMinimum';
  if (exclusive) {
    return isNumber(value) || typeof value === 'boolean'
      ? undefined
      : `${keyword} must be a number (or, in OpenAPI 3.0, true or false), not ${shownValue(value)}${unquoted(keyword, value)}`;
  }
  const kind = Object.hasOwn(KEYWORD_VALUES, keyword) ? KEYWORD_VALUES[keyword] : undefined;
  if (kind === undefined || VALUE_KINDS[kind].test(value)) return undefined;
  return `${keyword} must be ${VALUE_KINDS[kind].words}, not ${shownValue(value)}${unquoted(keyword, value)}`;
}

function isNumber(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value === 'bigint') return true;
  // An integer beyond 2^53 read exactly: its digits as text.
  return isLosslessNumber(value);
}

function isPositive(value: unknown): boolean {
  if (typeof value === 'number') return value > 0;
  if (typeof value === 'bigint') return value > 0n;
  return isLosslessNumber(value) && !value.value.startsWith('-') && /[1-9]/.test(value.value.split(/e/i)[0] ?? '');
}

function isCount(value: unknown): boolean {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0;
  if (typeof value === 'bigint') return value >= 0n;
  return isLosslessNumber(value) && /^\d+$/.test(value.value);
}

function shownValue(value: unknown): string {
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) {
    const twice = value.find((item, index) => value.indexOf(item) !== index);
    if (twice !== undefined) return `a list naming ${JSON.stringify(twice)} twice`;
  }
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (isLosslessNumber(value)) return value.value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  return typeof value === 'object' ? 'an object' : typeof value;
}

/** The fix for a number written in quotes: `; write maximum: 10 (without quotes)`. */
function unquoted(keyword: string, value: unknown): string {
  return typeof value === 'string' && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(value.trim())
    ? `; write ${keyword}: ${value.trim()} (without quotes)`
    : '';
}
