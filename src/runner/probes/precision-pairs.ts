import fc from 'fast-check';
import { idSlotOf, newPlantArbitrary, renderIfValid, renderPlant, type PlantDraft } from '../generate/new-plant.js';
import { inSlot } from '../generate/id-slots.js';
import { defineProbe } from '../probe.js';
import { validRequest } from './valid-plants.js';

/** Regions where consecutive integers share one double: the spacing of doubles there, and the direction. */
const REGIONS = [
  { base: 2n ** 62n, spacing: 1024n, direction: 1n },
  { base: -(2n ** 62n), spacing: 1024n, direction: -1n },
  { base: 2n ** 60n, spacing: 256n, direction: 1n },
] as const;

/** What the note of a pair's second request says of the two ids (a failure's reason quotes it). */
export const SAME_DOUBLE = 'differ by one but are the same double';

/**
 * Two fresh ids one apart that are equal as doubles (e.g. 2^62+2k and 2^62+2k+1): distinct exactly,
 * so both must be accepted; a target that stores ids as doubles answers the second as a duplicate.
 */
export const precisionPairs = defineProbe<{ draft: PlantDraft; region: number; offset: number }>({
  name: 'precision-pair',
  title: 'two fresh ids one apart that are equal as doubles',
  share: 0.05,
  arbitrary: (contract) =>
    fc.record({
      draft: newPlantArbitrary(contract),
      region: fc.integer({ min: 0, max: REGIONS.length - 1 }),
      offset: fc.integer({ min: 0, max: 100 }),
    }),
  plan: ({ draft, region, offset }, { contract, fresh, salt }) => {
    const { base, spacing, direction } = REGIONS[region] ?? REGIONS[0];
    const first = base + direction * (spacing * fresh.bits(`${salt}:pair`) + BigInt(offset));
    const second = first + direction;
    const found = idSlotOf(draft);
    if (found === undefined) return [validRequest(renderPlant(draft, fresh, salt))];
    const render = (id: bigint) => renderIfValid(contract, draft, fresh, salt, new Map([[found.slot.key, `${id}`]]));
    const [one, two] = [render(first), render(second)];
    // An id range of the document that does not reach 2^60 (an id without format keeps below 2^53): no such pair.
    if (!one.rewritten || !two.rewritten || !inSlot(found.slot, first) || !inSlot(found.slot, second)) {
      return [validRequest(renderPlant(draft, fresh, salt))];
    }
    const note = `The ids ${first} and ${second} ${SAME_DOUBLE}: a target that stores ids as floating point treats the second as a repeat.`;
    return [validRequest(one.rendered), validRequest(two.rendered, 'Bearer', note)];
  },
});
