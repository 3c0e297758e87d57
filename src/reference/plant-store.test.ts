import { describe, expect, it } from 'vitest';
import { createMemoryStore } from './plant-store.js';

describe('memory store', () => {
  it('refuses an id it already holds', () => {
    const store = createMemoryStore();
    expect(store.add({ id: 9223372036854775807n, name: 'a' })).toBe(true);
    expect(store.add({ id: 9223372036854775807n, name: 'b' })).toBe(false);
    expect(store.add({ id: 9223372036854775806n, name: 'a' })).toBe(true);
  });

  it('forgets the oldest id once full, so memory stays bounded', () => {
    const store = createMemoryStore(2);
    store.add({ id: 1n, name: 'a' });
    store.add({ id: 2n, name: 'a' });
    store.add({ id: 3n, name: 'a' });
    expect(store.add({ id: 1n, name: 'a' })).toBe(true);
    expect(store.add({ id: 3n, name: 'a' })).toBe(false);
  });
});
