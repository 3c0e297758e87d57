import fc from 'fast-check';
import { OTHER_SCHEME_SPELLINGS } from '../generate/auth-probe.js';
import { spell, SPELLINGS, type Spelling } from '../generate/integer-spelling.js';
import { exactShape, slotEdges } from '../generate/id-slots.js';
import { noteWrittenBody } from '../generate/sent-bodies.js';
import type { Contract } from '../../contract/index.js';
import {
  draftArbitrary,
  idSlotOf,
  newPlantArbitrary,
  plantIdSlots,
  renderIfValid,
  renderPlant,
  withFreshIds,
  withIdShape,
  type PlantDraft,
  type RenderedPlant,
} from '../generate/new-plant.js';
import {
  defineProbe,
  PLANTS_PATH,
  type Intent,
  type PlanContext,
  type PlannedRequest,
  type WrittenAs,
} from '../probe.js';

/** A valid NewPlant request with the right token, as the contract's rule 1 describes it. */
export function validRequest(rendered: RenderedPlant, scheme = 'Bearer', note?: string): PlannedRequest {
  // The echo check then reads the body sent from the object it was written from.
  if (rendered.written?.text === rendered.text) noteWrittenBody(rendered.text, rendered.written.value);
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

/** The intent of a valid request's twin written another way. */
function variantOf(request: PlannedRequest, writtenAs: WrittenAs): Intent {
  const { intent } = request;
  if (intent.kind !== 'valid') throw new Error('a twin is made from a valid request');
  return { ...intent, kind: 'valid-variant', writtenAs };
}

/** Valid NewPlants over the whole space the schema allows, sent as the contract shows: `Bearer <token>`. */
export const validPlants = defineProbe<PlantDraft>({
  name: 'valid-plant',
  title: 'valid NewPlants with a valid token',
  share: 1,
  arbitrary: (contract) => newPlantArbitrary(contract),
  plan: (draft, { fresh, salt }) => {
    const request = validRequest(renderPlant(draft, fresh, salt));
    const key = prototypeKey(draft);
    return [key === undefined ? request : { ...request, intent: { ...request.intent, prototypeKey: key } }];
  },
});

/** The valid boundary variants of the document's NewPlant (a length at its maximum, each enum value, ...). */
function validBoundaries(contract: Contract) {
  return contract.compiled.newPlant.boundaries.filter((variant) => variant.valid);
}

/**
 * Each valid boundary of the document's constraints (`maxLength` exactly, `minimum` itself, every
 * enum value), once per run at least: drawn by chance they would be rare. A boundary on an id slot
 * keeps its exact value, which an earlier run may have stored.
 */
export const boundaryPlants = defineProbe<{ draft: PlantDraft; keep: string | undefined; label: string }>({
  name: 'boundary-plant',
  title: "valid NewPlants on each boundary of the document's constraints",
  share: 0,
  variants: (contract) => Math.max(1, validBoundaries(contract).length),
  arbitrary: (contract, variant) => {
    const boundaries = validBoundaries(contract);
    const boundary = boundaries[variant % Math.max(1, boundaries.length)];
    if (boundary === undefined) {
      return fc.record({ draft: newPlantArbitrary(contract), keep: fc.constant(undefined), label: fc.constant('') });
    }
    const key = boundary.pointer.split('/')[1]?.replace(/~1/g, '/').replace(/~0/g, '~');
    const slotKey = plantIdSlots(contract).some((slot) => slot.key === key) ? key : undefined;
    return fc.record({
      draft: draftArbitrary(boundary.arbitrary, plantIdSlots(contract)),
      keep: fc.constant(slotKey),
      label: fc.constant(boundary.label),
    });
  },
  plan: ({ draft, keep: slotKey, label }, { fresh, salt }) => {
    // An exact id is sent once per run (another probe may have sent this edge already): then a fresh one.
    const exact = slotKey === undefined ? undefined : (draft.value as Record<string, unknown>)[slotKey];
    const keep = typeof exact === 'bigint' && fresh.claim(exact) ? slotKey : undefined;
    const rendered = renderPlant(draft, fresh, salt, new Map(), new Set(keep === undefined ? [] : [keep]));
    // An id boundary whose exact id went to another case is not in this body: no note then.
    const onBoundary = label !== '' && (slotKey === undefined || keep !== undefined);
    const note = onBoundary ? `The body sits on a boundary of the document: ${label}.` : undefined;
    return [validRequest({ ...rendered, idMayRepeat: rendered.idMayRepeat || keep !== undefined }, 'Bearer', note)];
  },
});

/**
 * Member names stacks trip on: JavaScript parsers refuse the first two as "prototype poisoning", copiers rebuild through
 * them; PHP's `json_decode` into objects ("The decoded property name is invalid") and C's jansson refuse a name
 * starting with U+0000.
 */
const HOSTILE_KEYS = ['__proto__', 'constructor', '\u0000'] as const;

/**
 * A valid NewPlant with an extra member holding `{"__proto__": 1}`, `{"constructor": 1}` or `{"\u0000": 1}`, each once
 * per run: drawn by chance such keys are rare. Koa's and Fastify's parsers refuse the first two (a 400), NestJS's
 * ValidationPipe (class-transformer's `new value.constructor()`) answers the second one 500, and PHP decoding into
 * objects refuses the third. A document whose NewPlant takes no such member gets the plain valid NewPlant instead.
 */
export const prototypeKeyPlants = defineProbe<{ draft: PlantDraft; key: string }>({
  name: 'prototype-key',
  title: 'valid NewPlants with an extra member holding {"__proto__": 1}, {"constructor": 1} or {"\\u0000": 1}',
  share: 0,
  variants: () => HOSTILE_KEYS.length,
  arbitrary: (contract, variant) =>
    fc.record({
      draft: newPlantArbitrary(contract),
      key: fc.constant(HOSTILE_KEYS[variant % HOSTILE_KEYS.length] ?? 'constructor'),
    }),
  plan: ({ draft, key }, { contract, fresh, salt }) => {
    const member = new Map([['plantstore', `{${JSON.stringify(key)}:1}`]]);
    const { rendered, rewritten } = renderIfValid(contract, draft, fresh, salt, member);
    const request = validRequest(rendered);
    const prototype = rewritten && (key === '__proto__' || key === 'constructor');
    return [prototype ? { ...request, intent: { ...request.intent, prototypeKey: key } } : request];
  },
});

/** The first `__proto__` or `constructor` key of the draft, at any depth: some frameworks refuse them by default. */
function prototypeKey(draft: PlantDraft): string | undefined {
  return prototypeKeyIn(draft.value, 0);
}

function prototypeKeyIn(value: unknown, depth: number): string | undefined {
  if (value === null || typeof value !== 'object' || depth > 32) return undefined;
  // Loops rather than `Object.entries`: this runs for every valid case, most with nothing to find.
  if (Array.isArray(value)) {
    for (const item of value as unknown[]) {
      const found = prototypeKeyIn(item, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  const object = value as Record<string, unknown>;
  for (const name of Object.keys(object)) {
    if (name === '__proto__' || name === 'constructor') return name;
    const found = prototypeKeyIn(object[name], depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
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
      draft: newPlantArbitrary(contract),
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
  written: { readonly scheme: string } | { readonly mediaType: string } | { readonly lowerCaseNames: true },
): PlannedRequest[] {
  const draft = withFreshIds(drawn);
  const twin = validRequest(
    renderPlant(draft, fresh, `${salt}:${tag}`),
    'scheme' in written ? written.scheme : 'Bearer',
  );
  const writtenAs: WrittenAs =
    'scheme' in written
      ? { aspect: 'scheme', written: written.scheme }
      : 'mediaType' in written
        ? { aspect: 'media-type', written: written.mediaType }
        : { aspect: 'header-names', written: 'lower case' };
  const contentType = 'mediaType' in written ? written.mediaType : twin.contentType;
  const lowerCase = 'lowerCaseNames' in written ? { lowerCaseNames: true } : {};
  return [
    validRequest(renderPlant(draft, fresh, salt)),
    { ...twin, contentType, ...lowerCase, intent: variantOf(twin, writtenAs) },
  ];
}

/**
 * A valid NewPlant as the contract writes it (`Authorization`, `Content-Type`), then a twin whose header names are all
 * in lower case, once per run. RFC 9110 (5.1) makes names case-insensitive, and HTTP/2 clients and proxies send them
 * lower case (RFC 9113, 8.2.1): a target reading a name case-sensitively (PHP's `getallheaders()['Authorization']`,
 * a lookup in Node's `req.rawHeaders`) refuses every such client. Judged only when the first was accepted.
 */
export const headerNameSpellings = defineProbe<PlantDraft>({
  name: 'header-names',
  title: 'a valid NewPlant whose header names are written in lower case',
  share: 0,
  arbitrary: (contract) => newPlantArbitrary(contract),
  plan: (draft, context) => writtenTwins(draft, context, 'lower', { lowerCaseNames: true }),
});

/**
 * The exact edge ids of the document's first id slot (none when the NewPlant has no integer property), nearest zero
 * first (the positive one of a pair first). A check keeps the earliest failing case of a defect as its counterexample,
 * and an edge cannot shrink (its candidates get fresh ids): an int32 id (Jackson's `Integer`) refuses 2^31 to 2^63-1
 * alike, and 2^31 shows why, where 2^63-1, first before, showed nothing of int32.
 */
export function exactEdges(contract: Contract): bigint[] {
  const [slot] = plantIdSlots(contract);
  const size = (value: bigint): bigint => (value < 0n ? -value : value);
  return slot === undefined
    ? []
    : slotEdges(slot).sort((a, b) => (size(a) === size(b) ? (a < b ? 1 : -1) : size(a) < size(b) ? -1 : 1));
}

/**
 * Each exact edge id (2^63-1, -2^63, 0, -1, 2^53+1, ..., and the ends of the document's own id range)
 * in a valid NewPlant, once per run: drawn by chance they would be rare. An earlier run may have
 * stored them (see `idMayRepeat`).
 */
export const exactIds = defineProbe<{ draft: PlantDraft; edge: bigint | undefined }>({
  name: 'exact-id',
  title: 'valid NewPlants with each exact edge id of the id range',
  share: 0,
  variants: (contract) => Math.max(1, exactEdges(contract).length),
  arbitrary: (contract, variant) => {
    const edges = exactEdges(contract);
    return fc.record({
      draft: newPlantArbitrary(contract),
      edge: fc.constant(edges.length === 0 ? undefined : edges[variant % edges.length]),
    });
  },
  plan: ({ draft, edge }, { fresh, salt }) => {
    const found = idSlotOf(draft);
    if (edge === undefined || found === undefined) return [validRequest(renderPlant(draft, fresh, salt))];
    return [validRequest(renderPlant(withIdShape(draft, found.index, exactShape(edge)), fresh, salt))];
  },
});

/** The same fresh NewPlant twice: the contract leaves repeated ids open, so only the answer's form is judged. */
export const repeatedIds = defineProbe<PlantDraft>({
  name: 'repeated-id',
  title: 'a valid NewPlant sent twice',
  share: 0.05,
  arbitrary: (contract) => newPlantArbitrary(contract),
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
      draft: newPlantArbitrary(contract),
      spelling: fc.constant(SPELLINGS[variant % SPELLINGS.length] ?? 'fraction-zero'),
    }),
  plan: ({ draft: drawn, spelling }, { contract, fresh, salt }) => {
    // Both twins get fresh ids of the same shape, so they differ in spelling only.
    const draft = withFreshIds(drawn);
    const plain = renderPlant(draft, fresh, salt);
    const twin = renderPlant(draft, fresh, `${salt}:spelled`);
    const found = idSlotOf(draft);
    const id = twin.ids[0];
    if (!found || id === undefined) return [validRequest(plain)];
    let spelled = spell(id, spelling);
    // `-0` is the fixed value 0: sent once per run; a later draw spells the fresh id instead.
    if (spelled.value !== id && !fresh.claim(spelled.value)) spelled = spell(id, 'fraction-zero');
    const raw = new Map([[found.slot.key, spelled.text]]);
    const { rendered, rewritten } = renderIfValid(contract, draft, fresh, `${salt}:spelled`, raw);
    // A spelling the document's id range does not allow (e.g. -0 below a minimum of 1): no twin.
    if (!rewritten) return [validRequest(plain)];
    // In a narrow id range (1 to 1000) the twin's id is one an earlier run may have stored, as the plain one's.
    const request = validRequest({ ...rendered, idMayRepeat: spelled.value === 0n || twin.idMayRepeat });
    const intent = variantOf(request, { aspect: 'integer-spelling', written: spelled.text });
    return [validRequest(plain), { ...request, intent }];
  },
});
