import type { JsonSchema } from '../../contract/index.js';

/** The top-level properties a canonical object schema declares, and which it requires. */
export interface ObjectView {
  /** Each property's schema, in declaration order (the first declaration of a name wins). */
  readonly properties: ReadonlyMap<string, JsonSchema>;
  readonly required: ReadonlySet<string>;
}

const views = new WeakMap<JsonSchema, ObjectView>();

/**
 * What a canonical schema (as `compileSchema` returns it) says about an object's own properties:
 * `allOf` parts merged, and local references followed, as a recursive schema's root is
 * `{"$ref": "#/$defs/…"}`. Alternatives (`anyOf`, `oneOf`) promise nothing and are left out.
 */
export function objectView(root: JsonSchema): ObjectView {
  let view = views.get(root);
  if (!view) {
    const properties = new Map<string, JsonSchema>();
    const required = new Set<string>();
    visit(root, root, properties, required, new Set());
    view = { properties, required };
    views.set(root, view);
  }
  return view;
}

function visit(
  node: JsonSchema,
  root: JsonSchema,
  properties: Map<string, JsonSchema>,
  required: Set<string>,
  seen: Set<object>,
): void {
  if (seen.has(node)) return;
  seen.add(node);
  const target = typeof node.$ref === 'string' ? resolveLocal(root, node.$ref) : undefined;
  if (target) visit(target, root, properties, required, seen);
  if (Array.isArray(node.allOf)) {
    for (const part of node.allOf) if (isSchema(part)) visit(part, root, properties, required, seen);
  }
  if (isSchema(node.properties)) {
    for (const [key, value] of Object.entries(node.properties)) {
      if (isSchema(value) && !properties.has(key)) properties.set(key, value);
    }
  }
  if (Array.isArray(node.required)) for (const key of node.required) if (typeof key === 'string') required.add(key);
}

function isSchema(value: unknown): value is JsonSchema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A local JSON pointer reference (`#/$defs/Plant`) inside the root schema. */
function resolveLocal(root: JsonSchema, ref: string): JsonSchema | undefined {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    node = isSchema(node) ? node[key] : undefined;
  }
  return isSchema(node) ? node : undefined;
}
