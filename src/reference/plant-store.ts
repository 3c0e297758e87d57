/**
 * A plant's id as the store keys it: a `bigint` for an integer id (so `1`, `1.0` and `1e0` are one
 * id), the id's JSON text for any other kind of id a document may declare.
 */
export type PlantId = bigint | string;

/** Where the reference keeps plants. The in-memory store is the embedded default. */
export interface PlantStore {
  /** Adds the plant with this id; false when the id is already taken. */
  add(id: PlantId): boolean;
}

/**
 * An in-memory store that remembers ids, oldest first, up to `capacity`; past it the oldest id is
 * forgotten, so a long-running server under load keeps a bounded memory.
 */
export function createMemoryStore(capacity = 100_000): PlantStore {
  const ids = new Set<PlantId>();
  // Arrival order in a ring: asking a Set for its oldest entry walks over every deleted one first.
  const order: PlantId[] = [];
  let oldest = 0;
  return {
    add(id) {
      if (ids.has(id)) return false;
      ids.add(id);
      if (order.length < capacity) {
        order.push(id);
      } else {
        ids.delete(order[oldest] as PlantId);
        order[oldest] = id;
        oldest = (oldest + 1) % capacity;
      }
      return true;
    },
  };
}
