import fc from 'fast-check';
import type { Schema } from './canonicalise.js';
import type { ExactJson } from './compiled-schema.js';
import type { Context, Place } from './context.js';
import { domainSize } from './domain.js';
import { jsonKey } from './json.js';
import { childPointer } from './keywords.js';
import { mergeSchemas } from './merge.js';
import { validArbitrary } from './valid.js';

type Node = Record<string, unknown>;

/** How many items an array without `maxItems` gets at most, beyond its `minItems`. */
const SPARE_ITEMS = 5;

/** The item limits of an array schema; refuses limits no array meets. */
export function itemLimits(schema: Node, place: Place, context: Context): { min: number; max: number | undefined } {
  const min = typeof schema.minItems === 'number' ? Math.max(0, Math.ceil(schema.minItems)) : 0;
  const max = typeof schema.maxItems === 'number' ? Math.floor(schema.maxItems) : undefined;
  if (max !== undefined && max < min) {
    throw context.refuse(
      'maxItems',
      childPointer(context.originOf(schema, place.schemaPointer), 'maxItems'),
      `maxItems ${max} is below minItems ${min}: no array is valid`,
    );
  }
  return { min, max };
}

/**
 * Valid arrays: `prefixItems` in order, then `items`, lengths by construction, unique items by
 * fast-check's `uniqueArray` under JSON equality, `contains` by filtering.
 */
export function arrayArbitrary(schema: Node, place: Place, context: Context): fc.Arbitrary<ExactJson> | null {
  const { min, max } = itemLimits(schema, place, context);
  const prefixSchemas = (schema.prefixItems as Schema[] | undefined) ?? [];
  const prefix: fc.Arbitrary<ExactJson>[] = [];
  for (const [index, item] of prefixSchemas.entries()) {
    const arbitrary = validArbitrary(item, itemPlace(place, 'prefixItems', index), context);
    if (arbitrary === null) break;
    prefix.push(arbitrary);
  }
  if (prefix.length < Math.min(min, prefixSchemas.length)) return null;
  const complete = prefix.length === prefixSchemas.length;
  const itemsSchema = (schema.items as Schema | undefined) ?? true;
  const rest =
    complete && itemsSchema !== false
      ? validArbitrary(itemsSchema, itemPlace(place, 'items', prefix.length), context)
      : null;
  const unique = schema.uniqueItems === true;
  // Unique items cannot outnumber the values an item may take (fast-check would retry without end).
  const distinct = unique ? (domainSize(itemsSchema) ?? Infinity) : Infinity;
  const restMin = Math.max(0, min - prefix.length);
  const restMax = Math.min(distinct, Math.max(0, Math.min(max ?? Infinity, min + SPARE_ITEMS) - prefix.length));
  if (restMin > restMax) {
    throw context.refuse(
      'uniqueItems',
      childPointer(context.originOf(schema, place.schemaPointer), 'uniqueItems'),
      `the items allow only ${distinct} distinct values, fewer than minItems ${min}`,
    );
  }
  if (restMin > 0 && rest === null) return null;
  const tail: fc.Arbitrary<ExactJson[]> =
    rest === null || restMax === 0
      ? fc.constant([])
      : unique
        ? fc.uniqueArray(rest, { minLength: restMin, maxLength: restMax, selector: jsonKey })
        : fc.array(rest, { minLength: restMin, maxLength: restMax });
  const lowestCut = Math.min(min, prefix.length);
  let arbitrary: fc.Arbitrary<ExactJson> = fc
    .tuple(fc.tuple(...prefix), fc.integer({ min: lowestCut, max: Math.min(prefix.length, max ?? Infinity) }), tail)
    .map(([head, cut, more]) => (cut < head.length ? head.slice(0, cut) : [...head, ...more]));
  const origin = context.originOf(schema, place.schemaPointer);
  if (unique && (prefix.length > 0 || restMin > 0)) {
    arbitrary = context.filtered(arbitrary, (value) => allUnique(value as ExactJson[]), {
      keyword: 'uniqueItems',
      schemaPointer: childPointer(origin, 'uniqueItems'),
      reason: 'the items allow too few distinct values for the array lengths asked',
    });
  }
  if (schema.contains !== undefined) arbitrary = withContains(arbitrary, schema, origin, context);
  return arbitrary;
}

function itemPlace(place: Place, keyword: string, index: number): Place {
  const schemaPointer =
    keyword === 'items'
      ? childPointer(place.schemaPointer, 'items')
      : childPointer(childPointer(place.schemaPointer, keyword), index);
  return { ...place, schemaPointer, pointer: childPointer(place.pointer, index) };
}

function allUnique(items: readonly ExactJson[]): boolean {
  return new Set(items.map(jsonKey)).size === items.length;
}

/**
 * `contains` with `minContains`/`maxContains`: arrays with matching items planted in them (so a
 * `contains` that items rarely meet by chance, `const: "featured"` among strings, still generates),
 * and generated arrays as they come; each kept when the whole array schema accepts it.
 */
function withContains(
  arbitrary: fc.Arbitrary<ExactJson>,
  schema: Node,
  origin: string,
  context: Context,
): fc.Arbitrary<ExactJson> {
  const least = typeof schema.minContains === 'number' ? schema.minContains : 1;
  const most = typeof schema.maxContains === 'number' ? schema.maxContains : Infinity;
  const max = typeof schema.maxItems === 'number' ? schema.maxItems : Infinity;
  const refusal = {
    keyword: 'contains',
    schemaPointer: childPointer(origin, 'contains'),
    reason: 'generated arrays rarely hold the items contains asks for',
  };
  const accepted = (value: ExactJson): boolean => context.accepts(schema, value);
  const sources: fc.Arbitrary<ExactJson>[] = [];
  const matching = matchingItems(schema, context);
  if (matching !== undefined) {
    const extra = fc.array(matching, { minLength: least, maxLength: Math.max(least, Math.min(most, least + 2)) });
    const planted = fc.tuple(arbitrary, extra, fc.nat()).map(([base, hits, at]) => {
      const kept = (base as ExactJson[]).slice(0, Math.max(0, max - hits.length));
      const position = at % (kept.length + 1);
      return [...kept.slice(0, position), ...hits, ...kept.slice(position)];
    });
    const made = optional(() => context.filtered(planted, accepted, refusal));
    if (made !== undefined) sources.push(made);
  }
  const found = optional(() => context.filtered(arbitrary, accepted, refusal));
  if (found !== undefined) sources.push(found);
  if (sources.length === 0) throw context.refuse(refusal.keyword, refusal.schemaPointer, refusal.reason);
  return sources.length === 1 ? (sources[0] as fc.Arbitrary<ExactJson>) : fc.oneof(...sources);
}

/** Items valid under `items` that match `contains`: the two merged, else `contains` values `items` accepts. */
function matchingItems(schema: Node, context: Context): fc.Arbitrary<ExactJson> | undefined {
  const contains = schema.contains as Schema;
  const items = (schema.items as Schema | undefined) ?? true;
  const place: Place = { schemaPointer: '', pointer: '', refs: [] };
  const merged = typeof contains === 'object' && typeof items === 'object' ? mergeSchemas(items, contains) : undefined;
  if (merged !== undefined && merged !== 'conflict') {
    const arbitrary = optional(() => validArbitrary(merged, place, context) ?? undefined);
    if (arbitrary !== undefined) return arbitrary;
  }
  const own = optional(() => validArbitrary(contains, place, context) ?? undefined);
  const refusal = { keyword: 'contains', schemaPointer: '', reason: '' };
  return own && optional(() => context.filtered(own, (value) => context.accepts(items, value), refusal, 30, 2));
}

function optional<T>(make: () => T | undefined): T | undefined {
  try {
    return make();
  } catch {
    return undefined;
  }
}
