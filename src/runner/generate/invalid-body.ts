import fc from 'fast-check';
import { INT64, parseExactJson, stringifyExactJson, type Contract } from '../../contract/index.js';
import { objectView } from '../../contract/object-view.js';
import { isExactObject } from '../../contract/schema/json.js';
import type { ExactJson, ValueVariant } from '../../contract/schema/index.js';
import { createFreshIds, withClaim, type FreshIds } from './fresh-ids.js';
import type { IdSlot } from './id-slots.js';
import { lenientMutations, propertyRewrites, syntaxMutations, type TextMutation } from './lenient-json.js';
import {
  draftArbitrary,
  isValidNewPlant,
  newPlantArbitrary,
  plantIdSlots,
  renderPlant,
  withFreshIds,
  type PlantDraft,
} from './new-plant.js';
import { valueAt } from './pointer.js';

/** How a valid NewPlant is broken. */
export type Mutation =
  /** A value of the compiled schema that breaks exactly one keyword (or sits just outside a boundary). */
  | { readonly kind: 'variant'; readonly variant: ValueVariant; readonly what: string }
  /** A top-level property written as this JSON text. */
  | { readonly kind: 'replace'; readonly field: string; readonly json: string; readonly what: string }
  /** The valid body's text rewritten the way a lenient parser would still read it. */
  | { readonly kind: 'text'; readonly text: TextMutation; readonly what: string }
  /** A fixed body text. */
  | { readonly kind: 'whole'; readonly text: string; readonly what: string }
  | { readonly kind: 'wrap-in-array'; readonly what: string }
  /** A valid NewPlant with `text` after it: Go's `json.Decoder.Decode` reads the first value and stops. */
  | { readonly kind: 'followed-by'; readonly text: string; readonly what: string };

/** An invalid body: a draft (valid, or the variant's value) and the one thing that makes it invalid. */
export interface InvalidBody {
  readonly draft: PlantDraft;
  readonly mutation: Mutation;
  /** Where in the body text a text mutation applies (an index into its candidate places). */
  readonly place: number;
}

/**
 * `{fresh}` stands for fresh digits of the run: a lenient target that stores what it wrongly accepts
 * must not see the same value twice, or shrinking would meet its duplicate check instead of the defect.
 */
const FRESH = '{fresh}';
/** Fresh digits of an odd integer between 2^53 and 2^54, where doubles hold only even integers. */
const FRESH_ABOVE_2_53 = '{fresh-above-2^53}';
const WRONG_FOR_ID = ['true', '"abc"', '""', '[1]', '{}', `"${FRESH}"`];
const NOT_INTEGERS = [
  `${FRESH}.5`,
  `-${FRESH}.25`,
  '1e-3',
  `${FRESH}1e-1`,
  `${FRESH_ABOVE_2_53}.5`,
  '1.0000000000000001e-1',
];
const OUT_OF_INT64 = [
  `${INT64.max + 1n}`,
  `${INT64.min - 1n}`,
  `${FRESH}0000000000000000000`,
  `-${FRESH}0000000000000000000`,
  '18446744073709551616',
  '1e19',
  '-9.3e18',
  `1${'0'.repeat(30)}`,
  '1e400',
  '9'.repeat(10_000),
  `-${'9'.repeat(10_000)}`,
];

const NESTING_DEPTH = 20_000;

const WHOLE_BODIES: readonly Mutation[] = [
  { kind: 'whole', text: '', what: 'an empty body' },
  { kind: 'whole', text: '[]', what: 'a JSON array instead of an object' },
  { kind: 'whole', text: 'null', what: 'JSON null instead of an object' },
  { kind: 'whole', text: '"Fern"', what: 'a JSON string instead of an object' },
  { kind: 'whole', text: '42', what: 'a JSON number instead of an object' },
  { kind: 'whole', text: 'true', what: 'a JSON boolean instead of an object' },
  { kind: 'whole', text: '{}', what: 'an empty object' },
  { kind: 'whole', text: '{', what: 'truncated JSON' },
  { kind: 'whole', text: `{"id": ${FRESH}, "name": `, what: 'JSON cut off after a key' },
  { kind: 'whole', text: `{'id': ${FRESH}, 'name': 'Fern'}`, what: 'single-quoted pseudo-JSON' },
  { kind: 'whole', text: `id=${FRESH}&name=Fern`, what: 'a form-encoded body' },
  // A recursive parser without a depth limit overflows its stack here (Python's json at 1,000 levels).
  {
    kind: 'whole',
    text: `${'['.repeat(NESTING_DEPTH)}${']'.repeat(NESTING_DEPTH)}`,
    what: `arrays nested ${thousands(NESTING_DEPTH)} deep instead of an object`,
  },
  { kind: 'wrap-in-array', what: 'a valid NewPlant wrapped in an array' },
  { kind: 'followed-by', text: ' x', what: 'a valid NewPlant followed by text after its closing brace' },
];

/** `20,000` as `toLocaleString('en')` writes it, without loading ICU's locale data (about 16 ms per process). */
function thousands(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

const mutationsByContract = new WeakMap<Contract, readonly Mutation[]>();

/** Every way the document says a body is invalid: one keyword at a time, then lenient JSON, then whole bodies. */
export function mutationsOf(contract: Contract): readonly Mutation[] {
  let mutations = mutationsByContract.get(contract);
  if (!mutations) {
    mutations = deriveMutations(contract);
    mutationsByContract.set(contract, mutations);
  }
  return mutations;
}

function deriveMutations(contract: Contract): Mutation[] {
  const compiled = contract.compiled.newPlant;
  const variants = new Map<string, ValueVariant>();
  for (const variant of [...compiled.invalid, ...compiled.boundaries.filter((candidate) => !candidate.valid)]) {
    // A bound just outside is both a boundary and a broken keyword: sent once.
    const key = `${variant.keyword}\u0000${variant.pointer}\u0000${variant.label}`;
    if (!variants.has(key)) variants.set(key, variant);
  }
  const keyword = [...variants.values()].map((variant): Mutation => ({
    kind: 'variant',
    variant,
    what: variant.label,
  }));
  const sample = sampleDraft(contract);
  const replaced = plantIdSlots(contract).flatMap((slot) => idMutations(slot));
  const coerced = propertyRewrites(compiled.schema).flatMap((rewrite): Mutation[] =>
    rewrite.json === undefined
      ? []
      : [{ kind: 'replace', field: rewrite.field, json: rewrite.json, what: rewrite.what }],
  );
  const renamed = lenientMutations(compiled.schema).map(mutationOfText);
  const syntax = syntaxMutations().map(mutationOfText);
  const candidates = [...replaced, ...coerced, ...renamed, ...syntax, ...WHOLE_BODIES];
  // A fixed rewrite the document happens to accept (`null` for a nullable field, `{}` with nothing
  // required) is not an invalid body of this document.
  const invalid = candidates.filter((mutation) => !acceptedBy(contract, mutation, sample));
  return [...keyword, ...invalid];
}

function mutationOfText(text: TextMutation): Mutation {
  return { kind: 'text', text, what: text.what };
}

/** Wrong values of an id slot beyond what the schema's keywords name: the ways parsers go wrong on ids. */
function idMutations(slot: IdSlot): Mutation[] {
  const int64 = slot.min === INT64.min && slot.max === INT64.max;
  const values = [...WRONG_FOR_ID, ...(slot.step === 1n ? NOT_INTEGERS : []), ...(int64 ? OUT_OF_INT64 : [])];
  return values.map((json) => ({
    kind: 'replace',
    field: slot.key,
    json,
    what: `"${slot.key}" set to ${preview(json)}`,
  }));
}

function sampleDraft(contract: Contract): PlantDraft | undefined {
  const [draft] = fc.sample(newPlantArbitrary(contract), { seed: 42, numRuns: 1 });
  return draft;
}

/**
 * Ids for rendering a body only to check whether it is valid (never sent): each fixed id as it is (its claim
 * granted), fresh bits from a fixed nonce.
 */
const CHECKING_IDS: FreshIds = withClaim(createFreshIds('check'), () => true);

function acceptedBy(contract: Contract, mutation: Mutation, sample: PlantDraft | undefined): boolean {
  if (mutation.kind === 'variant' || sample === undefined) return false;
  const text = renderInvalidBody({ draft: sample, mutation, place: 0 }, CHECKING_IDS, 'check');
  return isValidNewPlant(contract, text);
}

function preview(json: string): string {
  const shown = json.replaceAll(FRESH_ABOVE_2_53, '2^53+N').replaceAll(FRESH, 'N');
  return shown.length > 24 ? `${shown.slice(0, 10)}… (${shown.length} characters)` : shown;
}

/** Invalid NewPlant bodies: one mutation of the document (by `variant`), applied to generated drafts. */
export function invalidBodyArbitrary(contract: Contract, variant: number): fc.Arbitrary<InvalidBody> {
  const mutations = mutationsOf(contract);
  const mutation = mutations[variant % mutations.length] ?? WHOLE_BODIES[0];
  if (!mutation) throw new Error('no mutation to apply');
  const slots = plantIdSlots(contract);
  const draft =
    mutation.kind === 'variant'
      ? draftArbitrary(mutation.variant.arbitrary, slots)
      : new PlainOnFullBias(newPlantArbitrary(contract), (drawn) => plainDraft(contract, drawn, mutation));
  const place = mutation.kind === 'text' ? fc.nat({ max: 1000 }) : fc.constant(0);
  return fc.record({ draft, mutation: fc.constant(mutation), place });
}

/**
 * Drafts whose first case of a variant (the fully biased one, {@link caseBias}) is plain ({@link plainDraft}), the
 * later ones as drawn. Most mutations are sent once a run: on a draft with a member the target refuses (Jackson's
 * FAIL_ON_UNKNOWN_PROPERTIES on `toString`) or an edge id, the refusal was that member's, and whether the target
 * takes text after the value or a missing id went unseen at some seeds (pojo-defaults: 6 or 7 findings by nonce).
 * (Not schema/plain-first.ts's `plainFirst`, which draws as drawn and offers the plain string as the first shrink.)
 */
class PlainOnFullBias extends fc.Arbitrary<PlantDraft> {
  constructor(
    private readonly drafts: fc.Arbitrary<PlantDraft>,
    private readonly plain: (draft: PlantDraft) => PlantDraft,
  ) {
    super();
  }

  generate(random: fc.Random, biasFactor: number | undefined): fc.Value<PlantDraft> {
    const drawn = this.drafts.generate(random, biasFactor);
    return biasFactor === 1 ? this.plainOf(drawn) : drawn;
  }

  canShrinkWithoutContext(value: unknown): value is PlantDraft {
    return this.drafts.canShrinkWithoutContext(value);
  }

  shrink(value: PlantDraft, context: unknown): fc.Stream<fc.Value<PlantDraft>> {
    // A plain draft shrinks as the draft it was made from, each candidate made plain in turn.
    if (context instanceof PlainDrawn)
      return this.drafts.shrink(context.drawn.value, context.drawn.context).map((drawn) => this.plainOf(drawn));
    return this.drafts.shrink(value, context);
  }

  private plainOf(drawn: fc.Value<PlantDraft>): fc.Value<PlantDraft> {
    return new fc.Value(this.plain(drawn.value), new PlainDrawn(drawn));
  }
}

class PlainDrawn {
  constructor(readonly drawn: fc.Value<PlantDraft>) {}
}

/**
 * The draft with fresh ids and without the members the document does not declare, when that is still a valid
 * NewPlant (a document asking for other members keeps them): what a mutation of the whole body should break alone.
 */
function plainDraft(contract: Contract, draft: PlantDraft, mutation: Mutation): PlantDraft {
  const fresh = withFreshIds(draft);
  const declared = objectView(contract.compiled.newPlant.schema).properties;
  const kept = isExactObject(draft.value) ? Object.entries(draft.value).filter(([key]) => declared.has(key)) : [];
  const value = Object.fromEntries<ExactJson>(kept);
  const plain =
    isExactObject(draft.value) && isValidNewPlant(contract, stringifyExactJson(value)) ? { ...fresh, value } : fresh;
  // Under a union (anyOf branches, a `true` schema) the mutation may hold on one draft and not on the plain one.
  const breaks = (candidate: PlantDraft) =>
    !isValidNewPlant(contract, renderInvalidBody({ draft: candidate, mutation, place: 0 }, CHECKING_IDS, 'check'));
  return [plain, fresh].find(breaks) ?? draft;
}

/** The top-level property a pointer lies under (`/tag/0` → `tag`), or `undefined` for the whole body. */
function topKey(pointer: string): string | undefined {
  if (pointer === '') return undefined;
  return pointer.slice(1).split('/')[0]?.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The body text of an invalid case, with fresh ids wherever the mutation leaves an id in place. */
export function renderInvalidBody(body: InvalidBody, fresh: FreshIds, salt: string): string {
  const { mutation, draft } = body;
  switch (mutation.kind) {
    case 'whole':
      return withFreshDigits(mutation.text, fresh, salt);
    case 'wrap-in-array':
      return `[${renderPlant(draft, fresh, salt).text}]`;
    case 'followed-by':
      return `${renderPlant(draft, fresh, salt).text}${mutation.text}`;
    case 'replace':
      return renderPlant(draft, fresh, salt, new Map([[mutation.field, withFreshDigits(mutation.json, fresh, salt)]]))
        .text;
    case 'text':
      return mutation.text.apply(renderPlant(draft, fresh, salt).text, body.place);
    case 'variant': {
      const key = topKey(mutation.variant.pointer);
      return renderPlant(draft, fresh, salt, new Map(), new Set(key === undefined ? [] : [key])).text;
    }
  }
}

/** What an invalid body breaks, with the value it holds there: `"tag" "cactuss": not one of enum [...]`. */
export function describeInvalidBody(body: InvalidBody, text: string): string {
  const { mutation } = body;
  if (mutation.kind !== 'variant') return mutation.what;
  const { pointer, keyword } = mutation.variant;
  // The whole body is the counterexample itself; shown here, it would change the defect at every shrink step.
  // Its label names it already ("the body matching if …").
  if (pointer === '') return `${mutation.what} (keyword ${keyword})`;
  let shown = '';
  try {
    const found = valueAt(parseExactJson(text), pointer);
    if (found.present) shown = ` holds ${previewValue(found.value, found.text)}`;
  } catch {
    // The body of a variant is JSON; nothing to show if it somehow is not.
  }
  const where = `"${pointer.slice(1).replaceAll('/', '.')}"`;
  return `${where}${shown}: ${mutation.what} (keyword ${keyword})`;
}

function previewValue(value: unknown, text: string | undefined): string {
  // What the finding's title keeps must not vary with the value drawn (a new fingerprint for each seed):
  // quoted values and numbers are taken out of it, so a string is one well-formed JSON string (cut to 20
  // code points, its length unsaid) and an object or array is named by its kind.
  if (value !== null && typeof value === 'object') return Array.isArray(value) ? 'an array' : 'an object';
  const json = text ?? (value === undefined ? 'nothing' : (JSON.stringify(value) ?? typeof value));
  if (typeof value === 'string' && json.length > 60) return JSON.stringify(`${[...value].slice(0, 20).join('')}…`);
  return json;
}

function withFreshDigits(text: string, fresh: FreshIds, salt: string): string {
  const bits = fresh.bits(`${salt}:invalid`);
  return text.replaceAll(FRESH, String(bits)).replaceAll(FRESH_ABOVE_2_53, String(2n ** 53n + 2n * bits + 1n));
}
