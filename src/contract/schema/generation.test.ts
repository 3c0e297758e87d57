import SwaggerParser from '@apidevtools/swagger-parser';
import fc from 'fast-check';
import { isLosslessNumber, LosslessNumber } from 'lossless-json';
import { describe, expect, test } from 'vitest';
import { parseExactJson, stringifyExactJson } from '../exact-json.js';
import { PACKAGE_ROOT } from '../package-files.js';
import { compileSchema, JsonPlaceholder, type ExactJson, type IntegerBounds } from './index.js';

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const OPTIONS = { dialect: 'openapi-3.1', subject: 'a NewPlant' } as const;

/** True when two JSON number texts denote the same value. */
function sameDecimal(a: string, b: string): boolean {
  const parse = (text: string): [bigint, number] => {
    const [mantissa = '', exponent = '0'] = text.toLowerCase().split('e');
    const [whole = '', fraction = ''] = mantissa.split('.');
    let digits = BigInt(whole + fraction);
    let scale = fraction.length - Number(exponent);
    while (digits !== 0n && digits % 10n === 0n) [digits, scale] = [digits / 10n, scale - 1];
    return [digits, digits === 0n ? 0 : scale];
  };
  const [x, y] = [parse(a), parse(b)];
  return x[0] === y[0] && x[1] === y[1];
}

function sample(schema: object, runs = 400): ExactJson[] {
  return fc.sample(compileSchema(schema, OPTIONS).valid, { numRuns: runs, seed: 21 });
}

describe('the seed document', () => {
  test('NewPlant, Plant and Error of openapi.yaml compile from the dereferenced document and generate valid values', async () => {
    const document = (await SwaggerParser.dereference(`${PACKAGE_ROOT}/openapi.yaml`)) as unknown as {
      components: { schemas: Record<string, object> };
    };
    for (const name of ['NewPlant', 'Plant', 'Error']) {
      const schema = compileSchema(document.components.schemas[name] as object, {
        dialect: 'openapi-3.0',
        subject: name,
      });
      for (const value of fc.sample(schema.valid, { numRuns: 100, seed: 1 })) {
        expect(schema.check(parseExactJson(stringifyExactJson(value)))).toEqual([]);
      }
    }
  });
});

describe('valid values reach the edges', () => {
  test('an int64 hits 0, -1, 2^53 ± 1 and both int64 ends', () => {
    const seen = new Set(sample({ type: 'integer', format: 'int64' }, 1000).map(String));
    for (const edge of [
      '0',
      '-1',
      '9007199254740991',
      '9007199254740993',
      '9223372036854775807',
      '-9223372036854775808',
    ]) {
      expect(seen).toContain(edge);
    }
  });

  test('bounded integers hit both bounds', () => {
    const seen = new Set(sample({ type: 'integer', minimum: 3, exclusiveMaximum: 90 }).map(String));
    expect(seen).toContain('3');
    expect(seen).toContain('89');
  });

  test('a decimal multipleOf gives exact decimal text', () => {
    const values = sample({ type: 'number', multipleOf: 0.01, minimum: 0, maximum: 100 });
    expect(values.every((value) => isLosslessNumber(value) && /^\d+(\.\d\d?)?$/.test(value.value))).toBe(true);
    expect(values.some((value) => value instanceof LosslessNumber && value.value.includes('.'))).toBe(true);
  });

  test('a decimal multipleOf gives only multiples that validators dividing in doubles (ajv) accept too', () => {
    // 4990.23 / 0.01 is 499022.99999999994 in doubles: ajv and python-jsonschema refuse it.
    const ajvAccepts = (text: string): boolean => Number.isInteger(Number(text) / 0.01);
    const schema = { type: 'number', multipleOf: 0.01, exclusiveMinimum: 0, maximum: 10000 };
    const texts = sample(schema, 2000).map((value) => (value as LosslessNumber).value);
    expect(texts.filter((text) => !ajvAccepts(text))).toEqual([]);
    expect(texts).toContain('10000');
    expect(new Set(texts).size).toBeGreaterThan(500);
  });

  test('a valid edge of a multipleOf that validators dividing in doubles refuse is not sent as valid', () => {
    const compiled = compileSchema({ type: 'number', multipleOf: 0.01, minimum: 0.07, maximum: 0.5 }, OPTIONS);
    const edges = compiled.boundaries.filter((variant) => variant.valid).map((variant) => variant.keyword);
    expect(edges).toEqual(['maximum']);
    expect(compiled.invalid.map((variant) => variant.keyword)).toEqual(
      expect.arrayContaining(['minimum', 'maximum', 'multipleOf']),
    );
  });

  test('valid e-mail addresses and UUIDs are ones zod, validator.js and IANA-checking validators accept too', () => {
    // zod's email() and uuid() (version 1-8, RFC 9562 variant), and a top-level domain IANA lists.
    const zodEmail = /^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;
    const knownTopLevel = /\.(com|org|net|io|dev|info)$/;
    const zodUuid = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$/;
    for (const schema of [
      { type: 'string', format: 'email' },
      { type: 'string', format: 'email', minLength: 12, maxLength: 20 },
    ]) {
      const emails = sample(schema, 300) as string[];
      expect(emails.filter((email) => !zodEmail.test(email) || !knownTopLevel.test(email))).toEqual([]);
    }
    for (const schema of [
      { type: 'string', format: 'uuid' },
      { type: 'string', format: 'uuid', maxLength: 36 },
    ]) {
      expect((sample(schema, 300) as string[]).filter((uuid) => !zodUuid.test(uuid))).toEqual([]);
    }
  });

  test('strings include awkward text: NUL, right-to-left marks, astral characters, edge whitespace', () => {
    const texts = sample({ type: 'string' }, 1000) as string[];
    expect(texts.some((text) => text.includes('\u0000'))).toBe(true);
    expect(texts.some((text) => text.includes('\u202e'))).toBe(true);
    expect(texts.some((text) => /[\u{10000}-\u{10ffff}]/u.test(text))).toBe(true);
    expect(texts.some((text) => text !== text.trim())).toBe(true);
    expect(texts.some((text) => LONE_SURROGATE.test(text))).toBe(false);
  });

  test('lengths are counted in code points', () => {
    const texts = sample({ type: 'string', minLength: 2, maxLength: 3 }, 500) as string[];
    expect(texts.every((text) => [...text].length >= 2 && [...text].length <= 3)).toBe(true);
    expect(texts.some((text) => text.length > 3)).toBe(true);
  });

  test('undeclared properties include awkward names where the schema allows them', () => {
    const keys = new Set(
      sample({ type: 'object', properties: { name: { type: 'string' } } }, 500).flatMap((value) =>
        Object.keys(value as object),
      ),
    );
    expect(keys).toContain('__proto__');
    expect(keys).toContain('constructor');
  });
});

describe('formats are written as their readers agree', () => {
  test('date, time and date-time: upper-case T and Z, offsets with a colon, years from 0001 (with and without lengths)', () => {
    const common =
      /^(?!0000)[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?(?:Z|[+-][0-9]{2}:[0-9]{2})$/;
    for (const value of sample({ type: 'string', format: 'date-time' }, 500)) expect(value).toMatch(common);
    for (const value of sample({ type: 'string', format: 'date-time', maxLength: 40 }, 200))
      expect(value).toMatch(common);
    for (const value of sample({ type: 'string', format: 'date' }, 300))
      expect(value).toMatch(/^(?!0000)[0-9]{4}-[0-9]{2}-[0-9]{2}$/);
    for (const value of sample({ type: 'string', format: 'time' }, 300)) {
      expect(value).toMatch(/^[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?(?:Z|[+-][0-9]{2}:[0-9]{2})$/);
    }
  });
});

describe('the integer hook', () => {
  class Fresh extends JsonPlaceholder {
    describe(): string {
      return 'a fresh id';
    }
  }

  const holdsFresh = (value: ExactJson): boolean =>
    value instanceof Fresh || (value !== null && typeof value === 'object' && Object.values(value).some(holdsFresh));

  test('replaces integer leaves of valid values, told the place and the folded bounds', () => {
    const asked: IntegerBounds[] = [];
    const schema = compileSchema(
      {
        type: 'object',
        required: ['id'],
        properties: { id: { type: 'integer', format: 'int64', minimum: 1, multipleOf: 2 }, n: { type: 'integer' } },
      },
      {
        ...OPTIONS,
        integer: (bounds) => (asked.push(bounds), bounds.pointer === '/id' ? fc.constant(new Fresh()) : undefined),
      },
    );
    expect(asked).toEqual(
      expect.arrayContaining([
        { pointer: '/id', min: 2n, max: 9223372036854775806n, multipleOf: 2n, format: 'int64' },
        { pointer: '/n', min: undefined, max: undefined, multipleOf: undefined, format: undefined },
      ]),
    );
    const values = fc.sample(schema.valid, { numRuns: 20, seed: 4 }) as Record<string, ExactJson>[];
    expect(values.every((value) => value.id instanceof Fresh)).toBe(true);
    expect(values.some((value) => typeof value.n === 'bigint')).toBe(true);
  });

  test('is never used by boundary and invalid variants', () => {
    const schema = compileSchema(
      { type: 'object', required: ['id'], properties: { id: { type: 'integer', maximum: 10 } } },
      { ...OPTIONS, integer: () => fc.constant(new Fresh()) },
    );
    const variants = [...schema.boundaries, ...schema.invalid];
    expect(variants.length).toBeGreaterThan(0);
    for (const variant of variants) {
      expect(fc.sample(variant.arbitrary, { numRuns: 5, seed: 1 }).some(holdsFresh)).toBe(false);
    }
  });
});

describe('unusual limits', () => {
  test('a minLength beyond the long-text limit still generates', () => {
    const texts = sample({ type: 'string', minLength: 2500 }, 5) as string[];
    expect(texts.every((text) => [...text].length >= 2500)).toBe(true);
  });

  test('unbounded decimals keep to the digits a double holds, except doubles written as JavaScript writes them', () => {
    const numbers = sample({ type: 'number' }, 500).map((value) => (value as LosslessNumber).value);
    const digits = (text: string): number => text.replace(/e.*$/i, '').replace(/[-.]/g, '').replace(/^0+/, '').length;
    expect(numbers.every((text) => digits(text) <= 17)).toBe(true);
  });

  test.each([
    { type: 'number' },
    { type: 'number', minimum: 0, exclusiveMaximum: 1000 },
    { type: 'number', exclusiveMinimum: 0.5, maximum: 1 },
    { type: 'number', multipleOf: 0.01 },
    { type: 'integer' },
    { type: 'integer', minimum: 5 },
    { type: 'integer', format: 'int32' },
  ])('valid numbers of %j survive a binary64 double unchanged (RFC 8259 section 6)', (schema) => {
    const changed = sample(schema, 500)
      .map((value) => (typeof value === 'bigint' ? value.toString() : (value as LosslessNumber).value))
      .filter((text) => !sameDecimal(text, String(Number(text))));
    expect(changed).toEqual([]);
  });

  test('a range that holds no 15-digit number still generates, with the digits it asks for', () => {
    const values = sample({ type: 'number', exclusiveMinimum: 0.1234567890123456, maximum: 0.1234567890123457 }, 50);
    expect(values.length).toBe(50);
  });

  test('int64 still reaches beyond 2^53 and an explicit bound beyond it is reached', () => {
    const seen = new Set(sample({ type: 'integer', maximum: 2n ** 60n }, 1000).map(String));
    expect(seen).toContain(String(2n ** 60n));
  });
});

describe('a number that may also be written as text (.NET 10: type [integer, string])', () => {
  test('valid strings write numbers the numeric keywords take: "5000" is not sent under maximum 100', () => {
    // Before: "0", "-0" and "72386075169" went as valid (JSON Schema's numeric keywords pass strings), and
    // ASP.NET Core's [Range(1, 100)] and int binding refuse them.
    const shelf = {
      type: ['integer', 'string'],
      pattern: '^-?(?:0|[1-9]\\d*)$',
      format: 'int32',
      minimum: 1,
      maximum: 100,
    };
    const values = sample({ type: 'object', required: ['shelf'], properties: { shelf } }, 600).map(
      (value) => (value as Record<string, ExactJson>).shelf,
    );
    const texts = values.filter((value): value is string => typeof value === 'string');
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.filter((text) => !(Number(text) >= 1 && Number(text) <= 100))).toEqual([]);
    expect(values.filter((value) => typeof value === 'bigint' && (value < 1n || value > 100n))).toEqual([]);
  });

  test('a string that writes no number is left as drawn, and a schema without bounds or integer format is untouched', () => {
    const code = { type: ['integer', 'string'], minimum: 1, maxLength: 3 };
    expect(sample(code, 300).some((value) => typeof value === 'string' && !/^\s*[-+]?\d/.test(value))).toBe(true);
    const open = { type: ['integer', 'string'], pattern: '^[0-9]+$' };
    expect(sample(open, 300).some((value) => typeof value === 'string' && value.length > 3)).toBe(true);
  });
});

describe('extras the schema cannot fill', () => {
  test('an unsatisfiable additionalProperties schema only means no undeclared properties', () => {
    const values = sample(
      {
        type: 'object',
        properties: { a: { type: 'string' } },
        additionalProperties: { type: 'string', minLength: 3, maxLength: 1 },
      },
      50,
    );
    expect(values.every((value) => Object.keys(value as object).every((key) => key === 'a'))).toBe(true);
  });
});
