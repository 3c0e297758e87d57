import type { JsonSchema } from '../contract/index.js';

/** The properties an object schema declares, in document order, and which of them it requires. */
export interface DeclaredProperties {
  readonly names: readonly string[];
  readonly required: ReadonlySet<string>;
  /** Every subschema that speaks about a property (it may be declared in several `allOf` branches). */
  readonly schemas: ReadonlyMap<string, readonly JsonSchema[]>;
}

/**
 * The properties of an object schema: its own `properties` and those of its `allOf`, `anyOf` and
 * `oneOf` branches (NewPlant is `allOf: [Plant, {id}]`). Required are those every value must have:
 * its own `required` and that of `allOf` branches, not of alternatives. Cycles are walked once.
 */
export function declaredProperties(schema: JsonSchema): DeclaredProperties {
  const names: string[] = [];
  const required = new Set<string>();
  const schemas = new Map<string, JsonSchema[]>();
  const seen = new Set<object>();
  const walk = (node: unknown, mandatory: boolean): void => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    const object = node as JsonSchema;
    for (const [name, sub] of Object.entries(asRecord(object.properties))) {
      if (!schemas.has(name)) {
        names.push(name);
        schemas.set(name, []);
      }
      if (sub !== null && typeof sub === 'object') schemas.get(name)?.push(sub as JsonSchema);
    }
    if (mandatory && Array.isArray(object.required)) {
      for (const name of object.required) if (typeof name === 'string') required.add(name);
    }
    for (const branch of asArray(object.allOf)) walk(branch, mandatory);
    for (const branch of [...asArray(object.anyOf), ...asArray(object.oneOf)]) walk(branch, false);
  };
  walk(schema, true);
  for (const name of required) if (!schemas.has(name)) names.push(name);
  return { names, required, schemas };
}

function asRecord(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function asArray(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}
