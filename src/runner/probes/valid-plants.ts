import fc from 'fast-check';
import { OTHER_SCHEME_SPELLINGS } from '../generate/auth-probe.js';
import { spell, SPELLINGS, type Spelling } from '../generate/integer-spelling.js';
import { EXACT_EDGE_IDS, type IdShape } from '../generate/int64-id.js';
import {
  newPlantArbitrary,
  renderPlant,
  withFreshIds,
  type PlantDraft,
  type RenderedPlant,
} from '../generate/new-plant.js';
import { defineProbe, PLANTS_PATH, type PlanContext, type PlannedRequest } from '../probe.js';

/** A valid NewPlant request with the right token, as the contract's rule 1 describes it. */
export function validRequest(rendered: RenderedPlant, scheme = 'Bearer', note?: string): PlannedRequest {
  return {
    method: 'POST',
    path: PLANTS_PATH,
    auth: { kind: 'token', scheme },
    contentType: 'application/json',
    body: rendered.text,
    intent: {
      kind: 'valid',
      strings: rendered.strings,
      idMayRepeat: rendered.idMayRepeat,
      ...(note === undefined ? {} : { note }),
    },
  };
}

/** Valid NewPlants over the whole space the schema allows, sent as the contract shows: `Bearer <token>`. */
export const validPlants = defineProbe<PlantDraft>({
  name: 'valid-plant',
  title: 'valid NewPlants with a valid token',
  share: 1,
  arbitrary: (contract) => newPlantArbitrary(contract.schemas.newPlant),
  plan: (draft, { fresh, salt }) => [validRequest(renderPlant(draft, fresh, salt), 'Bearer', prototypeKeyNote(draft))],
});

/**
 * Why a body with a `__proto__` or `constructor` key is still valid: some frameworks refuse such
 * keys by default, and the person reading the failure should learn that from it.
 */
function prototypeKeyNote(draft: PlantDraft): string | undefined {
  const key = draft.extras.map(([name]) => name).find((name) => name === '__proto__' || name === 'constructor');
  if (key === undefined) return undefined;
  return `The body has a "${key}" property: an ordinary JSON member, and a NewPlant allows extra properties. Frameworks that refuse it by default as "prototype poisoning" (fastify's onProtoPoisoning/onConstructorPoisoning "error") need "remove" or "ignore".`;
}

/**
 * A valid NewPlant with `Bearer`, then a twin whose scheme name is written `bearer`, `BEARER` or
 * `bEaReR`. RFC 9110 makes the name case-insensitive; the contract only ever writes `Bearer`, so a
 * refused twin is a warning (judged only when the first was accepted), never a failure.
 */
export const schemeSpellings = defineProbe<{ draft: PlantDraft; scheme: string }>({
  name: 'scheme-spelling',
  title: 'valid NewPlants whose scheme name is written bearer, BEARER or bEaReR',
  share: 0.03,
  variants: () => OTHER_SCHEME_SPELLINGS.length,
  arbitrary: (contract, variant) =>
    fc.record({
      draft: newPlantArbitrary(contract.schemas.newPlant),
      scheme: fc.constant(OTHER_SCHEME_SPELLINGS[variant % OTHER_SCHEME_SPELLINGS.length] ?? 'bearer'),
    }),
  plan: ({ draft, scheme }, context) => writtenTwins(draft, context, 'scheme', { scheme }),
});

/**
 * A valid NewPlant as the contract writes it, then a twin whose scheme name or media type is written
 * another way (marked on its intent, so checks can tell the two apart). Both get fresh ids, so the
 * twin cannot be refused as a repeat of the first.
 */
export function writtenTwins(
  drawn: PlantDraft,
  { fresh, salt }: PlanContext,
  tag: string,
  written: { readonly scheme: string } | { readonly mediaType: string },
): PlannedRequest[] {
  const draft = withFreshIds(drawn);
  const twin = validRequest(
    renderPlant(draft, fresh, `${salt}:${tag}`),
    'scheme' in written ? written.scheme : 'Bearer',
  );
  const intent = { ...twin.intent, ...written } as PlannedRequest['intent'];
  const contentType = 'mediaType' in written ? written.mediaType : twin.contentType;
  return [validRequest(renderPlant(draft, fresh, salt)), { ...twin, contentType, intent }];
}

function exactEdge(variant: number): IdShape {
  const edge = EXACT_EDGE_IDS[variant % EXACT_EDGE_IDS.length];
  if (!edge) throw new Error('no exact edge ids');
  return edge;
}

/**
 * Each exact edge id (2^63-1, -2^63, 0, -1, 2^53+1, ...) in a valid NewPlant, once per run: drawn by
 * chance they would be rare. An earlier run may have stored them (see `idMayRepeat`).
 */
export const exactIds = defineProbe<{ draft: PlantDraft; edge: IdShape }>({
  name: 'exact-id',
  title: 'valid NewPlants with each exact edge id of the int64 range',
  share: 0,
  variants: () => EXACT_EDGE_IDS.length,
  arbitrary: (contract, variant) =>
    fc.record({
      draft: newPlantArbitrary(contract.schemas.newPlant),
      edge: fc.constant(exactEdge(variant)),
    }),
  plan: ({ draft, edge }, { fresh, salt }) => {
    const fields = draft.fields.map((field) => (field.kind === 'id' ? { ...field, shape: edge } : field));
    return [validRequest(renderPlant({ ...draft, fields }, fresh, salt))];
  },
});

/** The same fresh NewPlant twice: the contract leaves repeated ids open, so only the answer's form is judged. */
export const repeatedIds = defineProbe<PlantDraft>({
  name: 'repeated-id',
  title: 'a valid NewPlant sent twice',
  share: 0.05,
  arbitrary: (contract) => newPlantArbitrary(contract.schemas.newPlant),
  plan: (draft, { fresh, salt }) => {
    const first = validRequest(renderPlant(draft, fresh, salt));
    return [first, { ...first, intent: { kind: 'repeat' } }];
  },
});

/**
 * Integer spellings JSON Schema counts as integers (`5.0`, `5e0`, `1.2345e4`, `-0`): a valid NewPlant
 * with a plain id, then a twin whose id of the same size is spelled that way. Only the twin's
 * answer is judged by `integer-spellings`, and only when the plain one was accepted, so a target
 * that rejects large ids is not blamed for rejecting spellings.
 */
export const integerSpellings = defineProbe<{ draft: PlantDraft; spelling: Spelling }>({
  name: 'integer-spelling',
  title: 'valid NewPlants whose id is spelled 1.0, 1e2, 1.2345e4 or -0',
  share: 0.1,
  variants: () => SPELLINGS.length,
  arbitrary: (contract, variant) =>
    fc.record({
      draft: newPlantArbitrary(contract.schemas.newPlant),
      spelling: fc.constant(SPELLINGS[variant % SPELLINGS.length] ?? 'fraction-zero'),
    }),
  plan: ({ draft: drawn, spelling }, { fresh, salt }) => {
    // Both twins get fresh ids of the same shape, so they differ in spelling only.
    const draft = withFreshIds(drawn);
    const plain = renderPlant(draft, fresh, salt);
    const twin = renderPlant(draft, fresh, `${salt}:spelled`);
    const idField = draft.fields.find((field) => field.kind === 'id');
    const id = twin.ids[0];
    if (!idField || id === undefined) return [validRequest(plain)];
    let spelled = spell(id, spelling);
    // `-0` is the fixed value 0: sent once per run; a later draw spells the fresh id instead.
    if (spelled.value !== id && !fresh.claim(spelled.value)) spelled = spell(id, 'fraction-zero');
    const rendered = renderPlant(draft, fresh, `${salt}:spelled`, new Map([[idField.name, spelled.text]]));
    const request = validRequest({ ...rendered, idMayRepeat: spelled.value === 0n });
    const intent = { ...request.intent, spelling: spelled.text } as PlannedRequest['intent'];
    return [validRequest(plain), { ...request, intent }];
  },
});
