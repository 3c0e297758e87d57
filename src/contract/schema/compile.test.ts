import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseExactJson, stringifyExactJson } from '../exact-json.js';
import {
  compileSchema,
  UnsupportedSchemaError,
  type CompiledSchema,
  type ExactJson,
  type ValueVariant,
} from './index.js';
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

/** Whether a variant's value is judged as its variant says: valid, or invalid at its keyword and pointer only. */
function judgedAsLabelled(schema: CompiledSchema, variant: ValueVariant, value: ExactJson): boolean {
  const found = violations(schema, value);
  if (variant.valid) return found.length === 0;
  return (
    found.length > 0 &&
    found.every(
      (violation) =>
        violation.keyword === (variant.judgedAs ?? variant.keyword) &&
        violation.pointer === (variant.judgedAt ?? variant.pointer),
    )
  );
}

describe.each(LIBRARY.map((entry) => entry.name))('variants of %s', (name) => {
  const schema = compiled.get(name) as CompiledSchema;
  const variants = [...new Set([...schema.boundaries, ...schema.invalid])];
  const runs = Math.max(3, Math.floor(300 / Math.max(1, variants.length)));

  test('every invalid variant fails at exactly its keyword and pointer, and is listed as invalid', () => {
    for (const variant of schema.invalid) {
      expect(variant.valid).toBe(false);
      fc.assert(
        fc.property(variant.arbitrary, (value) => judgedAsLabelled(schema, variant, value)),
        { numRuns: runs, seed: 11 },
      );
    }
  });

  test('every boundary variant is valid or invalid as labelled', () => {
    for (const variant of schema.boundaries) {
      fc.assert(
        fc.property(variant.arbitrary, (value) => judgedAsLabelled(schema, variant, value)),
        { numRuns: runs, seed: 13 },
      );
    }
  });

  test('a shrunk variant value keeps its class', () => {
    for (const variant of variants.slice(0, 10)) {
      const result = fc.check(
        fc.property(variant.arbitrary, (value) => stringifyExactJson(value).length < 2),
        { numRuns: 20, seed: 5 },
      );
      if (result.failed && result.counterexample)
        expect(judgedAsLabelled(schema, variant, result.counterexample[0])).toBe(true);
    }
  });
});

describe('a format refused', () => {
  test('each text a format refuses is its own variant, so every run sends the near misses a shape check takes', () => {
    const schema = compileSchema(
      { type: 'object', required: ['planted'], properties: { planted: { type: 'string', format: 'date' } } },
      { dialect: 'openapi-3.1', subject: 'a dated plant' },
    );
    const sent = schema.invalid
      .filter((variant) => variant.keyword === 'format')
      .map((variant) => fc.sample(variant.arbitrary, { numRuns: 1, seed: 1 })[0])
      .map((value) => (JSON.parse(stringifyExactJson(value!)) as { planted: string }).planted);
    // 2024-02-30 and 2024-13-01 have a date's shape: a check by regex alone takes them. (Then the texts other
    // languages' date parsers read.)
    expect(sent.slice(0, 4)).toEqual(['2024-02-30', '2024-13-01', '24-01-01', 'today']);
  });
});

describe('the variants name what they break', () => {
  const variantsOf = (name: string): string[] => {
    const schema = compiled.get(name) as CompiledSchema;
    return [...schema.boundaries, ...schema.invalid].map(
      (variant) => `${variant.valid ? 'valid' : 'invalid'} ${variant.keyword} ${variant.pointer}`,
    );
  };

  test('a constrained NewPlant has the edges and breaks of each of its keywords', () => {
    const found = new Set(variantsOf('constrained NewPlant 3.0'));
    for (const expected of [
      'valid maxLength /name',
      'invalid maxLength /name',
      'valid minLength /name',
      'invalid minLength /name',
      'valid minimum /id',
      'invalid minimum /id',
      'valid maximum /id',
      'invalid maximum /id',
      'valid enum /tag',
      'invalid enum /tag',
      'invalid required /id',
      'invalid required /name',
      'invalid additionalProperties /unexpected',
      'invalid type /id',
      'invalid pattern /code',
      'invalid multipleOf /price',
      'valid exclusiveMinimum /price',
      'invalid exclusiveMinimum /price',
    ]) {
      expect(found).toContain(expected);
    }
  });

  test('nested objects and array items get variants of their own', () => {
    expect(variantsOf('nested objects')).toEqual(
      expect.arrayContaining([
        'invalid maximum /plant/pot/size',
        'invalid required /plant/pot/size',
        'invalid additionalProperties /plant/pot/unexpected',
      ]),
    );
    expect(variantsOf('array of objects')).toEqual(
      expect.arrayContaining([
        'invalid maxItems ',
        'invalid minItems ',
        'invalid required /0/id',
        'invalid format /0/id',
      ]),
    );
  });

  test('a patterned or formatted string has its length edges where a match of that length exists', () => {
    const patterned = new Set(variantsOf('patterns with lengths'));
    for (const expected of [
      'valid maxLength /code',
      'invalid maxLength /code',
      'valid minLength /slug',
      'invalid minLength /slug',
      'valid maxLength /slug',
      'invalid maxLength /slug',
      'valid minLength /pair',
      'valid maxLength /pair',
      'invalid maxLength /pair',
      'valid maxLength /digit',
      'invalid maxLength /digit',
    ]) {
      expect(patterned).toContain(expected);
    }
    // No match of ^[A-Z]{3}$ is 9 or 10 long; none of ^(cactus|fern|abbb*)$ is 2 long.
    expect(patterned).not.toContain('valid maxLength /word');
    expect(patterned).not.toContain('invalid maxLength /word');
    expect(patterned).not.toContain('invalid minLength /pair');
    const formatted = new Set(variantsOf('formats with lengths'));
    for (const expected of [
      'valid minLength /mail',
      'invalid minLength /mail',
      'valid maxLength /mail',
      'invalid maxLength /mail',
      'valid maxLength /site',
      'invalid maxLength /site',
      'valid maxLength /uid',
      'valid maxLength /day',
      'valid minLength /day',
      'valid maxLength /when',
      'invalid maxLength /when',
      'valid minLength /host',
      'invalid minLength /host',
      'valid maxLength /host',
      'invalid maxLength /host',
      'valid maxLength /v4',
      'invalid maxLength /v4',
    ]) {
      expect(formatted).toContain(expected);
    }
  });

  test('a pattern has the near misses regex engines get wrong, and an unanchored one a match inside text', () => {
    const schema = compiled.get('patterns with lengths') as CompiledSchema;
    const labelled = (pointer: string, words: string): ValueVariant[] =>
      [...new Set([...schema.invalid, ...schema.boundaries])].filter(
        (variant) => variant.keyword === 'pattern' && variant.pointer === pointer && variant.label.includes(words),
      );
    const codeOf = (variant: ValueVariant | undefined): string[] =>
      variant === undefined
        ? []
        : fc
            .sample(variant.arbitrary, { numRuns: 20, seed: 1 })
            .map((value) => (value as Record<string, string>).code ?? '');
    const newline = labelled('/code', 'followed by a newline')[0];
    expect(newline?.valid).toBe(false);
    expect(codeOf(newline).every((code) => /^[A-Z]{3}-[0-9]{2,}\n$/.test(code))).toBe(true);
    for (const words of ['after a space', 'before a space', 'one character out of its class'])
      expect(labelled('/code', words).map((variant) => variant.valid)).toEqual([false]);
    // ^…$ is anchored: no match inside other text; [0-9] is a search, so "#5#" is valid.
    expect(labelled('/code', 'inside other text')).toEqual([]);
    expect(labelled('/digit', 'inside other text').map((variant) => variant.valid)).toEqual([true]);
  });

  test("a pattern's classes are broken with the characters other engines read into them: Python's . and \\S, Java's \\S, Python's \\d", () => {
    const compile = (pattern: string) =>
      compileSchema(
        { type: 'object', required: ['name'], properties: { name: { type: 'string', pattern } } },
        { dialect: 'openapi-3.1', subject: 'a NewPlant' },
      );
    const names = (pattern: string, words: string): string[] =>
      compile(pattern)
        .invalid.filter((variant) => variant.keyword === 'pattern' && variant.label.includes(words))
        .flatMap((variant) => fc.sample(variant.arbitrary, { numRuns: 10, seed: 2 }))
        .map((value) => (value as Record<string, string>).name ?? '');
    const trimmed = String.raw`^\S(.*\S)?$`;
    const inside = names(trimmed, 'replaced by a carriage return');
    expect(inside.length).toBeGreaterThan(0);
    expect(inside.every((name) => name.includes('\r'))).toBe(true);
    expect(inside.some((name) => /[^\r]\r[^\r]/u.test(name))).toBe(true);
    expect(names(trimmed, 'replaced by U+FEFF').every((name) => /^\ufeff|\ufeff$/u.test(name))).toBe(true);
    expect(names(trimmed, 'replaced by U+FEFF').length).toBeGreaterThan(0);
    expect(names(trimmed, 'replaced by a no-break space').length).toBeGreaterThan(0);
    expect(names(String.raw`^[0-9]+$`, 'an Arabic-Indic digit').length).toBeGreaterThan(0);
    expect(names(String.raw`^\d+$`, 'an Arabic-Indic digit').every((name) => name.includes('\u0663'))).toBe(true);
    // A class that takes the character already (`.` takes U+FEFF) has no such variant.
    expect(names('^.+$', 'replaced by U+FEFF')).toEqual([]);
  });

  test.each([
    ['date', ['20240101', '2024-W01-1', '2024-1-5', '2024/01/05']],
    ['time', ['120000Z', '12:00Z']],
    ['date-time', ['2024-01-01T00:00:00', '20240101T000000Z', '2024-01-01T00:00Z']],
    ['duration', ['pt1h', 'PT1.5S', '-PT1H']],
    ['ipv4', ['127.1', '0x7f.0.0.1']],
    ['byte', ['YWJj!ZGVm', 'YWJj-_8=', 'YWJj\nZGVm']],
  ])(
    "a %s is broken, every run, with the forms a common parser reads (Python's fromisoformat or inet_aton, Java's java.time) and the format does not",
    (format, texts) => {
      const schema = compileSchema(
        { type: 'object', required: ['at'], properties: { at: { type: 'string', format } } },
        { dialect: 'openapi-3.1', subject: 'a NewPlant' },
      );
      const lenient = schema.boundaries.filter(
        (variant) => variant.keyword === 'format' && /, though read as one by /.test(variant.label),
      );
      expect(lenient.every((variant) => !variant.valid && schema.invalid.includes(variant))).toBe(true);
      const sent = lenient.flatMap((variant) => fc.sample(variant.arbitrary, { numRuns: 3, seed: 1 }));
      expect([...new Set(sent.map((value) => (value as Record<string, string>).at))].sort()).toEqual([...texts].sort());
    },
  );

  test('a closed part of an allOf that shuts out a name another part requires is refused by that name, with how to close the composed schema', () => {
    const plant = {
      type: 'object',
      required: ['name'],
      additionalProperties: false,
      properties: { name: { type: 'string' } },
    };
    const withId = { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } };
    for (const allOf of [
      [plant, withId],
      [withId, plant],
    ]) {
      let thrown: unknown;
      try {
        compileSchema({ allOf }, { dialect: 'openapi-3.0', subject: 'a NewPlant' });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(UnsupportedSchemaError);
      expect((thrown as UnsupportedSchemaError).message).toContain('"id" is required by one part of this allOf');
      expect((thrown as UnsupportedSchemaError).message).toContain('unevaluatedProperties: false');
    }
    // An additionalProperties schema that refuses the required name: the refusal says which name it judges.
    const typedRest = { ...plant, additionalProperties: { type: 'string' } };
    let judged: unknown;
    try {
      compileSchema({ allOf: [typedRest, withId] }, { dialect: 'openapi-3.0', subject: 'a NewPlant' });
    } catch (error) {
      judged = error;
    }
    expect((judged as UnsupportedSchemaError).message).toContain(
      'whose additionalProperties {"type":"string"} judges it',
    );
    // Listed in the closed part, the name is no conflict.
    const listed = { ...plant, properties: { ...plant.properties, id: { type: 'integer' } } };
    expect(() =>
      compileSchema({ allOf: [listed, withId] }, { dialect: 'openapi-3.0', subject: 'a NewPlant' }),
    ).not.toThrow();
  });

  test('uniqueItems over objects is broken, every run, by a repeat with its members in another order', () => {
    const item = {
      type: 'object',
      required: ['day', 'ml'],
      properties: { day: { type: 'string' }, ml: { type: 'integer' } },
    };
    const schema = compileSchema(
      { type: 'object', required: ['slots'], properties: { slots: { type: 'array', uniqueItems: true, items: item } } },
      { dialect: 'openapi-3.1', subject: 'a NewPlant' },
    );
    const reordered = schema.boundaries.filter((variant) => variant.label.includes('members in another order'));
    expect(reordered.length).toBe(1);
    expect(reordered[0]?.valid).toBe(false);
    for (const value of fc.sample(reordered[0]!.arbitrary, { numRuns: 20, seed: 3 })) {
      const slots = (value as { slots: Record<string, unknown>[] }).slots;
      const [first, last] = [slots[0]!, slots.at(-1)!];
      expect(Object.keys(last)).toEqual(Object.keys(first).reverse());
      expect(stringifyExactJson(last as ExactJson)).not.toBe(stringifyExactJson(first as ExactJson));
    }
    const strings = compileSchema(
      { type: 'array', uniqueItems: true, items: { type: 'string' } },
      { dialect: 'openapi-3.1', subject: 'labels' },
    );
    expect(strings.boundaries.filter((variant) => variant.label.includes('members in another order'))).toEqual([]);
  });

  test("a pattern's classes take, as valid boundaries, the characters ECMA-262 reads into them and other engines do not: Java's . and U+0085, Java's and Go's \\s and a no-break space, Python's \\s and U+FEFF", () => {
    const valid = (pattern: string, words: string): string[] =>
      compileSchema(
        { type: 'object', required: ['name'], properties: { name: { type: 'string', pattern } } },
        { dialect: 'openapi-3.1', subject: 'a NewPlant' },
      )
        .boundaries.filter((variant) => variant.valid && variant.keyword === 'pattern' && variant.label.includes(words))
        .map((variant) => {
          expect(variant.label).toContain('ECMA-262 takes it');
          return variant;
        })
        .flatMap((variant) => fc.sample(variant.arbitrary, { numRuns: 10, seed: 2 }))
        .map((value) => (value as Record<string, string>).name ?? '');
    const dotted = valid(String.raw`^\S.*$`, 'replaced by U+0085 NEXT LINE');
    expect(dotted.length).toBeGreaterThan(0);
    expect(dotted.every((name) => name.includes('\u0085'))).toBe(true);
    const words = String.raw`^\S+(\s\S+)*$`;
    expect(valid(words, 'replaced by a no-break space').every((name) => /\S\u00a0\S/u.test(name))).toBe(true);
    expect(valid(words, 'replaced by a no-break space').length).toBeGreaterThan(0);
    expect(valid(words, 'replaced by U+FEFF').length).toBeGreaterThan(0);
    // A class that refuses the character in every engine ([a-z]) has no such variant.
    expect(valid('^[a-z]+$', 'replaced by')).toEqual([]);
  });

  test('tuples have their length edges and variants at each position; contains counts have their edges', () => {
    const found = new Set(variantsOf('tuples and contains counts'));
    for (const expected of [
      'valid maxItems /pair',
      'invalid maxItems /pair',
      'valid minItems /pair',
      'invalid minItems /pair',
      'invalid maxLength /pair/0',
      'invalid minimum /pair/1',
      'invalid type /pair/2',
      'valid contains /scores',
      'invalid contains /scores',
    ]) {
      expect(found).toContain(expected);
    }
    const schema = compiled.get('tuples and contains counts') as CompiledSchema;
    const counts = [...new Set([...schema.boundaries, ...schema.invalid])]
      .filter((variant) => variant.pointer === '/scores' && /Contains/.test(variant.label))
      .map((variant) => `${variant.valid ? 'valid' : 'invalid'} ${variant.label}`);
    expect(counts).toEqual([
      'valid scores with exactly minContains 2 items matching contains',
      'invalid scores with 1 items matching contains, fewer than minContains 2',
      'valid scores with exactly maxContains 3 items matching contains',
      'invalid scores with 4 items matching contains, more than maxContains 3',
    ]);
  });

  test('an enum near miss is labelled with the rule it breaks', () => {
    const schema = compiled.get('string enum') as CompiledSchema;
    expect(schema.invalid.map((variant) => variant.label)).toContain('the body not one of enum ["cactus","fern"]');
  });

  test('an enum value in other letter case is an invalid variant of its own, so every run sends one', () => {
    const schema = compiled.get('string enum') as CompiledSchema;
    const enums = schema.invalid.filter((variant) => variant.keyword === 'enum');
    const values = enums.map((variant) => new Set(fc.sample(variant.arbitrary, { numRuns: 60, seed: 3 })));
    const recased = values.filter((drawn) =>
      [...drawn].every((value) => typeof value === 'string' && /^(?:CACTUS|Cactus|FERN|Fern)$/.test(value)),
    );
    expect(recased).toHaveLength(1);
    expect([...(recased[0] ?? [])].sort()).toEqual(['CACTUS', 'Cactus', 'FERN', 'Fern']);
    // Labelled apart from the typos, so the runner does not take the two for one case (keyword, place, label).
    expect(new Set(enums.map((variant) => variant.label)).size).toBe(enums.length);
    // And only there: drawn among the typos too, `CACTUS` was titled by whichever label drew it first (HF13, HS12's
    // st-enum-case: '(a listed value in other letter case)' at seeds default and 1, not at 42).
    const typos = values.filter((drawn) => !recased.includes(drawn)).flatMap((drawn) => [...drawn]);
    expect(typos.length).toBeGreaterThan(0);
    expect(typos.filter((value) => typeof value === 'string' && /^(?:CACTUS|Cactus|FERN|Fern)$/.test(value))).toEqual(
      [],
    );
  });
});

describe('keywords whose value is not what JSON Schema asks', () => {
  const refusal = (schema: object): UnsupportedSchemaError | undefined => {
    try {
      compileSchema(schema, { dialect: 'openapi-3.1', subject: 'a NewPlant' });
    } catch (error) {
      if (error instanceof UnsupportedSchemaError) return error;
      throw error;
    }
    return undefined;
  };

  test('a bound written as a string is refused at its own pointer, with how to write it', () => {
    const error = refusal({ type: 'object', properties: { price: { type: 'number', maximum: '10' } } });
    expect([error?.keyword, error?.schemaPointer]).toEqual(['maximum', '/properties/price/maximum']);
    expect(error?.reason).toBe('maximum must be a number, not the string "10"; write maximum: 10 (without quotes)');
  });

  test('a length that is not a count, and a required that is not a list, are named too', () => {
    const length = refusal({ type: 'object', properties: { name: { type: 'string', maxLength: -1 } } });
    expect([length?.keyword, length?.schemaPointer, length?.reason]).toEqual([
      'maxLength',
      '/properties/name/maxLength',
      'maxLength must be a non-negative integer, not -1',
    ]);
    const required = refusal({ type: 'object', properties: { pot: { type: 'object', required: true } } });
    expect([required?.keyword, required?.schemaPointer]).toEqual(['required', '/properties/pot/required']);
  });

  test('a multipleOf of 0 or below is refused at its own pointer (no value is a multiple of it)', () => {
    for (const divisor of [0, -2]) {
      const error = refusal({ type: 'object', properties: { id: { type: 'integer', multipleOf: divisor } } });
      expect([error?.keyword, error?.schemaPointer, error?.reason]).toEqual([
        'multipleOf',
        '/properties/id/multipleOf',
        `multipleOf must be a number greater than 0, not ${divisor}`,
      ]);
    }
  });

  test('a required listing a name twice is refused at its own pointer, naming it', () => {
    // Before: '$schema' at the root: 'the schema is not valid JSON Schema: schema is invalid: data/required must NOT have duplicate items'.
    const error = refusal({
      type: 'object',
      required: ['id', 'name', 'name'],
      properties: { name: { type: 'string' } },
    });
    expect([error?.keyword, error?.schemaPointer, error?.reason]).toEqual([
      'required',
      '/required',
      'required must be an array of distinct strings, not a list naming "name" twice',
    ]);
  });

  test('numbers beyond 2^53 and OpenAPI 3.0 boolean exclusive bounds are fine', () => {
    expect(refusal({ type: 'integer', maximum: 2n ** 63n, exclusiveMinimum: 0 })).toBeUndefined();
    expect(refusal({ type: 'integer', minimum: 0, exclusiveMinimum: true })).toBeUndefined();
  });
});

describe('format float (a Java or C# float, a Rust f32)', () => {
  test('valid numbers keep to 6 significant digits inside the float range, so a float holds and writes them back', () => {
    const schema = compileSchema({ type: 'number', format: 'float' }, { dialect: 'openapi-3.0', subject: 'a price' });
    const texts = fc.sample(schema.valid, { numRuns: 300, seed: 5 }).map((value) => stringifyExactJson(value));
    const significant = (text: string): number =>
      (text.split(/e/i)[0] ?? '').replace(/[-.]/g, '').replace(/^0+/, '').replace(/0+$/, '').length;
    expect(texts.filter((text) => significant(text) > 6)).toEqual([]);
    expect(texts.filter((text) => Math.abs(Number(text)) > 3.4e38)).toEqual([]);
    // Each is the shortest text of its float: what Float.toString and Jackson write back.
    const shortest = (text: string): boolean => {
      const float = Math.fround(Number(text));
      return Number(float.toPrecision(significant(text) || 1)) === Number(text);
    };
    expect(texts.filter((text) => !shortest(text))).toEqual([]);
    const doubles = compileSchema({ type: 'number' }, { dialect: 'openapi-3.0', subject: 'a height' });
    const wide = fc.sample(doubles.valid, { numRuns: 300, seed: 5 }).map((value) => stringifyExactJson(value));
    expect(wide.some((text) => significant(text) > 6)).toBe(true);
  });
});

describe("NSwag's format guid (a .NET System.Guid)", () => {
  test('valid values are UUIDs, the forms Guid.Parse reads are valid, and only strings it refuses are sent as invalid', () => {
    const schema = compileSchema({ type: 'string', format: 'guid' }, { dialect: 'openapi-3.0', subject: 'a batch id' });
    const values = fc.sample(schema.valid, { numRuns: 50, seed: 4 }) as string[];
    expect(values.every((value) => /^[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i.test(value))).toBe(true);
    for (const read of [
      '123e4567-e89b-12d3-a456-426614174000',
      '123e4567e89b12d3a456426614174000',
      '{123e4567-e89b-12d3-a456-426614174000}',
      '(123e4567-e89b-12d3-a456-426614174000)',
    ])
      expect(schema.check(read)).toEqual([]);
    expect(schema.check('').map((v) => v.keyword)).toEqual(['format']);
    expect(schema.check('not-a-guid').map((v) => v.keyword)).toEqual(['format']);
    const invalid = schema.invalid.flatMap((variant) => fc.sample(variant.arbitrary, { numRuns: 10, seed: 3 }));
    expect(invalid.length).toBeGreaterThan(0);
    expect(invalid.filter((value) => typeof value === 'string' && schema.check(value).length === 0)).toEqual([]);
  });
});

describe('OpenAPI 3.0 nullable', () => {
  test('beside an allOf of a typed schema, null is never sent and never faulted (the readings differ)', () => {
    // 3.0.3's nullable works "within a single Schema Object": the typed part refuses null (openapi-core), while
    // Swashbuckle's `{allOf: [$ref], nullable: true}` means null allowed (ASP.NET, kin-openapi take it). Before,
    // null was sent as a valid pot, and a correct openapi-core server failed positive-acceptance.
    const schema = compiled.get('nullable $ref and oneOf in 3.0') as CompiledSchema;
    expect(schema.check(parseExactJson('{"pot": null, "kind": null}'))).toEqual([]);
    expect(schema.ambiguities(parseExactJson('{"pot": null, "kind": "tree"}')).map((v) => v.pointer)).toEqual(['/pot']);
    expect(
      schema.check(parseExactJson('{"pot": {"size": 0}, "kind": "tree"}')).map((v) => [v.keyword, v.pointer]),
    ).toEqual([['minimum', '/pot/size']]);
    const sent = [
      schema.valid,
      ...schema.boundaries.map((v) => v.arbitrary),
      ...schema.invalid.map((v) => v.arbitrary),
    ];
    const pots = sent.flatMap((arbitrary) =>
      fc
        .sample(arbitrary, { numRuns: 30, seed: 2 })
        .flatMap((value) => (value !== null && typeof value === 'object' && 'pot' in value ? [value.pot] : [])),
    );
    expect(pots.length).toBeGreaterThan(0);
    expect(pots).not.toContain(null);
  });

  test('beside an allOf whose parts take null themselves, null is allowed and sometimes generated', () => {
    const pot = { type: 'object', nullable: true, properties: { size: { type: 'integer', minimum: 1 } } };
    const schema = compileSchema(
      { type: 'object', required: ['pot'], properties: { pot: { nullable: true, allOf: [pot] } } },
      { dialect: 'openapi-3.0', subject: 'a NewPlant' },
    );
    expect(schema.ambiguities(parseExactJson('{"pot": null}'))).toEqual([]);
    const values = fc.sample(schema.valid, { numRuns: 100, seed: 2 }) as Record<string, ExactJson>[];
    expect(values.some((value) => value.pot === null)).toBe(true);
  });

  test('beside a oneOf without type or a null branch, null is never sent and never faulted (the readings differ)', () => {
    // 3.0.3 adds null "only if type is explicitly defined" (openapi-core refuses it), converters and kin-openapi
    // let it in. Before, null was sent as a valid kind, and a correct openapi-core-like server was faulted.
    const schema = compiled.get('nullable $ref and oneOf in 3.0') as CompiledSchema;
    expect(schema.ambiguities(parseExactJson('{"pot": {"size": 1}, "kind": null}')).map((v) => v.pointer)).toEqual([
      '/kind',
    ]);
    const sent = [
      schema.valid,
      ...schema.boundaries.map((v) => v.arbitrary),
      ...schema.invalid.map((v) => v.arbitrary),
    ];
    const kinds = sent.flatMap((arbitrary) =>
      fc
        .sample(arbitrary, { numRuns: 30, seed: 3 })
        .flatMap((value) => (value !== null && typeof value === 'object' && 'kind' in value ? [value.kind] : [])),
    );
    expect(kinds).toContain('tree');
    expect(kinds).not.toContain(null);
  });

  test('beside an enum without null, null is never sent and never faulted (the readings differ)', () => {
    const tag = { type: 'string', enum: ['cactus', 'fern'], nullable: true };
    const schema = compileSchema(
      { type: 'object', required: ['tag'], properties: { tag } },
      { dialect: 'openapi-3.0', subject: 'a NewPlant' },
    );
    expect(schema.check(parseExactJson('{"tag": null}'))).toEqual([]);
    expect(schema.ambiguities(parseExactJson('{"tag": null}')).map((v) => [v.keyword, v.pointer])).toEqual([
      ['enum', '/tag'],
    ]);
    expect(schema.ambiguities(parseExactJson('{"tag": "fern"}'))).toEqual([]);
    const sent = [
      schema.valid,
      ...schema.boundaries.map((v) => v.arbitrary),
      ...schema.invalid.map((v) => v.arbitrary),
    ];
    const tagOf = (value: ExactJson): ExactJson | undefined =>
      value !== null && typeof value === 'object' && !Array.isArray(value)
        ? (value as Record<string, ExactJson>).tag
        : undefined;
    const tags = sent.flatMap((arbitrary) => fc.sample(arbitrary, { numRuns: 30, seed: 3 }).map(tagOf));
    expect(tags).toContain('fern');
    expect(tags).not.toContain(null);
  });

  test("beside a oneOf with a branch of its own for null (drf-spectacular's NullEnum), null is valid and sent", () => {
    // drf-spectacular's nullable choice field: `nullable: true` and oneOf [TagEnum, BlankEnum, NullEnum].
    const tag = {
      nullable: true,
      oneOf: [{ type: 'string', enum: ['cactus', 'fern'] }, { enum: [''] }, { enum: [null] }],
    };
    const schema = compileSchema(
      { type: 'object', required: ['tag'], properties: { tag } },
      { dialect: 'openapi-3.0', subject: 'a NewPlant' },
    );
    expect(schema.check(parseExactJson('{"tag": null}'))).toEqual([]);
    expect(schema.check(parseExactJson('{"tag": ""}'))).toEqual([]);
    expect(schema.check(parseExactJson('{"tag": "palm"}')).map((v) => v.keyword)).toEqual(['oneOf']);
    const values = fc.sample(schema.valid, { numRuns: 100, seed: 2 }) as Record<string, ExactJson>[];
    expect(values.some((value) => value.tag === null)).toBe(true);
    const invalid = schema.invalid.flatMap((variant) => fc.sample(variant.arbitrary, { numRuns: 10, seed: 3 }));
    const tags = invalid.flatMap((value) =>
      value !== null && typeof value === 'object' && !Array.isArray(value) && 'tag' in value ? [value.tag] : [],
    );
    expect(tags).not.toContain(null);
  });

  test('beside an enum listing null, null is valid and sent', () => {
    const schema = compileSchema(
      { type: 'string', enum: ['cactus', null], nullable: true },
      { dialect: 'openapi-3.0', subject: 'a tag' },
    );
    expect(schema.check(null)).toEqual([]);
    expect(schema.ambiguities(null)).toEqual([]);
    expect(fc.sample(schema.valid, { numRuns: 30, seed: 3 })).toContain(null);
  });

  test('in a 3.1 document, where it is no keyword, nullable leaves null open: never sent, never faulted', () => {
    const schema = compileSchema({ type: 'string', nullable: true }, { dialect: 'openapi-3.1', subject: 'a tag' });
    expect(schema.check(null)).toEqual([]);
    expect(schema.ambiguities(null).map((v) => v.keyword)).toEqual(['type']);
    expect(fc.sample(schema.valid, { numRuns: 100, seed: 3 })).not.toContain(null);
    const invalid = schema.invalid.flatMap((variant) => fc.sample(variant.arbitrary, { numRuns: 5, seed: 3 }));
    expect(invalid).not.toContain(null);
    const plain = compileSchema({ type: 'string' }, { dialect: 'openapi-3.1', subject: 'a tag' });
    expect(plain.check(null).map((v) => v.keyword)).toEqual(['type']);
  });
});

describe('keywords inside anyOf and oneOf branches', () => {
  const named = (schema: CompiledSchema, valid: boolean) =>
    [...schema.boundaries, ...schema.invalid]
      .filter((variant) => variant.valid === valid)
      .map((variant) => `${variant.keyword} ${variant.pointer} as ${variant.judgedAs ?? ''} ${variant.judgedAt ?? ''}`);

  test("pydantic's optional constrained field gets its edges and breaks, judged as the anyOf", () => {
    const tag = { anyOf: [{ type: 'string', maxLength: 30 }, { type: 'null' }], title: 'Tag' };
    const schema = compileSchema(
      { type: 'object', required: ['id'], properties: { id: { type: 'integer' }, tag } },
      { dialect: 'openapi-3.1', subject: 'a NewPlant' },
    );
    expect(named(schema, true)).toContain('maxLength /tag as anyOf ');
    expect(named(schema, false)).toContain('maxLength /tag as anyOf ');
    const tooLong = schema.invalid.find((variant) => variant.keyword === 'maxLength') as ValueVariant;
    for (const value of fc.sample(tooLong.arbitrary, { numRuns: 10, seed: 4 })) {
      expect([...((value as Record<string, unknown>).tag as string)]).toHaveLength(31);
    }
  });

  test('a oneOf of kinds gets the bounds and required members of each kind, judged as the oneOf at the body', () => {
    const kind = (name: string, own: Record<string, unknown>, required: string) => ({
      type: 'object',
      required: ['id', 'kind', required],
      properties: { id: { type: 'integer' }, kind: { enum: [name] }, ...own },
    });
    const schema = compileSchema(
      {
        oneOf: [
          kind('tree', { heightM: { type: 'number', minimum: 0.1, maximum: 120 } }, 'heightM'),
          kind('herb', { aromatic: { type: 'boolean' } }, 'aromatic'),
        ],
      },
      { dialect: 'openapi-3.0', subject: 'a NewPlant' },
    );
    const invalid = named(schema, false);
    expect(invalid).toContain('maximum /heightM as oneOf ');
    expect(invalid).toContain('required /aromatic as oneOf ');
    expect(named(schema, true)).toContain('maximum /heightM as oneOf ');
    const wrongType = schema.invalid.filter((variant) => variant.keyword === 'type' && variant.pointer === '');
    expect(wrongType).toEqual([]);
  });
});

describe('oneOf', () => {
  test('valid values match exactly one branch; a variant matches two', () => {
    const schema = compiled.get('overlapping oneOf') as CompiledSchema;
    const values = fc.sample(schema.valid, { numRuns: 200, seed: 8 }).map(Number);
    expect(values.every((value) => value < 10 || value > 20)).toBe(true);
    const two = schema.invalid.find((variant) => variant.label.includes('more than one'));
    expect(two?.keyword).toBe('oneOf');
    const overlapping = fc.sample((two as ValueVariant).arbitrary, { numRuns: 20, seed: 8 }).map(Number);
    expect(overlapping.every((value) => value >= 10 && value <= 20)).toBe(true);
  });
});

describe('variants of undeclared properties', () => {
  test('values under additionalProperties and patternProperties get variants at a name of their own', () => {
    const schema = compiled.get('patternProperties and propertyNames') as CompiledSchema;
    const named = schema.invalid.map((variant) => `${variant.keyword} ${variant.pointer}`);
    expect(named).toContain('type /extra');
    expect(named.some((entry) => /^type \/x-/.test(entry))).toBe(true);
  });
});

describe('fractions under integer formats', () => {
  test('break type under type integer, and format under type number', () => {
    const schema = compileSchema(
      {
        type: 'object',
        properties: { i: { type: 'integer', format: 'int64' }, n: { type: 'number', format: 'int32' } },
      },
      { dialect: 'openapi-3.0', subject: 'a NewPlant' },
    );
    const broken = schema.check(parseExactJson('{"i": 1.5, "n": 2.5}')).map((v) => [v.keyword, v.pointer]);
    expect(broken).toEqual([
      ['type', '/i'],
      ['format', '/n'],
    ]);
  });
});
