import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mapLeaves, setOwnMember } from './json.js';

describe('mapLeaves', () => {
  it('copies any JSON value unchanged when the leaf function is the identity', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const copy = mapLeaves(value, (leaf) => leaf);
        expect(copy).toStrictEqual(value);
        if (value !== null && typeof value === 'object') expect(copy).not.toBe(value);
      }),
      { seed: 7, numRuns: 200 },
    );
  });

  it('keeps a member named __proto__ as a member, not as the prototype', () => {
    const value = JSON.parse('{"__proto__": {"n": 1}, "list": [2]}') as unknown;
    const copy = mapLeaves(value, (leaf) => (typeof leaf === 'number' ? leaf * 10 : leaf)) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(copy, '__proto__')?.value).toEqual({ n: 10 });
    expect(copy.list).toEqual([20]);
  });

  it('hands class instances to the leaf function whole instead of copying their fields', () => {
    const date = new Date(0);
    const seen: unknown[] = [];
    mapLeaves({ at: date }, (leaf) => seen.push(leaf));
    expect(seen).toEqual([date]);
  });
});

describe('setOwnMember', () => {
  it('makes an enumerable own member of __proto__', () => {
    const target = {};
    setOwnMember(target, '__proto__', 1);
    expect(Object.keys(target)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(target)).toBe(Object.prototype);
  });
});
