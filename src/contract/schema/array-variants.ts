import fc from 'fast-check';
import type { Schema } from './canonicalise.js';
import type { ExactJson } from './compiled-schema.js';
import type { Context } from './context.js';
import { domainSize } from './domain.js';
import { jsonKey } from './json.js';
import { childPointer } from './keywords.js';
import { at, type Candidate } from './leaf-variants.js';
import { validArbitrary } from './valid.js';
import type { Site } from './variants.js';

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
  }
  if (unique && (max === undefined || max >= 2)) {
    const repeated = ofLength(Math.max(1, min - 1)).map((value) => {
      const array = value as ExactJson[];
      return [...array, array[0] ?? null];
    });
    candidates.push(at(site, 'uniqueItems', false, 'with a repeated item (uniqueItems)', repeated, false));
  }
  return candidates;
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

/** For `prefixItems` with `items: false`: one item more than the tuple holds. */
function tupleCandidates(site: Site, context: Context): Candidate[] {
  const { schema, place } = site;
  if (schema.items !== false || !Array.isArray(schema.prefixItems)) return [];
  const prefix: fc.Arbitrary<ExactJson>[] = [];
  for (const [index, item] of (schema.prefixItems as Schema[]).entries()) {
    const itemPlace = {
      ...place,
      schemaPointer: childPointer(childPointer(place.schemaPointer, 'prefixItems'), index),
      pointer: childPointer(place.pointer, index),
    };
    let arbitrary: fc.Arbitrary<ExactJson> | null;
    try {
      arbitrary = validArbitrary(item, itemPlace, context);
    } catch {
      return [];
    }
    if (arbitrary === null) return [];
    prefix.push(arbitrary);
  }
  const leaf = fc.tuple(...prefix).map((items) => [...items, null]);
  return [
    at(site, 'items', false, `with an item beyond the ${prefix.length} of prefixItems (items: false)`, leaf, false),
  ];
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
