/**
 * The member, written into each schema that has a `discriminator` beside a `oneOf` (or `anyOf`) of
 * `$ref`s, that lists for each branch (in order) the values of the discriminating property that pick it.
 */
export const DISCRIMINATOR_VALUES = 'x-plantstore-discriminator-values';

const COMPONENT = '#/components/schemas/';

/**
 * Writes {@link DISCRIMINATOR_VALUES} into every schema of a parsed document (before its `$ref`s are
 * resolved, while a branch still names the schema it is) whose `discriminator` says which branch each
 * value picks: the `mapping` keys whose target is the branch's `$ref` (a bare name counts as that
 * component), else the branch's own component name (OpenAPI's implicit mapping). A schema with a branch
 * that is not a `$ref`, or that no value picks, is left as it is.
 */
export function markDiscriminatorValues(document: unknown, seen = new Set<object>()): void {
  if (document === null || typeof document !== 'object' || seen.has(document)) return;
  seen.add(document);
  if (!Array.isArray(document)) {
    const values = discriminatorValues(document as Record<string, unknown>);
    if (values !== undefined) (document as Record<string, unknown>)[DISCRIMINATOR_VALUES] = values;
  }
  for (const child of Object.values(document)) markDiscriminatorValues(child, seen);
}

function discriminatorValues(schema: Record<string, unknown>): string[][] | undefined {
  const { discriminator } = schema;
  if (discriminator === null || typeof discriminator !== 'object') return undefined;
  const { propertyName, mapping } = discriminator as Record<string, unknown>;
  if (typeof propertyName !== 'string') return undefined;
  const branches = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  if (branches === undefined || (Array.isArray(schema.oneOf) && Array.isArray(schema.anyOf))) return undefined;
  const targets = Object.entries(mapping !== null && typeof mapping === 'object' ? mapping : {}).flatMap(
    ([value, target]) => (typeof target === 'string' ? [[value, asReference(target)] as const] : []),
  );
  const values = branches.map((branch: unknown) => {
    const ref = branch !== null && typeof branch === 'object' ? (branch as Record<string, unknown>).$ref : undefined;
    if (typeof ref !== 'string') return [];
    const mapped = targets.filter(([, target]) => target === ref).map(([value]) => value);
    if (mapped.length > 0 || !ref.startsWith(COMPONENT) || ref.slice(COMPONENT.length).includes('/')) return mapped;
    return [ref.slice(COMPONENT.length).replace(/~1/g, '/').replace(/~0/g, '~')];
  });
  return values.every((names) => names.length > 0) ? values : undefined;
}

/** A mapping target as a `$ref`: a bare schema name (`Tree`) names that component. */
function asReference(target: string): string {
  return target.includes('/') || target.startsWith('#') ? target : `${COMPONENT}${target}`;
}

/** Where a base schema with a discriminator keeps its own members once it stands for its subtypes. */
export const INHERITED_BASE = 'x-plantstore-inherited';

/**
 * OpenAPI's inheritance with a discriminator, as NSwag and Swashbuckle write it: a base schema with a
 * `discriminator` and no `oneOf`/`anyOf`, and subtypes whose `allOf` names it. A payload of the base "is
 * validated against" the subtype its discriminating value names, so each such base component is made
 * the `oneOf` of its subtypes (the `mapping`'s targets, and the components naming it in their `allOf`
 * by their own names), with {@link DISCRIMINATOR_VALUES} written; its own members move to
 * {@link INHERITED_BASE}, which the subtypes' `allOf` (and any `$ref` into the base) now name. Object
 * identities are kept, so what was found by object stays true. Run before `$ref`s are resolved.
 */
export function discriminatedBasesAsOneOf(document: Record<string, unknown>): void {
  const components = document.components;
  const schemas = isRecord(components) && isRecord(components.schemas) ? components.schemas : undefined;
  if (schemas === undefined) return;
  const moved = new Map<string, Set<object>>();
  for (const [name, base] of Object.entries(schemas)) {
    const rewritten = asOneOfSubtypes(name, base, schemas);
    if (rewritten === undefined) continue;
    schemas[name] = rewritten.schema;
    moved.set(`${COMPONENT}${escapeToken(name)}`, rewritten.inheriting);
  }
  if (moved.size > 0) pointIntoInheritedBases(document, moved, new Set());
}

function asOneOfSubtypes(
  name: string,
  base: unknown,
  schemas: Record<string, unknown>,
): { schema: Record<string, unknown>; inheriting: Set<object> } | undefined {
  if (!isRecord(base) || 'oneOf' in base || 'anyOf' in base || !isRecord(base.discriminator)) return undefined;
  const { propertyName, mapping } = base.discriminator;
  if (typeof propertyName !== 'string') return undefined;
  const self = `${COMPONENT}${escapeToken(name)}`;
  const inheriting = new Map<string, object>();
  for (const [child, schema] of Object.entries(schemas)) {
    const parts: unknown[] = isRecord(schema) && Array.isArray(schema.allOf) ? schema.allOf : [];
    const parent = parts.find((part) => refOf(part) === self);
    if (isRecord(parent)) inheriting.set(`${COMPONENT}${escapeToken(child)}`, parent);
  }
  const values = new Map<string, string[]>();
  for (const [value, target] of Object.entries(isRecord(mapping) ? mapping : {})) {
    if (typeof target === 'string')
      values.set(asReference(target), [...(values.get(asReference(target)) ?? []), value]);
  }
  for (const child of inheriting.keys()) {
    if (!values.has(child)) values.set(child, [decodeToken(child.slice(COMPONENT.length))]);
  }
  if (values.size === 0 || ![...values.keys()].every((ref) => ref === self || inheriting.has(ref))) return undefined;
  const { discriminator } = base;
  delete base.discriminator;
  const branches = [...values.keys()].map((ref) => ({ $ref: ref === self ? `${self}/${INHERITED_BASE}` : ref }));
  return {
    schema: { oneOf: branches, discriminator, [DISCRIMINATOR_VALUES]: [...values.values()], [INHERITED_BASE]: base },
    inheriting: new Set(inheriting.values()),
  };
}

/** Each `$ref` into a moved base (and a subtype's `allOf` entry naming the base) now names its {@link INHERITED_BASE}. */
function pointIntoInheritedBases(node: unknown, moved: Map<string, Set<object>>, seen: Set<object>): void {
  if (node === null || typeof node !== 'object' || seen.has(node)) return;
  seen.add(node);
  if (isRecord(node) && typeof node.$ref === 'string') {
    const ref = node.$ref;
    for (const [base, inheriting] of moved) {
      if (ref.startsWith(`${base}/${INHERITED_BASE}`)) continue;
      if ((ref === base && inheriting.has(node)) || ref.startsWith(`${base}/`)) {
        node.$ref = `${base}/${INHERITED_BASE}${ref.slice(base.length)}`;
      }
    }
  }
  for (const child of Object.values(node)) pointIntoInheritedBases(child, moved, seen);
}

function refOf(value: unknown): unknown {
  return isRecord(value) ? value.$ref : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function escapeToken(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}

function decodeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}
