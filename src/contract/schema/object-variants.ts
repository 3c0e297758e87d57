import fc from 'fast-check';
import type { Schema } from './canonicalise.js';
import type { ExactJson } from './compiled-schema.js';
import type { Context } from './context.js';
import { exactObject } from './json.js';
import { childPointer } from './keywords.js';
import { fieldName, type Candidate } from './leaf-variants.js';
import { objectShape } from './objects.js';
import { validArbitrary } from './valid.js';
import type { Site } from './variants.js';

type Entries = [string, ExactJson][];
/** Whole values at the site, edited; `extra` is a value an undeclared property may hold. */
type Edit = (edit: (entries: Entries, extra: ExactJson) => Entries) => fc.Arbitrary<ExactJson>;

/** Values an undeclared property may hold (`null` when none may be: it is refused either way). */
function undeclaredValue(additional: Schema, site: Site, context: Context): fc.Arbitrary<ExactJson> {
  if (additional === false) return fc.constant(null);
  try {
    const place = { ...site.place, schemaPointer: childPointer(site.place.schemaPointer, 'additionalProperties') };
    return validArbitrary(additional, place, context) ?? fc.constant(null);
  } catch {
    return fc.constant(null);
  }
}

/** Names tried for undeclared properties: the ones naive implementations trip on first. */
const EXTRA_NAMES = ['__proto__', 'constructor', 'unexpected', 'x-extra', '', 'toString'];
/** Names tried against `propertyNames`. */
const ODD_NAMES = ['', ' ', 'A', '0', '__proto__', 'a'.repeat(300), 'Ünïcödé key', '$ref'];

/**
 * Object variants: a required property dropped, an undeclared property where none is allowed, a
 * name `propertyNames` refuses, the edges of `minProperties`/`maxProperties`, a dependency left out.
 */
export function objectCandidates(site: Site, context: Context): Candidate[] {
  let shape;
  try {
    shape = objectShape(site.schema, site.place, context);
  } catch {
    return [];
  }
  const { schema, place } = site;
  const entriesOf = (value: ExactJson): Entries =>
    value !== null && typeof value === 'object' && !Array.isArray(value) ? (Object.entries(value) as Entries) : [];
  const extraValue = undeclaredValue(shape.additional, site, context);
  const edited: Edit = (edit) =>
    fc.tuple(site.valid, extraValue).map(([value, extra]) => exactObject(edit(entriesOf(value), extra)));
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const candidates: Candidate[] = [];
  const child = (
    keyword: string,
    name: string,
    valid: boolean,
    label: string,
    leaf: fc.Arbitrary<ExactJson>,
    boundary = false,
  ): Candidate => ({
    keyword,
    pointer: childPointer(place.pointer, name),
    schemaPointer: childPointer(place.schemaPointer, keyword),
    valid,
    label: `${fieldName(childPointer(place.pointer, name))} ${label}`,
    leaf,
    boundary,
  });
  for (const name of required) {
    candidates.push(
      child(
        'required',
        name,
        false,
        'missing (required)',
        edited((entries) => entries.filter(([key]) => key !== name)),
      ),
    );
  }
  const declared = new Set(shape.fields.map((field) => field.name));
  const undeclared = (name: string): boolean =>
    !declared.has(name) && !shape.patterns.some((pattern) => pattern.regex.test(name));
  if (shape.additional === false) {
    const name = EXTRA_NAMES.find(undeclared);
    if (name !== undefined) {
      const label = `present though additionalProperties is false (an undeclared property ${JSON.stringify(name)})`;
      candidates.push(
        child(
          'additionalProperties',
          name,
          false,
          label,
          edited((entries) => [...entries.filter(([key]) => key !== name), [name, null]]),
        ),
      );
    }
  }
  if (shape.propertyNames !== undefined) {
    const names = ODD_NAMES.filter((name) => undeclared(name) && !context.accepts(shape.propertyNames ?? true, name));
    for (const name of names.slice(0, 1)) {
      candidates.push(
        child(
          'propertyNames',
          name,
          false,
          'a property name propertyNames refuses',
          edited((entries, extra) => [...entries, [name, extra]]),
        ),
      );
    }
  }
  candidates.push(...countCandidates(site, context, shape.min, shape.max, required, edited));
  candidates.push(...dependencyCandidates(site, context, edited, child));
  return candidates;
}

function countCandidates(
  site: Site,
  context: Context,
  min: number,
  max: number | undefined,
  required: ReadonlySet<string>,
  edited: (edit: (entries: Entries, extra: ExactJson) => Entries) => fc.Arbitrary<ExactJson>,
): Candidate[] {
  const { place } = site;
  const trimmed =
    (count: number) =>
    (entries: Entries): Entries => {
      const kept = [...entries];
      for (let index = kept.length - 1; index >= 0 && kept.length > count; index--) {
        if (!required.has(kept[index]?.[0] ?? '')) kept.splice(index, 1);
      }
      return kept;
    };
  const padded =
    (count: number) =>
    (entries: Entries, extra: ExactJson): Entries => {
      const kept = [...entries];
      for (let index = 0; kept.length < count; index++) {
        const name = `extra${index}`;
        if (!kept.some(([key]) => key === name)) kept.push([name, extra]);
      }
      return trimmed(count)(kept);
    };
  const make = (keyword: string, valid: boolean, label: string, leaf: fc.Arbitrary<ExactJson>): Candidate => ({
    keyword,
    pointer: place.pointer,
    schemaPointer: childPointer(place.schemaPointer, keyword),
    valid,
    label: `${fieldName(place.pointer)} ${label}`,
    leaf,
    boundary: true,
  });
  void context;
  const candidates: Candidate[] = [];
  if (min > 0) {
    candidates.push(make('minProperties', true, `with exactly minProperties ${min} properties`, edited(padded(min))));
    candidates.push(
      make('minProperties', false, `with one property fewer than minProperties ${min}`, edited(trimmed(min - 1))),
    );
  }
  if (max !== undefined) {
    candidates.push(make('maxProperties', true, `with exactly maxProperties ${max} properties`, edited(padded(max))));
    candidates.push(
      make('maxProperties', false, `with one property more than maxProperties ${max}`, edited(padded(max + 1))),
    );
  }
  return candidates;
}

/** For `dependentRequired: {a: [b]}`: `a` present, `b` left out. */
function dependencyCandidates(
  site: Site,
  context: Context,
  edited: (edit: (entries: Entries, extra: ExactJson) => Entries) => fc.Arbitrary<ExactJson>,
  child: (keyword: string, name: string, valid: boolean, label: string, leaf: fc.Arbitrary<ExactJson>) => Candidate,
): Candidate[] {
  const dependent = (site.schema.dependentRequired as Record<string, string[]> | undefined) ?? {};
  const properties = (site.schema.properties as Record<string, unknown> | undefined) ?? {};
  const candidates: Candidate[] = [];
  for (const [name, needed] of Object.entries(dependent)) {
    const missing = needed[0];
    if (missing === undefined) continue;
    const schema = Object.hasOwn(properties, name) ? (properties[name] as Record<string, unknown> | boolean) : true;
    let value: fc.Arbitrary<ExactJson> | null;
    try {
      value = validArbitrary(schema, { ...site.place, pointer: childPointer(site.place.pointer, name) }, context);
    } catch {
      continue;
    }
    if (value === null) continue;
    const given = value;
    const leaf = fc
      .tuple(
        edited((entries) => entries.filter(([key]) => key !== missing && key !== name)),
        given,
      )
      .map(([object, present]) =>
        exactObject([...(Object.entries(object as Record<string, ExactJson>) as Entries), [name, present]]),
      );
    candidates.push(
      child(
        'dependentRequired',
        missing,
        false,
        `missing though ${JSON.stringify(name)} is present (dependentRequired)`,
        leaf,
      ),
    );
  }
  return candidates;
}
