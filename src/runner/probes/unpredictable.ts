import fc from 'fast-check';
import { draftStrings, newPlantArbitrary, renderPlant, type PlantDraft } from '../generate/new-plant.js';
import { defineProbe, PLANTS_PATH } from '../probe.js';

/** Unpaired UTF-16 surrogates written as JSON escapes, alone and between other characters. */
const UNPAIRED_ESCAPES = ['\\ud800', 'Fern \\udc00', '\\udbff!'];

/**
 * A NewPlant whose first string field holds an unpaired surrogate escape (`"\ud800"`). JSON's
 * grammar allows it and RFC 8259 (8.2) calls its meaning unpredictable, so a target may accept it
 * (perhaps replacing the character) or refuse it; it must answer, not crash, as Python's
 * `str.encode('utf-8')` does on one. Only the answer's form is judged.
 */
export const unpairedSurrogates = defineProbe<{ draft: PlantDraft; escape: string }>({
  name: 'unpaired-surrogate',
  title: 'a NewPlant whose name holds an unpaired surrogate escape',
  share: 0.03,
  variants: () => UNPAIRED_ESCAPES.length,
  arbitrary: (contract, variant) =>
    fc.record({
      draft: newPlantArbitrary(contract),
      escape: fc.constant(UNPAIRED_ESCAPES[variant % UNPAIRED_ESCAPES.length] ?? '\\ud800'),
    }),
  plan: ({ draft, escape }, { fresh, salt }) => {
    const [found] = draftStrings(draft);
    const field = found === undefined ? undefined : { name: found[0] };
    const raw = field === undefined ? new Map<string, string>() : new Map([[field.name, `"${escape}"`]]);
    return [
      {
        method: 'POST',
        path: PLANTS_PATH,
        auth: { kind: 'token', scheme: 'Bearer' },
        contentType: 'application/json',
        body: renderPlant(draft, fresh, salt, raw).text,
        intent: {
          kind: 'unpredictable',
          what: `"${field?.name ?? '?'}" holding the unpaired surrogate escape ${escape}`,
        },
      },
    ];
  },
});
