import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseExactJson, stringifyExactJson } from '../exact-json.js';
import { schemaArbitrary } from './random-schemas.test-data.js';
import { compileSchema, UnsupportedSchemaError, type CompiledSchema, type ExactJson } from './index.js';

function compileOrRefuse(schema: object): CompiledSchema | undefined {
  try {
    return compileSchema(schema, { dialect: 'openapi-3.1', subject: 'a random schema' });
  } catch (error) {
    expect(error).toBeInstanceOf(UnsupportedSchemaError);
    return undefined;
  }
}

const judge = (schema: CompiledSchema, value: ExactJson) => schema.check(parseExactJson(stringifyExactJson(value)));

describe('random schemas', () => {
  test('compile or refuse by name; valid values pass; variants break exactly what they name', () => {
    fc.assert(
      fc.property(schemaArbitrary(), fc.integer(), (schema, seed) => {
        const compiled = compileOrRefuse(schema);
        if (compiled === undefined) return;
        for (const value of fc.sample(compiled.valid, { numRuns: 10, seed }))
          expect(judge(compiled, value)).toEqual([]);
        for (const variant of [...compiled.boundaries, ...compiled.invalid]) {
          for (const value of fc.sample(variant.arbitrary, { numRuns: 2, seed })) {
            const found = judge(compiled, value);
            if (variant.valid) expect(found, variant.label).toEqual([]);
            else
              expect(
                found.map((v) => `${v.keyword} ${v.pointer}`),
                variant.label,
              ).toEqual(
                found.map(() => `${variant.judgedAs ?? variant.keyword} ${variant.judgedAt ?? variant.pointer}`),
              );
            if (!variant.valid) expect(found.length).toBeGreaterThan(0);
          }
        }
      }),
      { numRuns: 150, seed: Number(process.env.SEED ?? 2024) },
    );
  });
});
