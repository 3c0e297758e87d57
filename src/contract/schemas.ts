import type { Ajv2020, ErrorObject, Options, ValidateFunction } from 'ajv/dist/2020.js';
import { createRequire } from 'node:module';
import type { AJV_MODULES } from './ajv-modules.js';
import { useJsonEqual } from './json-equal.js';
import { escapePointer } from './operations.js';
import { EXACT_FORMATS, exactNumberKeyword, EXACT_NUMBER_KEYWORD, withExactNumbers } from './schema/exact-numbers.js';
import { BYTE_PATTERN, GUID_PATTERN } from './schema/formats.js';

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
 * Whether `check` refuses a null for the top-level member `name`, the rest of the object being `around`:
 * a null sent for a nullable NewPlant member the Plant declares plain can only be left out of the Plant.
 */
export function refusesNullAt(
  check: SchemaCheck,
  name: string,
  around: Readonly<Record<string, unknown>> = {},
): boolean {
  const withNull = Object.assign(Object.create(null) as Record<string, unknown>, around);
  withNull[name] = null;
  const pointer = `/${escapePointer(name)}`;
  return check(withNull).some((violation) => violation.pointer === pointer);
}

/**
 * One ajv instance for the whole process, and one that takes schemas as valid, each made when first
 * needed: schemas compile once, then validate many times.
 */
const compilers: { validating?: Ajv2020; trusting?: Ajv2020 } = {};
let trusted = false;
let ajvModules: typeof AJV_MODULES | undefined;
/** Validators the build compiled, by {@link schemaKey} of the schema they check (`prebuilt-validators.ts`). */
let prebuilt: ReadonlyMap<string, ValidateFunction> | undefined;
/** While the build records them: every schema handed to ajv, as ajv compiled it. */
let recording: JsonSchema[] | undefined;

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

/** Loads ajv (its own chunk in the bundled CLI) before schemas are compiled; a process that never calls it loads ajv on its first compile. */
export async function loadSchemaCompiler(): Promise<void> {
  ajvModules ??= (await import('./ajv-modules.js')).AJV_MODULES;
}

/** ajv's modules, loaded now (through `require`, ajv being CommonJS) when {@link loadSchemaCompiler} was not awaited. */
function ajv(): typeof AJV_MODULES {
  if (ajvModules === undefined) {
    const require = createRequire(import.meta.url);
    useJsonEqual(require('ajv/dist/runtime/equal.js') as { default: unknown });
    ajvModules = {
      Ajv2020: (require('ajv/dist/2020.js') as { Ajv2020: typeof Ajv2020 }).Ajv2020,
      addFormats: (require('ajv-formats') as { default: typeof AJV_MODULES.addFormats }).default,
    };
  }
  return ajvModules;
}

/** Schemas whose {@link schemaKey} is in `validators` are checked by those validators instead of compiled. */
export function usePrebuiltValidators(validators: ReadonlyMap<string, ValidateFunction> | undefined): void {
  prebuilt = validators;
}

/** Runs `compile` and resolves, beside its result, to every schema it handed to ajv (as ajv received it). */
export async function recordCompiledSchemas<T>(
  compile: () => T | Promise<T>,
): Promise<{ result: T; schemas: JsonSchema[] }> {
  const schemas: JsonSchema[] = [];
  recording = schemas;
  try {
    return { result: await compile(), schemas };
  } finally {
    recording = undefined;
  }
}

/** What ajv's int32 and int64 formats check: nothing, the exact keyword judges them (ajv-formats judges int64 on a double and accepts 2^63). */
const EXACT_FORMAT = { type: 'number', validate: () => true } as const;

/** The formats every compiler of the contract knows: ajv-formats' full set, int32 and int64 left to the exact keyword. */
export function contractFormats(fullFormats: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const formats: Record<string, unknown> = { ...fullFormats };
  for (const name of Object.keys(EXACT_FORMATS)) formats[name] = EXACT_FORMAT;
  formats.guid = GUID_PATTERN;
  formats.byte = BYTE_PATTERN;
  return formats;
}

/**
 * The ajv that compiles the contract's schemas; `code` is for the build, which keeps the validators'
 * source (`prebuilt-validators.ts`).
 */
export function createAjv(validateSchema: boolean, code?: Options['code']): Ajv2020 {
  const { Ajv2020: Ajv, addFormats } = ajv();
  // OpenAPI documents carry keywords JSON Schema does not know (example, xml, discriminator).
  // logger: false: an unknown format is an annotation (2020-12), not worth a console warning.
  const instance = new Ajv({
    strict: false,
    allErrors: true,
    verbose: true,
    logger: false,
    validateSchema,
    ...(code === undefined ? {} : { code }),
  });
  addFormats(instance);
  for (const name of Object.keys(EXACT_FORMATS)) instance.addFormat(name, EXACT_FORMAT);
  instance.addFormat('guid', GUID_PATTERN);
  instance.addFormat('byte', BYTE_PATTERN);
  instance.addKeyword(exactNumberKeyword());
  return instance;
}

/**
 * The text a schema is known by among prebuilt validators: its JSON, or `undefined` for a schema that is
 * not plain JSON (a `bigint`, an object of a class), which is always compiled.
 */
export function schemaKey(schema: unknown): string | undefined {
  let plain = true;
  const text = JSON.stringify(schema, (_key, value: unknown) => {
    if (isPlainJson(value)) return value;
    plain = false;
    return null;
  });
  return plain ? text : undefined;
}

function isPlainJson(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object' || Array.isArray(value)) return Array.isArray(value);
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * Compiles a schema of the contract into a check that reports violations in plain words. Integers
 * of int32/int64 formats and every numeric bound are judged exactly on the number's JSON text.
 */
export function compileSchemaCheck(schema: JsonSchema, subject: string): SchemaCheck {
  const exact = withExactNumbers(schema) as JsonSchema;
  recording?.push(exact);
  const key = prebuilt === undefined ? undefined : schemaKey(exact);
  const validate: ValidateFunction =
    (key === undefined ? undefined : prebuilt?.get(key)) ??
    (trusted ? (compilers.trusting ??= createAjv(false)) : (compilers.validating ??= createAjv(true))).compile(exact);
  return (value) => (validate(value) ? [] : describeErrors(validate.errors ?? [], subject));
}

function describeErrors(errors: ErrorObject[], subject: string): Violation[] {
  // An exact-integer error makes any other complaint about the same number redundant.
  const exactPaths = new Set(errors.filter(isIntegerError).map((e) => e.instancePath));
  const seen = new Set<string>();
  const violations: Violation[] = [];
  for (const [index, error] of errors.entries()) {
    if (exactPaths.has(error.instancePath) && !isIntegerError(error)) continue;
    // A branch's complaint is explained by its combinator's (anyOf, oneOf, contains, propertyNames).
    if (errors.some((outer) => outer !== error && error.schemaPath.startsWith(`${outer.schemaPath}/`))) continue;
    if (errors.slice(index + 1).some((outer) => isReferencedBranchError(error, outer))) continue;
    const branch = nullableBranch(error, errors);
    const described = describeError(error, subject);
    const violation =
      branch === undefined
        ? described
        : { ...described, message: `${describeError(branch, subject).message} (null is allowed too)` };
    const key = `${violation.field}\u0000${violation.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    violations.push(violation);
  }
  return violations;
}

/**
 * For an `anyOf`/`oneOf` of one schema and `{type: "null"}` (pydantic's `Optional[str]` with constraints, a
 * 3.1 document's nullable `$ref`), the complaint of the branch that is not null: `field "tag" must match
 * pattern "^[a-z]+$"` says what to fix, where "must match a schema in anyOf" did not. `undefined` otherwise.
 */
function nullableBranch(outer: ErrorObject, errors: readonly ErrorObject[]): ErrorObject | undefined {
  if (outer.keyword !== 'anyOf' && outer.keyword !== 'oneOf') return undefined;
  const prefix = `${outer.schemaPath}/`;
  const branchOf = (error: ErrorObject): string => error.schemaPath.slice(prefix.length).split('/')[0] ?? '';
  const inside = errors.filter((error) => error.schemaPath.startsWith(prefix));
  const nulls = inside.filter(
    (error) =>
      error.keyword === 'type' &&
      (error.params as { type?: unknown }).type === 'null' &&
      error.schemaPath === `${prefix}${branchOf(error)}/type`,
  );
  const [nullError] = nulls;
  if (nullError === undefined || nulls.length !== 1) return undefined;
  const others = inside.filter((error) => branchOf(error) !== branchOf(nullError));
  if (new Set(others.map(branchOf)).size !== 1) return undefined;
  return others.find(
    (error) => !others.some((other) => other !== error && error.schemaPath.startsWith(`${other.schemaPath}/`)),
  );
}

/**
 * Whether `error` comes from a branch of the `anyOf`/`oneOf` that `outer` reports, reached through a
 * `$ref` (a recursive schema's definition: its schema path starts at that definition, not below the
 * combinator). Ajv lists a failed combinator's branch errors before it, at or below its instance.
 */
function isReferencedBranchError(error: ErrorObject, outer: ErrorObject): boolean {
  if (outer.keyword !== 'anyOf' && outer.keyword !== 'oneOf') return false;
  const at = outer.instancePath;
  if (error.instancePath !== at && !error.instancePath.startsWith(`${at}/`)) return false;
  const owner = outer.schemaPath.slice(0, outer.schemaPath.length - outer.keyword.length);
  return !error.schemaPath.startsWith(owner);
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
  // ajv's "boolean schema is false": a schema of `false` (a writeOnly property in an answer, `items: false`).
  const said = error.keyword === 'false schema' ? 'must not be present (its schema is false)' : error.message;
  return { kind: 'constraint', field, message: `${where} ${said ?? 'is invalid'}`, keyword, pointer };
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
