import fc from 'fast-check';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { parseExactJson, stringifyExactJson } from './exact-json.js';
import { validatorsModuleText } from './prebuilt-validators-build.js';
import { PREBUILT_VALIDATORS_PATH, validatorsOf, type PrebuiltValidatorsModule } from './prebuilt-validators.js';
import { recordCompiledSchemas, usePrebuiltValidators, type JsonSchema } from './schemas.js';
import type { CompiledSchema, ExactJson } from './schema/compiled-schema.js';
import { compileSchema } from './schema/index.js';
import { loadContract } from './spec.js';

const dir = mkdtempSync(join(tmpdir(), 'plantstore-validators-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => usePrebuiltValidators(undefined));

let modules = 0;
/** A generated module loaded as the runtime loads the build's. */
async function loadModule(text: string): Promise<PrebuiltValidatorsModule> {
  const file = join(dir, `validators-${++modules}.mjs`);
  writeFileSync(file, text);
  return (await import(pathToFileURL(file).href)) as PrebuiltValidatorsModule;
}

/** Every keyword the prebuilt code reaches through its runtime: formats, exact numbers, ucs2length, equal. */
const SCHEMAS: readonly [string, JsonSchema][] = [
  [
    'formats, lengths, a pattern and exact integers',
    {
      type: 'object',
      required: ['name', 'id'],
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 12, pattern: '^[A-Z]' },
        email: { type: 'string', format: 'email' },
        site: { type: 'string', format: 'uri' },
        seen: { type: 'string', format: 'date-time' },
        host: { type: 'string', format: 'hostname' },
        id: { type: 'integer', format: 'int64', minimum: 1, maximum: 9007199254740993n },
        count: { type: 'integer', format: 'int32', exclusiveMaximum: 100 },
      },
      additionalProperties: false,
    },
  ],
  [
    'enums, consts, unique items and decimal bounds',
    {
      type: 'object',
      properties: {
        kind: { enum: ['fern', 'moss', { nested: [1, 2] }] },
        fixed: { const: 'x' },
        tags: { type: 'array', items: { type: 'string', maxLength: 3 }, uniqueItems: true, maxItems: 4 },
        price: { type: 'number', multipleOf: 0.01, minimum: 0, maximum: 1000.5 },
        either: { oneOf: [{ type: 'string' }, { type: 'integer', format: 'int32' }] },
      },
    },
  ],
];

/** The schema compiled with ajv, and compiled again where every check is served by the generated module. */
async function bothWays(
  schema: JsonSchema,
): Promise<{ ajv: CompiledSchema; prebuilt: CompiledSchema; served: () => number }> {
  const compile = (): CompiledSchema => compileSchema(schema, { dialect: 'openapi-3.1', subject: 'a test value' });
  const { result: ajv, schemas } = await recordCompiledSchemas(() => {
    const compiled = compile();
    void [compiled.boundaries, compiled.invalid];
    return compiled;
  });
  const validators = validatorsOf(await loadModule(validatorsModuleText(schemas)));
  if (validators === undefined) throw new Error('the generated module was refused');
  let calls = 0;
  const counted = new Map(
    [...validators].map(([key, validate]) => {
      const counting = Object.assign((value: unknown) => {
        calls++;
        const valid = validate(value);
        counting.errors = validate.errors;
        return valid;
      }, validate);
      return [key, counting];
    }),
  );
  usePrebuiltValidators(counted);
  const prebuilt = compile();
  void [prebuilt.boundaries, prebuilt.invalid];
  return { ajv, prebuilt, served: () => calls };
}

/** Values from every generator of the compiled schema, and any JSON, each as the servers parse it. */
function sampleValues(compiled: CompiledSchema): unknown[] {
  const arbitraries: fc.Arbitrary<unknown>[] = [
    compiled.valid,
    ...compiled.boundaries.map((variant) => variant.arbitrary),
    ...compiled.invalid.map((variant) => variant.arbitrary),
    fc.jsonValue(),
  ];
  const drawn = arbitraries.flatMap((arbitrary, index) => fc.sample(arbitrary, { seed: index + 1, numRuns: 15 }));
  const texts = drawn.map((value) => stringifyExactJson(value as ExactJson));
  const edges = [
    '{"id": 9223372036854775808}',
    '{"id": 1.0, "name": "A"}',
    '{"count": 1e400}',
    '{"price": 0.07}',
    '[]',
  ];
  return [...texts, ...edges].map((text) => parseExactJson(text));
}

describe('validators the build compiles', () => {
  it.each(SCHEMAS)('judge every value as ajv does: %s', async (_name, schema) => {
    const { ajv, prebuilt, served } = await bothWays(schema);
    const values = sampleValues(ajv);
    for (const value of values) expect(prebuilt.check(value)).toEqual(ajv.check(value));
    expect(served()).toBeGreaterThanOrEqual(values.length);
    expect(values.filter((value) => ajv.check(value).length > 0).length).toBeGreaterThan(values.length / 4);
  });

  it('are not used when made with another ajv than the one installed', async () => {
    const [[, schema] = ['', {}]] = SCHEMAS;
    const { schemas } = await recordCompiledSchemas(() =>
      compileSchema(schema, { dialect: 'openapi-3.1', subject: 'x' }),
    );
    const module = await loadModule(validatorsModuleText(schemas));
    expect(validatorsOf(module)?.size).toBe(1);
    expect(validatorsOf({ ...module, versions: { ...module.versions, ajv: '8.0.0' } })).toBeUndefined();
  });

  it("the build's file, when present, holds a validator for every schema the bundled document compiles", async () => {
    const { schemas } = await recordCompiledSchemas(async () => {
      const contract = await loadContract();
      for (const compiled of Object.values(contract.compiled)) void [compiled.boundaries, compiled.invalid];
    });
    if (!existsSync(PREBUILT_VALIDATORS_PATH)) return;
    expect(schemas.length).toBeGreaterThan(0);
    expect(readFileSync(PREBUILT_VALIDATORS_PATH, 'utf8')).toBe(validatorsModuleText(schemas));
  });
});
