import { describe, expect, it } from 'vitest';
import { documentedValues, nullable, objectView } from './object-view.js';
import { compileSchema } from './schema/index.js';

describe('objectView', () => {
  it('collects properties of allOf parts and alternatives in order, required only from mandatory parts', () => {
    const plant = { type: 'object', required: ['name'], properties: { name: { type: 'string' }, tag: {} } };
    const newPlant = {
      allOf: [plant, { required: ['id'], properties: { id: { type: 'integer' } } }],
      anyOf: [{ required: ['pot'], properties: { pot: {} } }, {}],
    };
    const view = objectView(newPlant);
    expect(view.names).toEqual(['name', 'tag', 'id', 'pot']);
    expect([...view.properties.keys()]).toEqual(['name', 'tag', 'id']);
    expect([...view.alternatives]).toEqual(['pot']);
    expect([...view.required]).toEqual(['name', 'id']);
    expect(view.declarations.get('name')).toEqual([{ type: 'string' }]);
  });

  it('declares a name every oneOf/anyOf branch declares, with their common subschema or their anyOf, required where all require it', () => {
    const core = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer' }, name: {} } };
    const tree = { allOf: [core, { required: ['kind'], properties: { kind: { enum: ['tree'] }, height: {} } }] };
    const herb = { allOf: [core, { properties: { kind: { enum: ['herb'] }, edible: {} } }] };
    const view = objectView({ oneOf: [tree, herb] });
    expect([...view.properties.keys()]).toEqual(['id', 'name', 'kind']);
    expect(view.properties.get('id')).toEqual({ type: 'integer' });
    expect(view.properties.get('kind')).toEqual({ anyOf: [{ enum: ['tree'] }, { enum: ['herb'] }] });
    expect([...view.alternatives]).toEqual(['height', 'edible']);
    expect([...view.required]).toEqual(['id', 'name']);
  });

  it('shares names across the branches of a recursive schema once, and stops', () => {
    const root: Record<string, unknown> = {};
    root.oneOf = [{ properties: { id: {} } }, { $ref: '#', properties: { id: {}, next: {} } }];
    expect([...objectView(root).properties.keys()]).toEqual(['id']);
  });

  it('declares a property whose schema is a boolean', () => {
    const view = objectView({ properties: { anything: true, never: false } });
    expect([...view.properties]).toEqual([
      ['anything', {}],
      ['never', { not: {} }],
    ]);
  });

  it('walks a cyclic schema once, and lists a required name no property declares last', () => {
    const node: Record<string, unknown> = { type: 'object', required: ['name', 'kind'], properties: { name: {} } };
    (node.properties as Record<string, unknown>).child = node;
    node.allOf = [node];
    const view = objectView(node);
    expect(view.names).toEqual(['name', 'child', 'kind']);
    expect(view.declarations.get('kind')).toBeUndefined();
  });

  it("follows a canonical recursive schema's root reference into $defs", () => {
    const compiled = compileSchema(recursive({ type: 'object', required: ['name'], additionalProperties: false }), {
      dialect: 'openapi-3.1',
      subject: 'a NewPlant',
    });
    expect(compiled.schema.$ref).toMatch(/^#\/\$defs\//);
    const view = objectView(compiled.schema);
    expect([...view.properties.keys()]).toEqual(['name', 'parent']);
    expect([...view.required]).toEqual(['name']);
    expect(view.additionalProperties).toBe(false);
  });

  it('reads OpenAPI 3.0 nullable and boolean exclusive bounds as the compiler translated them', () => {
    const compiled = compileSchema(
      {
        type: 'object',
        properties: {
          tag: { type: 'string', nullable: true },
          id: { type: 'integer', minimum: 0, exclusiveMinimum: true },
          name: { type: 'string' },
        },
      },
      { dialect: 'openapi-3.0', subject: 'a NewPlant' },
    );
    const { properties, additionalProperties } = objectView(compiled.schema);
    expect(nullable(properties.get('tag') ?? {})).toBe(true);
    expect(nullable(properties.get('name') ?? {})).toBe(false);
    expect(properties.get('id')).toEqual({ type: 'integer', exclusiveMinimum: 0 });
    expect(additionalProperties).toBe(true);
  });

  it("finds a property's default, example and examples in every declaration, in that order", () => {
    const view = objectView({
      properties: { kind: { examples: ['c'], example: 'b' } },
      allOf: [{ properties: { kind: { default: 'a' } } }],
    });
    expect(documentedValues(view, 'kind')).toEqual(['a', 'b', 'c']);
    expect(documentedValues(view, 'other')).toEqual([]);
  });
});

/** A schema whose `parent` property is the schema itself, as a dereferenced document holds it. */
function recursive(base: Record<string, unknown>): Record<string, unknown> {
  const node: Record<string, unknown> = { ...base, title: 'Plant' };
  node.properties = { name: { type: 'string' }, parent: node };
  return node;
}
