import fc from 'fast-check';
import { LosslessNumber } from 'lossless-json';
import type { ExactJson, ValueVariant } from './compiled-schema.js';
import type { Context } from './context.js';
import { jsonKey, toExact } from './json.js';
import { childPointer, JSON_TYPES, type JsonType } from './keywords.js';
import { arrayCandidates } from './array-variants.js';
import { numberCandidates } from './number-variants.js';
import { conditionalCandidates } from './conditional-variants.js';
import { objectCandidates } from './object-variants.js';
import { stringCandidates } from './string-variants.js';
import { mergeSchemas } from './merge.js';
import { validArbitrary } from './valid.js';
import type { Site } from './variants.js';

/** A variant before its values are checked: `leaf` gives the value at the site (or the site's whole value). */
export interface Candidate extends Omit<ValueVariant, 'arbitrary'> {
  readonly leaf: fc.Arbitrary<ExactJson>;
  /** True for the edges of a constraint (listed in `boundaries`); invalid ones are listed in `invalid` too. */
  readonly boundary: boolean;
}

type Node = Record<string, unknown>;

/** Every candidate variant of the keywords of one site. */
export function candidatesAt(site: Site, context: Context): Candidate[] {
  const { schema } = site;
  if (typeof schema.$ref === 'string') return [];
  if (Array.isArray(schema.enum) || schema.const !== undefined) return enumCandidates(site);
  const types = declaredTypes(schema);
  return [
    ...combinatorCandidates(site, context),
    ...typeCandidates(site, types),
    ...(allows(types, 'string') ? stringCandidates(site, context) : []),
    ...(allows(types, 'integer') || allows(types, 'number') ? numberCandidates(site, types, context) : []),
    ...(allows(types, 'array') ? arrayCandidates(site, context) : []),
    ...(allows(types, 'object') ? objectCandidates(site, context) : []),
  ];
}

export function declaredTypes(schema: Node): JsonType[] | undefined {
  if (schema.type === undefined) return undefined;
  return (Array.isArray(schema.type) ? schema.type : [schema.type]) as JsonType[];
}

function allows(types: JsonType[] | undefined, type: JsonType): boolean {
  return types === undefined || types.includes(type) || (type === 'integer' && types.includes('number'));
}

/** How a place is named for people: `tag`, `plant.pot.size`, `tags[0]`, or `the body`. */
export function fieldName(pointer: string): string {
  if (pointer === '') return 'the body';
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part, index) => (/^\d+$/.test(part) ? `[${part}]` : index === 0 ? part : `.${part}`))
    .join('');
}

/** A candidate at the site itself. */
export function at(
  site: Site,
  keyword: string,
  valid: boolean,
  label: string,
  leaf: fc.Arbitrary<ExactJson>,
  boundary = true,
): Candidate {
  return {
    keyword,
    pointer: site.place.pointer,
    schemaPointer: childPointer(site.place.schemaPointer, keyword),
    valid,
    label: `${fieldName(site.place.pointer)} ${label}`,
    leaf,
    boundary,
  };
}

/**
 * A value matching no branch of `anyOf`/`oneOf`, one matching the `not` schema, and the values that break
 * an `if`/`then`/`else` (read as an `anyOf` the document does not write).
 */
function combinatorCandidates(site: Site, context: Context): Candidate[] {
  const candidates: Candidate[] = [];
  const conditional = Array.isArray(site.schema.anyOf)
    ? context.canonical.conditionals.get(site.schema.anyOf)
    : undefined;
  if (conditional !== undefined) candidates.push(...conditionalCandidates(site, conditional, context));
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    if (!Array.isArray(site.schema[keyword]) || (keyword === 'anyOf' && conditional !== undefined)) continue;
    const values = typesNoBranchTakes(site.schema[keyword] as unknown[], context).map((type) =>
      WRONG_TYPE_VALUES[type](),
    );
    const none = at(
      site,
      keyword,
      false,
      `matching none of the ${keyword} branches`,
      fc.constantFrom(...values),
      false,
    );
    candidates.push({ ...none, ...(judgedAsAnyOf(site, context, keyword) ? { judgedAs: 'anyOf' } : {}) });
  }
  // With a discriminator, a value matching two branches is one kind to a server routing by it: not sent.
  if (Array.isArray(site.schema.oneOf) && !context.canonical.discriminated.has(site.schema.oneOf)) {
    // Values of any branch; the variant keeps those that match a second branch too (where branches overlap).
    const anyBranch: Node = { ...site.schema, anyOf: site.schema.oneOf };
    delete anyBranch.oneOf;
    try {
      const leaf = validArbitrary(anyBranch, site.place, context);
      if (leaf !== null) candidates.push(at(site, 'oneOf', false, 'matching more than one oneOf branch', leaf, false));
    } catch {
      // No branch can be generated on its own: nothing to send.
    }
  }
  const not = site.schema.not;
  if (typeof not === 'object' && not !== null) {
    const base = { ...site.schema };
    delete base.not;
    const both = mergeSchemas(base, not as Record<string, unknown>);
    try {
      const leaf = both === undefined || both === 'conflict' ? null : validArbitrary(both, site.place, context);
      if (leaf !== null) candidates.push(at(site, 'not', false, 'matching the schema under not', leaf, false));
    } catch {
      // The rest of the schema and the `not` schema share no value: nothing to send.
    }
  }
  return candidates;
}

/**
 * The JSON types no branch declares, so a value "matching none of the branches" is of another type, not a value
 * of a branch's type that breaks its other keywords (`"text"` beside `anyOf: [{type: string, format: date-time},
 * {type: "null"}]` is the format's break); every type when a branch declares none (or names a part not at hand).
 */
function typesNoBranchTakes(branches: unknown[], context: Context): JsonType[] {
  const taken = new Set<string>();
  for (const branch of branches) {
    // A lone `$ref` read through; a `$ref` beside other keywords is read as it stands.
    const node = (context.dereferenced(branch) ?? branch) as Node;
    if (typeof node !== 'object' || node === null || node.type === undefined) return [...JSON_TYPES];
    for (const type of Array.isArray(node.type) ? node.type : [node.type]) taken.add(String(type));
  }
  if (taken.has('number')) taken.add('integer');
  const left = JSON_TYPES.filter((type) => !taken.has(type));
  return left.length > 0 ? left : [...JSON_TYPES];
}

/** Whether the check reads this `oneOf` as `anyOf`: under a discriminator it judges by either reading (`withNullJoined`). */
export function judgedAsAnyOf(site: Site, context: Context, keyword: 'anyOf' | 'oneOf'): boolean {
  return (
    keyword === 'oneOf' && context.canonical.discriminated.has(site.schema.oneOf as object) && !('anyOf' in site.schema)
  );
}

/** One value of each JSON type the schema does not allow. */
const WRONG_TYPE_VALUES: Record<JsonType, () => ExactJson> = {
  null: () => null,
  boolean: () => true,
  integer: () => 0n,
  number: () => new LosslessNumber('1.5'),
  string: () => 'text',
  array: () => [],
  object: () => toExact({}),
};

function typeCandidates(site: Site, types: JsonType[] | undefined): Candidate[] {
  if (types === undefined) return [];
  const named = types.join(' or ');
  return JSON_TYPES.filter((type) => !allows(types, type) && !(type === 'number' && types.includes('integer'))).map(
    (type) =>
      at(site, 'type', false, `not of type ${named}: ${article(type)}`, fc.constant(WRONG_TYPE_VALUES[type]()), false),
  );
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** Each listed value (valid) and near misses of them (invalid). */
function enumCandidates(site: Site): Candidate[] {
  const keyword = site.schema.const !== undefined ? 'const' : 'enum';
  const listed = (keyword === 'const' ? [site.schema.const] : (site.schema.enum as unknown[])).map(toExact);
  const shown = JSON.stringify(keyword === 'const' ? site.schema.const : site.schema.enum, (_key, value: unknown) =>
    typeof value === 'bigint' ? String(value) : value,
  );
  const keys = new Set(listed.map(jsonKey));
  const candidates = listed.map((value) =>
    at(site, keyword, true, `${keyword} value ${jsonKey(value)}`, fc.constant(value)),
  );
  const unlisted = (miss: ExactJson): boolean => !keys.has(jsonKey(miss));
  const rule = keyword === 'const' ? `not the const ${shown}` : `not one of enum ${shown}`;
  // A listed value in other letter case is a case of its own, sent every run: servers matching enums
  // case-insensitively (Jackson's ACCEPT_CASE_INSENSITIVE_ENUMS, `.lower() in`, EqualFold) are common.
  const misses = listed.flatMap(nearMisses).filter(unlisted);
  if (misses.length > 0) candidates.push(at(site, keyword, false, rule, fc.constantFrom(...misses)));
  const recased = listed.flatMap(otherCase).filter(unlisted);
  // Its own label: variants of one keyword, place and label are sent as one (invalid-body.ts).
  const recasedRule = `${rule} (a listed value in other letter case)`;
  if (recased.length > 0) candidates.push(at(site, keyword, false, recasedRule, fc.constantFrom(...recased)));
  return candidates;
}

/** A listed string in other letter case: `cactus` → `CACTUS`, `Cactus`; none for a string without letters. */
function otherCase(value: ExactJson): ExactJson[] {
  if (typeof value !== 'string') return [];
  const capitalised = value.charAt(0).toUpperCase() + value.slice(1).toLowerCase();
  const swapped = value.toUpperCase() === value ? value.toLowerCase() : value.toUpperCase();
  return [...new Set([swapped, capitalised])].filter((other) => other !== value);
}

/**
 * Values one typo away from a listed value: `cactus` → `cactuss`, `cactu`, ` cactus`; 3 → 4. Not the value in
 * other letter case: {@link otherCase} sends it under its own label, and drawn here too it made the finding's
 * title depend on which label drew `CACTUS` first (HS12's `tag.lower() in TAGS`: titled apart at seed 42 only).
 */
function nearMisses(value: ExactJson): ExactJson[] {
  if (typeof value === 'string') {
    const last = [...value].at(-1) ?? 'x';
    return [value + last, [...value].slice(0, -1).join(''), ` ${value}`];
  }
  if (typeof value === 'bigint') return [value + 1n, value - 1n];
  if (typeof value === 'boolean') return [!value];
  if (value === null) return ['null'];
  return [];
}
