import type { NewPlant } from '../contract/index.js';

/** Where the reference keeps plants. The in-memory store is the embedded default. */
export interface PlantStore {
  /** Adds the plant; false when its id is already taken. */
  add(plant: NewPlant): boolean;
}

/**
 * An in-memory store that remembers ids, oldest first, up to `capacity`; past it the oldest id is
 * forgotten, so a long-running server under load keeps a bounded memory.
 */
export function createMemoryStore(capacity = 100_000): PlantStore {
  const ids = new Set<bigint>();
  // Arrival order in a ring: asking a Set for its oldest entry walks over every deleted one first.
  const order: bigint[] = [];
  let oldest = 0;
  return {
    add(plant) {
      if (ids.has(plant.id)) return false;
      ids.add(plant.id);
      if (order.length < capacity) {
        order.push(plant.id);
      } else {
        ids.delete(order[oldest] as bigint);
        order[oldest] = plant.id;
        oldest = (oldest + 1) % capacity;
      }
      return true;
    },
  };
}
