import { numberText, type Contract, type JsonSchema } from '../contract/index.js';
import { objectView } from '../contract/object-view.js';
import { escapePointer } from '../contract/operations.js';

/** The Plant properties the echo check compares, and those a target may fill when none was sent. */
export interface EchoedProperties {
  /** Plant properties a NewPlant also declares: sent, they come back exactly as sent. */
  readonly echoed: readonly string[];
  /**
   * Plant properties a target may fill when none was sent: those with a `default` in the document, and
   * those the Plant requires and the NewPlant does not (the server must write something there).
   */
  readonly defaulted: ReadonlySet<string>;
  /**
   * The NewPlant's `default` of each echoed property that has one: not sent, it means that value, which
   * the Plant may carry (zod's `.default()`, pydantic's field default, ajv's `useDefaults`).
   */
  readonly requestDefaults: ReadonlyMap<string, readonly unknown[]>;
  /** The NewPlant's schema of each echoed property, as the document writes it: what it declares inside. */
  readonly schemas: ReadonlyMap<string, JsonSchema>;
}

const echoedByContract = new WeakMap<Contract, EchoedProperties>();
/** The Plant's schema of an echoed property, by the NewPlant's (see `firstDifference`'s `answer`). */
const answerSchemas = new WeakMap<JsonSchema, JsonSchema>();

/** Whether a property's schema is `false` (`{not: {}}` in an object view): no value may be there. */
function forbidden(schema: JsonSchema | undefined): boolean {
  if (schema === undefined || Object.keys(schema).length !== 1) return false;
  const { not } = schema;
  return not !== null && typeof not === 'object' && Object.keys(not).length === 0;
}

/** The {@link EchoedProperties} of a contract, computed once. */
export function echoedProperties(contract: Contract): EchoedProperties {
  let found = echoedByContract.get(contract);
  if (!found) {
    const plant = objectView(contract.compiled.plant.schema).properties;
    const newPlant = objectView(contract.compiled.newPlant.schema).properties;
    // The canonical schema keeps no annotations: defaults are read from the schema as written.
    const written = objectView(contract.schemas.plant).declarations;
    const mustFill = objectView(contract.compiled.plant.schema).required;
    const mayOmit = objectView(contract.compiled.newPlant.schema).required;
    const requestWritten = objectView(contract.schemas.newPlant).declarations;
    // A request default says what the server fills (judged by the echo), so only properties without one are free.
    const free = (name: string): boolean =>
      mustFill.has(name) && !mayOmit.has(name) && !requestWritten.get(name)?.some((schema) => 'default' in schema);
    const defaulted = [...plant.keys()].filter(
      (name) => written.get(name)?.some((schema) => 'default' in schema) || free(name),
    );
    // A property the Plant forbids (`false`: writeOnly, the client's only) is never expected back.
    const echoed = [...plant.keys()].filter((name) => newPlant.has(name) && !forbidden(plant.get(name)));
    // As written (dereferenced): a nested `default` is an annotation the canonical schema drops.
    const declared = objectView(contract.schemas.newPlant).properties;
    const schemas = new Map(echoed.map((name) => [name, declared.get(name) ?? newPlant.get(name) ?? {}]));
    const answered = objectView(contract.schemas.plant).properties;
    for (const [name, schema] of schemas) {
      const answer = answered.get(name);
      if (answer !== undefined && answer !== schema) answerSchemas.set(schema, answer);
    }
    const requestDeclarations = objectView(contract.schemas.newPlant).declarations;
    const requestDefaults = new Map<string, unknown[]>();
    for (const name of echoed) {
      const values = (requestDeclarations.get(name) ?? []).filter((schema) => 'default' in schema);
      if (values.length > 0)
        requestDefaults.set(
          name,
          values.map((schema) => schema.default),
        );
    }
    found = { echoed, defaulted: new Set(defaulted), requestDefaults, schemas };
    echoedByContract.set(contract, found);
  }
  return found;
}

interface Located {
  readonly value: unknown;
  readonly parent: object;
  readonly key: string | number;
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** A JSON number text as sign, significant digits and exponent: equal values give equal forms. */
function normalNumber(text: string): string {
  const match = DECIMAL.exec(text);
  if (!match) return text;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  let digits = (whole + fraction).replace(/^0+/, '');
  if (digits === '') return '0';
  let power = BigInt(exponent) - BigInt(fraction.length);
  const trimmed = digits.replace(/0+$/, '');
  power += BigInt(digits.length - trimmed.length);
  digits = trimmed;
  return `${sign}${digits}e${power}`;
}

function textOf(at: Located): string {
  return numberText(at.parent, at.key) ?? String(at.value);
}

/**
 * Whether a property sent inside an object of `schema` may be missing from the answer: one the schema
 * neither declares nor constrains (no `properties` entry in any part or branch, no `patternProperties`,
 * `additionalProperties` absent or true). Such a member is not part of the Plant, and servers that keep
 * only what they declare (Fastify's response serializer, pydantic's default `extra="ignore"`, Jackson
 * with unknown properties ignored) drop it, as they drop an undeclared top-level property.
 */
function mayDrop(schema: JsonSchema | undefined, key: string): boolean {
  if (schema === undefined || schema.patternProperties !== undefined) return false;
  const view = objectView(schema);
  return view.additionalProperties === true && !view.declarations.has(key);
}

/**
 * Whether a member sent may be missing because the answer's schema at its place does not declare it,
 * where the NewPlant's does (an offshoot's `id`, when a NewPlant's offshoots are NewPlants and a
 * Plant's are Plants): a server answering with its Plant type drops it, as it drops the top-level id.
 */
function answerDrops(answer: JsonSchema | undefined, key: string): boolean {
  if (answer === undefined || answer.patternProperties !== undefined) return false;
  const view = objectView(answer);
  return typeof view.additionalProperties === 'boolean' && !view.declarations.has(key);
}

/**
 * Whether a member not sent may be in the answer all the same: a declared one written as null (as Go,
 * Jackson and pydantic write an unset field) or filled from its `default` (ajv's `useDefaults`), as at
 * the top level.
 */
function mayFill(schema: JsonSchema | undefined, key: string, value: unknown): boolean {
  const declarations = schema === undefined ? undefined : objectView(schema).declarations.get(key);
  if (declarations === undefined) return false;
  return value === null || declarations.some((declaration) => 'default' in declaration);
}

/**
 * Whether the answer's schema at a place takes no number, as its `type` (of every `anyOf`/`oneOf` branch) says:
 * a number sent there comes back as its text, as pydantic writes a `Decimal` it read from a number.
 */
function takesNoNumber(answer: JsonSchema | undefined): boolean {
  if (answer === undefined) return false;
  const branches = [answer.anyOf, answer.oneOf].find(Array.isArray) as unknown[] | undefined;
  const typed = branches ?? [answer];
  return typed.every((branch) => {
    const type = (branch as JsonSchema | null)?.type;
    const types: unknown[] = Array.isArray(type) ? type : [type];
    return type !== undefined && !types.includes('number') && !types.includes('integer');
  });
}

/** The subschema of an array's item at `index` (`prefixItems`, else `items`), when it is an object. */
function itemSchema(schema: JsonSchema | undefined, index: number): JsonSchema | undefined {
  if (schema === undefined) return undefined;
  const prefix = Array.isArray(schema.prefixItems) ? (schema.prefixItems as unknown[]) : [];
  const item = index < prefix.length ? prefix[index] : schema.items;
  return item !== null && typeof item === 'object' && !Array.isArray(item) ? (item as JsonSchema) : undefined;
}

/**
 * Where two values parsed by `parseExactJson` differ, as a JSON pointer below `pointer`, or
 * `undefined` when they are the same JSON value: numbers equal by exact decimal value (`1.0` is `1`,
 * digits beyond 2^53 count), strings code unit for code unit, objects regardless of key order. Given
 * the sent value's `schema`, a member sent that the schema neither declares nor constrains may be
 * missing from the answer, and a declared one not sent may be there as null or its default, at any
 * depth (see `mayDrop`, `mayFill`); given the `answer`'s schema (by default the Plant's of an echoed
 * property), so may one it does not declare (see `answerDrops`).
 */
export function firstDifference(
  sent: Located,
  got: Located,
  pointer = '',
  schema?: JsonSchema,
  answer: JsonSchema | undefined = schema === undefined ? undefined : answerSchemas.get(schema),
): string | undefined {
  const a = sent.value;
  const b = got.value;
  if (typeof a === 'number' && typeof b === 'string' && takesNoNumber(answer))
    return normalNumber(textOf(sent)) === normalNumber(b) ? undefined : pointer;
  if (typeof a === 'number' || typeof b === 'number') {
    if (typeof a !== 'number' || typeof b !== 'number') return pointer;
    return normalNumber(textOf(sent)) === normalNumber(textOf(got)) ? undefined : pointer;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return pointer;
    for (let index = 0; index < a.length; index++) {
      const found = firstDifference(
        { value: a[index], parent: a, key: index },
        { value: b[index], parent: b, key: index },
        `${pointer}/${index}`,
        itemSchema(schema, index),
        itemSchema(answer, index),
      );
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const left = a as Record<string, unknown>;
    const right = b as Record<string, unknown>;
    const keys = Object.keys(left).filter(
      (key) => Object.hasOwn(right, key) || !(mayDrop(schema, key) || answerDrops(answer, key)),
    );
    const filled = Object.keys(right).filter((key) => !Object.hasOwn(left, key) && mayFill(schema, key, right[key]));
    if (keys.length !== Object.keys(right).length - filled.length) return pointer;
    const properties = schema === undefined ? undefined : objectView(schema).properties;
    const answered = answer === undefined ? undefined : objectView(answer).properties;
    for (const key of keys) {
      if (!Object.hasOwn(right, key)) return `${pointer}/${escapePointer(key)}`;
      const found = firstDifference(
        { value: left[key], parent: left, key },
        { value: right[key], parent: right, key },
        `${pointer}/${escapePointer(key)}`,
        properties?.get(key),
        answered?.get(key),
      );
      if (found !== undefined) return found;
    }
    return undefined;
  }
  return a === b ? undefined : pointer;
}

/** Whether `value` is one of `defaults` (values as the document writes them), as JSON compares them. */
export function isDefaultValue(defaults: readonly unknown[] | undefined, parent: object, key: string): boolean {
  return (defaults ?? []).some(
    (value) => firstDifference({ value, parent: [value], key: 0 }, located(parent, key)) === undefined,
  );
}

/** A value at a place of its parent, as {@link firstDifference} takes it. */
export function located(parent: object, key: string | number): Located {
  return { value: (parent as Record<string | number, unknown>)[key], parent, key };
}
