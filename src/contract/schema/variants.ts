import fc from 'fast-check';
import { withoutLookarounds } from './lookarounds.js';
import type { SchemaCheck, Violation } from '../schemas.js';
import type { ExactJson, ValueVariant } from './compiled-schema.js';
import { Context, type Place } from './context.js';
import { asParsed, exactObject } from './json.js';
import { childPointer } from './keywords.js';
import { tupleArbitraries } from './array-variants.js';
import { candidatesAt, judgedAsAnyOf, type Candidate } from './leaf-variants.js';
import { mergeSchemas } from './merge.js';
import { validArbitrary } from './valid.js';
import { frameInside, NO_FRAME, sampleInFrame, type Frame } from './frame-sample.js';

type Node = Record<string, unknown>;

/** A place in the schema where variants are made, and how to put a value there inside a whole value. */
export interface Site {
  readonly schema: Node;
  readonly place: Place;
  /** Valid values at this place. */
  readonly valid: fc.Arbitrary<ExactJson>;
  /** Whole values (of the compiled schema) holding a value of `leaf` at this place, the rest valid. */
  readonly whole: (leaf: fc.Arbitrary<ExactJson>) => fc.Arbitrary<ExactJson>;
  /** The parts of `whole`, to sample its values with the parents drawn once for every leaf. */
  readonly frame: Frame;
}

/** The sample of `site.whole(leaf)` at seed 42 that decides whether a candidate is kept. */
export type SiteSampler = (site: Site, leaf: fc.Arbitrary<ExactJson>, tries: number) => readonly ExactJson[];

const sampleSite: SiteSampler = (site, leaf, tries) => sampleInFrame(site.frame, leaf, tries);

/** How deep in objects and arrays variants are made (`$ref`s and branches followed on the way are not counted). */
const MAX_DEPTH = 8;
/** How many sites, of any kind, a path may pass through (a branch naming its own schema ends here). */
const MAX_HOPS = 24;

/**
 * The boundary and invalid variants of every keyword at every place of the schema. Each variant's
 * values are checked as they are made: an invalid one fails at its keyword and pointer only, a valid
 * boundary passes; a candidate that cannot be made so (the sample shows) is left out.
 */
export function variantsOf(
  root: Node,
  valid: fc.Arbitrary<ExactJson>,
  generating: Context,
  check: SchemaCheck,
  sample: SiteSampler = sampleSite,
): { boundaries: ValueVariant[]; invalid: ValueVariant[] } {
  // Variants never use the caller's integer hook: their values are judged here, whole.
  const context = new Context(generating.canonical, { ...generating.options, integer: undefined });
  const rootValid = generating.options.integer === undefined ? valid : validArbitrary(root, rootPlace(), context);
  const boundaries: ValueVariant[] = [];
  const invalid: ValueVariant[] = [];
  // `branchAt`: the place of the innermost anyOf/oneOf the site is a branch of (nested ones report as the outermost).
  const visit = (site: Site, depth: number, hops: number, judged?: Judged, branchAt?: string): void => {
    for (const candidate of candidatesAt(site, context)) {
      // At a branch itself, a value of another type is the combinator's own "matching none" variant.
      if (branchAt === site.place.pointer && candidate.keyword === 'type') continue;
      const variant = realise(candidate, site, context, check, sample, judged);
      if (variant === undefined) continue;
      if (candidate.boundary) boundaries.push(variant);
      if (!variant.valid) invalid.push(variant);
    }
    if (depth >= MAX_DEPTH || hops >= MAX_HOPS) return;
    // A nested object's members three arrays down (beds[].rows[].pots[].size) are as much the document's rule.
    const deeper = (child: Site): number => (child.place.pointer === site.place.pointer ? depth : depth + 1);
    for (const child of childSites(site, context)) visit(child, deeper(child), hops + 1, judged, branchAt);
    for (const [branch, keyword] of branchSites(site, context)) {
      const reported = judgedAsAnyOf(site, context, keyword) ? 'anyOf' : keyword;
      visit(branch, depth, hops + 1, judged ?? { keyword: reported, pointer: site.place.pointer }, site.place.pointer);
    }
  };
  if (rootValid !== null) {
    visit({ schema: root, place: rootPlace(), valid: rootValid, whole: (leaf) => leaf, frame: NO_FRAME }, 0, 0);
  }
  return { boundaries, invalid };
}

function rootPlace(): Place {
  return { schemaPointer: '', pointer: '', refs: [] };
}

/**
 * How the check reports a keyword broken inside a branch of `anyOf`/`oneOf`: as the combinator, at the
 * place of the value the branches are alternatives for (ajv reports no branch's own keyword).
 */
interface Judged {
  readonly keyword: 'anyOf' | 'oneOf';
  readonly pointer: string;
}

/** A candidate as a variant whose values are all of its class, or `undefined` when they cannot be. */
function realise(
  candidate: Candidate,
  site: Site,
  context: Context,
  check: SchemaCheck,
  sample: SiteSampler,
  judged?: Judged,
): ValueVariant | undefined {
  const reported = judged?.keyword ?? candidate.judgedAs ?? candidate.keyword;
  const at = judged?.pointer ?? candidate.pointer;
  const expected = (violations: Violation[]): boolean =>
    candidate.valid
      ? violations.length === 0
      : violations.length > 0 &&
        violations.every((violation) => violation.keyword === reported && violation.pointer === at);
  try {
    const tries = 6;
    const arbitrary = context.filtered(
      site.whole(candidate.leaf),
      (value) => expected(check(asParsed(value))),
      { keyword: candidate.keyword, schemaPointer: candidate.schemaPointer, reason: 'no such value' },
      tries,
      1,
      sample(site, candidate.leaf, tries),
    );
    const { keyword, pointer, schemaPointer, valid, label } = candidate;
    const judgedAs = judged?.keyword ?? candidate.judgedAs;
    return {
      keyword,
      ...(judgedAs === undefined ? {} : { judgedAs }),
      pointer,
      ...(judged === undefined || judged.pointer === pointer ? {} : { judgedAt: judged.pointer }),
      schemaPointer,
      valid,
      label,
      arbitrary,
    };
  } catch {
    return undefined;
  }
}

/** The places inside a site's values: each declared property, the first item, a referenced part. */
function childSites(site: Site, context: Context): Site[] {
  const { schema, place } = site;
  if (typeof schema.$ref === 'string') return referencedSite(site, context);
  const sites: Site[] = [];
  const properties = (schema.properties as Record<string, unknown> | undefined) ?? {};
  const at = (keyword: string, name?: string): string =>
    name === undefined
      ? childPointer(place.schemaPointer, keyword)
      : childPointer(childPointer(place.schemaPointer, keyword), name);
  for (const [name, child] of Object.entries(properties))
    sites.push(...propertySite(site, name, child, at('properties', name), context));
  for (const [name, child, keyword] of undeclaredNames(schema, context)) {
    sites.push(...propertySite(site, name, child, `${place.schemaPointer}${keyword}`, context));
  }
  const items = schema.items;
  if (Array.isArray(schema.prefixItems)) sites.push(...tupleSites(site, context));
  if (typeof items === 'object' && items !== null && schema.prefixItems === undefined) {
    const childPlace: Place = {
      ...place,
      schemaPointer: childPointer(place.schemaPointer, 'items'),
      pointer: childPointer(place.pointer, 0),
    };
    const childValid = safeValid(items as Node, childPlace, context);
    if (childValid !== undefined) {
      sites.push({
        schema: items as Node,
        place: childPlace,
        valid: childValid,
        ...inside(site, site.valid, withFirstItem),
      });
    }
  }
  return sites;
}

/**
 * Each branch of the site's `anyOf`/`oneOf` (not one standing for an `if`/`then`/`else`) merged with the
 * rest of the site's schema, as a site of its own at the same place: the keywords inside a branch get
 * their boundaries and one-keyword breaks too (pydantic's `anyOf: [{type: string, maxLength: 30},
 * {type: "null"}]` for an optional constrained field, a `oneOf` of kinds). A value breaking one branch's
 * keyword is kept only where no other branch takes it (`realise` sees the combinator fail).
 */
function branchSites(site: Site, context: Context): [Site, 'anyOf' | 'oneOf'][] {
  const sites: [Site, 'anyOf' | 'oneOf'][] = [];
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const list = site.schema[keyword];
    if (!Array.isArray(list) || (keyword === 'anyOf' && context.canonical.conditionals.has(list))) continue;
    const base: Node = { ...site.schema };
    delete base[keyword];
    list.forEach((branch: unknown, index) => {
      const resolved = context.dereferenced(branch);
      const merged = resolved === undefined ? undefined : mergeSchemas(base, resolved);
      if (merged === undefined || merged === 'conflict' || typeof merged !== 'object') return;
      // A branch naming a schema on the path is followed as a `$ref` site is: once more, no deeper.
      const name = referencedName(branch, context);
      const refs = name === undefined ? site.place.refs : [...site.place.refs, name];
      if (name !== undefined && site.place.refs.filter((each) => each === name).length > 1) return;
      const place: Place = {
        ...site.place,
        schemaPointer: childPointer(childPointer(site.place.schemaPointer, keyword), index),
        refs,
      };
      const valid = safeValid(merged, place, context);
      if (valid !== undefined) sites.push([{ ...site, schema: merged, place, valid }, keyword]);
    });
  }
  return sites;
}

/** The definition a lone `$ref` branch names, else `undefined`. */
function referencedName(branch: unknown, context: Context): string | undefined {
  if (typeof branch !== 'object' || branch === null || Array.isArray(branch)) return undefined;
  const ref = (branch as Node).$ref;
  return typeof ref === 'string' ? context.definition(ref).name : undefined;
}

/** The site of each `prefixItems` position and of the first `items` after them, set in otherwise valid tuples. */
function tupleSites(site: Site, context: Context): Site[] {
  const { schema, place } = site;
  const tuple = tupleArbitraries(schema, place, context);
  if (tuple === undefined) return [];
  const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
  const max = typeof schema.maxItems === 'number' ? schema.maxItems : Infinity;
  const positions: [number, Node, fc.Arbitrary<ExactJson> | undefined, string][] = (
    schema.prefixItems as unknown[]
  ).map((item, index) => [
    index,
    item as Node,
    tuple.prefix[index],
    childPointer(childPointer(place.schemaPointer, 'prefixItems'), index),
  ]);
  if (typeof schema.items === 'object' && schema.items !== null)
    positions.push([tuple.prefix.length, schema.items as Node, tuple.rest, childPointer(place.schemaPointer, 'items')]);
  const sites: Site[] = [];
  for (const [index, itemSchema, valid, schemaPointer] of positions) {
    const length = Math.max(index + 1, min);
    const parent = length <= max ? tuple.ofLength(length) : undefined;
    if (valid === undefined || parent === undefined || typeof itemSchema !== 'object') continue;
    sites.push({
      schema: itemSchema,
      place: { ...place, schemaPointer, pointer: childPointer(place.pointer, index) },
      valid,
      ...inside(site, parent, (array, value) => withItemAt(array, index, value)),
    });
  }
  return sites;
}

function withItemAt(parent: ExactJson, index: number, value: ExactJson): ExactJson {
  if (!Array.isArray(parent)) return parent;
  return parent.map((item, position) => (position === index ? value : item));
}

/** The site of one property's value, set in otherwise valid objects. */
function propertySite(site: Site, name: string, schema: unknown, schemaPointer: string, context: Context): Site[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const childPlace: Place = { ...site.place, schemaPointer, pointer: childPointer(site.place.pointer, name) };
  const childValid = safeValid(schema as Node, childPlace, context);
  if (childValid === undefined) return [];
  const put = (parent: ExactJson, value: ExactJson): ExactJson => withProperty(parent, name, value);
  return [{ schema: schema as Node, place: childPlace, valid: childValid, ...inside(site, site.valid, put) }];
}

/** `whole` and its frame for a place inside the values of `parent` (at `site`), put there by `put`. */
function inside(
  site: Site,
  parent: fc.Arbitrary<ExactJson>,
  put: (parent: ExactJson, value: ExactJson) => ExactJson,
): Pick<Site, 'whole' | 'frame'> {
  return {
    whole: (leaf) => site.whole(fc.tuple(parent, leaf).map(([outer, value]) => put(outer, value))),
    frame: frameInside(site.frame, parent, put),
  };
}

/** One undeclared name for `additionalProperties` and for each of `patternProperties`, with its schema and pointer. */
function undeclaredNames(schema: Node, context: Context): [string, unknown, string][] {
  const declared = Object.keys((schema.properties as Node | undefined) ?? {});
  const patterns = Object.entries((schema.patternProperties as Node | undefined) ?? {}).map(
    ([source, child]) => [safeRegex(source), source, child] as const,
  );
  const names = schema.propertyNames as Node | boolean | undefined;
  const free = (name: string, own?: RegExp): boolean =>
    !declared.includes(name) &&
    patterns.every(([regex]) => regex === own || regex?.test(name) !== true) &&
    (names === undefined || context.accepts(names, name));
  const found: [string, unknown, string][] = [];
  const additional = schema.additionalProperties;
  const extra = ['extra', 'x-extra', 'other', 'a', 'z'].find((name) => free(name));
  if (typeof additional === 'object' && additional !== null && extra !== undefined) {
    found.push([extra, additional, '/additionalProperties']);
  }
  for (const [regex, source, child] of patterns) {
    if (regex === undefined) continue;
    // A pattern with lookarounds is drawn without them; its matches are kept.
    const relaxed = withoutLookarounds(regex.source);
    const drawn = relaxed === undefined ? regex : new RegExp(relaxed, regex.flags);
    const name = fc
      .sample(fc.stringMatching(drawn, { maxLength: 20 }), { numRuns: 30, seed: 7 })
      .find((candidate) => regex.test(candidate) && free(candidate, regex));
    if (name !== undefined)
      found.push([name, child, `/patternProperties/${source.replace(/~/g, '~0').replace(/\//g, '~1')}`]);
  }
  return found;
}

function safeRegex(source: string): RegExp | undefined {
  try {
    return new RegExp(source, 'u');
  } catch {
    return undefined;
  }
}

/** A `$ref` site continues at the referenced schema, at most twice per path (recursion is unrolled once for variants). */
function referencedSite(site: Site, context: Context): Site[] {
  const { name, target } = context.definition(String(site.schema.$ref));
  // A recursive reference is followed once more, so a value nested in itself (an offshoot of a plant) gets its cases.
  const entered = site.place.refs.filter((each) => each === name).length;
  if (typeof target !== 'object' || entered > 1 || Object.keys(site.schema).length > 1) return [];
  return [
    {
      ...site,
      schema: target,
      place: { ...site.place, schemaPointer: `/$defs/${name}`, refs: [...site.place.refs, name] },
    },
  ];
}

function safeValid(schema: Node, place: Place, context: Context): fc.Arbitrary<ExactJson> | undefined {
  try {
    return validArbitrary(schema, place, context) ?? undefined;
  } catch {
    return undefined;
  }
}

function withProperty(parent: ExactJson, name: string, value: ExactJson): ExactJson {
  if (parent === null || typeof parent !== 'object' || Array.isArray(parent)) return parent;
  const entries = Object.entries(parent as Record<string, ExactJson>).filter(([key]) => key !== name);
  return exactObject([...entries, [name, value]]);
}

function withFirstItem(parent: ExactJson, value: ExactJson): ExactJson {
  if (!Array.isArray(parent)) return parent;
  return [value, ...parent.slice(1)];
}
