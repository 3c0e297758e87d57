import fc from 'fast-check';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../contract/index.js';
import { createFreshIds } from './fresh-ids.js';
import { draftStrings, newPlantArbitrary, renderPlant } from './new-plant.js';

const SPEC = fileURLToPath(new URL('../../fixtures/documents/reduced/aspnet-string-int64-3.1.json', import.meta.url));

describe('an id of type [integer, string] (.NET 10 writes a long so, with a digits pattern)', () => {
  it('is sent as a fresh integer in every valid NewPlant, also where a string was drawn, and never escaped raw', async () => {
    const contract = await loadContract(SPEC);
    const fresh = createFreshIds('0123456789abcdef');
    const drafts = fc.sample(newPlantArbitrary(contract), { numRuns: 300, seed: 3 });
    expect(drafts.some((draft) => typeof (draft.value as Record<string, unknown>).id === 'string')).toBe(true);
    const ids = drafts.map((draft, index) => {
      expect(draftStrings(draft).map(([key]) => key)).not.toContain('id');
      // The id's JSON text: digits unquoted, as an integer.
      return /"id":(-?\d+)[,}]/.exec(renderPlant(draft, fresh, `case:${index}`).text)?.[1];
    });
    expect(ids.filter((id) => id === undefined)).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
