import { DISCRIMINATOR_VALUES, INHERITED_BASE } from '../discriminator-values.js';
import { UnsupportedSchemaError, type SchemaDialect } from './compiled-schema.js';
import {
  ASSERTIONS,
  childPointer,
  NUMBER_KEYWORDS,
  REFUSED,
  SCHEMA_LIST,
  SCHEMA_MAP,
  SCHEMA_SINGLE,
} from './keywords.js';
import { mergeSchemas } from './merge.js';
import { LosslessNumber } from 'lossless-json';
import { decimalText, toDecimal } from './decimal.js';
import { graphCopier, mapLeaves, setOwnMember } from './json.js';

const NUMERIC: ReadonlySet<string> = new Set(NUMBER_KEYWORDS);

/**
 * A bound as JSON can hold it: a JS number when that is exact, else a lossless number (its text),
 * which `stringifyExactJson` writes digit for digit and the check judges exactly.
 */
function plainNumber(value: unknown): unknown {
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  const decimal = toDecimal(value);
  if (decimal === undefined) return value;
  const text = decimalText(decimal);
  const double = Number(text);
  return toDecimal(double) !== undefined && decimalText(toDecimal(double) ?? decimal) === text
    ? double
    : new LosslessNumber(text);
}

/** Keywords whose values are listed data: their `bigint`s (integers beyond 2^53) become lossless numbers. */
const LISTING = new Set(['enum', 'const']);

/** A listed value with each `bigint` at any depth as {@link plainNumber} writes it (JSON cannot hold a `bigint`). */
function plainNumbers(value: unknown): unknown {
  return mapLeaves(value, (leaf) => (typeof leaf === 'bigint' ? plainNumber(leaf) : leaf));
}

/** A schema in canonical 2020-12 form: an object of keywords, or `true`/`false`. */
export type Schema = Record<string, unknown> | boolean;

/** The canonical schema, and where each of its objects came from in the schema given. */
export interface Canonical {
  readonly schema: Record<string, unknown>;
  /** Canonical subschemas of recursive parts, by name (also in `schema.$defs`). */
  readonly defs: Readonly<Record<string, Schema>>;
  /** The pointer in the given schema of each canonical object, for refusals. */
  readonly origin: WeakMap<object, string>;
  /**
   * Canonical objects where OpenAPI 3.0 leaves null open: `nullable: true` beside an `enum` that does not list
   * null. Their `enum` here leaves null out (so it is never generated); {@link withNullJoined} adds it (so it is
   * never faulted).
   */
  readonly nullOpen: ReadonlySet<object>;
  /** Each `if`/`then`/`else`, canonical, by the `anyOf` array that stands for it (for variants that break it). */
  readonly conditionals: WeakMap<object, Conditional>;
  /**
   * Objects closed by `unevaluatedProperties` (canonically `additionalProperties`), and their `properties`
   * maps (which copies of the object keep), for variants named by the keyword the document wrote.
   */
  readonly closedByUnevaluated: WeakSet<object>;
  /**
   * The `oneOf`/`anyOf` arrays of schemas with a `discriminator` that names the values picking each branch.
   * Their branches here also hold the discriminating property to those values (what a server routing by it,
   * Jackson's `@JsonTypeInfo` or pydantic's discriminated union, accepts), so valid values are never of
   * another kind; {@link withNullJoined} puts back each branch as JSON Schema alone reads it (`lenientBranches`).
   */
  readonly discriminated: WeakSet<object>;
  /** Each branch so tightened, and the branch as JSON Schema reads it. */
  readonly lenientBranches: ReadonlyMap<object, Schema>;
  /**
   * The discriminated `oneOf` arrays the document wrote (not a base standing for its subtypes, which JSON Schema
   * alone reads as the base): JSON Schema alone takes a value matching exactly one of their branches as written.
   */
  readonly exclusive: WeakSet<object>;
  /**
   * The discriminated `oneOf` arrays that stand for a base schema's subtypes, and the base as JSON Schema alone
   * reads the document (the body names the base, whose `kind` is any string): what takes a value then.
   */
  readonly inheritedBases: WeakMap<object, Schema>;
}

/** An `if`/`then`/`else` as written beside the `anyOf` it was read as; `then`/`else` absent say nothing. */
export interface Conditional {
  readonly if: Schema;
  readonly then: Schema | undefined;
  readonly else: Schema | undefined;
  /** For `dependentSchemas`, written as this conditional (`if: {required: [name]}`): the property's name. */
  readonly dependent?: string;
}

/** Where a conditional was written: the node, its pointer, and the property of a `dependentSchemas` entry. */
interface WrittenConditional {
  readonly written: Record<string, unknown>;
  readonly pointer: string;
  readonly dependent?: string;
}

interface State {
  readonly dialect: SchemaDialect;
  readonly recursive: Set<object>;
  readonly names: Map<object, string>;
  readonly defs: Record<string, Schema>;
  readonly done: Map<object, Schema>;
  readonly origin: WeakMap<object, string>;
  readonly nullOpen: Set<object>;
  /** The `anyOf` node written for each conditional, with the node that wrote it and its pointer. */
  readonly conditionalNodes: WeakMap<object, WrittenConditional>;
  readonly conditionals: WeakMap<object, Conditional>;
  readonly closedByUnevaluated: WeakSet<object>;
  readonly discriminated: WeakSet<object>;
  readonly lenientBranches: Map<object, Schema>;
  readonly exclusive: WeakSet<object>;
  readonly inheritedBases: WeakMap<object, Schema>;
}

/**
 * Turns a dereferenced schema (possibly a cyclic object graph) into a plain JSON Schema 2020-12
 * object: OpenAPI 3.0 keywords translated, annotations dropped, cycles turned into `$defs` and
 * `$ref`, `allOf` merged where that keeps the meaning. Refuses what the compiler cannot honour.
 */
export function canonicalise(schema: object, dialect: SchemaDialect): Canonical {
  const state: State = {
    dialect,
    recursive: findRecursive(schema),
    names: new Map(),
    defs: {},
    done: new Map(),
    origin: new WeakMap(),
    nullOpen: new Set(),
    conditionalNodes: new WeakMap(),
    conditionals: new WeakMap(),
    closedByUnevaluated: new WeakSet(),
    discriminated: new WeakSet(),
    lenientBranches: new Map(),
    exclusive: new WeakSet(),
    inheritedBases: new WeakMap(),
  };
  let root = translate(schema, '', state);
  if (typeof root === 'boolean') root = root ? {} : { not: {} };
  const canonical = Object.keys(state.defs).length > 0 ? { ...root, $defs: state.defs } : root;
  state.origin.set(canonical, '');
  const { defs, origin, nullOpen, conditionals, closedByUnevaluated, discriminated, lenientBranches } = state;
  const { exclusive, inheritedBases } = state;
  return {
    schema: canonical,
    defs,
    origin,
    nullOpen,
    conditionals,
    closedByUnevaluated,
    discriminated,
    lenientBranches,
    exclusive,
    inheritedBases,
  };
}

/**
 * The canonical schema with null joined to each enum where OpenAPI 3.0 leaves it open (`nullOpen`), and each
 * discriminated `oneOf` read both ways (`lenientBranches`): a value is valid when the discriminator's reading
 * (the tightened branches) or JSON Schema's alone (the branches as written) takes it, `anyOf: [{oneOf: tightened},
 * {oneOf: written}]`. This reading judges, so a target following either reading is not faulted, and a value
 * neither takes (no mapped kind, and two branches matched) is.
 */
export function withNullJoined(canonical: Canonical): Record<string, unknown> {
  if (canonical.nullOpen.size === 0 && canonical.lenientBranches.size === 0) return canonical.schema;
  const fill = (node: Record<string, unknown>, out: Record<string, unknown>): void => {
    for (const [key, value] of Object.entries(node)) {
      const [name, read] = key === 'oneOf' && !('anyOf' in node) ? eitherReading(value) : [key, lenient(value)];
      setOwnMember(out, name, read);
    }
    if (canonical.nullOpen.has(node)) joinNull(out, node);
  };
  const lenient = graphCopier(fill, (node) => canonical.lenientBranches.get(node));
  // A discriminated oneOf's branches as tightened by their kind; below them, read as everywhere else.
  const tightened = graphCopier(fill);
  // By its kind, or as JSON Schema alone reads the document: its branches as written, or the base they stand for.
  const eitherReading = (branches: unknown): [string, unknown] => {
    if (!canonical.discriminated.has(branches as object)) return ['oneOf', lenient(branches)];
    const base = canonical.inheritedBases.get(branches as object);
    if (base !== undefined) return ['anyOf', [{ oneOf: tightened(branches) }, lenient(base)]];
    if (!canonical.exclusive.has(branches as object)) return ['anyOf', lenient(branches)];
    return ['anyOf', [{ oneOf: tightened(branches) }, { oneOf: lenient(branches) }]];
  };
  return lenient(canonical.schema) as Record<string, unknown>;
}

/**
 * The canonical schema read the strict way: null left out where OpenAPI 3.0 leaves it open, and each
 * discriminated `oneOf` taking only what both readings take, its tightened branches (`oneOf`) and the branches
 * as written (one more `allOf` part): what the ambiguities of a value the judging reading accepts are found by.
 */
export function bothReadings(canonical: Canonical): Record<string, unknown> {
  if (canonical.lenientBranches.size === 0) return canonical.schema;
  const copy = graphCopier((node, out) => {
    for (const [key, value] of Object.entries(node)) setOwnMember(out, key, copy(value));
    const { oneOf } = node;
    if (Array.isArray(oneOf) && canonical.exclusive.has(oneOf)) {
      const written = oneOf.map((branch: unknown) =>
        copy(isObject(branch) ? (canonical.lenientBranches.get(branch) ?? branch) : branch),
      );
      out.allOf = [...((out.allOf as unknown[] | undefined) ?? []), { oneOf: written }];
    }
  });
  return copy(canonical.schema) as Record<string, unknown>;
}

/**
 * Null added to an open node's `enum` (OpenAPI 3.0 `nullable` beside an enum), `type` (3.1's stray `nullable`)
 * or `anyOf`/`oneOf` (3.0's `nullable` beside a union without `type`).
 */
function joinNull(out: Record<string, unknown>, node: Record<string, unknown>): void {
  if (Array.isArray(node.enum) && !node.enum.includes(null)) out.enum = [...(node.enum as unknown[]), null];
  if (node.type === undefined) {
    // OpenAPI 3.0's `nullable: true` beside an `anyOf`/`oneOf` without `type`: a branch of its own for null.
    for (const keyword of ['anyOf', 'oneOf'] as const) {
      const branches = out[keyword];
      if (Array.isArray(branches) && !(branches as unknown[]).some(takesNullItself))
        out[keyword] = [...(branches as unknown[]), { type: 'null' }];
    }
    return;
  }
  const types = Array.isArray(node.type) ? (node.type as unknown[]) : [node.type];
  if (!types.includes('null')) out.type = [...types, 'null'];
}

/** The subschemas directly inside a schema object, with their pointers. */
export function subschemas(node: Record<string, unknown>, pointer: string): [unknown, string][] {
  const found: [unknown, string][] = [];
  for (const keyword of SCHEMA_SINGLE) {
    const value = node[keyword];
    if (Array.isArray(value))
      value.forEach((item, index) => found.push([item, childPointer(childPointer(pointer, keyword), index)]));
    else if (value !== undefined) found.push([value, childPointer(pointer, keyword)]);
  }
  for (const keyword of SCHEMA_LIST) {
    const value = node[keyword];
    if (Array.isArray(value))
      value.forEach((item, index) => found.push([item, childPointer(childPointer(pointer, keyword), index)]));
  }
  for (const keyword of SCHEMA_MAP) {
    const value = node[keyword];
    if (isObject(value)) {
      for (const [name, item] of Object.entries(value))
        found.push([item, childPointer(childPointer(pointer, keyword), name)]);
    }
  }
  return found;
}

/** Objects reachable from themselves: the targets of back edges of a depth-first walk. */
function findRecursive(root: object): Set<object> {
  const recursive = new Set<object>();
  const onPath = new Set<object>();
  const finished = new Set<object>();
  const visit = (node: unknown): void => {
    if (!isObject(node) || finished.has(node)) return;
    if (onPath.has(node)) {
      recursive.add(node);
      return;
    }
    onPath.add(node);
    for (const [child] of subschemas(node, '')) visit(child);
    onPath.delete(node);
    finished.add(node);
  };
  visit(root);
  return recursive;
}

function translate(node: unknown, pointer: string, state: State): Schema {
  if (typeof node === 'boolean') return node;
  if (!isObject(node)) throw new UnsupportedSchemaError('type', pointer, 'a schema must be an object or a boolean');
  if (state.recursive.has(node)) return { $ref: `#/$defs/${define(node, pointer, state)}` };
  const cached = state.done.get(node);
  if (cached !== undefined) return cached;
  const result = translateBody(node, pointer, state);
  state.done.set(node, result);
  return result;
}

function define(node: Record<string, unknown>, pointer: string, state: State): string {
  const known = state.names.get(node);
  if (known !== undefined) return known;
  // Letters, digits and a few marks only: a name is a $ref path segment and a key of $defs.
  const title = typeof node.title === 'string' ? node.title.replace(/[^A-Za-z0-9.-]/g, '') : '';
  let name = title || 'Schema';
  for (let index = 2; Object.hasOwn(state.defs, name); index++) name = `${title || 'Schema'}${index}`;
  state.names.set(node, name);
  state.defs[name] = true;
  state.defs[name] = translateBody(node, pointer, state);
  return name;
}

function translateBody(written: Record<string, unknown>, pointer: string, state: State): Schema {
  const out: Record<string, unknown> = {};
  const node = withoutConditional(written, pointer, state);
  for (const [keyword, value] of Object.entries(node)) {
    const reason = Object.hasOwn(REFUSED, keyword) ? REFUSED[keyword] : undefined;
    if (reason !== undefined) throw new UnsupportedSchemaError(keyword, childPointer(pointer, keyword), reason);
    if (ASSERTIONS.has(keyword))
      out[keyword] = NUMERIC.has(keyword) ? plainNumber(value) : LISTING.has(keyword) ? plainNumbers(value) : value;
  }
  translateChildren(node, out, pointer, state);
  const dialected = translateBounds(out, pointer);
  state.origin.set(dialected, pointer);
  // After merging: `nullable: true` beside an `allOf` of a typed schema means that type or null.
  const allOfMerged = mergeAllOf(dialected, pointer, state.nullOpen);
  const merged = translateNullable(node, closeUnevaluated(node, allOfMerged, pointer, state), state);
  state.origin.set(merged, pointer);
  return withBase64Content(node, merged, pointer, state);
}

/**
 * 3.1's `contentEncoding: base64` (OpenAPI 3.0's `format: byte`): an annotation to JSON Schema, a rule to
 * a server that decodes it. Valid values are base64 (`format: byte`); judging is JSON Schema's, so a value
 * that is not base64 is of unpredictable meaning (`lenientBranches`), sent neither as valid nor as invalid.
 */
function withBase64Content(node: Record<string, unknown>, merged: Schema, pointer: string, state: State): Schema {
  const encoding = node.contentEncoding;
  if (state.dialect !== 'openapi-3.1' || typeof encoding !== 'string' || encoding.toLowerCase() !== 'base64')
    return merged;
  if (!isObject(merged) || merged.format !== undefined) return merged;
  const types = Array.isArray(merged.type) ? (merged.type as unknown[]) : [merged.type];
  if (merged.type !== undefined && !types.includes('string')) return merged;
  const strict = { ...merged, format: 'byte' };
  state.origin.set(strict, pointer);
  state.lenientBranches.set(strict, merged);
  return strict;
}

/**
 * `if`/`then`/`else` as the schema it stands for (hypothesis-jsonschema's rewrite): a value meets the
 * `if` and the `then`, or fails the `if` and meets the `else`. Without an `if`, `then` and `else` say
 * nothing (JSON Schema 2020-12, 10.2.2).
 */
function withoutConditional(written: Record<string, unknown>, pointer: string, state: State): Record<string, unknown> {
  const node = withoutDependentSchemas(written, pointer, state);
  if (node.if === undefined && node.then === undefined && node.else === undefined) return node;
  const { if: condition, then: consequent, else: alternative, ...rest } = node;
  if (condition === undefined) return rest;
  const branches = {
    anyOf: [{ allOf: [condition, consequent ?? true] }, { allOf: [{ not: condition }, alternative ?? true] }],
  };
  state.conditionalNodes.set(branches, { written: node, pointer });
  return { ...rest, allOf: [...(Array.isArray(rest.allOf) ? (rest.allOf as unknown[]) : []), branches] };
}

/**
 * `dependentSchemas: {potted: S}` as the conditional it is, `if: {required: [potted]}, then: S` (JSON Schema
 * 2020-12, 10.2.2.4: S applies when the property is present), one for each property, each read as an
 * `if`/`then` is and named by the keyword the document wrote.
 */
function withoutDependentSchemas(
  node: Record<string, unknown>,
  pointer: string,
  state: State,
): Record<string, unknown> {
  const { dependentSchemas: dependents, ...rest } = node;
  if (dependents === undefined) return node;
  const at = childPointer(pointer, 'dependentSchemas');
  if (!isObject(dependents))
    throw new UnsupportedSchemaError('dependentSchemas', at, 'dependentSchemas must be an object');
  const parts = Object.entries(dependents).map(([name, schema]) => {
    const condition = { required: [name] };
    const branches = { anyOf: [{ allOf: [condition, schema] }, { not: condition }] };
    state.conditionalNodes.set(branches, {
      written: { if: condition, then: schema },
      pointer: childPointer(at, name),
      dependent: name,
    });
    return branches;
  });
  if (parts.length === 0) return rest;
  return { ...rest, allOf: [...(Array.isArray(rest.allOf) ? (rest.allOf as unknown[]) : []), ...parts] };
}

/** The canonical `if`, `then` and `else` of a conditional, at the pointers they are written at. */
function translateConditional(conditional: WrittenConditional, state: State): Conditional {
  const { written, pointer, dependent } = conditional;
  // A dependentSchemas entry is its `then`, written at the entry's own pointer; its `if` is implied there.
  const where = (keyword: string): string => (dependent === undefined ? childPointer(pointer, keyword) : pointer);
  const part = (keyword: 'then' | 'else'): Schema | undefined =>
    written[keyword] === undefined ? undefined : translate(written[keyword], where(keyword), state);
  const translated = { if: translate(written.if, where('if'), state), then: part('then'), else: part('else') };
  return dependent === undefined ? translated : { ...translated, dependent };
}

/**
 * `unevaluatedProperties` where the properties it closes over are known without evaluating: once the
 * `allOf` parts are merged into the object (as `additionalProperties` sees its siblings), it means
 * `additionalProperties`; beside a merged `additionalProperties` it closes nothing more. Beside
 * `anyOf`, `oneOf` or a part that could not be merged, which properties count as evaluated depends on
 * the value: refused.
 */
function closeUnevaluated(
  node: Record<string, unknown>,
  merged: Record<string, unknown>,
  pointer: string,
  state: State,
): Record<string, unknown> {
  if (node.unevaluatedProperties === undefined) return merged;
  const at = childPointer(pointer, 'unevaluatedProperties');
  const declared = isObject(merged.properties) ? new Set(Object.keys(merged.properties)) : new Set<string>();
  const open = ['allOf', 'anyOf', 'oneOf', '$ref'].filter(
    (keyword) => merged[keyword] !== undefined && !declaresOnly(merged[keyword], declared),
  );
  if (open.length > 0) {
    throw new UnsupportedSchemaError(
      'unevaluatedProperties',
      at,
      `unevaluatedProperties is supported where the object's properties are known without evaluating (its own and those of allOf parts that merge into it), not beside ${open.join(', ')}; close the object with additionalProperties, or merge the parts`,
    );
  }
  if (merged.additionalProperties !== undefined) return merged;
  const closed: Record<string, unknown> = {
    ...merged,
    additionalProperties: translate(node.unevaluatedProperties, at, state),
  };
  state.closedByUnevaluated.add(closed);
  if (isObject(closed.properties)) state.closedByUnevaluated.add(closed.properties);
  return closed;
}

/**
 * Whether subschemas (an `anyOf` of `if`/`then` branches, say) can mark as evaluated no property beyond
 * `declared`: they name only properties already declared, and nothing that evaluates others.
 */
function declaresOnly(schemas: unknown, declared: ReadonlySet<string>): boolean {
  if (typeof schemas === 'boolean') return true;
  if (Array.isArray(schemas)) return schemas.every((schema) => declaresOnly(schema, declared));
  if (!isObject(schemas)) return false;
  const evaluatesOthers = ['$ref', 'additionalProperties', 'patternProperties', 'unevaluatedProperties'];
  if (evaluatesOthers.some((keyword) => schemas[keyword] !== undefined)) return false;
  if (isObject(schemas.properties) && Object.keys(schemas.properties).some((name) => !declared.has(name))) return false;
  return ['allOf', 'anyOf', 'oneOf'].every(
    (keyword) => schemas[keyword] === undefined || declaresOnly(schemas[keyword], declared),
  );
}

/**
 * For a schema with a `discriminator` and the values picking each branch (`DISCRIMINATOR_VALUES`, written by
 * the document reader), the schema each branch is tightened with: the property present, one of its values.
 */
function discriminatorValues(node: Record<string, unknown>, branches: number): Schema[] | undefined {
  const { discriminator } = node;
  const values = node[DISCRIMINATOR_VALUES];
  if (!isObject(discriminator) || typeof discriminator.propertyName !== 'string') return undefined;
  if (!Array.isArray(values) || values.length !== branches) return undefined;
  const property = discriminator.propertyName;
  return values.map((picking: unknown) => ({
    type: 'object',
    required: [property],
    properties: { [property]: { enum: Array.isArray(picking) ? picking : [] } },
  }));
}

function translateChildren(
  node: Record<string, unknown>,
  out: Record<string, unknown>,
  pointer: string,
  state: State,
): void {
  for (const keyword of ['additionalProperties', 'propertyNames', 'contains', 'not'] as const) {
    if (node[keyword] !== undefined) out[keyword] = translate(node[keyword], childPointer(pointer, keyword), state);
  }
  translateItems(node, out, pointer, state);
  for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = node[keyword];
    if (list === undefined) continue;
    if (!Array.isArray(list) || list.length === 0) {
      throw new UnsupportedSchemaError(
        keyword,
        childPointer(pointer, keyword),
        `${keyword} must be a non-empty array of schemas`,
      );
    }
    const values = keyword === 'allOf' ? undefined : discriminatorValues(node, list.length);
    out[keyword] = list.map((item, index) => {
      const at = childPointer(childPointer(pointer, keyword), index);
      const lenient = translate(item, at, state);
      const picked = values?.[index];
      if (picked === undefined) return lenient;
      const strict = translate({ allOf: [item, picked] }, at, state);
      if (isObject(strict)) state.lenientBranches.set(strict, lenient);
      return strict;
    });
    if (values !== undefined) state.discriminated.add(out[keyword] as object);
    if (values !== undefined && keyword === 'oneOf' && node[INHERITED_BASE] === undefined)
      state.exclusive.add(out[keyword] as object);
    if (values !== undefined && node[INHERITED_BASE] !== undefined) {
      const base = translate(node[INHERITED_BASE], childPointer(pointer, INHERITED_BASE), state);
      state.inheritedBases.set(out[keyword] as object, base);
    }
  }
  const conditional = state.conditionalNodes.get(node);
  if (conditional !== undefined) state.conditionals.set(out.anyOf as object, translateConditional(conditional, state));
  for (const keyword of ['properties', 'patternProperties'] as const) {
    const map = node[keyword];
    if (map === undefined) continue;
    if (!isObject(map))
      throw new UnsupportedSchemaError(keyword, childPointer(pointer, keyword), `${keyword} must be an object`);
    const translated: Record<string, Schema> = {};
    for (const [name, item] of Object.entries(map)) {
      if (name === '__proto__') {
        // ajv skips a schema key named __proto__ (a guard against prototype pollution): it cannot be judged.
        const at = childPointer(childPointer(pointer, keyword), name);
        throw new UnsupportedSchemaError(
          keyword,
          at,
          'a property named __proto__ cannot be validated (ajv ignores it)',
        );
      }
      setOwnMember(translated, name, translate(item, childPointer(childPointer(pointer, keyword), name), state));
    }
    out[keyword] = translated;
  }
}

/** `items` as a list (draft 4 to 2019-09 tuples) becomes `prefixItems`, `additionalItems` becomes `items`. */
function translateItems(
  node: Record<string, unknown>,
  out: Record<string, unknown>,
  pointer: string,
  state: State,
): void {
  const items = node.items;
  const at = (keyword: string, index?: number): string =>
    index === undefined ? childPointer(pointer, keyword) : childPointer(childPointer(pointer, keyword), index);
  if (Array.isArray(items)) {
    out.prefixItems = items.map((item, index) => translate(item, at('items', index), state));
    if (node.additionalItems !== undefined) out.items = translate(node.additionalItems, at('additionalItems'), state);
  } else if (items !== undefined) {
    out.items = translate(items, at('items'), state);
  }
  if (Array.isArray(node.prefixItems)) {
    out.prefixItems = node.prefixItems.map((item, index) => translate(item, at('prefixItems', index), state));
  }
}

/** OpenAPI 3.0's boolean exclusive bounds (also accepted, leniently, in a 3.1 document). */
function translateBounds(out: Record<string, unknown>, pointer: string): Record<string, unknown> {
  for (const [exclusive, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof out[exclusive] !== 'boolean') continue;
    if (out[exclusive] === true) {
      if (out[bound] === undefined) {
        throw new UnsupportedSchemaError(
          exclusive,
          childPointer(pointer, exclusive),
          `${exclusive}: true needs ${bound}`,
        );
      }
      out[exclusive] = out[bound];
      delete out[bound];
    } else {
      delete out[exclusive];
    }
  }
  return out;
}

/**
 * OpenAPI 3.0's `nullable: true`: null joins the types. Beside an `enum` without null the readings differ
 * (3.0.0-3.0.2 tools add null to the enum; 3.0.3 says the enum may still refuse it): the node is marked open.
 */
function translateNullable(
  node: Record<string, unknown>,
  merged: Record<string, unknown>,
  state: State,
): Record<string, unknown> {
  if (node.nullable !== true) return merged;
  if (state.dialect !== 'openapi-3.0') {
    // Not a 3.1 keyword, but generators (and authors) still write it, and ajv (Fastify, express-openapi-validator)
    // honours it: null is open there, never sent and never faulted (see withNullJoined).
    const open = { ...merged };
    if (open.type !== undefined || Array.isArray(open.enum)) state.nullOpen.add(open);
    return open;
  }
  const out = { ...merged };
  if (partRefusesNull(node, (part) => state.conditionalNodes.has(part))) {
    // Beside an `allOf` (Swashbuckle's nullable reference, TypeSpec's `Pot | null`, a `$ref` the reader moved
    // there) the readings differ: 3.0.3's `nullable` works "within a single Schema Object", so a part that refuses
    // null refuses it (openapi-core), while the generators' servers (ASP.NET, kin-openapi) take it. Open.
    state.nullOpen.add(out);
  } else if (out.type !== undefined) {
    const types = Array.isArray(out.type) ? (out.type as unknown[]) : [out.type];
    if (!types.includes('null')) out.type = [...types, 'null'];
  } else if (unionWithoutNull(out)) {
    // Without `type` the readings differ: 3.0.3 adds null "only if type is explicitly defined" (the branches then
    // refuse it), converters (openapi-schema-to-json-schema) add a null branch. Open, as beside an enum: null is
    // never generated (here) and never faulted (joinNull adds the branch).
    state.nullOpen.add(out);
  }
  if (Array.isArray(out.enum) && !out.enum.includes(null)) state.nullOpen.add(out);
  return out;
}

/**
 * Whether an `allOf` part of the written node refuses null on its own: it has a `type`, an `enum` or a `const`
 * without null and no `nullable: true`, or is a union none of whose branches takes null, or an `allOf` with such
 * a part. The parts `rewritten` names (where a conditional, `if`/`then` or `dependentSchemas`, was rewritten to
 * them) are no written parts. `validate`'s read-as line asks the same of the document as written.
 */
export function partRefusesNull(
  node: Record<string, unknown>,
  rewritten: (part: object) => boolean = () => false,
): boolean {
  const seen = new Set<object>();
  const refuses = (part: unknown): boolean => {
    if (!isObject(part) || seen.has(part) || rewritten(part) || part.nullable === true) return false;
    seen.add(part);
    const types = Array.isArray(part.type) ? (part.type as unknown[]) : [part.type];
    if (part.type !== undefined && !types.includes('null')) return true;
    if (Array.isArray(part.enum) && !part.enum.includes(null)) return true;
    if ('const' in part && part.const !== null) return true;
    return unionWithoutNull(part) || (Array.isArray(part.allOf) && part.allOf.some(refuses));
  };
  return Array.isArray(node.allOf) && node.allOf.some(refuses);
}

/**
 * An `anyOf`/`oneOf` none of whose branches names null (drf-spectacular's `NullEnum` branch, `enum: [null]`,
 * already lets it in, and another null branch would make null match two branches of a oneOf).
 */
export function unionWithoutNull(node: Record<string, unknown>): boolean {
  return (['anyOf', 'oneOf'] as const).some(
    (keyword) => Array.isArray(node[keyword]) && !(node[keyword] as unknown[]).some(takesNullItself),
  );
}

/** Whether a branch names null itself: in its `type`, its `enum` or its `const`. */
function takesNullItself(branch: unknown): boolean {
  if (!isObject(branch)) return false;
  const types = Array.isArray(branch.type) ? (branch.type as unknown[]) : [branch.type];
  return types.includes('null') || (Array.isArray(branch.enum) && branch.enum.includes(null)) || branch.const === null;
}

/** Merges the `allOf` branches that can be merged into the schema; the rest stay in `allOf`. */
function mergeAllOf(node: Record<string, unknown>, pointer: string, nullOpen: Set<object>): Record<string, unknown> {
  const branches = node.allOf;
  if (!Array.isArray(branches)) return node;
  let merged: Record<string, unknown> = { ...node };
  delete merged.allOf;
  const rest: Schema[] = [];
  for (const branch of branches as Schema[]) {
    if (branch === true) continue;
    if (branch === false)
      throw new UnsupportedSchemaError('allOf', childPointer(pointer, 'allOf'), 'a branch is false: no value is valid');
    const result = mergeSchemas(merged, branch, nullOpen);
    if (result === 'conflict') {
      throw new UnsupportedSchemaError(
        'allOf',
        childPointer(pointer, 'allOf'),
        'the branches contradict each other: no value is valid',
      );
    }
    if (result === undefined) rest.push(branch);
    else merged = result;
  }
  if (rest.length > 0) merged.allOf = rest;
  return merged;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
