import { randomBytes } from 'node:crypto';
import { isRefusalStatus, isSuccessStatus, type Contract } from '../contract/index.js';
import type { JudgeContext } from './check.js';
import type { ExactJson } from '../contract/schema/index.js';
import { setOwnMember } from '../contract/schema/json.js';
import { isObject } from '../contract/operations.js';
import { createReferenceServer } from '../reference/server.js';
import { ConformanceOptionsError, TargetUnreachableError } from './errors.js';
import type { FreshIds } from './generate/fresh-ids.js';
import fc from 'fast-check';
import { inSlot, type IdSlot } from './generate/id-slots.js';
import {
  idSlotOf,
  newPlantArbitrary,
  renderIfValid,
  isValidNewPlant,
  renderPlant,
  withFreshIds,
  type PlantDraft,
  type RenderedPlant,
} from './generate/new-plant.js';
import type { Exchange, TargetClient } from './http/client.js';
import { errorCodeOf, messageShapeOf } from './judge.js';
import { UNREACHABLE } from './http/transport-errors.js';
import { validRequest } from './probes/valid-plants.js';
import { withDocumentParameters, type PlannedRequest } from './probe.js';

/** The implementation under test: where it is, its token, and how to let it go. */
export interface Target {
  readonly baseUrl: string;
  readonly token: string;
  readonly embedded: boolean;
  close(): Promise<void>;
}

/**
 * The given target, or the reference started in-process with a random token on a free port. A target
 * whose document lets POST /plants be called without a credential (`security: []`, or an empty
 * requirement beside others) may be tested without a token: its requests then carry no `Authorization`.
 */
export async function openTarget(
  options: { baseUrl?: string; token?: string; spec?: string },
  auth: Contract['auth'] = 'bearer',
): Promise<Target> {
  if (options.baseUrl !== undefined) {
    let url: URL;
    try {
      url = new URL(options.baseUrl);
    } catch {
      throw new ConformanceOptionsError(
        `"${options.baseUrl}" is not a URL: pass e.g. \`baseUrl\` http://127.0.0.1:8080.`,
      );
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new ConformanceOptionsError(`\`baseUrl\` must be http:// or https://, got ${url.protocol}`);
    }
    refuseUnsentParts(url);
    const open = auth === 'none' || auth === 'optional';
    // Without a token every case would be refused, and a correct target would look broken.
    if (!open && (options.token === undefined || options.token === '')) {
      throw new ConformanceOptionsError(
        `${options.token === '' ? 'The token is empty' : 'No token'}: testing ${options.baseUrl} needs its bearer token: pass \`token\`.`,
      );
    }
    return {
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      token: options.token ?? '',
      embedded: false,
      close: async () => {},
    };
  }
  const token = options.token ?? randomBytes(24).toString('base64url');
  const server = await createReferenceServer({
    tokens: [token],
    ...(options.spec === undefined ? {} : { spec: options.spec }),
  });
  return { baseUrl: server.url, token, embedded: true, close: () => server.close() };
}

/** What the runner learns about the target before the run. */
export interface TargetTraits {
  /** The target answers a repeated id with 400 (true), 200 (false), or something else (undefined). */
  readonly rejectsRepeats: boolean | undefined;
  /** The status that refused the repeated id (the contract's 400, or another refusal the document lists: 409). */
  readonly repeatStatus?: number;
  /** The `error` value of that 400, as written, when its body is an Error. */
  readonly repeatErrorCode?: string;
  /** Set when the first valid NewPlant was answered 404: the URL it went to, where no operation is. */
  readonly notFoundAt?: string;
  /** Set when the first valid NewPlant, with the token given, was answered 401 or 403: that status. */
  readonly credentialRefused?: number;
  /** Set when the first valid NewPlant was refused otherwise (not 2xx): that status. */
  readonly preflightRefused?: number;
  /** Set when that refusal was a redirect (3xx with a Location): the URL asked and where it pointed (absolute). */
  readonly redirect?: { readonly from: string; readonly to: string };
  /**
   * The target rejects repeats and refused the canary plant (id {@link CANARY_ID}, sent by every
   * run) as a repeat: it holds plants from an earlier run, so a fixed id may already be stored. False when
   * it accepted the canary; `undefined` when the canary got neither answer (throttled, a 5xx, none).
   */
  readonly holdsEarlierRun?: boolean;
  /** The preflight's first valid NewPlant got an HTTP answer (any status): the target speaks HTTP. */
  readonly answered?: boolean;
  /** The canary's id as sent: {@link CANARY_ID}, or one inside the document's range when that excludes it. */
  readonly canaryId?: bigint;
  /**
   * The target's `error` value for a repeat differs from its answers to a missing and to a
   * string id: a 400 carrying the repeat value then means "I already hold this id".
   */
  readonly repeatCodeIsDistinct?: boolean;
  /** Its repeat answer's message, numbers as `#`, when that differs from its messages for bad ids. */
  readonly repeatMessageShape?: string;
  /**
   * Small answers came with their body some 40 ms after the head (two writes with Nagle's algorithm on, meeting
   * the client's delayed ACK), so later requests went on a connection each (see `DelayedBodies`).
   */
  readonly delaysBodies?: boolean;
  /** The preflight's valid NewPlant the target accepted: a control it takes when the id is free. */
  readonly acceptedPlant?: PlantDraft;
}

/** The judge context of a run whose preflight learned `traits`. */
export function judgeContextOf(traits: TargetTraits, contract: Contract): JudgeContext {
  return {
    contract,
    targetRejectsRepeats: traits.rejectsRepeats,
    repeatsUnasked:
      traits.rejectsRepeats === undefined &&
      (traits.preflightRefused === undefined || !isRefusalStatus(contract.refusal, traits.preflightRefused)),
    // A canary that got no answer either way leaves it open: a fixed id refused may be an earlier run's.
    targetHoldsEarlierRun: traits.holdsEarlierRun !== false && traits.rejectsRepeats === true,
    ...(traits.repeatErrorCode === undefined ? {} : { repeatErrorCode: traits.repeatErrorCode }),
    repeatCodeIsDistinct: traits.repeatCodeIsDistinct === true,
    ...(traits.repeatMessageShape === undefined ? {} : { repeatMessageShape: traits.repeatMessageShape }),
  };
}

/**
 * A user, password, query or fragment in `baseUrl` is never sent (the runner calls the base path + `/plants`, its
 * credential the bearer token), yet reports and messages would show it: a gateway password, or the token itself,
 * put there by a user who expected it to be sent. Refused with the URL shown without it.
 */
function refuseUnsentParts(url: URL): void {
  const what =
    url.username !== '' || url.password !== ''
      ? 'a user name or password'
      : url.search !== ''
        ? 'a query string'
        : url.hash !== ''
          ? 'a fragment'
          : undefined;
  if (what === undefined) return;
  throw new ConformanceOptionsError(
    `\`baseUrl\` ${url.origin}${url.pathname} carries ${what}, which plantstore never sends (it calls the base path + /plants with the token as Authorization: Bearer) and would show in every report: remove it.`,
  );
}

/**
 * The id of the canary plant every run sends before its cases. A target that rejects repeated ids
 * and refuses the canary as one has kept an earlier run's plants; one that accepts it has not, and
 * then no fixed id (2^63-1, 0, ...) can have been stored before. An unremarkable int32 value, so no
 * id-range defect of a target decides it.
 */
export const CANARY_ID = 1_123_581_321n;

/**
 * A plain valid NewPlant (`accepted`, the one the target took in the preflight, else the preflight's first)
 * whose id slot holds the id `idOf` reads for the slot's key,
 * with the document's parameters: the control that tells a free id from a taken one. `undefined` when the
 * plant has no id slot, `idOf` has no id for it, or the plant would not be valid with it.
 */
export function plainPlantWithId(
  contract: Contract,
  fresh: FreshIds,
  idOf: (key: string) => string | undefined,
  accepted?: PlantDraft,
): PlannedRequest | undefined {
  const plant = accepted ?? preflightPool(contract, fresh)[0];
  const found = plant === undefined ? undefined : idSlotOf(plant);
  const id = found === undefined ? undefined : idOf(found.slot.key);
  if (plant === undefined || found === undefined || id === undefined) return undefined;
  const { rendered, rewritten } = renderIfValid(
    contract,
    plant,
    fresh,
    'repeat-control',
    new Map([[found.slot.key, id]]),
  );
  return rewritten
    ? withDocumentParameters(validRequest(rendered), contract, `${fresh.nonce}:repeat-control`)
    : undefined;
}

/** How many other ids the preflight's plant is sent with when refused with an id an earlier run may have stored. */
const PREFLIGHT_RETRIES = 4;

/**
 * The preflight's valid NewPlants, drawn from the run's nonce (so each run's differ), those that hold an id first
 * (so the repeat of one is a repeat by id).
 */
function preflightPool(contract: Contract, fresh: FreshIds): PlantDraft[] {
  const seed = Number(fresh.bits('preflight-seed') % 2_147_483_647n);
  const drafts = fc.sample(newPlantArbitrary(contract), { seed, numRuns: PREFLIGHT_SAMPLE }).map(withFreshIds);
  const withId = drafts.filter((draft) => idSlotOf(draft) !== undefined);
  return [...withId, ...drafts.filter((draft) => idSlotOf(draft) === undefined)];
}

/** Valid NewPlants the preflight draws. */
const PREFLIGHT_SAMPLE = 8;

/**
 * The simplest NewPlant of the preflight's sample holding an id (fewest members, then the shortest text), without
 * the members the document lets it do without. A target refusing the first one for what the document allows
 * (extra members, long strings) may take this one, and then tells how it treats repeats.
 */
function simplestDraft(contract: Contract, pool: readonly PlantDraft[], fresh: FreshIds): PlantDraft | undefined {
  const size = (draft: PlantDraft): [number, number] => [
    Object.keys(draft.value as object).length,
    renderPlant(draft, fresh, 'preflight-size').text.length,
  ];
  const sized = pool.filter((draft) => idSlotOf(draft) !== undefined).map((draft) => ({ draft, size: size(draft) }));
  sized.sort((a, b) => a.size[0] - b.size[0] || a.size[1] - b.size[1]);
  const [simplest] = sized;
  return simplest === undefined ? undefined : barest(contract, simplest.draft, fresh);
}

/** The draft without each top-level member (but its ids) the document lets it do without. */
function barest(contract: Contract, draft: PlantDraft, fresh: FreshIds): PlantDraft {
  let current = draft;
  const { value } = draft;
  if (!isObject(value)) return draft;
  for (const key of Object.keys(value)) {
    if (draft.slots.some((slot) => slot.key === key)) continue;
    const rest: Record<string, ExactJson> = { ...(current.value as Record<string, ExactJson>) };
    delete rest[key];
    const candidate = { ...current, value: rest };
    if (isValidNewPlant(contract, renderPlant(candidate, fresh, 'preflight-barest').text)) current = candidate;
  }
  return current;
}

/**
 * Sends one fresh valid NewPlant of the document, then another with the same id. Nothing listening →
 * {@link TargetUnreachableError}, unless `answeredBefore` (the target answered the run's first request:
 * it was up, and the run's cases, sent beside the preflight, may have brought it down, which the run's
 * outage settles); otherwise the second answer tells how the target treats repeated
 * ids, concluded only when the first was accepted: a refused first plant is evidence of nothing
 * about repeats (it is reported as what it is).
 */
export async function probeTarget(
  target: TargetClient,
  contract: Contract,
  fresh: FreshIds,
  baseUrl: string,
  answeredBefore = false,
): Promise<TargetTraits> {
  const client = withParametersOf(contract, target, fresh.nonce);
  const pool = preflightPool(contract, fresh);
  let [plant] = pool;
  const other = pool[1];
  if (!plant) return { rejectsRepeats: undefined };
  let rendered = renderPlant(plant, fresh, 'preflight');
  let first = await client.send(validRequest(rendered));
  // In a narrow id range (1 to 1000) an earlier run may have stored its id: other ids before it counts as refused.
  for (let again = 1; again <= PREFLIGHT_RETRIES && rendered.idMayRepeat; again++) {
    if (!isRefusalStatus(contract.refusal, first.response.status)) break;
    rendered = renderPlant(plant, fresh, `preflight-${again}`);
    first = await client.send(validRequest(rendered));
  }
  const simplest = isRefusalStatus(contract.refusal, first.response.status)
    ? simplestDraft(contract, pool, fresh)
    : undefined;
  if (simplest !== undefined) {
    // Taken, it stands in for the first (whose refusal the cases show anyway), so repeats are learned. Sent even
    // when it is the first plant: with other ids, as a replay needs (its nonce's first ids are the replayed run's).
    const retried = renderPlant(simplest, fresh, 'preflight-simplest');
    const answer = await client.send(validRequest(retried));
    if (isSuccessStatus(contract.success, answer.response.status))
      [plant, rendered, first] = [simplest, retried, answer];
  }
  const failure = first.response.transportError;
  // A TLS failure is evidence like any other answer: the run ends could-not-judge, with its reports.
  if (failure !== undefined && UNREACHABLE.has(failure) && !answeredBefore)
    throw new TargetUnreachableError(baseUrl, failure);
  if (first.response.status === 0) return { rejectsRepeats: undefined };
  const traits = await traitsAfter(client, contract, fresh, { first, plant, other, rendered });
  const accepted = isSuccessStatus(contract.success, first.response.status);
  return { ...traits, answered: true, ...(accepted ? { acceptedPlant: plant } : {}) };
}

/** What the rest of the preflight learns once its first valid NewPlant got an HTTP answer. */
async function traitsAfter(
  client: TargetClient,
  contract: Contract,
  fresh: FreshIds,
  sent: { first: Exchange; plant: PlantDraft; other: PlantDraft | undefined; rendered: RenderedPlant },
): Promise<TargetTraits> {
  const { first, plant, other, rendered } = sent;
  const { status } = first.response;
  if (status === 404) return { rejectsRepeats: undefined, notFoundAt: first.request.url };
  if (status === 401 || status === 403) return { rejectsRepeats: undefined, credentialRefused: status };
  if (status < 200 || status > 299) {
    const to = status >= 300 && status <= 399 ? locationOf(first) : undefined;
    const redirect = to === undefined ? undefined : { from: first.request.url, to };
    return { rejectsRepeats: undefined, preflightRefused: status, ...(redirect === undefined ? {} : { redirect }) };
  }
  const found = idSlotOf(plant);
  const id = rendered.ids[0];
  if (found === undefined || id === undefined) return { rejectsRepeats: undefined };
  const second = await repeatAnswer(client, contract, fresh, { plant, rendered, other, key: found.slot.key, id });
  if (isRefusalStatus(contract.refusal, second.response.status)) {
    const code = errorCodeOf(second);
    const holdsEarlierRun = await refusesCanary(client, contract, plant, found.slot, fresh, code);
    const invalid = await invalidIdAnswers(client, contract, plant, found.slot.key, fresh);
    const shape = messageShapeOf(second);
    // An invalid id the target took (a lenient reader's "123") says nothing of its codes: the refused ones tell.
    // Nor does one refused as a repeat, code and message alike: a reader that defaults a missing id to an id
    // the run already stored (Jackson's primitive long reads it as 0) answers "a plant with id 0 exists".
    const refused = invalid
      .filter((answer) => answer !== undefined)
      .filter((answer) => !(shape !== undefined && messageShapeOf(answer) === shape && errorCodeOf(answer) === code));
    // With nothing to compare (invalid ids answered otherwise than refused: FastAPI's 422, a lenient reader's 200), a
    // message quoting a number, the id, is taken as the repeat's own: a fixed id `true` stored as 1 is then excused.
    const distinctShape =
      shape !== undefined &&
      (refused.length > 0 ? refused.every((answer) => messageShapeOf(answer) !== shape) : shape.includes('#'));
    const invalidCodes = refused.map((answer) => errorCodeOf(answer));
    return {
      rejectsRepeats: true,
      repeatStatus: second.response.status,
      holdsEarlierRun,
      canaryId: canaryId(found.slot),
      ...(distinctShape ? { repeatMessageShape: shape } : {}),
      ...(code === undefined
        ? {}
        : {
            repeatErrorCode: code,
            repeatCodeIsDistinct:
              invalidCodes.length > 0 && invalidCodes.every((other) => other !== undefined && other !== code),
          }),
    };
  }
  if (isSuccessStatus(contract.success, second.response.status)) return { rejectsRepeats: false };
  return { rejectsRepeats: undefined };
}

/** The client, its requests carrying the document's required parameters (each its own values). */
function withParametersOf(contract: Contract, client: TargetClient, nonce: string): TargetClient {
  let sent = 0;
  const salt = (): string => `${nonce}:preflight:${sent++}`;
  return { ...client, send: (plan) => client.send(withDocumentParameters(plan, contract, salt())) };
}

/**
 * The target's answer to a repeat of the accepted first plant's id: the identical plant first; when
 * that is accepted (an idempotent create), another plant the target accepts under a fresh id, then
 * sent with the first one's id, since such a target may still refuse a conflicting body. Only plants
 * whose values were accepted are repeated, so a refusal can only be about the id.
 */
async function repeatAnswer(
  client: TargetClient,
  contract: Contract,
  fresh: FreshIds,
  first: { plant: PlantDraft; rendered: RenderedPlant; other: PlantDraft | undefined; key: string; id: bigint },
): Promise<Exchange> {
  const identical = await client.send(validRequest(first.rendered));
  if (!isSuccessStatus(contract.success, identical.response.status) || first.other === undefined) return identical;
  const accepted = await client.send(validRequest(renderPlant(first.other, fresh, 'preflight-other')));
  if (accepted.response.status < 200 || accepted.response.status > 299) return identical;
  const raw = new Map([[first.key, `${first.id}`]]);
  const conflicting = renderIfValid(contract, first.other, fresh, 'preflight-again', raw);
  return conflicting.rewritten ? client.send(validRequest(conflicting.rendered)) : identical;
}

/** The target's refusals (400, or a refusal the document lists) of the plant without its id and with a string id. */
async function invalidIdAnswers(
  client: TargetClient,
  contract: Contract,
  plant: PlantDraft,
  key: string,
  fresh: FreshIds,
): Promise<(Exchange | undefined)[]> {
  const value = plant.value as Record<string, ExactJson>;
  const rest = Object.create(null) as Record<string, ExactJson>;
  for (const name of Object.keys(value)) if (name !== key) setOwnMember(rest, name, value[name]);
  const missing = validRequest(renderPlant({ ...plant, value: rest }, fresh, 'no-id'));
  const stringId = validRequest(
    renderPlant(plant, fresh, 'string-id', new Map([[key, `"${fresh.bits('string-id')}"`]])),
  );
  const answers: (Exchange | undefined)[] = [];
  for (const request of [missing, stringId]) {
    const exchange = await client.send(request);
    answers.push(isRefusalStatus(contract.refusal, exchange.response.status) ? exchange : undefined);
  }
  return answers;
}

/** The canary's id inside the slot: {@link CANARY_ID} itself when the document's range holds it. */
export function canaryId(slot: IdSlot): bigint {
  if (inSlot(slot, CANARY_ID)) return CANARY_ID;
  return slot.min + slot.step * (CANARY_ID % slot.count);
}

/**
 * Sends the canary plant: refused like a repeat (same `error` value, when known) means seen before, accepted
 * means not; `undefined` when its answer was neither (throttled past the retries, a 5xx, no answer).
 */
async function refusesCanary(
  client: TargetClient,
  contract: Contract,
  draft: PlantDraft,
  slot: IdSlot,
  fresh: FreshIds,
  repeatErrorCode: string | undefined,
): Promise<boolean | undefined> {
  // The run's accepted first plant (drawn from its nonce), so a refusal is about the id alone, and a
  // target that accepts identical repeats still refuses an earlier run's canary (its values differ).
  const raw = new Map([[slot.key, canaryId(slot).toString()]]);
  const canary = await client.send(validRequest(renderIfValid(contract, draft, fresh, 'canary', raw).rendered));
  if (isSuccessStatus(contract.success, canary.response.status)) return false;
  if (!isRefusalStatus(contract.refusal, canary.response.status)) return undefined;
  const code = errorCodeOf(canary);
  return repeatErrorCode === undefined || code === undefined || code === repeatErrorCode;
}

/** A redirect's Location as an absolute URL (resolved against the request's), or `undefined` when unusable. */
function locationOf(exchange: Exchange): string | undefined {
  const location = exchange.response.headers.location;
  if (location === undefined || location.trim() === '') return undefined;
  try {
    return new URL(location.trim(), exchange.request.url).href;
  } catch {
    return undefined;
  }
}
