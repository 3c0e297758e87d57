import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { forDirection } from './access-modes.js';
import { parseExactJson } from './exact-json.js';
import { loadContract } from './spec.js';

const dir = mkdtempSync(join(tmpdir(), 'plantstore-access-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One Plant schema for request and answer, as vendor documents often write it. */
const plantSchema = {
  type: 'object',
  required: ['id', 'name', 'createdAt', 'secret'],
  properties: {
    id: { type: 'integer', format: 'int64' },
    name: { type: 'string' },
    createdAt: { type: 'string', format: 'date-time', readOnly: true },
    secret: { type: 'string', minLength: 1, writeOnly: true },
  },
};

function documentWith(version: '3.0.3' | '3.1.0', plant: unknown): string {
  const file = join(dir, `doc-${version}.json`);
  const json = (schema: unknown) => ({ 'application/json': { schema } });
  const error = {
    type: 'object',
    required: ['error', 'message'],
    properties: { error: { type: 'integer', format: 'int32' }, message: { type: 'string' } },
  };
  const document = {
    openapi: version,
    info: { title: 'Plants', version: '1' },
    paths: {
      '/plants': {
        post: {
          requestBody: { required: true, content: json({ $ref: '#/components/schemas/Plant' }) },
          responses: {
            '200': { description: 'ok', content: json({ $ref: '#/components/schemas/Plant' }) },
            '400': { description: 'bad', content: json(error) },
          },
        },
      },
    },
    components: { schemas: { Plant: plant } },
  };
  writeFileSync(file, JSON.stringify(document));
  return file;
}

describe('forDirection', () => {
  it('drops readOnly properties from a request schema and forbids writeOnly ones in a response schema', () => {
    expect(forDirection(plantSchema, 'request')).toEqual({
      type: 'object',
      required: ['id', 'name', 'secret'],
      properties: {
        id: plantSchema.properties.id,
        name: plantSchema.properties.name,
        secret: plantSchema.properties.secret,
      },
    });
    expect(forDirection(plantSchema, 'response')).toEqual({
      type: 'object',
      required: ['id', 'name', 'createdAt'],
      properties: {
        id: plantSchema.properties.id,
        name: plantSchema.properties.name,
        createdAt: plantSchema.properties.createdAt,
        secret: false,
      },
    });
  });

  it('drops a hidden name from the required list of every allOf part of the same object', () => {
    const schema = {
      allOf: [
        { type: 'object', properties: { createdAt: { type: 'string', readOnly: true }, name: { type: 'string' } } },
        { required: ['createdAt', 'name'] },
      ],
    };
    expect(forDirection(schema, 'request')).toEqual({
      allOf: [{ type: 'object', properties: { name: { type: 'string' } } }, { required: ['name'] }],
    });
  });

  it('returns the very schema when nothing in it is readOnly or writeOnly, and keeps cycles cyclic', () => {
    const plain = { type: 'object', properties: { name: { type: 'string' } } };
    expect(forDirection(plain, 'request')).toBe(plain);
    const tree: Record<string, unknown> = { type: 'object', properties: { at: { type: 'string', readOnly: true } } };
    (tree.properties as Record<string, unknown>).child = tree;
    const copy = forDirection(tree, 'request');
    const properties = copy.properties as Record<string, unknown>;
    expect(Object.keys(properties)).toEqual(['child']);
    expect(properties.child).toBe(copy);
  });
});

describe.each(['3.0.3', '3.1.0'] as const)(
  'a shared Plant schema with readOnly and writeOnly properties (OpenAPI %s)',
  (version) => {
    it('neither sends nor requires the readOnly property, and refuses the writeOnly one in an answer', async () => {
      const contract = await loadContract(documentWith(version, plantSchema));
      const plants = fc.sample(contract.compiled.newPlant.valid, { numRuns: 200, seed: 7 });
      for (const plant of plants) expect(Object.keys(plant as object)).not.toContain('createdAt');
      expect(contract.check.newPlant(parseExactJson('{"id":1,"name":"a","secret":"s"}'))).toEqual([]);
      expect(contract.check.plant(parseExactJson('{"id":1,"name":"a","createdAt":"2026-01-01T00:00:00Z"}'))).toEqual(
        [],
      );
      expect(contract.check.plant(parseExactJson('{"id":1,"name":"a"}'))).not.toEqual([]);
      // JSON Schema: a writeOnly value "is never present when the instance is retrieved" (a password echoed).
      const echoed = contract.check.plant(
        parseExactJson('{"id":1,"name":"a","createdAt":"2026-01-01T00:00:00Z","secret":"s"}'),
      );
      expect(echoed.map((violation) => violation.message)).toEqual([
        'field "secret" must not be present (its schema is false)',
      ]);
      const invalidAt = [...contract.compiled.newPlant.invalid, ...contract.compiled.newPlant.boundaries].map(
        (v) => v.pointer,
      );
      expect(invalidAt.filter((pointer) => pointer.includes('createdAt'))).toEqual([]);
    });
  },
);
