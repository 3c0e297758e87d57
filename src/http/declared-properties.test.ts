import { describe, expect, it } from 'vitest';
import { declaredProperties } from './declared-properties.js';

describe('declaredProperties', () => {
  it('collects properties of allOf branches in document order, required only from mandatory parts', () => {
    const plant = { type: 'object', required: ['name'], properties: { name: { type: 'string' }, tag: {} } };
    const newPlant = {
      allOf: [plant, { required: ['id'], properties: { id: { type: 'integer' } } }],
      anyOf: [{ required: ['pot'], properties: { pot: {} } }, {}],
    };
    const declared = declaredProperties(newPlant);
    expect(declared.names).toEqual(['name', 'tag', 'id', 'pot']);
    expect([...declared.required]).toEqual(['name', 'id']);
    expect(declared.schemas.get('name')).toEqual([{ type: 'string' }]);
  });

  it('walks a recursive schema once, and lists a required name no property declares', () => {
    const node: Record<string, unknown> = { type: 'object', required: ['name', 'kind'], properties: { name: {} } };
    (node.properties as Record<string, unknown>).child = node;
    node.allOf = [node];
    const declared = declaredProperties(node);
    expect(declared.names).toEqual(['name', 'child', 'kind']);
    expect(declared.schemas.get('kind')).toBeUndefined();
  });
});
