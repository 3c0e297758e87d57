import fc from 'fast-check';
import { isLosslessNumber } from 'lossless-json';
import { parseExactJson, stringifyExactJson, type Contract } from '../../contract/index.js';
import type { ExactJson } from '../../contract/schema/index.js';
import { isExactObject, setOwnMember } from '../../contract/schema/json.js';
import { withClaim, type FreshIds } from './fresh-ids.js';
import { idSlots, materializeInSlot, type IdSlot } from './id-slots.js';
import { objectView } from '../../contract/object-view.js';
import { int64IdArbitrary, type IdShape } from './int64-id.js';

/**
 * A NewPlant before its ids are made fresh: what fast-check generates and shrinks. `value` comes
 * from the document's compiled NewPlant schema; each top-level integer it holds (an id slot) is
 * replaced at rendering by a value of this run, drawn from the matching shape.
 */
export interface PlantDraft {
  /** The generated NewPlant, a JSON object (or, for an invalid draft, whatever was generated). */
  readonly value: ExactJson;
  /** The shape of each id slot's value, in slot order. */
  readonly ids: readonly IdShape[];
  /** The slots of the document's NewPlant (shared by every draft of the run). */
  readonly slots: readonly IdSlot[];
}

/** A NewPlant ready to send. */
export interface RenderedPlant {
  /** The JSON body text. */
  readonly text: string;
  /** Every top-level string property sent, by name. */
  readonly strings: Readonly<Record<string, string>>;
  /** The ids sent, in slot order. */
  readonly ids: readonly bigint[];
  /** True when an id is an exact fixed value that an earlier run may already have stored. */
  readonly idMayRepeat: boolean;
  /** The object `text` was written from (its `stringifyExactJson`); absent when a property was written raw. */
  readonly written?: { readonly text: string; readonly value: ExactJson };
}

interface PlantGenerator {
  readonly slots: readonly IdSlot[];
  readonly valid: fc.Arbitrary<PlantDraft>;
}

const generators = new WeakMap<Contract, PlantGenerator>();

function generatorOf(contract: Contract): PlantGenerator {
  let generator = generators.get(contract);
  if (!generator) {
    const compiled = contract.compiled.newPlant;
    const slots = idFirst(idSlots(compiled.schema));
    const textId = textIdSlotOf(contract, slots);
    if (textId !== undefined) textIdSlots.set(slots, textId);
    if (constrainsAcrossProperties(compiled.schema)) {
      bodyChecks.set(slots, (body) => isValidNewPlant(contract, stringifyExactJson(body)));
    }
    generator = { slots, valid: draftArbitrary(compiled.valid, slots) };
    generators.set(contract, generator);
  }
  return generator;
}

/**
 * A top-level `id` the document writes as a string (proto3's JSON int64 `"123"`, a uuid, a code): drawn
 * values repeat (`""` above all), and a target that refuses repeats would refuse valid plants. Each case
 * gets one of this run's own instead, the first of a few spellings the NewPlant schema accepts.
 */
interface TextIdSlot {
  readonly key: string;
  /** A fresh value for `bits` that keeps `body` a valid NewPlant, or `undefined` when none does. */
  readonly fresh: (bits: bigint, body: Record<string, ExactJson>) => ExactJson | undefined;
  /** Whether drawn values of any kind are replaced: an id without `type` (a `oneOf` union, none) has no integer slot. */
  readonly integers: boolean;
}

/**
 * A test of a whole body, for a NewPlant whose schema constrains a slot's value beside other properties (an
 * `if`/`then` on another member, a `dependentSchemas`, a `not` or a union at its root): a slot's range comes from
 * its own schema only, so a fresh value may break the rest (`waterEveryDays: 7` where `tag: cactus` needs 14 or
 * more). Absent for the usual NewPlant, whose slots are constrained by their own schema alone.
 */
const bodyChecks = new WeakMap<readonly IdSlot[], (body: Record<string, ExactJson>) => boolean>();

/** Whether the root of a canonical NewPlant holds keywords that relate its properties (see {@link bodyChecks}). */
function constrainsAcrossProperties(schema: unknown): boolean {
  if (schema === null || typeof schema !== 'object') return false;
  return ['anyOf', 'oneOf', 'allOf', 'not', '$ref'].some((keyword) => keyword in schema);
}

/**
 * The body with the slots' drawn values put back where the fresh ones break a NewPlant the draw made valid:
 * the other slots first, then the id too (whose drawn value may repeat). `undefined` when nothing was put back.
 */
function keptValid(
  draft: PlantDraft,
  body: Record<string, ExactJson>,
  ids: bigint[],
): { body: Record<string, ExactJson>; ids: bigint[]; idMayRepeat: boolean } | undefined {
  const valid = bodyChecks.get(draft.slots);
  const source = draft.value;
  if (valid === undefined || !isExactObject(source) || valid(body) || !valid(copyObject(source))) return undefined;
  const replaced = draft.slots.flatMap((slot) => {
    const drawn = source[slot.key];
    return typeof drawn === 'bigint' && body[slot.key] !== drawn ? [{ key: slot.key, drawn }] : [];
  });
  for (const keepId of [true, false]) {
    const kept = copyObject(body);
    const back = replaced.filter(({ key }) => !keepId || key !== draft.slots[0]?.key);
    for (const { key, drawn } of back) setOwnMember(kept, key, drawn);
    if (!valid(kept)) continue;
    const sent = draft.slots.flatMap((slot) => (typeof kept[slot.key] === 'bigint' ? [kept[slot.key] as bigint] : []));
    return { body: kept, ids: sent.length === ids.length ? sent : ids, idMayRepeat: !keepId };
  }
  return undefined;
}

/** The text id slot of a run, by its integer slots (the array every draft of the run shares). */
const textIdSlots = new WeakMap<readonly IdSlot[], TextIdSlot>();

function textIdSlotOf(contract: Contract, slots: readonly IdSlot[]): TextIdSlot | undefined {
  const declared = objectView(contract.compiled.newPlant.schema).properties.get('id');
  if (declared === undefined) return undefined;
  const type = declared.type;
  const text = type === 'string' || (Array.isArray(type) && type.includes('string'));
  // Without `type` (a union, `oneOf: [{type: integer}, {type: string}]`, or no constraint at all) any kind may be drawn.
  const union = type === undefined;
  const integers = union && !slots.some((slot) => slot.key === 'id');
  if (!text && !union) return undefined;
  const spellings = (bits: bigint): ExactJson[] => {
    const hex = bits.toString(16).padStart(12, '0');
    return [...(integers ? [bits] : []), `${bits}`, `00000000-0000-4000-8000-${hex}`, `plant-${bits.toString(36)}`];
  };
  return {
    key: 'id',
    integers,
    fresh: (bits, body) => spellings(bits).find((id) => isValidNewPlant(contract, stringifyExactJson({ ...body, id }))),
  };
}

/**
 * The slots with the one named `id` first: the first slot is the plant's id to the probes (exact edge
 * ids, precision pairs, the preflight, the canary), and another integer declared before it (a count,
 * a size) must not take the id's place.
 */
function idFirst(slots: IdSlot[]): IdSlot[] {
  return [...slots.filter((slot) => slot.key === 'id'), ...slots.filter((slot) => slot.key !== 'id')];
}

/** Drafts of the values of `arbitrary`, with an id shape for each slot. */
export function draftArbitrary(arbitrary: fc.Arbitrary<ExactJson>, slots: readonly IdSlot[]): fc.Arbitrary<PlantDraft> {
  const shapes = fc.tuple(...slots.map(() => int64IdArbitrary()));
  return fc.tuple(arbitrary, shapes).map(([value, ids]) => ({ value, ids, slots }));
}

/** Valid NewPlants over the whole space the document's schema allows. */
export function newPlantArbitrary(contract: Contract): fc.Arbitrary<PlantDraft> {
  return generatorOf(contract).valid;
}

/** The id slots of the document's NewPlant: `id` first, then the others in declaration order. */
export function plantIdSlots(contract: Contract): readonly IdSlot[] {
  return generatorOf(contract).slots;
}

const RAW = '\u0000plantstore-raw\u0000';

/** Options of {@link renderPlant}. */
export interface RenderOptions {
  /** Top-level properties written as this JSON text instead (added when absent). */
  readonly raw?: ReadonlyMap<string, string>;
  /** Top-level properties whose value is kept as generated (the place an invalid variant breaks). */
  readonly keep?: ReadonlySet<string>;
}

/**
 * The draft as JSON text with fresh ids; `salt` names the case so each case gets its own ids.
 * Properties named in `raw` are written as the given JSON text instead (for spellings and invalid values).
 */
export function renderPlant(
  draft: PlantDraft,
  fresh: FreshIds,
  salt: string,
  raw: ReadonlyMap<string, string> = new Map(),
  keep: ReadonlySet<string> = new Set(),
): RenderedPlant {
  const source = draft.value;
  if (!isExactObject(source)) {
    return { text: stringifyExactJson(source), strings: {}, ids: [], idMayRepeat: false };
  }
  let body = copyObject(source);
  let ids: bigint[] = [];
  let idMayRepeat = false;
  draft.slots.forEach((slot, index) => {
    const shape = draft.ids[index];
    const drawn = body[slot.key];
    // A string drawn for an integer slot that takes strings too (.NET 10's `type: [integer, string]` int64) is no
    // fresh id: "0" came back case after case, and a target refusing repeats failed positive-acceptance.
    const number = holdsId(slot, drawn) || typeof drawn === 'string';
    if (shape === undefined || !number || raw.has(slot.key) || keep.has(slot.key)) return;
    const slotSalt = `${salt}:${slot.key}`;
    const { id, mayRepeat } = materializeInSlot(slot, shape, heldByCase(fresh, slotSalt), slotSalt);
    ids.push(id);
    idMayRepeat ||= mayRepeat;
    setOwnMember(body, slot.key, id);
  });
  const kept = keptValid(draft, body, ids);
  if (kept !== undefined) ({ body, ids } = kept);
  idMayRepeat ||= kept?.idMayRepeat === true;
  const textId = textIdSlots.get(draft.slots);
  const drawnId = textId === undefined ? undefined : body[textId.key];
  const replaced = typeof drawnId === 'string' || (textId?.integers === true && drawnId !== undefined);
  if (textId && replaced && !raw.has(textId.key) && !keep.has(textId.key)) {
    const id = textId.fresh(fresh.bits(`${salt}:${textId.key}`), body);
    if (id === undefined) idMayRepeat = true;
    else setOwnMember(body, textId.key, id);
  }
  for (const key of raw.keys()) setOwnMember(body, key, `${RAW}${key}`);
  let text = stringifyExactJson(body);
  if (raw.size === 0) return { text, strings: stringsOf(body, raw), ids, idMayRepeat, written: { text, value: body } };
  for (const [key, json] of raw) text = text.replace(JSON.stringify(`${RAW}${key}`), () => json);
  return { text, strings: stringsOf(body, raw), ids, idMayRepeat };
}

/** Exact ids won by renders, by slot salt (`<case salt>:<slot key>`), for the latest salts of each run. */
const held = new WeakMap<FreshIds, Map<string, bigint[]>>();
const HELD_SALTS = 1024;

/**
 * `fresh` for one slot of one case, where an id this slot of this case already won is won again. A
 * case may render a draft more than once and send only one body (a rewrite the document refuses, then
 * the plain body): the claims of a render that is not sent stay with the case, so the body it sends
 * carries the same exact ids rather than fresh bits, and no exact edge id is spent unsent.
 */
function heldByCase(fresh: FreshIds, slotSalt: string): FreshIds {
  let bySalt = held.get(fresh);
  if (!bySalt) {
    bySalt = new Map();
    held.set(fresh, bySalt);
  }
  const holdings = bySalt;
  return withClaim(fresh, (id) => {
    const won = holdings.get(slotSalt);
    if (won?.includes(id)) return true;
    if (!fresh.claim(id)) return false;
    holdings.delete(slotSalt);
    holdings.set(slotSalt, [...(won ?? []), id]);
    // Renders of one case follow each other: older salts are never rendered again.
    for (const oldest of holdings.keys()) {
      if (holdings.size <= HELD_SALTS) break;
      holdings.delete(oldest);
    }
    return true;
  });
}

/** A copy without a prototype, where assignment makes an own property of every key, `__proto__` too. */
function copyObject(source: { [key: string]: ExactJson }): Record<string, ExactJson> {
  const body = Object.create(null) as Record<string, ExactJson>;
  for (const key of Object.keys(source)) body[key] = source[key] as ExactJson;
  return body;
}

function stringsOf(body: Record<string, ExactJson>, raw: ReadonlyMap<string, string>): Record<string, string> {
  const strings = Object.create(null) as Record<string, string>;
  for (const key of Object.keys(body)) {
    const value = body[key];
    if (typeof value === 'string' && !raw.has(key)) strings[key] = value;
  }
  return strings;
}

/** The draft with every id made fresh: a twin of a case is then never refused as a repeat of it. */
export function withFreshIds(draft: PlantDraft): PlantDraft {
  return { ...draft, ids: draft.ids.map((shape) => ({ ...shape, fresh: true })) };
}

/** The draft with the given slot's shape replaced (e.g. by an exact edge id). */
export function withIdShape(draft: PlantDraft, slotIndex: number, shape: IdShape): PlantDraft {
  return { ...draft, ids: draft.ids.map((old, index) => (index === slotIndex ? shape : old)) };
}

/**
 * Whether a drawn value is one a fresh id replaces: an integer, or any number in a `type: number` id (NestJS's
 * `id: number`), which is sent as a fresh integer all the same.
 */
function holdsId(slot: IdSlot, drawn: unknown): boolean {
  return typeof drawn === 'bigint' || (slot.ofNumber === true && isLosslessNumber(drawn));
}

/**
 * The first id slot the draft's value holds a number in that is sent as a fresh integer, with its index (a
 * `type: number` id's too, so its id is spelled `5.0` and `5e0` as an integer's is).
 */
export function idSlotOf(draft: PlantDraft): { slot: IdSlot; index: number } | undefined {
  const { value } = draft;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const index = draft.slots.findIndex((slot) => holdsId(slot, (value as Record<string, unknown>)[slot.key]));
  const slot = draft.slots[index];
  return slot === undefined ? undefined : { slot, index };
}

/** The top-level string properties of the draft's value, by name. */
export function draftStrings(draft: PlantDraft): [string, string][] {
  const { value } = draft;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [];
  // An id's string is replaced by a fresh id when rendered: written raw, it would be the drawn one, repeated.
  const ids = new Set([...draft.slots.map((slot) => slot.key), textIdSlots.get(draft.slots)?.key]);
  return Object.entries(value as Record<string, unknown>).filter(
    (entry): entry is [string, string] => typeof entry[1] === 'string' && !ids.has(entry[0]),
  );
}

/** Whether a body text is a valid NewPlant of the document (numbers judged exactly). */
export function isValidNewPlant(contract: Contract, text: string): boolean {
  try {
    return contract.check.newPlant(parseExactJson(text)).length === 0;
  } catch {
    return false;
  }
}

/**
 * A valid NewPlant with some properties rewritten (escapes, spellings, other ids): the rewritten
 * body when the document still accepts it, else the plain one, so a constraint of the document
 * (a pattern, an id range) never turns a case meant to be valid into an invalid one.
 */
export function renderIfValid(
  contract: Contract,
  draft: PlantDraft,
  fresh: FreshIds,
  salt: string,
  raw: ReadonlyMap<string, string>,
): { rendered: RenderedPlant; rewritten: boolean } {
  const rewritten = renderPlant(draft, fresh, salt, raw);
  if (isValidNewPlant(contract, rewritten.text)) return { rendered: rewritten, rewritten: true };
  return { rendered: renderPlant(draft, fresh, salt), rewritten: false };
}
