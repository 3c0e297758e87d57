import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';
import { EXACT_FORMATS, exactNumberKeyword, EXACT_NUMBER_KEYWORD, withExactNumbers } from './schema/exact-numbers.js';

/** A JSON Schema object as found in the dereferenced OpenAPI document. */
export type JsonSchema = Record<string, unknown>;

/** What kind of rule a value broke; each kind has its own error code. */
export type ViolationKind = 'not-object' | 'required' | 'type' | 'integer' | 'constraint';

/** One way a value fails its schema, in words a person can act on. */
export interface Violation {
  readonly kind: ViolationKind;
  /** Dotted path of the field, `""` for the whole body. */
  readonly field: string;
  readonly message: string;
  /**
   * The schema keyword broken: `required`, `type`, `maxLength`, `format` (an int32/int64 out of
   * range), `minimum` (judged exactly on the number's text), ...
   */
  readonly keyword: string;
  /** JSON pointer of the value at fault: the missing or extra property itself for `required` and the like. */
  readonly pointer: string;
}

/** Checks a parsed JSON value (from `parseExactJson`) against one schema of the contract. */
export type SchemaCheck = (value: unknown) => Violation[];

/**
 * One ajv instance for the whole process, and one that takes schemas as valid, each made when first
 * needed: schemas compile once, then validate many times.
 */
const compilers: { validating?: Ajv2020; trusting?: Ajv2020 } = {};
let trusted = false;

/**
 * Runs `compile` with every schema it compiles taken as valid JSON Schema: not validated against the
 * dialect's meta-schema, whose compilation is most of a process's first schema compile (about 100 ms).
 * For the bundled openapi.yaml only, whose schemas `npm test` validates (`schemas.test.ts`).
 */
export function withTrustedSchemas<T>(compile: () => T): T {
  const was = trusted;
  trusted = true;
  try {
    return compile();
  } finally {
    trusted = was;
  }
}

function createAjv(validateSchema: boolean): Ajv2020 {
  // OpenAPI documents carry keywords JSON Schema does not know (example, xml, discriminator).
  // logger: false: an unknown format is an annotation (2020-12), not worth a console warning.
  const instance = new Ajv2020({ strict: false, allErrors: true, verbose: true, logger: false, validateSchema });
  const addFormats = formatsPlugin as unknown as (target: Ajv2020) => Ajv2020;
  addFormats(instance);
  // ajv-formats judges int64 on a double and accepts 2^63; the exact keyword below does the work.
  for (const name of Object.keys(EXACT_FORMATS)) instance.addFormat(name, { type: 'number', validate: () => true });
  instance.addKeyword(exactNumberKeyword());
  return instance;
}

/**
 * Compiles a schema of the contract into a check that reports violations in plain words. Integers
 * of int32/int64 formats and every numeric bound are judged exactly on the number's JSON text.
 */
export function compileSchemaCheck(schema: JsonSchema, subject: string): SchemaCheck {
  const compiler = trusted ? (compilers.trusting ??= createAjv(false)) : (compilers.validating ??= createAjv(true));
  const validate: ValidateFunction = compiler.compile(withExactNumbers(schema) as JsonSchema);
  return (value) => (validate(value) ? [] : describeErrors(validate.errors ?? [], subject));
}

function describeErrors(errors: ErrorObject[], subject: string): Violation[] {
  // An exact-integer error makes any other complaint about the same number redundant.
  const exactPaths = new Set(errors.filter(isIntegerError).map((e) => e.instancePath));
  const seen = new Set<string>();
  const violations: Violation[] = [];
  for (const error of errors) {
    if (exactPaths.has(error.instancePath) && !isIntegerError(error)) continue;
    // A branch's complaint is explained by its combinator's (anyOf, oneOf, contains, propertyNames).
    if (errors.some((outer) => outer !== error && error.schemaPath.startsWith(`${outer.schemaPath}/`))) continue;
    const violation = describeError(error, subject);
    const key = `${violation.field}\u0000${violation.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    violations.push(violation);
  }
  return violations;
}

function describeError(error: ErrorObject, subject: string): Violation {
  const field = pointerToField(error.instancePath);
  const { keyword, pointer } = brokenKeyword(error);
  if (error.keyword === 'required') {
    const missing = String((error.params as { missingProperty?: unknown }).missingProperty);
    const full = field ? `${field}.${missing}` : missing;
    return { kind: 'required', field: full, message: `field "${full}" is required but missing`, keyword, pointer };
  }
  if (error.keyword === 'type') {
    const expected = String((error.params as { type?: unknown }).type);
    const got = describeValue(error.data);
    if (field === '' && expected === 'object') {
      return {
        kind: 'not-object',
        field,
        message: `the body must be a JSON object (${subject}), got ${got}`,
        keyword,
        pointer,
      };
    }
    return {
      kind: 'type',
      field,
      message: `field "${field}" must be ${article(expected)}, got ${got}`,
      keyword,
      pointer,
    };
  }
  if (isIntegerError(error)) {
    return {
      kind: 'integer',
      field,
      message: `field "${field}" ${error.message ?? 'is not a valid integer'}`,
      keyword,
      pointer,
    };
  }
  const where = field ? `field "${field}"` : 'the body';
  return { kind: 'constraint', field, message: `${where} ${error.message ?? 'is invalid'}`, keyword, pointer };
}

/** An int32/int64 number judged on its text and found not to be one. */
function isIntegerError(error: ErrorObject): boolean {
  return error.keyword === EXACT_NUMBER_KEYWORD && (error.params as { integer?: unknown }).integer === true;
}

/** The schema keyword an ajv error stands for, and the pointer of the value at fault. */
function brokenKeyword(error: ErrorObject): { keyword: string; pointer: string } {
  const params = error.params as Record<string, unknown>;
  const below = (name: unknown): string =>
    `${error.instancePath}/${String(name).replace(/~/g, '~0').replace(/\//g, '~1')}`;
  switch (error.keyword) {
    case EXACT_NUMBER_KEYWORD:
      return { keyword: String(params.keyword), pointer: error.instancePath };
    case 'required':
    case 'dependentRequired':
      return { keyword: error.keyword, pointer: below(params.missingProperty) };
    case 'additionalProperties':
      return { keyword: error.keyword, pointer: below(params.additionalProperty) };
    case 'propertyNames':
      return { keyword: error.keyword, pointer: below(params.propertyName) };
    default:
      return { keyword: error.keyword, pointer: error.instancePath };
  }
}

function pointerToField(pointer: string): string {
  if (pointer === '') return '';
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** A short description of a JSON value for messages: its type and, for scalars, a preview. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') {
    const shown = value.length > 40 ? `${value.slice(0, 37)}...` : value;
    return `a string ${JSON.stringify(shown)}`;
  }
  if (typeof value === 'number') return 'a number';
  if (typeof value === 'boolean') return `the boolean ${value}`;
  return typeof value;
}
