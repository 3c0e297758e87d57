import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { stringifyExactJson } from '../exact-json.js';
import { compileSchemaCheck } from '../schemas.js';
import { canonicalise, withNullJoined } from './canonicalise.js';
import type { SchemaDialect } from './compiled-schema.js';
import { Context } from './context.js';
import { sampleInFrame } from './frame-sample.js';
import { schemaArbitrary } from './random-schemas.test-data.js';
import { LIBRARY } from './schema-library.test-data.js';
import { validArbitrary } from './valid.js';
import { variantsOf } from './variants.js';

/** Makes the variants of a schema as `compileSchema` does, comparing every site sample with `fc.sample`'s. */
function compareSamples(schema: object, dialect: SchemaDialect): { compared: number; differing: string[] } {
  let canonical;
  try {
    canonical = canonicalise(schema, dialect);
  } catch {
    return { compared: 0, differing: [] };
  }
  const context = new Context(canonical, { dialect, subject: 'a schema' });
  const root = { ...canonical.schema };
  delete root.$defs;
  canonical.origin.set(root, '');
  let valid;
  try {
    valid = validArbitrary(root, { schemaPointer: '', pointer: '', refs: [] }, context);
  } catch {
    return { compared: 0, differing: [] };
  }
  if (valid === null) return { compared: 0, differing: [] };
  const check = compileSchemaCheck(withNullJoined(canonical), 'a schema');
  const result = { compared: 0, differing: [] as string[] };
  variantsOf(root, valid, context, check, (site, leaf, tries) => {
    const drawn = sampleInFrame(site.frame, leaf, tries);
    const sampled = fc.sample(site.whole(leaf), { numRuns: tries, seed: 42 });
    result.compared++;
    if (stringifyExactJson(drawn) !== stringifyExactJson(sampled)) result.differing.push(site.place.pointer);
    return drawn;
  });
  return result;
}

describe('sampleInFrame', () => {
  // One test per schema: each test's timeout then bounds one schema's work (the library at once took 18 s of the
  // 30 s default at load 20, and failed at load 30).
  const compared: number[] = [];
  test.each(LIBRARY.map((entry) => [entry.name, entry] as const))(
    'draws for every candidate of every site of the library schema %s the values fc.sample draws from its whole arbitrary',
    (_name, { name, dialect, schema }) => {
      const result = compareSamples(schema, dialect);
      expect(result.differing, name).toEqual([]);
      compared.push(result.compared);
    },
  );

  test('compared the samples of more than 200 sites over the library', () => {
    expect(compared).toHaveLength(LIBRARY.length);
    expect(compared.reduce((sum, count) => sum + count, 0)).toBeGreaterThan(200);
  });

  test.each(fc.sample(schemaArbitrary(), { numRuns: 40, seed: 3 }).map((schema, index) => [index, schema] as const))(
    'does so for random schema %i too',
    (_index, schema) => {
      expect(compareSamples(schema, 'openapi-3.1').differing, JSON.stringify(schema)).toEqual([]);
    },
  );

  test('draws what fc.sample draws from a tuple of the parents and the leaf, and other values at another seed', () => {
    const frame = { parents: [fc.nat()], put: (parents: readonly unknown[], value: unknown) => [parents[0], value] };
    const whole = fc.tuple(fc.nat(), fc.nat());
    const drawn = sampleInFrame(frame as never, fc.nat() as never, 6);
    expect(stringifyExactJson(drawn)).toBe(stringifyExactJson(fc.sample(whole, { numRuns: 6, seed: 42 })));
    expect(stringifyExactJson(sampleInFrame(frame as never, fc.nat() as never, 6, 43))).not.toBe(
      stringifyExactJson(drawn),
    );
  });
});
