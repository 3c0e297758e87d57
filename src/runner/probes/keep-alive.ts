import fc from 'fast-check';
import { newPlantArbitrary, renderPlant, type PlantDraft } from '../generate/new-plant.js';
import { defineProbe, PLANTS_PATH, type PlannedRequest } from '../probe.js';
import { validRequest } from './valid-plants.js';

/** Requests a server may refuse before reading their body. */
const REFUSED_FIRST = ['no Authorization header', 'Content-Type text/plain'] as const;
type RefusedFirst = (typeof REFUSED_FIRST)[number];

/**
 * On one keep-alive connection: a NewPlant the target refuses before it needs the body (no
 * credential, or a wrong Content-Type), then a valid NewPlant. A server that answers the first
 * without reading its body reads that body as the next request, and the valid one after it gets a
 * garbled answer: every browser and HTTP client reusing connections meets this.
 */
export const keepAliveAfterRefusal = defineProbe<{ draft: PlantDraft; first: RefusedFirst }>({
  name: 'keep-alive-after-refusal',
  title: 'a refused NewPlant then a valid one, on one keep-alive connection',
  share: 0.03,
  variants: () => REFUSED_FIRST.length,
  arbitrary: (contract, variant) =>
    fc.record({
      draft: newPlantArbitrary(contract),
      first: fc.constant(REFUSED_FIRST[variant % REFUSED_FIRST.length] ?? REFUSED_FIRST[0]),
    }),
  plan: ({ draft, first }, { fresh, salt }) => {
    const refused: PlannedRequest = {
      method: 'POST',
      path: PLANTS_PATH,
      auth: first === 'no Authorization header' ? { kind: 'none' } : { kind: 'token', scheme: 'Bearer' },
      contentType: first === 'Content-Type text/plain' ? 'text/plain' : 'application/json',
      body: renderPlant(draft, fresh, `${salt}:refused`).text,
      intent:
        first === 'no Authorization header'
          ? { kind: 'auth', what: 'no Authorization header' }
          : { kind: 'media-type', what: 'Content-Type text/plain' },
      sameConnection: true,
    };
    const note = `It was sent on the same keep-alive connection right after a NewPlant refused for its ${first === 'no Authorization header' ? 'missing credential' : 'Content-Type'}: a server that answers a request without reading its body reads that body as the next request.`;
    return [refused, { ...validRequest(renderPlant(draft, fresh, salt), 'Bearer', note), sameConnection: true }];
  },
});
