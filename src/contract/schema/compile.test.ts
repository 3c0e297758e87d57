import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseExactJson, stringifyExactJson } from '../exact-json.js';
import { compileSchema, UnsupportedSchemaError, type CompiledSchema, type ExactJson } from './index.js';
import { LIBRARY, REFUSALS } from './schema-library.test-data.js';

const RUNS = 100;

const compiled = new Map<string, CompiledSchema>(
  LIBRARY.map((entry) => [entry.name, compileSchema(entry.schema, { dialect: entry.dialect, subject: entry.name })]),
);

/** The violations of a generated value, judged as a server judges its JSON text. */
function violations(schema: CompiledSchema, value: ExactJson): ReturnType<CompiledSchema['check']> {
  return schema.check(parseExactJson(stringifyExactJson(value)));
}

describe.each(LIBRARY.map((entry) => entry.name))('%s', (name) => {
  const schema = compiled.get(name) as CompiledSchema;

  test('every generated valid value passes the check', () => {
    fc.assert(
      fc.property(schema.valid, (value) => {
        expect(violations(schema, value)).toEqual([]);
      }),
      { numRuns: RUNS, seed: 7 },
    );
  });

  test('the same seed gives the same values', () => {
    const first = fc.sample(schema.valid, { numRuns: 20, seed: 99 }).map((value) => stringifyExactJson(value));
    const second = fc.sample(schema.valid, { numRuns: 20, seed: 99 }).map((value) => stringifyExactJson(value));
    expect(second).toEqual(first);
  });

  test('a shrunk counterexample is still valid', () => {
    // A predicate that fails on most values: the counterexample fast-check shrinks to must stay valid.
    const result = fc.check(
      fc.property(schema.valid, (value) => stringifyExactJson(value).length < 3),
      { numRuns: RUNS, seed: 3 },
    );
    if (result.failed && result.counterexample) expect(violations(schema, result.counterexample[0])).toEqual([]);
  });

  test('the canonical schema is JSON (exact numbers), with no cycle', () => {
    const text = stringifyExactJson(schema.schema);
    expect(typeof JSON.parse(text)).toBe('object');
  });
});

describe('refusals', () => {
  test.each(REFUSALS.map((entry) => [entry.name, entry] as const))(
    '%s is refused by keyword and pointer',
    (_name, entry) => {
      let thrown: unknown;
      try {
        compileSchema(entry.schema, { dialect: 'openapi-3.1', subject: 'a NewPlant' });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(UnsupportedSchemaError);
      expect({
        keyword: (thrown as UnsupportedSchemaError).keyword,
        pointer: (thrown as UnsupportedSchemaError).schemaPointer,
      }).toEqual({
        keyword: entry.keyword,
        pointer: entry.pointer,
      });
    },
  );
});

describe('exact numbers', () => {
  const schema = compileSchema(
    {
      type: 'object',
      properties: {
        n: { type: 'integer', maximum: 9007199254740993n, multipleOf: 3 },
        p: { type: 'number', multipleOf: 0.01 },
      },
    },
    { dialect: 'openapi-3.1', subject: 'a NewPlant' },
  );

  test('a bound beyond 2^53 is judged on the digits', () => {
    expect(schema.check(parseExactJson('{"n": 9007199254740993}'))).toEqual([]);
    expect(schema.check(parseExactJson('{"n": 9007199254740996}')).map((v) => [v.keyword, v.pointer])).toEqual([
      ['maximum', '/n'],
    ]);
    expect(schema.check(parseExactJson('{"n": 9007199254740992}')).map((v) => [v.keyword, v.pointer])).toEqual([
      ['multipleOf', '/n'],
    ]);
  });

  test('a decimal multipleOf is judged without float error', () => {
    expect(schema.check(parseExactJson('{"p": 0.07}'))).toEqual([]);
    expect(schema.check(parseExactJson('{"p": 1.13}'))).toEqual([]);
    expect(schema.check(parseExactJson('{"p": 0.075}')).map((v) => v.keyword)).toEqual(['multipleOf']);
  });

  test('the canonical schema keeps a bound no double holds as its digits', () => {
    expect(stringifyExactJson(schema.schema)).toContain('9007199254740993');
  });
});
