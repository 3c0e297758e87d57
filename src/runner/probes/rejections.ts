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
import { numberText, parseExactJson, stringifyExactJson, type Contract } from '../../contract/index.js';
import { objectView } from '../../contract/object-view.js';
import { operationParameters } from '../../contract/parameters.js';
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

/**
 * The NewPlant's required top-level members a query string can carry, in declaration order: every one the document
 * does not declare as a query parameter of its own.
 */
function queryMembersOf(contract: Contract): string[] {
  const view = objectView(contract.compiled.newPlant.schema);
  const declared = new Set(operationParameters(contract).flatMap((p) => (p.in === 'query' ? [p.name] : [])));
  return [...view.properties.keys()].filter((name) => view.required.has(name) && !declared.has(name));
}

/**
 * A valid NewPlant with one required member moved from the body to the query string (`POST /plants?name=Fern`, the body
 * without `name`): the body is invalid whatever the query says. A server reading members from the query string too
 * (Sinatra's `params.merge(JSON.parse(body))`, PHP's `$_REQUEST`, Flask's `request.values`) creates it. Any refusal
 * passes: a server may refuse query parameters it does not know. A member of a type a query cannot write (an object,
 * an array) gives the plain body without it.
 */
export const queryMembers = defineProbe<{ draft: PlantDraft; member: string }>({
  name: 'query-member',
  title: 'a NewPlant missing a required member that the query string gives',
  share: 0,
  variants: (contract) => queryMembersOf(contract).length,
  arbitrary: (contract, variant) =>
    fc.record({ draft: newPlantArbitrary(contract), member: fc.constant(queryMembersOf(contract)[variant] ?? '') }),
  plan: ({ draft, member }, { fresh, salt }) => {
    const body = parseExactJson(renderPlant(draft, fresh, salt).text) as Record<string, unknown>;
    const value = body[member];
    const text = typeof value === 'string' ? value : typeof value === 'number' ? numberText(body, member) : undefined;
    // Deleted in place: the parsed object keeps each number's digits for stringifyExactJson.
    delete body[member];
    const query = text === undefined ? '' : `?${encodeURIComponent(member)}=${encodeURIComponent(text)}`;
    return [
      {
        method: 'POST',
        path: `${PLANTS_PATH}${query}`,
        auth: { kind: 'token', scheme: 'Bearer' },
        contentType: 'application/json',
        body: stringifyExactJson(body),
        intent: {
          kind: 'invalid-body',
          what: `required "${member}" left out${query === '' ? '' : ', given in the query string instead'}`,
          ...(query === '' ? {} : { queryMember: member }),
        },
      },
    ];
  },
});
