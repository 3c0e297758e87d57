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
  unevaluatedProperties: 'unevaluatedProperties is not supported; use additionalProperties',
  unevaluatedItems: 'unevaluatedItems is not supported; use items',
  contentSchema: 'contentSchema is not supported',
  if: 'if/then/else is not supported; use oneOf or anyOf',
  then: 'if/then/else is not supported; use oneOf or anyOf',
  else: 'if/then/else is not supported; use oneOf or anyOf',
  dependentSchemas: 'dependentSchemas is not supported; use dependentRequired',
  dependencies: 'dependencies is not supported; use dependentRequired',
};

/** The JSON types of JSON Schema. */
export type JsonType = 'null' | 'boolean' | 'integer' | 'number' | 'string' | 'array' | 'object';

export const JSON_TYPES: readonly JsonType[] = ['null', 'boolean', 'integer', 'number', 'string', 'array', 'object'];

/** Appends a reference token to a JSON pointer, escaping `~` and `/`. */
export function childPointer(pointer: string, token: string | number): string {
  return `${pointer}/${String(token).replace(/~/g, '~0').replace(/\//g, '~1')}`;
}
