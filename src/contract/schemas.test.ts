import { describe, expect, it } from 'vitest';
import { loadContract } from './spec.js';
import { LosslessNumber } from 'lossless-json';
import { parseExactJson } from './exact-json.js';
import { compileSchemaCheck, withTrustedSchemas, type JsonSchema } from './schemas.js';

describe('compileSchemaCheck and trusted schemas', () => {
  it("the bundled document's schemas are valid JSON Schema, which is what lets its load skip the meta-schema", async () => {
    const contract = await loadContract();
    for (const compiled of Object.values(contract.compiled)) {
      expect(() => compileSchemaCheck(compiled.schema as JsonSchema, 'a bundled schema')).not.toThrow();
    }
  });

  it('validates schemas against the meta-schema everywhere but inside withTrustedSchemas', () => {
    const invalid = { type: 'string', minLength: -1 };
    expect(() => compileSchemaCheck(invalid, 'a name')).toThrow(/schema is invalid/);
    const check = withTrustedSchemas(() => compileSchemaCheck(invalid, 'a name'));
    expect(check('Fern')).toEqual([]);
    expect(() => compileSchemaCheck({ ...invalid }, 'a name')).toThrow(/schema is invalid/);
  });
});

describe('a break inside a recursive branch', () => {
  it("is explained by its combinator alone, as in a branch that is not a reference: a graft's stock too long", async () => {
    const contract = await loadContract('src/fixtures/documents/reduced/recursive-offshoots-3.1.yaml');
    const { parseExactJson } = await import('./exact-json.js');
    const value = parseExactJson(`{"id":1,"name":"a","graft":{"cultivar":"${'x'.repeat(31)}"}}`);
    expect(contract.compiled.newPlant.check(value).map(({ keyword, pointer }) => [keyword, pointer])).toEqual([
      ['oneOf', '/graft'],
    ]);
  });
});

describe('format byte', () => {
  it("is RFC 4648 base64 alone: a line break in the text does not make it one (ajv-formats' pattern is multiline)", () => {
    const check = compileSchemaCheck({ type: 'string', format: 'byte' }, 'a photo');
    for (const text of ['not base64 at all\n', '!!!!\nYWJj', 'YWJj\nZGVm', '\n']) expect(check(text)).not.toEqual([]);
    for (const text of ['', 'YQ==', 'YWI=', 'YWJj']) expect(check(text)).toEqual([]);
  });
});

describe("3.1's contentEncoding: base64", () => {
  it('gives base64 as valid values and judges as JSON Schema does: text that is not base64 is of unpredictable meaning', async () => {
    const fc = (await import('fast-check')).default;
    const { parseExactJson, stringifyExactJson } = await import('./exact-json.js');
    const { newPlant } = (await loadContract('src/fixtures/documents/reduced/content-encoding-base64-3.1.yaml'))
      .compiled;
    const photos = fc
      .sample(newPlant.valid, { numRuns: 200, seed: 1 })
      .map((value) => parseExactJson(stringifyExactJson(value)) as Record<string, unknown>)
      .flatMap((plant) => (typeof plant.photo === 'string' ? [plant.photo] : []));
    expect(photos.length).toBeGreaterThan(0);
    for (const photo of photos)
      expect(photo).toMatch(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/);
    const spaced = parseExactJson('{"id":1,"name":"a","photo":" "}');
    expect(newPlant.check(spaced)).toEqual([]);
    expect(newPlant.ambiguities(spaced)).not.toEqual([]);
  });
});

describe("an anyOf or oneOf of a schema and null (pydantic's Optional[...] with constraints)", () => {
  const check = compileSchemaCheck(
    {
      type: 'object',
      properties: {
        tag: { anyOf: [{ type: 'string', maxLength: 30, pattern: '^[a-z][a-z0-9-]*$' }, { type: 'null' }] },
        pot: { oneOf: [{ type: 'integer', minimum: 1 }, { type: 'null' }] },
        kind: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
      },
    },
    'NewPlant',
  );

  it('is refused with the complaint of the branch that is not null, still reported as the combinator', () => {
    expect(check({ tag: 'Fern' })).toEqual([
      {
        kind: 'constraint',
        field: 'tag',
        message: 'field "tag" must match pattern "^[a-z][a-z0-9-]*$" (null is allowed too)',
        keyword: 'anyOf',
        pointer: '/tag',
      },
    ]);
    expect(check({ pot: 0 }).map((violation) => violation.message)).toEqual([
      'field "pot" must be >= 1 (null is allowed too)',
    ]);
    expect(check({ tag: null, pot: null })).toEqual([]);
  });

  it("without a null branch keeps the combinator's own words: no one branch is the one meant", () => {
    expect(check({ kind: true }).map((violation) => violation.message)).toEqual([
      'field "kind" must match a schema in anyOf',
    ]);
  });
});

describe('an enum or const listing an integer beyond 2^53', () => {
  const parsed = (text: string) => parseExactJson(text) as never;

  it('compiles (ajv cannot write a bigint) and judges the listed integers by their digits', () => {
    // Before, `const: 9223372036854775807` stopped validate, serve and test: 'Do not know how to serialize a BigInt'.
    const check = compileSchemaCheck(
      {
        type: 'object',
        properties: {
          lot: { type: 'integer', const: 9223372036854775807n },
          kind: { enum: ['bed', 9007199254740993n, new LosslessNumber('12345678901234567890')] },
        },
      },
      'a plant',
    );
    expect(check(parsed('{"lot": 9223372036854775807, "kind": 9007199254740993}'))).toEqual([]);
    expect(check(parsed('{"lot": 9223372036854775807.0, "kind": "bed"}'))).toEqual([]);
    expect(check(parsed('{"kind": 12345678901234567890}'))).toEqual([]);
    // The same doubles, other digits: ajv's own comparison alone takes them.
    expect(check(parsed('{"lot": 9223372036854775806}')).map(({ keyword }) => keyword)).toEqual(['const']);
    expect(check(parsed('{"kind": 9007199254740992}')).map(({ keyword }) => keyword)).toEqual(['enum']);
    expect(check(parsed('{"kind": "9007199254740993"}')).map(({ keyword }) => keyword)).toEqual(['enum']);
  });
});
