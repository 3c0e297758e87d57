import fc from 'fast-check';
import { AUTH_PROBE_KINDS, authProbeArbitrary, type AuthProbe } from '../generate/auth-probe.js';
import {
  describeInvalidBody,
  invalidBodyArbitrary,
  mutationsOf,
  renderInvalidBody,
  type InvalidBody,
} from '../generate/invalid-body.js';
import { newPlantArbitrary, renderPlant, type PlantDraft } from '../generate/new-plant.js';
import { defineProbe, PLANTS_PATH, type PlannedRequest } from '../probe.js';
import { validRequest } from './valid-plants.js';
import type { Contract } from '../../contract/index.js';
import { mediaTypeEssence } from '../../contract/media-types.js';

/** Bodies the schema rejects, each with a valid token and `application/json`. */
export const invalidBodies = defineProbe<InvalidBody>({
  name: 'invalid-body',
  title: 'invalid NewPlant bodies with a valid token',
  share: 1,
  variants: (contract) => mutationsOf(contract).length,
  arbitrary: (contract, variant) => invalidBodyArbitrary(contract, variant),
  plan: (value, { fresh, salt }) => {
    const body = renderInvalidBody(value, fresh, salt);
    return [
      {
        method: 'POST',
        path: PLANTS_PATH,
        auth: { kind: 'token', scheme: 'Bearer' },
        contentType: 'application/json',
        body,
        intent: { kind: 'invalid-body', what: describeInvalidBody(value, body) },
      },
    ];
  },
});

const WRONG_MEDIA_TYPES = [
  undefined,
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/xml',
  'multipart/form-data; boundary=plantstore',
  'application/octet-stream',
];

/**
 * The wrong media types for a document: all of them but those its request body declares (a document
 * taking `application/x-www-form-urlencoded` beside JSON makes that a request type, not a wrong one).
 */
function wrongMediaTypesOf(contract: Contract): readonly (string | undefined)[] {
  const declared = contract.requestMediaTypes;
  return WRONG_MEDIA_TYPES.filter((type) => type === undefined || !declared.includes(mediaTypeEssence(type)));
}

/** A valid NewPlant sent without `Content-Type: application/json`. */
export const wrongMediaTypes = defineProbe<{ draft: PlantDraft; contentType: string | undefined }>({
  name: 'media-type',
  title: 'a valid NewPlant with a missing or wrong Content-Type',
  share: 0.15,
  variants: (contract) => wrongMediaTypesOf(contract).length,
  arbitrary: (contract, variant) =>
    fc.record({
      draft: newPlantArbitrary(contract),
      contentType: fc.constant(wrongMediaTypesOf(contract)[variant]),
    }),
  plan: ({ draft, contentType }, { fresh, salt }) => [
    {
      method: 'POST',
      path: PLANTS_PATH,
      auth: { kind: 'token', scheme: 'Bearer' },
      contentType,
      body: renderPlant(draft, fresh, salt).text,
      intent:
        contentType === undefined
          ? { kind: 'media-type', what: 'no Content-Type', missing: true }
          : { kind: 'media-type', what: `Content-Type ${contentType}` },
    },
  ],
});

/**
 * A valid NewPlant with a missing, malformed, foreign or wrong credential. The right token in the other letter
 * case goes on one keep-alive connection right after a valid NewPlant with the right token: an HTTP parser that
 * caches header fields per connection and finds them ignoring case (Jetty 9.4's default header cache) hands the
 * cached right token back, which a fresh connection (and a curl line of one request) never shows.
 */
export const authProbes = defineProbe<{ draft: PlantDraft; probe: AuthProbe }>({
  name: 'auth',
  title: 'a valid NewPlant with no or a bad credential',
  share: 0.3,
  variants: () => AUTH_PROBE_KINDS.length,
  arbitrary: (contract, variant) =>
    fc.record({ draft: newPlantArbitrary(contract), probe: authProbeArbitrary(variant) }),
  plan: ({ draft, probe }, { fresh, salt }) => {
    const { header } = probe;
    const refused: PlannedRequest = {
      method: 'POST',
      path: PLANTS_PATH,
      auth: header,
      contentType: 'application/json',
      body: renderPlant(draft, fresh, salt).text,
      intent: {
        kind: 'auth',
        what: probe.what,
        ...(header.kind === 'token-variant' && header.variant === 'bare' ? { lenient: true } : {}),
      },
    };
    if (header.kind !== 'token-variant' || header.variant !== 'case-flipped') return [refused];
    const rightToken = validRequest(renderPlant(draft, fresh, `${salt}:right-token`));
    return [
      { ...rightToken, sameConnection: true },
      { ...refused, sameConnection: true },
    ];
  },
});
