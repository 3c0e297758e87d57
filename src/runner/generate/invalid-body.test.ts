import { describe, expect, it } from 'vitest';
import { loadContract } from '../../contract/index.js';
import { objectView } from '../../contract/object-view.js';
import { caseBias, caseRandom } from './case-random.js';
import { invalidBodyArbitrary, mutationsOf } from './invalid-body.js';

const contract = await loadContract();
const declared = objectView(contract.compiled.newPlant.schema).properties;
const mutations = mutationsOf(contract);
const onDrafts = mutations.flatMap((mutation, variant) => (mutation.kind === 'variant' ? [] : [variant]));

/** The drafts of the mutations applied to a valid NewPlant, as case `index` of a run of `seed` draws them. */
function drafts(seed: number, index: (variant: number) => number) {
  return onDrafts.map((variant) => {
    const at = index(variant);
    const arbitrary = invalidBodyArbitrary(contract, variant);
    return arbitrary.generate(caseRandom(seed, 'invalid-body', at), caseBias(at, mutations.length)).value.draft;
  });
}

describe('invalidBodyArbitrary', () => {
  it('sends the first case of each mutation of a valid NewPlant on a plain draft: declared members, fresh ids', () => {
    // Most mutations are sent once a run: on a draft whose extra member or edge id the target refuses, what the
    // mutation breaks went unseen (Jackson's pojo-defaults: text after the value passed at some nonces).
    for (const seed of [1, 7, 42, 1312698176]) {
      for (const draft of drafts(seed, (variant) => variant)) {
        expect(
          Object.keys(draft.value as object).filter((key) => !declared.has(key)),
          `seed ${seed}`,
        ).toEqual([]);
        expect(draft.ids.every((shape) => shape.fresh)).toBe(true);
      }
    }
  });

  it('draws the later cases of a mutation over the whole space: extra members and edge ids among them', () => {
    const later = [1, 7, 42].flatMap((seed) => drafts(seed, (variant) => variant + mutations.length));
    expect(later.some((draft) => Object.keys(draft.value as object).some((key) => !declared.has(key)))).toBe(true);
    expect(later.some((draft) => draft.ids.some((shape) => !shape.fresh))).toBe(true);
  });
});
