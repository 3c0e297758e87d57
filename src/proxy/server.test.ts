import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { idMemory } from './server.js';

/** The memory as a Set in insertion order, forgetting its first entry when full: what idMemory must answer. */
function setMemory(limit: number): (id: string) => boolean {
  const ids = new Set<string>();
  return (id) => {
    if (ids.has(id)) return true;
    if (ids.size >= limit) ids.delete(ids.values().next().value ?? '');
    ids.add(id);
    return false;
  };
}

describe('the ids a proxy remembers', () => {
  it('answers as a Set in insertion order that forgets its oldest id when full (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.integer({ min: 0, max: 9 }), { maxLength: 60 }),
        (limit, ids) => {
          const ring = idMemory(limit);
          const reference = setMemory(limit);
          for (const id of ids) expect(ring(String(id))).toBe(reference(String(id)));
        },
      ),
    );
  });
});
