import { expect } from 'vitest';
import { numberText } from './exact-json.js';

/** The same value as parsing makes it: prototypes, own keys in order, numbers (`-0` apart) and their texts. */
export function expectSameParse(actual: unknown, expected: unknown): void {
  if (expected === null || typeof expected !== 'object') {
    expect(Object.is(actual, expected)).toBe(true);
    return;
  }
  expect(typeof actual).toBe('object');
  const got = actual as Record<string, unknown>;
  const want = expected as Record<string, unknown>;
  expect(Array.isArray(got)).toBe(Array.isArray(want));
  expect(Object.getPrototypeOf(got)).toBe(Object.getPrototypeOf(want));
  expect(Reflect.ownKeys(got)).toEqual(Reflect.ownKeys(want));
  for (const key of Object.keys(want)) {
    const at = Array.isArray(want) ? Number(key) : key;
    expect(numberText(got, at)).toBe(numberText(want, at));
    expectSameParse(got[key], want[key]);
  }
}
