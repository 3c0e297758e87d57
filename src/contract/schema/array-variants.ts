import fc from 'fast-check';
import type { Schema } from './canonicalise.js';
import type { ExactJson } from './compiled-schema.js';
import type { Context, Place } from './context.js';
import { domainSize } from './domain.js';
import { exactObject, isExactObject, jsonKey } from './json.js';
import { childPointer } from './keywords.js';
import { at, type Candidate } from './leaf-variants.js';
import { validArbitrary } from './valid.js';
import type { Site } from './variants.js';

type Node = Record<string, unknown>;

/** The edges of `minItems`/`maxItems` (valid items), and a repeated item under `uniqueItems`. */
export function arrayCandidates(site: Site, context: Context): Candidate[] {
  const { schema, place } = site;
  if (schema.prefixItems !== undefined) return tupleCandidates(site, context);
  const itemPlace = {
    ...place,
    schemaPointer: childPointer(place.schemaPointer, 'items'),
    pointer: childPointer(place.pointer, 0),
  };
  let items: fc.Arbitrary<ExactJson> | null;
  try {
    items = validArbitrary((schema.items as Schema | undefined) ?? true, itemPlace, context);
  } catch {
    return [];
  }
  if (items === null) return [];
  const unique = schema.uniqueItems === true;
  const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
  const max = typeof schema.maxItems === 'number' ? schema.maxItems : undefined;
  const distinct = unique ? (domainSize((schema.items as Schema | undefined) ?? true) ?? Infinity) : Infinity;
  // More unique items than the item values allow cannot be made (fast-check would retry without end).
  const ofLength = (length: number, of: fc.Arbitrary<ExactJson> = items): fc.Arbitrary<ExactJson> =>
    length > distinct
      ? fc.constant([])
      : unique
        ? fc.uniqueArray(of, { minLength: length, maxLength: length, selector: jsonKey })
        : fc.array(of, { minLength: length, maxLength: length });
  const candidates = lengthCandidates(site, min, max, ofLength);
  const others = schema.contains === undefined ? undefined : avoiding(items, schema.contains as Schema, context);
  if (others !== undefined) {
    candidates.push(
      at(site, 'contains', false, 'with no item matching contains', ofLength(Math.max(min, 1), others), false),
    );
    const matching = meeting(items, schema.contains as Schema, (schema.items as Schema | undefined) ?? true, context);
    if (matching !== undefined) candidates.push(...countCandidates(site, { min, max }, matching, others, unique));
  }
  if (unique && (max === undefined || max >= 2)) {
    const repeated = ofLength(Math.max(1, min - 1)).map((value) => {
      const array = value as ExactJson[];
      return [...array, array[0] ?? null];
    });
    candidates.push(at(site, 'uniqueItems', false, 'with a repeated item (uniqueItems)', repeated, false));
    if (membersAlways(schema.items, 2)) {
      const reordered = ofLength(Math.max(1, min - 1)).map((value) => {
        const array = value as ExactJson[];
        return [...array, reversedMembers(array[0] ?? null)];
      });
      const label = 'with a repeated item, its members in another order (uniqueItems)';
      candidates.push(at(site, 'uniqueItems', false, label, reordered));
    }
  }
  return candidates;
}

/** Whether every valid item is an object with at least `count` members (its `required` names them). */
function membersAlways(items: unknown, count: number): boolean {
  const required = typeof items === 'object' && items !== null ? (items as Node).required : undefined;
  return Array.isArray(required) && new Set(required).size >= count;
}

/**
 * The same JSON value with each object's members in reverse order: equal under JSON Schema, but not to a
 * server that compares items by their JSON text (`json.dumps(item)` in a set, `new Set(items.map(JSON.stringify))`).
 */
function reversedMembers(value: ExactJson): ExactJson {
  if (Array.isArray(value)) return value.map(reversedMembers);
  if (!isExactObject(value)) return value;
  return exactObject(
    Object.entries(value)
      .reverse()
      .map(([key, item]) => [key, reversedMembers(item)] as const),
  );
}

/** Arrays of exactly `minItems`/`maxItems` items, and one fewer or more. */
function lengthCandidates(
  site: Site,
  min: number,
  max: number | undefined,
  ofLength: (length: number) => fc.Arbitrary<ExactJson>,
): Candidate[] {
  const candidates: Candidate[] = [];
  if (max !== undefined) {
    candidates.push(at(site, 'maxItems', true, `with exactly maxItems ${max} items`, ofLength(max)));
    candidates.push(at(site, 'maxItems', false, `with one item more than maxItems ${max}`, ofLength(max + 1)));
  }
  if (min > 0) {
    candidates.push(at(site, 'minItems', true, `with exactly minItems ${min} items`, ofLength(min)));
    candidates.push(at(site, 'minItems', false, `with one item fewer than minItems ${min}`, ofLength(min - 1)));
  }
  return candidates;
}

/** Tuples (`prefixItems`): the edges of `minItems`/`maxItems`, and under `items: false` an item beyond the tuple. */
function tupleCandidates(site: Site, context: Context): Candidate[] {
  const { schema } = site;
  const tuple = tupleArbitraries(schema, site.place, context);
  if (tuple === undefined) return [];
  const candidates: Candidate[] = [];
  const add = (keyword: string, valid: boolean, label: string, length: number): void => {
    const leaf = tuple.ofLength(length);
    if (leaf !== undefined) candidates.push(at(site, keyword, valid, label, leaf));
  };
  const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
  const max = typeof schema.maxItems === 'number' ? schema.maxItems : undefined;
  if (max !== undefined) {
    add('maxItems', true, `with exactly maxItems ${max} items`, max);
    add('maxItems', false, `with one item more than maxItems ${max}`, max + 1);
  }
  if (min > 0) {
    add('minItems', true, `with exactly minItems ${min} items`, min);
    add('minItems', false, `with one item fewer than minItems ${min}`, min - 1);
  }
  if (schema.items === false) {
    const count = tuple.prefix.length;
    const leaf = fc.tuple(...tuple.prefix).map((items) => [...items, null]);
    candidates.push(
      at(site, 'items', false, `with an item beyond the ${count} of prefixItems (items: false)`, leaf, false),
    );
  }
  return candidates;
}

/** The valid values of each `prefixItems` position and of `items` after them, and valid tuples of a length. */
export interface TupleArbitraries {
  readonly prefix: readonly fc.Arbitrary<ExactJson>[];
  /** Values of `items` after the prefix; `undefined` under `items: false`. */
  readonly rest: fc.Arbitrary<ExactJson> | undefined;
  /** Arrays of `length` items, each valid at its position; `undefined` when no item may stand at the end. */
  ofLength(length: number): fc.Arbitrary<ExactJson> | undefined;
}

/** A tuple schema's item generators, or `undefined` when a position cannot be generated on its own. */
export function tupleArbitraries(schema: Node, place: Place, context: Context): TupleArbitraries | undefined {
  if (!Array.isArray(schema.prefixItems)) return undefined;
  const prefix: fc.Arbitrary<ExactJson>[] = [];
  for (const [index, item] of (schema.prefixItems as Schema[]).entries()) {
    const itemPlace = {
      ...place,
      schemaPointer: childPointer(childPointer(place.schemaPointer, 'prefixItems'), index),
      pointer: childPointer(place.pointer, index),
    };
    const arbitrary = orUndefined(() => validArbitrary(item, itemPlace, context));
    if (arbitrary === undefined) return undefined;
    prefix.push(arbitrary);
  }
  const restPlace = {
    ...place,
    schemaPointer: childPointer(place.schemaPointer, 'items'),
    pointer: childPointer(place.pointer, prefix.length),
  };
  const itemSchema = (schema.items as Schema | undefined) ?? true;
  const rest = itemSchema === false ? undefined : orUndefined(() => validArbitrary(itemSchema, restPlace, context));
  const ofLength = (length: number): fc.Arbitrary<ExactJson> | undefined => {
    if (length < 0) return undefined;
    if (length <= prefix.length) return fc.tuple(...prefix.slice(0, length)).map((items) => [...items]);
    if (rest === undefined) return undefined;
    const more = fc.array(rest, { minLength: length - prefix.length, maxLength: length - prefix.length });
    return fc.tuple(fc.tuple(...prefix), more).map(([head, tail]) => [...head, ...tail]);
  };
  return { prefix, rest, ofLength };
}

function orUndefined(make: () => fc.Arbitrary<ExactJson> | null): fc.Arbitrary<ExactJson> | undefined {
  try {
    return make() ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * The edges of `minContains`/`maxContains`: exactly as many items matching `contains` as they allow,
 * and one fewer or more, the other items not matching. ajv names the keyword `contains` for both.
 */
function countCandidates(
  site: Site,
  limits: { min: number; max: number | undefined },
  matching: fc.Arbitrary<ExactJson>,
  others: fc.Arbitrary<ExactJson>,
  unique: boolean,
): Candidate[] {
  const { schema } = site;
  const least = typeof schema.minContains === 'number' ? schema.minContains : undefined;
  const most = typeof schema.maxContains === 'number' ? schema.maxContains : undefined;
  const candidates: Candidate[] = [];
  const add = (count: number, valid: boolean, label: string): void => {
    const rest = Math.max(0, limits.min - count);
    if (count < 0 || (limits.max !== undefined && count + rest > limits.max)) return;
    const part = (of: fc.Arbitrary<ExactJson>, length: number): fc.Arbitrary<ExactJson[]> =>
      unique
        ? fc.uniqueArray(of, { minLength: length, maxLength: length, selector: jsonKey })
        : fc.array(of, { minLength: length, maxLength: length });
    const leaf = fc.tuple(part(matching, count), part(others, rest)).map(([hits, misses]) => [...misses, ...hits]);
    candidates.push(at(site, 'contains', valid, label, leaf));
  };
  if (least !== undefined) {
    add(least, true, `with exactly minContains ${least} items matching contains`);
    if (least > 0) add(least - 1, false, `with ${least - 1} items matching contains, fewer than minContains ${least}`);
  }
  if (most !== undefined) {
    add(most, true, `with exactly maxContains ${most} items matching contains`);
    add(most + 1, false, `with ${most + 1} items matching contains, more than maxContains ${most}`);
  }
  return candidates;
}

/** Items that match `contains`, when they are not too rare to generate. */
function meeting(
  items: fc.Arbitrary<ExactJson>,
  contains: Schema,
  itemSchema: Schema,
  context: Context,
): fc.Arbitrary<ExactJson> | undefined {
  const own = typeof contains === 'object' ? validOrUndefined(contains, context) : undefined;
  const refusal = { keyword: 'contains', schemaPointer: '', reason: '' };
  const both = (value: ExactJson): boolean => context.accepts(contains, value) && context.accepts(itemSchema, value);
  for (const source of own === undefined ? [items] : [items, own]) {
    try {
      return context.filtered(source, both, refusal, 20, 2);
    } catch {
      // Too rare among these values: try the contains schema's own values.
    }
  }
  return undefined;
}

function validOrUndefined(schema: Schema, context: Context): fc.Arbitrary<ExactJson> | undefined {
  try {
    return validArbitrary(schema, { schemaPointer: '', pointer: '', refs: [] }, context) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Items that do not match `contains`, when they are not too rare to generate. */
function avoiding(
  items: fc.Arbitrary<ExactJson>,
  contains: Schema,
  context: Context,
): fc.Arbitrary<ExactJson> | undefined {
  try {
    const refusal = { keyword: 'contains', schemaPointer: '', reason: '' };
    return context.filtered(items, (value) => !context.accepts(contains, value), refusal, 20, 2);
  } catch {
    return undefined;
  }
}
