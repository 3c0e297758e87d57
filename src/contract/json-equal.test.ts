import { describe, expect, it } from 'vitest';
import { parseExactJson } from './exact-json.js';
import { jsonEqual } from './json-equal.js';
import { validatorRuntime } from './prebuilt-validators.js';
import { compileSchemaCheck } from './schemas.js';

const labels = {
  type: 'array',
  uniqueItems: true,
  items: { type: 'object', properties: { key: { type: 'string' }, value: { type: 'string' } } },
};

describe('equality of parsed JSON in enum, const and uniqueItems', () => {
  it('judges an array of distinct objects under uniqueItems instead of throwing', () => {
    const check = compileSchemaCheck(labels, 'labels');
    expect(check(parseExactJson('[{"key":"a","value":"1"},{"key":"b","value":"1"}]'))).toEqual([]);
  });

  it('finds two equal objects under uniqueItems, whatever their member order', () => {
    const check = compileSchemaCheck(labels, 'labels');
    const violations = check(parseExactJson('[{"key":"a","value":"1"},{"value":"1","key":"a"}]'));
    expect(violations.map(({ keyword }) => keyword)).toEqual(['uniqueItems']);
  });

  it("matches a parsed object to the document's const and enum objects", () => {
    const constant = compileSchemaCheck({ const: { unit: 'cm', scale: [1, 2] } }, 'a size');
    expect(constant(parseExactJson('{"scale":[1,2.0],"unit":"cm"}'))).toEqual([]);
    expect(constant(parseExactJson('{"scale":[1,2],"unit":"mm"}'))).toHaveLength(1);
    const listed = compileSchemaCheck({ enum: [{ unit: 'cm' }, { unit: 'in' }] }, 'a unit');
    expect(listed(parseExactJson('{"unit":"in"}'))).toEqual([]);
    expect(listed(parseExactJson('{"unit":"in","extra":1}'))).toHaveLength(1);
  });

  it('compares members a prototype would hide, and is what prebuilt validators are given', () => {
    expect(jsonEqual(parseExactJson('{"__proto__":{"a":1}}'), parseExactJson('{"__proto__":{"a":1}}'))).toBe(true);
    expect(jsonEqual(parseExactJson('{"__proto__":{"a":1}}'), parseExactJson('{"__proto__":{"a":2}}'))).toBe(false);
    expect(jsonEqual([1, { a: null }], [1, { a: null }])).toBe(true);
    expect(jsonEqual([], {})).toBe(false);
    expect(validatorRuntime().equal).toBe(jsonEqual);
  });
});
