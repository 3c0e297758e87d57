import { exactMember } from './compile-bodies.js';
import type { ExactIntegers } from './document-reader.js';
import { pointerSegments } from './document-pointer.js';
import type { JsonSchema } from './schemas.js';

/** What an object schema says about the top-level properties of its values. */
export interface ObjectView {
  /** Every property name, in declaration order: declared ones first, then names only `required` lists. */
  readonly names: readonly string[];
  /**
   * The subschema of each property declared by a part every value satisfies (the schema itself, its
   * `$ref` target, its `allOf` parts), in declaration order. The first declaration of a name wins.
   */
  readonly properties: ReadonlyMap<string, JsonSchema>;
  /** Names declared only in `anyOf`/`oneOf` branches: some valid values carry them, none must. */
  readonly alternatives: ReadonlySet<string>;
  /** Names every value must carry: `required` of the schema, its `$ref` target and `allOf` parts. */
  readonly required: ReadonlySet<string>;
  /** Every subschema that speaks about a name, alternatives included, in declaration order. */
  readonly declarations: ReadonlyMap<string, readonly JsonSchema[]>;
  /**
   * The schema's own `additionalProperties` (its `$ref` target's for a reference): `false` when no
   * undeclared property is allowed, a schema they must satisfy, or `true` when anything goes.
   */
  readonly additionalProperties: boolean | JsonSchema;
}

const views = new WeakMap<JsonSchema, ObjectView>();

/**
 * The object view of a schema, computed once per schema object. Made for the canonical schema
 * (`compiled.*.schema`: JSON Schema 2020-12, OpenAPI 3.0's `nullable` and boolean bounds already
 * translated, a recursive part a `$ref` into the root's `$defs`); a dereferenced schema of the
 * document (a cyclic object graph) reads the same, which is how its annotations are found
 * ({@link documentedValues}). Cycles are walked once.
 */
export function objectView(schema: JsonSchema): ObjectView {
  let view = views.get(schema);
  if (!view) {
    view = buildView(schema);
    views.set(schema, view);
  }
  return view;
}

interface Walk {
  readonly root: JsonSchema;
  readonly declarations: Map<string, JsonSchema[]>;
  readonly properties: Map<string, JsonSchema>;
  readonly required: Set<string>;
  readonly seen: Set<object>;
  /** The `anyOf`/`oneOf` lists every value meets one branch of. */
  readonly choices: JsonSchema[][];
}

function newWalk(root: JsonSchema): Walk {
  return { root, declarations: new Map(), properties: new Map(), required: new Set(), seen: new Set(), choices: [] };
}

function buildView(root: JsonSchema): ObjectView {
  const walk = newWalk(root);
  visit(root, true, walk);
  for (const branches of walk.choices) shareAcrossBranches(branches, walk);
  const declared = [...walk.declarations.keys()];
  const requiredOnly = [...walk.required].filter((name) => !walk.declarations.has(name));
  return {
    names: [...declared, ...requiredOnly],
    properties: walk.properties,
    alternatives: new Set(declared.filter((name) => !walk.properties.has(name))),
    required: walk.required,
    declarations: walk.declarations,
    additionalProperties: ownAdditional(root, root, new Set()),
  };
}

function visit(node: JsonSchema, mandatory: boolean, walk: Walk): void {
  if (walk.seen.has(node)) return;
  walk.seen.add(node);
  if (isSchema(node.properties)) {
    for (const [name, sub] of Object.entries(node.properties)) {
      // JSON Schema 2020-12 lets a property's schema be `true` (anything) or `false` (never present).
      const schema = typeof sub === 'boolean' ? (sub ? {} : { not: {} }) : sub;
      if (isSchema(schema)) declare(name, schema, mandatory, walk);
    }
  }
  if (mandatory && Array.isArray(node.required)) {
    for (const name of node.required) if (typeof name === 'string') walk.required.add(name);
  }
  const target = referenced(walk.root, node);
  if (target) visit(target, mandatory, walk);
  for (const part of schemasIn(node.allOf)) visit(part, mandatory, walk);
  for (const branches of [schemasIn(node.anyOf), schemasIn(node.oneOf)]) {
    if (mandatory && branches.length > 0) walk.choices.push(branches);
    for (const branch of branches) visit(branch, false, walk);
  }
}

/**
 * A name every branch of an `anyOf`/`oneOf` declares (`oneOf: [Tree, Herb]`, both `allOf` a PlantCore
 * with `id` and `name`) is declared for every value, as one the schema itself declares: its subschema
 * is the branches' one when they agree, else their `anyOf`. A name every branch requires is required.
 */
function shareAcrossBranches(branches: JsonSchema[], walk: Walk, active = new Set<JsonSchema>()): void {
  // A recursive schema may reach the same branches again: they are shared once.
  if (branches.some((branch) => active.has(branch))) return;
  for (const branch of branches) active.add(branch);
  const views = branches.map((branch) => {
    const inner = newWalk(walk.root);
    visit(branch, true, inner);
    for (const nested of inner.choices) shareAcrossBranches(nested, inner, active);
    return inner;
  });
  for (const branch of branches) active.delete(branch);
  const [first, ...others] = views;
  if (first === undefined) return;
  for (const [name, sub] of first.properties) {
    if (walk.properties.has(name) || !others.every((view) => view.properties.has(name))) continue;
    const subs = [sub, ...others.map((view) => view.properties.get(name) as JsonSchema)];
    walk.properties.set(name, subs.every((other) => sameSchema(other, sub)) ? sub : { anyOf: subs });
  }
  for (const name of first.required) if (others.every((view) => view.required.has(name))) walk.required.add(name);
}

/** The same object, or equal as JSON (a dereferenced document's schemas may be cyclic: those are not compared). */
function sameSchema(a: JsonSchema, b: JsonSchema): boolean {
  if (a === b) return true;
  try {
    return JSON.stringify(a) === JSON.stringify(b);
  } catch {
    return false;
  }
}

function declare(name: string, sub: JsonSchema, mandatory: boolean, walk: Walk): void {
  const list = walk.declarations.get(name);
  if (list) list.push(sub);
  else walk.declarations.set(name, [sub]);
  if (mandatory && !walk.properties.has(name)) walk.properties.set(name, sub);
}

function ownAdditional(node: JsonSchema, root: JsonSchema, seen: Set<object>): boolean | JsonSchema {
  const value = node.additionalProperties;
  if (typeof value === 'boolean' || isSchema(value)) return value;
  const target = seen.has(node) ? undefined : referenced(root, node);
  seen.add(node);
  return target ? ownAdditional(target, root, seen) : true;
}

/**
 * Whether a canonical schema names null as a value: in `type`, `enum` or `const`, or in an `anyOf` /
 * `oneOf` branch (OpenAPI 3.0's `nullable: true` is canonically `type: [..., "null"]`).
 */
export function nullable(schema: JsonSchema): boolean {
  const { type } = schema;
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  if ('const' in schema && schema.const === null) return true;
  return [...schemasIn(schema.anyOf), ...schemasIn(schema.oneOf)].some(nullable);
}

/**
 * The values a document offers for a property of a schema as written (the dereferenced one, since
 * the canonical schema keeps no annotations): each `default`, then each `example`, then each of `examples`,
 * their integers beyond 2^53 as the document writes them when given the document's `exact` integers.
 */
export function documentedValues(view: ObjectView, name: string, exact: ExactIntegers = new Map()): unknown[] {
  const schemas = view.declarations.get(name) ?? [];
  const values: unknown[] = [];
  for (const schema of schemas) if ('default' in schema) values.push(exactMember(schema, 'default', exact));
  for (const schema of schemas) if ('example' in schema) values.push(exactMember(schema, 'example', exact));
  for (const schema of schemas)
    if (Array.isArray(schema.examples)) values.push(...(exactMember(schema, 'examples', exact) as unknown[]));
  return values;
}

function isSchema(value: unknown): value is JsonSchema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function schemasIn(value: unknown): JsonSchema[] {
  return Array.isArray(value) ? value.filter(isSchema) : [];
}

/** The target of a node's local `$ref` (`#/$defs/Plant`) inside the root schema. */
function referenced(root: JsonSchema, node: JsonSchema): JsonSchema | undefined {
  const ref = node.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#')) return undefined;
  let found: unknown = root;
  for (const key of pointerSegments(ref)) found = isSchema(found) && Object.hasOwn(found, key) ? found[key] : undefined;
  return isSchema(found) ? found : undefined;
}
