import fc from 'fast-check';
import type { Schema } from './canonicalise.js';
import { UnsupportedSchemaError, type ExactJson } from './compiled-schema.js';
import type { Context, Place } from './context.js';
import { exactObject, keyArbitrary } from './json.js';
import { childPointer } from './keywords.js';
import { mergeSchemas } from './merge.js';
import { patternArbitrary } from './strings.js';
import { validArbitrary } from './valid.js';

type Node = Record<string, unknown>;

/** One property an object of the schema may hold, with the schema its value must satisfy. */
export interface Field {
  readonly name: string;
  readonly schema: Schema;
  readonly schemaPointer: string;
  readonly required: boolean;
}

/** How many undeclared properties a valid object gets at most, beyond what minProperties asks. */
const SPARE_EXTRAS = 3;

/** The object keywords of a schema, read once. */
export interface ObjectShape {
  readonly fields: readonly Field[];
  /** Names that may not appear (they break `propertyNames`, or their schema is `false`). */
  readonly forbidden: ReadonlySet<string>;
  readonly patterns: readonly { readonly regex: RegExp; readonly source: string; readonly schema: Schema }[];
  readonly additional: Schema;
  readonly propertyNames: Schema | undefined;
  readonly dependentRequired: ReadonlyMap<string, readonly string[]>;
  readonly min: number;
  readonly max: number | undefined;
}

/** Reads the object keywords of a schema into fields, refusing what no object can satisfy. */
export function objectShape(schema: Node, place: Place, context: Context): ObjectShape {
  const origin = context.originOf(schema, place.schemaPointer);
  const properties = (schema.properties as Record<string, Schema> | undefined) ?? {};
  const patternMap = (schema.patternProperties as Record<string, Schema> | undefined) ?? {};
  const patterns = Object.entries(patternMap).map(([source, item]) => ({
    source,
    regex: context.regex(source, childPointer(childPointer(origin, 'patternProperties'), source)),
    schema: item,
  }));
  const additional = (schema.additionalProperties as Schema | undefined) ?? true;
  const propertyNames = schema.propertyNames as Schema | undefined;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const dependentRequired = (schema.dependentRequired as Record<string, string[]> | undefined) ?? {};
  const names = new Set([...Object.keys(properties), ...required, ...Object.values(dependentRequired).flat()]);
  const fields: Field[] = [];
  const forbidden = new Set<string>();
  for (const name of names) {
    const field = fieldOf(name, { properties, patterns, additional, propertyNames, required }, place, context);
    if (field === undefined) forbidden.add(name);
    else fields.push(field);
  }
  for (const name of required) {
    if (forbidden.has(name))
      throw context.refuse('required', childPointer(origin, 'required'), `"${name}" is required but not allowed`);
  }
  const min = typeof schema.minProperties === 'number' ? schema.minProperties : 0;
  const max = typeof schema.maxProperties === 'number' ? schema.maxProperties : undefined;
  if (max !== undefined && (max < min || max < required.size)) {
    throw context.refuse(
      'maxProperties',
      childPointer(origin, 'maxProperties'),
      `maxProperties ${max} leaves no valid object`,
    );
  }
  return {
    fields,
    forbidden,
    patterns,
    additional,
    propertyNames,
    dependentRequired: new Map(Object.entries(dependentRequired)),
    min,
    max,
  };
}

function fieldOf(
  name: string,
  keywords: {
    properties: Record<string, Schema>;
    patterns: ObjectShape['patterns'];
    additional: Schema;
    propertyNames: Schema | undefined;
    required: ReadonlySet<string>;
  },
  place: Place,
  context: Context,
): Field | undefined {
  if (keywords.propertyNames !== undefined && !context.accepts(keywords.propertyNames, name)) return undefined;
  const declared = Object.hasOwn(keywords.properties, name) ? keywords.properties[name] : undefined;
  const matching = keywords.patterns.filter((pattern) => pattern.regex.test(name)).map((pattern) => pattern.schema);
  const own = declared ?? (matching.length > 0 ? matching.shift() : keywords.additional);
  if (own === undefined || own === false || matching.includes(false)) return undefined;
  const schema: Schema = matching.length === 0 ? own : { allOf: [own, ...matching] };
  const schemaPointer =
    declared !== undefined
      ? childPointer(childPointer(place.schemaPointer, 'properties'), name)
      : childPointer(place.schemaPointer, 'additionalProperties');
  return { name, schema, schemaPointer, required: keywords.required.has(name) };
}

/** Valid objects: declared properties (required always, optional sometimes) and undeclared extras. */
export function objectArbitrary(schema: Node, place: Place, context: Context): fc.Arbitrary<ExactJson> | null {
  const shape = objectShape(schema, place, context);
  const values: fc.Arbitrary<readonly [boolean, ExactJson] | undefined>[] = [];
  const kept: Field[] = [];
  for (const field of shape.fields) {
    const arbitrary = validArbitrary(
      field.schema,
      { ...place, schemaPointer: field.schemaPointer, pointer: childPointer(place.pointer, field.name) },
      context,
    );
    if (arbitrary === null) {
      if (field.required) return null;
      continue;
    }
    kept.push(field);
    values.push(field.required ? arbitrary.map((value) => [true, value] as const) : fc.tuple(fc.boolean(), arbitrary));
  }
  const extras = extrasArbitrary(shape, kept.length, place, context);
  const build = fc.tuple(fc.tuple(...values), extras).map(([chosen, extra]) => assemble(shape, kept, chosen, extra));
  // Only counts and dependencies can leave an object unbuildable: without them, no sample to pay for.
  if (shape.min === 0 && shape.max === undefined && shape.dependentRequired.size === 0) {
    return build as fc.Arbitrary<ExactJson>;
  }
  return context.filtered(build, (value) => value !== undefined, {
    keyword: 'minProperties',
    schemaPointer: childPointer(context.originOf(schema, place.schemaPointer), 'minProperties'),
    reason: 'objects with the properties minProperties and dependentRequired ask for cannot be generated',
  }) as fc.Arbitrary<ExactJson>;
}

/** Puts the chosen properties together, closing over `dependentRequired` and fitting the count limits. */
function assemble(
  shape: ObjectShape,
  fields: readonly Field[],
  chosen: readonly (readonly [boolean, ExactJson] | undefined)[],
  extras: readonly (readonly [string, ExactJson])[],
): ExactJson | undefined {
  const present = new Map<string, ExactJson>();
  const available = new Map<string, ExactJson>();
  fields.forEach((field, index) => {
    const entry = chosen[index];
    if (entry === undefined) return;
    available.set(field.name, entry[1]);
    if (entry[0]) present.set(field.name, entry[1]);
  });
  if (!closeDependencies(shape, present, available)) return undefined;
  const entries: [string, ExactJson][] = [...present];
  for (const [name, value] of available) {
    if (entries.length + extras.length >= shape.min) break;
    if (present.has(name) || (shape.dependentRequired.get(name)?.length ?? 0) > 0) continue;
    entries.push([name, value]);
  }
  const limit = shape.max ?? Infinity;
  trimOptional(shape, fields, entries, limit);
  const room = Math.max(0, limit - entries.length);
  const all = [...entries, ...extras.slice(0, room)];
  if (all.length < shape.min || all.length > limit) return undefined;
  return exactObject(all);
}

/** Drops optional properties no other present property depends on, until at most `limit` remain. */
function trimOptional(
  shape: ObjectShape,
  fields: readonly Field[],
  entries: [string, ExactJson][],
  limit: number,
): void {
  const required = new Set(fields.filter((field) => field.required).map((field) => field.name));
  for (let index = entries.length - 1; index >= 0 && entries.length > limit; index--) {
    const name = entries[index]?.[0] ?? '';
    const needed = entries.some(([other]) => shape.dependentRequired.get(other)?.includes(name) === true);
    if (!required.has(name) && !needed) entries.splice(index, 1);
  }
}

/** Adds what `dependentRequired` asks for; false when a needed property cannot be given. */
function closeDependencies(
  shape: ObjectShape,
  present: Map<string, ExactJson>,
  available: ReadonlyMap<string, ExactJson>,
): boolean {
  for (let changed = true; changed;) {
    changed = false;
    for (const [name] of present) {
      for (const needed of shape.dependentRequired.get(name) ?? []) {
        if (present.has(needed)) continue;
        const value = available.get(needed);
        if (value === undefined) return false;
        present.set(needed, value);
        changed = true;
      }
    }
  }
  return true;
}

/** Undeclared properties: awkward names, names of `patternProperties`, values of their schemas. */
function extrasArbitrary(
  shape: ObjectShape,
  declared: number,
  place: Place,
  context: Context,
): fc.Arbitrary<(readonly [string, ExactJson])[]> {
  const needed = Math.max(0, shape.min - declared);
  const maxLength = Math.min(needed + SPARE_EXTRAS, shape.max ?? Infinity);
  const taken = new Set([...shape.fields.map((field) => field.name), ...shape.forbidden]);
  const nameOk = (name: string): boolean =>
    !taken.has(name) && (shape.propertyNames === undefined || context.accepts(shape.propertyNames, name));
  const sources: fc.Arbitrary<readonly [string, ExactJson]>[] = [];
  const extraPlace = {
    ...place,
    schemaPointer: childPointer(place.schemaPointer, 'additionalProperties'),
    pointer: childPointer(place.pointer, '*'),
  };
  if (shape.additional !== false) {
    const value = optionalValid(shape.additional, extraPlace, context);
    const free = (name: string): boolean => nameOk(name) && !shape.patterns.some((pattern) => pattern.regex.test(name));
    const key = freeKey(free, shape, place, context);
    if (value !== null && key !== undefined) sources.push(fc.tuple(key, value));
  }
  for (const pattern of shape.patterns) {
    const at = childPointer(childPointer(place.schemaPointer, 'patternProperties'), pattern.source);
    const value = optionalValid(
      pattern.schema,
      { ...place, schemaPointer: at, pointer: childPointer(place.pointer, '*') },
      context,
    );
    if (value === null) continue;
    const only = (name: string): boolean =>
      nameOk(name) && shape.patterns.every((other) => other === pattern || !other.regex.test(name));
    const key = optionalFilter(patternArbitrary(pattern.regex, undefined, at, context), only, context);
    if (key !== undefined) sources.push(fc.tuple(key, value));
  }
  if (sources.length === 0 || maxLength === 0) return fc.constant([]);
  return fc.uniqueArray(fc.oneof(...sources), {
    minLength: Math.min(needed, maxLength),
    maxLength,
    selector: ([name]) => name,
  });
}

function freeKey(
  free: (name: string) => boolean,
  shape: ObjectShape,
  place: Place,
  context: Context,
): fc.Arbitrary<string> | undefined {
  if (shape.propertyNames === undefined || typeof shape.propertyNames === 'boolean')
    return optionalFilter(keyArbitrary(), free, context);
  const asString = mergeSchemas(shape.propertyNames, { type: 'string' });
  if (asString === undefined || asString === 'conflict') return undefined;
  const names = validArbitrary(
    asString,
    { ...place, schemaPointer: childPointer(place.schemaPointer, 'propertyNames') },
    context,
  );
  return names === null
    ? undefined
    : optionalFilter(
        names.filter((name): name is string => typeof name === 'string'),
        free,
        context,
      );
}

/** A filtered arbitrary, or `undefined` when the filter (almost) never passes: extras are optional. */
function optionalFilter(
  arbitrary: fc.Arbitrary<string>,
  predicate: (name: string) => boolean,
  context: Context,
): fc.Arbitrary<string> | undefined {
  try {
    return context.filtered(arbitrary, predicate, { keyword: 'propertyNames', schemaPointer: '', reason: '' });
  } catch {
    return undefined;
  }
}

/** Values for optional extras, or `null` when the schema allows none (extras are never required). */
function optionalValid(schema: Schema, place: Place, context: Context): fc.Arbitrary<ExactJson> | null {
  if (schema === false) return null;
  try {
    return validArbitrary(schema, place, context);
  } catch (error) {
    if (error instanceof UnsupportedSchemaError) return null;
    throw error;
  }
}
