import fc from 'fast-check';
import { AUTH_PROBE_KINDS, authProbeArbitrary, type AuthProbe } from '../generate/auth-probe.js';
import {
  describeInvalidBody,
  invalidBodyArbitrary,
  mutationsOf,
  renderInvalidBody,
  type InvalidBody,
  type Mutation,
} from '../generate/invalid-body.js';
import { newPlantArbitrary, renderPlant, type PlantDraft } from '../generate/new-plant.js';
import { defineProbe, PLANTS_PATH, type PlannedRequest } from '../probe.js';
import { validRequest } from './valid-plants.js';
import { numberText, parseExactJson, stringifyExactJson, type Contract } from '../../contract/index.js';
import { objectView } from '../../contract/object-view.js';
import { operationParameters } from '../../contract/parameters.js';
import { mediaTypeEssence } from '../../contract/media-types.js';
import { childPointer } from '../../contract/schema/keywords.js';

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

/** The form types, each also sent with the NewPlant encoded as that form (see {@link encodedAs}). */
const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data; boundary=plantstore'];

/** A wrong media type, and whether the NewPlant goes encoded as that form rather than as its JSON text. */
interface WrongType {
  readonly contentType: string | undefined;
  readonly form: boolean;
}

/**
 * The wrong media types for a document: all of them but those its request body declares (a document
 * taking `application/x-www-form-urlencoded` beside JSON makes that a request type, not a wrong one).
 * The form types go twice: with the JSON text (a server reading any body as JSON) and as a form (one binding by label).
 */
function wrongMediaTypesOf(contract: Contract): readonly WrongType[] {
  const declared = contract.requestMediaTypes;
  const wrong = (type: string | undefined): boolean => type === undefined || !declared.includes(mediaTypeEssence(type));
  return [
    ...WRONG_MEDIA_TYPES.filter(wrong).map((contentType) => ({ contentType, form: false })),
    ...FORM_TYPES.filter(wrong).map((contentType) => ({ contentType, form: true })),
  ];
}

/** A valid NewPlant sent without `Content-Type: application/json`. */
export const wrongMediaTypes = defineProbe<{ draft: PlantDraft; contentType: string | undefined; form?: boolean }>({
  name: 'media-type',
  title: 'a valid NewPlant with a missing or wrong Content-Type',
  share: 0.15,
  variants: (contract) => wrongMediaTypesOf(contract).length,
  arbitrary: (contract, variant) => {
    const { contentType, form } = wrongMediaTypesOf(contract)[variant] ?? { contentType: undefined, form: false };
    return fc.record({
      draft: newPlantArbitrary(contract),
      contentType: fc.constant(contentType),
      form: fc.constant(form),
    });
  },
  plan: ({ draft, contentType, form }, { fresh, salt }) => {
    const json = renderPlant(draft, fresh, salt).text;
    return [
      {
        method: 'POST',
        path: PLANTS_PATH,
        auth: { kind: 'token', scheme: 'Bearer' },
        contentType,
        body: form === true ? encodedAs(contentType, json) : json,
        intent:
          contentType === undefined
            ? { kind: 'media-type', what: 'no Content-Type', missing: true }
            : {
                kind: 'media-type',
                what: `Content-Type ${contentType}${form === true ? ', the NewPlant as a form' : ''}`,
              },
      },
    ];
  },
});

/**
 * The NewPlant's JSON text in the form types as a browser form writes it (`id=5&name=Fern`, or one multipart field per
 * member), any other type as it is. A server binding the body by its Content-Type (gin's `c.ShouldBind`, Django REST
 * framework's default FormParser, Express's `urlencoded()` beside `json()`) creates a plant from such a form, while the
 * JSON text under a form label only gives it one odd field. Top-level scalars only: a form has no nesting.
 */
function encodedAs(contentType: string | undefined, json: string): string {
  const essence = contentType === undefined ? undefined : mediaTypeEssence(contentType);
  if (essence !== 'application/x-www-form-urlencoded' && essence !== 'multipart/form-data') return json;
  const plant = parseExactJson(json) as Record<string, unknown>;
  const fields = Object.keys(plant).flatMap((name): [string, string][] => {
    const value = plant[name];
    if (typeof value === 'string') return [[name, value]];
    if (typeof value === 'number') return [[name, numberText(plant, name) ?? String(value)]];
    return typeof value === 'boolean' ? [[name, String(value)]] : [];
  });
  if (essence === 'application/x-www-form-urlencoded') return new URLSearchParams(fields).toString();
  // A part's name is quoted and its value ends at the boundary: text that would break either is left out.
  const plain = fields.filter(([name, value]) => !/["\r\n]/.test(name) && !/[\r\n]/.test(value));
  const parts = plain.map(
    ([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return `${parts.join('')}--${BOUNDARY}--\r\n`;
}

/** The multipart boundary the wrong media types name. */
const BOUNDARY = 'plantstore';

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
 * does not declare as a query parameter of its own, each with the invalid-body mutation that leaves it out (the first
 * request is that probe's body, named by {@link describeInvalidBody} as it names it).
 */
function queryMembersOf(contract: Contract): { member: string; missing: Mutation }[] {
  const view = objectView(contract.compiled.newPlant.schema);
  const declared = new Set(operationParameters(contract).flatMap((p) => (p.in === 'query' ? [p.name] : [])));
  const missing = new Map(
    mutationsOf(contract).flatMap((mutation): [string, Mutation][] =>
      mutation.kind === 'variant' && mutation.variant.keyword === 'required'
        ? [[mutation.variant.pointer, mutation]]
        : [],
    ),
  );
  return [...view.properties.keys()].flatMap((member) => {
    const mutation = missing.get(childPointer('', member));
    return view.required.has(member) && !declared.has(member) && mutation ? [{ member, missing: mutation }] : [];
  });
}

/**
 * A valid NewPlant with one required member left out of the body, sent as it is and then with that member in the query
 * string (`POST /plants?name=Fern`): the body is invalid whatever the query says. A server reading members from the
 * query string too (Sinatra's `params.merge(JSON.parse(body))`, PHP's `$_REQUEST`, Flask's `request.values`) creates the
 * second. The first is the invalid body the `invalid-body` probe sends for that member (judged and named alike): the
 * second is judged only when the first was refused, so a server that never checks the member shows one finding.
 * A 4xx to the second passes: a server may refuse a query parameter it does not know. A member of a type a query cannot
 * write (an object, an array) gives the first alone.
 */
export const queryMembers = defineProbe<{ draft: PlantDraft; member: string; missing: Mutation }>({
  name: 'query-member',
  title: 'a NewPlant missing a required member, then the same with that member in the query string',
  share: 0,
  variants: (contract) => queryMembersOf(contract).length,
  arbitrary: (contract, variant) => {
    const found = queryMembersOf(contract)[variant];
    if (found === undefined) throw new Error(`query-member has no variant ${variant}`);
    return fc.record({
      draft: newPlantArbitrary(contract),
      member: fc.constant(found.member),
      missing: fc.constant(found.missing),
    });
  },
  plan: ({ draft, member, missing }, { fresh, salt }) => {
    const plant = (tag: string): Record<string, unknown> =>
      parseExactJson(renderPlant(draft, fresh, `${salt}${tag}`).text) as Record<string, unknown>;
    const [first, second] = [plant(''), plant(':query')];
    const value = second[member];
    const text = typeof value === 'string' ? value : typeof value === 'number' ? numberText(second, member) : undefined;
    // Deleted in place: the parsed objects keep each number's digits for stringifyExactJson.
    delete first[member];
    delete second[member];
    const request = (body: string, query: string, intent: PlannedRequest['intent']): PlannedRequest => ({
      method: 'POST',
      path: `${PLANTS_PATH}${query}`,
      auth: { kind: 'token', scheme: 'Bearer' },
      contentType: 'application/json',
      body,
      intent,
    });
    const body = stringifyExactJson(first);
    const alone = request(body, '', {
      kind: 'invalid-body',
      what: describeInvalidBody({ draft, mutation: missing, place: 0 }, body),
    });
    if (text === undefined) return [alone];
    const query = `?${encodeURIComponent(member)}=${encodeURIComponent(text)}`;
    const what = `required "${member}" left out, given in the query string instead`;
    return [alone, request(stringifyExactJson(second), query, { kind: 'invalid-body', what, queryMember: member })];
  },
});

/** Whether a request is `query-member`'s second: the body without a required member, that member in the query string. */
export function isQueryTwin(plan: PlannedRequest): boolean {
  return plan.intent.kind === 'invalid-body' && plan.intent.queryMember !== undefined;
}
