import { describe, expect, it } from 'vitest';
import { loadContract } from './spec.js';
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

describe('type: integer judged on the number as written', () => {
  const check = compileSchemaCheck(
    {
      type: 'object',
      properties: {
        count: { type: 'integer' },
        bounded: { type: 'integer', minimum: 0 },
        either: { type: ['integer', 'null'] },
        real: { type: 'number' },
      },
    },
    'NewPlant',
  );
  const messages = (text: string): string[] => check(parseExactJson(text)).map((v) => v.message);

  it('refuses a fraction that a double rounds to a whole number beyond 2^53, with or without bounds', () => {
    // 9007199254740993.5 is read as the double 9007199254740994: ajv's type check alone takes it.
    expect(messages('{"count": 9007199254740993.5}')).toEqual([
      'field "count" must be a whole number, got 9007199254740993.5',
    ]);
    expect(messages('{"bounded": 9008858238156351.5}')).toHaveLength(1);
    expect(messages('{"either": 9007199254740993.5}')).toHaveLength(1);
    expect(check(parseExactJson('{"count": 9007199254740993.5}'))[0]?.keyword).toBe('type');
  });

  it('keeps whole numbers written as 1.0, 1e2 or beyond 2^53 and the type message of 1.5', () => {
    expect(messages('{"count": 1.0, "bounded": 1e2, "either": 9007199254740993}')).toEqual([]);
    expect(messages('{"real": 9007199254740993.5}')).toEqual([]);
    expect(messages('{"count": 1.5}')).toEqual(['field "count" must be an integer, got a number']);
  });
});
