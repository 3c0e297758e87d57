import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileSchema } from './compile.js';
import { parseExactJson } from '../exact-json.js';
import { asParsed } from './json.js';

const properties = {
  id: { type: 'integer', format: 'int64' },
  name: { type: 'string' },
  kind: { type: 'string', enum: ['tree', 'shrub', 'herb'] },
  height: { type: 'number', minimum: 0 },
};
const unconditional = { type: 'object', required: ['id', 'name'], properties };
const treeIf = { properties: { kind: { const: 'tree' } } };
const conditional = {
  ...unconditional,
  if: treeIf,
  then: { required: ['height'] },
  else: { properties: { height: { maximum: 2 } } },
};

const compile = (schema: object) => compileSchema(schema, { dialect: 'openapi-3.1', subject: 'a NewPlant' });

describe('invalid variants of an if/then/else', () => {
  const compiled = compile(conditional);
  const loose = compile(unconditional).check;
  const meetsIf = compile(treeIf).check;
  const meetsElse = compile(conditional.else).check;
  const variant = (keyword: string) => compiled.invalid.find((candidate) => candidate.keyword === keyword);

  it('breaks the then: values that meet the if, lack the height, and break nothing else', () => {
    expect(variant('then')).toMatchObject({
      pointer: '',
      label: 'the body matching if {"properties":{"kind":{"const":"tree"}}} but not then {"required":["height"]}',
    });
    fc.assert(
      fc.property(variant('then')!.arbitrary, (value) => {
        const parsed = asParsed(value);
        expect(compiled.check(parsed).map((violation) => violation.keyword)).toEqual(['anyOf']);
        expect(loose(parsed)).toEqual([]);
        expect(meetsIf(parsed)).toEqual([]);
        expect(Object.hasOwn(parsed as object, 'height')).toBe(false);
      }),
      { numRuns: 50, seed: 5 },
    );
  });

  it('breaks the else: values that fail the if and the else, and break nothing else', () => {
    expect(variant('else')?.label).toBe(
      'the body matching neither if {"properties":{"kind":{"const":"tree"}}} nor else {"properties":{"height":{"maximum":2}}}',
    );
    fc.assert(
      fc.property(variant('else')!.arbitrary, (value) => {
        const parsed = asParsed(value);
        expect(compiled.check(parsed).map((violation) => violation.keyword)).toEqual(['anyOf']);
        expect(loose(parsed)).toEqual([]);
        expect(meetsIf(parsed)).not.toEqual([]);
        expect(meetsElse(parsed)).not.toEqual([]);
      }),
      { numRuns: 50, seed: 5 },
    );
  });

  it('builds no generic anyOf variant for the anyOf the conditional is read as, and none without then or else', () => {
    expect(compiled.invalid.filter((candidate) => candidate.keyword === 'anyOf')).toEqual([]);
    const onlyIf = compile({ ...unconditional, if: treeIf });
    expect(onlyIf.invalid.filter((candidate) => ['then', 'else', 'anyOf'].includes(candidate.keyword))).toEqual([]);
  });
});

describe('the invalid variant of a dependentRequired', () => {
  it('names the member left out and the one present, leaving the keyword to the description that adds it', () => {
    const compiled = compile({
      type: 'object',
      properties: { price: { type: 'integer' }, currency: { type: 'string' } },
      dependentRequired: { price: ['currency'] },
    });
    const variant = compiled.invalid.find((candidate) => candidate.keyword === 'dependentRequired');
    expect(variant?.label).toBe('currency missing though "price" is present');
  });
});

describe('a dependentSchemas entry, read as the if/then it is (JSON Schema 2020-12, 10.2.2.4)', () => {
  const potted = {
    type: 'object',
    required: ['name'],
    properties: { name: { type: 'string' }, potted: { type: 'boolean' }, potLitres: { type: 'number' } },
    dependentSchemas: { potted: { required: ['potLitres'], properties: { potLitres: { maximum: 50 } } } },
  };
  const compiled = compile(potted);
  const looseCheck = compile({ ...potted, dependentSchemas: {} }).check;

  it('is honoured, not refused: a pot without its size is no value, a size with no pot is one', () => {
    expect(compiled.check(parseExactJson('{"name":"a","potted":true}'))).not.toEqual([]);
    expect(compiled.check(parseExactJson('{"name":"a","potted":false,"potLitres":51}'))).not.toEqual([]);
    expect(compiled.check(parseExactJson('{"name":"a","potted":true,"potLitres":50}'))).toEqual([]);
    expect(compiled.check(parseExactJson('{"name":"a","potLitres":51}'))).toEqual([]);
  });

  it('generates valid values only, some with the property present', () => {
    const values = fc.sample(compiled.valid, { numRuns: 200, seed: 3 }).map(asParsed);
    for (const value of values) expect(compiled.check(value)).toEqual([]);
    expect(values.some((value) => Object.hasOwn(value as object, 'potted'))).toBe(true);
  });

  it('is broken by a value with the property present that breaks the entry and nothing else, named dependentSchemas', () => {
    const variant = compiled.invalid.find((candidate) => candidate.keyword === 'dependentSchemas');
    expect(variant?.label).toBe(
      'the body with "potted" present but not matching its dependentSchemas {"required":["potLitres"],"properties":{"potLitres":{"maximum":50}}}',
    );
    fc.assert(
      fc.property(variant!.arbitrary, (value) => {
        const parsed = asParsed(value);
        expect(compiled.check(parsed)).not.toEqual([]);
        expect(looseCheck(parsed)).toEqual([]);
        expect(Object.hasOwn(parsed as object, 'potted')).toBe(true);
      }),
      { numRuns: 50, seed: 5 },
    );
  });
});
