import { describe, expect, it } from 'vitest';
import { createMemoryStore } from './plant-store.js';

describe('memory store', () => {
  it('refuses an id it already holds', () => {
    const store = createMemoryStore();
    expect(store.add(9223372036854775807n)).toBe(true);
    expect(store.add(9223372036854775807n)).toBe(false);
    expect(store.add(9223372036854775806n)).toBe(true);
  });

  it('keeps integer ids and ids of other kinds apart', () => {
    const store = createMemoryStore();
    expect(store.add(1n)).toBe(true);
    expect(store.add('"1"')).toBe(true);
    expect(store.add('"1"')).toBe(false);
  });

  it('forgets the oldest id once full, so memory stays bounded', () => {
    const store = createMemoryStore(2);
    store.add(1n);
    store.add(2n);
    store.add(3n);
    expect(store.add(1n)).toBe(true);
    expect(store.add(3n)).toBe(false);
  });
});
