import fc from 'fast-check';
import type { Schema } from './canonicalise.js';
import type { ExactJson } from './compiled-schema.js';
import type { Context } from './context.js';
import { exactObject } from './json.js';
import { childPointer } from './keywords.js';
import { fieldName, type Candidate } from './leaf-variants.js';
import { objectShape, type ObjectShape } from './objects.js';
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

/**
 * Names tried for undeclared properties, the first undeclared one sent. A plain name first: a server
 * that refuses `__proto__` as prototype poisoning (Fastify's default) but strips or keeps other
 * undeclared properties would refuse that case for another reason and pass.
 */
const EXTRA_NAMES = ['unexpected', 'x-extra', 'constructor', 'toString', '', '__proto__'];
/** Names tried against `propertyNames`. */
const ODD_NAMES = ['', ' ', 'A', '0', '__proto__', 'a'.repeat(300), 'Ünïcödé key', '$ref'];

/** What the object candidates of one site share. */
interface ObjectSite {
  readonly site: Site;
  readonly shape: ObjectShape;
  readonly edited: Edit;
  /** An invalid candidate about the property `name` of the site's object. */
  readonly child: (keyword: string, name: string, label: string, leaf: fc.Arbitrary<ExactJson>) => Candidate;
}

/**
 * Object variants: a required property dropped, an undeclared property where none is allowed, a
 * name `propertyNames` refuses, the edges of `minProperties`/`maxProperties`, a dependency left out.
 */
export function objectCandidates(site: Site, context: Context): Candidate[] {
  let shape: ObjectShape;
  try {
    shape = objectShape(site.schema, site.place, context);
  } catch {
    return [];
  }
  const { place } = site;
  const extraValue = undeclaredValue(shape.additional, site, context);
  const edited: Edit = (edit) =>
    fc.tuple(site.valid, extraValue).map(([value, extra]) => exactObject(edit(entriesOf(value), extra)));
  const child: ObjectSite['child'] = (keyword, name, label, leaf) => ({
    keyword,
    pointer: childPointer(place.pointer, name),
    schemaPointer: childPointer(place.schemaPointer, keyword),
    valid: false,
    label: `${fieldName(childPointer(place.pointer, name))} ${label}`,
    leaf,
    boundary: false,
  });
  const object: ObjectSite = { site, shape, edited, child };
  const required = new Set((site.schema.required as string[] | undefined) ?? []);
  return [
    ...[...required].map((name) =>
      child(
        'required',
        name,
        'missing (required)',
        edited((entries) => entries.filter(([key]) => key !== name)),
      ),
    ),
    ...undeclaredCandidates(object, context),
    ...countCandidates(site, shape.min, shape.max, required, edited),
    ...dependencyCandidates(site, context, edited, child),
  ];
}

function closedByUnevaluated(schema: Record<string, unknown>, context: Context): boolean {
  const closed = context.canonical.closedByUnevaluated;
  return (
    closed.has(schema) ||
    (typeof schema.properties === 'object' && schema.properties !== null && closed.has(schema.properties))
  );
}

function entriesOf(value: ExactJson): Entries {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (Object.entries(value) as Entries) : [];
}

/** An undeclared property where `additionalProperties` is false, and a name `propertyNames` refuses. */
function undeclaredCandidates({ site, shape, edited, child }: ObjectSite, context: Context): Candidate[] {
  const declared = new Set(shape.fields.map((field) => field.name));
  const undeclared = (name: string): boolean =>
    !declared.has(name) && !shape.patterns.some((pattern) => pattern.regex.test(name));
  const candidates: Candidate[] = [];
  const extra = shape.additional === false ? EXTRA_NAMES.find(undeclared) : undefined;
  if (extra !== undefined) {
    // Named by the keyword the document wrote; the check judges `unevaluatedProperties` as the `additionalProperties` it means here.
    const unevaluated = closedByUnevaluated(site.schema, context);
    const keyword = unevaluated ? 'unevaluatedProperties' : 'additionalProperties';
    const label = `present though ${keyword} is false (an undeclared property ${JSON.stringify(extra)})`;
    const leaf = edited((entries) => [...entries.filter(([key]) => key !== extra), [extra, null]]);
    const candidate = child(keyword, extra, label, leaf);
    candidates.push(unevaluated ? { ...candidate, judgedAs: 'additionalProperties' } : candidate);
  }
  const names = shape.propertyNames;
  const refused =
    names === undefined ? undefined : ODD_NAMES.find((name) => undeclared(name) && !context.accepts(names, name));
  if (refused !== undefined) {
    const leaf = edited((entries, value) => [...entries, [refused, value]]);
    candidates.push(child('propertyNames', refused, 'a property name propertyNames refuses', leaf));
  }
  return candidates;
}

function countCandidates(
  site: Site,
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
  child: ObjectSite['child'],
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
    candidates.push(child('dependentRequired', missing, `missing though ${JSON.stringify(name)} is present`, leaf));
  }
  return candidates;
}
