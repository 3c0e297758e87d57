import { ContractError, type JsonSchema } from '../../contract/index.js';

/** One property of an object schema, as generation needs it. */
export interface SchemaField {
  readonly name: string;
  readonly type: string;
  readonly format?: string;
  readonly required: boolean;
}

/**
 * The properties of an object schema of the dereferenced contract, with `allOf` merged (NewPlant
 * is Plant plus `id`). Generation walks these, so a change to `openapi.yaml` flows through.
 */
export function schemaFields(schema: JsonSchema): SchemaField[] {
  const properties = new Map<string, JsonSchema>();
  const required = new Set<string>();
  collect(schema, properties, required);
  if (properties.size === 0) throw new ContractError('The NewPlant schema declares no properties to generate.');
  return [...properties].map(([name, property]) => {
    const type = property.type;
    if (typeof type !== 'string') {
      throw new ContractError(`Property "${name}" has no single JSON type; the runner cannot generate it.`);
    }
    const format = typeof property.format === 'string' ? property.format : undefined;
    return { name, type, required: required.has(name), ...(format === undefined ? {} : { format }) };
  });
}

function collect(schema: JsonSchema, properties: Map<string, JsonSchema>, required: Set<string>): void {
  for (const part of asSchemas(schema.allOf)) collect(part, properties, required);
  const own = schema.properties;
  if (own !== null && typeof own === 'object') {
    for (const [name, property] of Object.entries(own as Record<string, unknown>)) {
      if (property !== null && typeof property === 'object') properties.set(name, property as JsonSchema);
    }
  }
  if (Array.isArray(schema.required)) {
    for (const name of schema.required) if (typeof name === 'string') required.add(name);
  }
}

function asSchemas(value: unknown): JsonSchema[] {
  return Array.isArray(value)
    ? value.filter((item): item is JsonSchema => item !== null && typeof item === 'object')
    : [];
}
