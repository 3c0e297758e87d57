import fc from 'fast-check';
import { INT64, type JsonSchema } from '../../contract/index.js';
import type { FreshIds } from './fresh-ids.js';
import { newPlantArbitrary, renderPlant, type PlantDraft } from './new-plant.js';
import { schemaFields, type SchemaField } from './schema-fields.js';

/** How a valid NewPlant is broken: a field dropped or replaced by raw JSON, or the whole body replaced. */
export type Mutation =
  | { readonly kind: 'drop'; readonly field: string; readonly what: string }
  | { readonly kind: 'replace'; readonly field: string; readonly json: string; readonly what: string }
  | { readonly kind: 'whole'; readonly text: string; readonly what: string }
  | { readonly kind: 'wrap-in-array'; readonly what: string };

/** An invalid body: a valid draft and the one thing that makes it invalid. */
export interface InvalidBody {
  readonly draft: PlantDraft;
  readonly mutation: Mutation;
}

const WRONG_FOR_STRING = ['null', 'true', 'false', '0', '123', '[]', '["a"]', '{}', '{"value":"a"}'];
const WRONG_FOR_INTEGER = ['null', 'true', '"abc"', '""', '[1]', '{}', '[]'];
/**
 * `{fresh}` stands for fresh digits of the run: a lenient target that stores what it wrongly accepts
 * must not see the same value twice, or shrinking would meet its duplicate check instead of the defect.
 */
const FRESH = '{fresh}';
/** Fresh digits of an odd integer between 2^53 and 2^54, where doubles hold only even integers. */
const FRESH_ABOVE_2_53 = '{fresh-above-2^53}';
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
  { kind: 'whole', text: `{"id": ${FRESH}, "name": "Fern",}`, what: 'JSON with a trailing comma' },
  { kind: 'whole', text: `{"id": 0${FRESH}, "name": "Fern"}`, what: 'a number with a leading zero (not JSON)' },
  { kind: 'whole', text: '{"id": NaN, "name": "Fern"}', what: 'NaN, which JSON does not have' },
  { kind: 'whole', text: `{"id": ${FRESH}, "name": "Fern"} {}`, what: 'two JSON values' },
  { kind: 'whole', text: `id=${FRESH}&name=Fern`, what: 'a form-encoded body' },
  // A recursive parser without a depth limit overflows its stack here (Python's json at 1,000 levels).
  {
    kind: 'whole',
    text: `${'['.repeat(NESTING_DEPTH)}${']'.repeat(NESTING_DEPTH)}`,
    what: `arrays nested ${NESTING_DEPTH.toLocaleString('en')} deep instead of an object`,
  },
  { kind: 'wrap-in-array', what: 'a valid NewPlant wrapped in an array' },
];

const mutationsBySchema = new WeakMap<JsonSchema, readonly Mutation[]>();

/** Every way the schema says a body is invalid, derived from its fields. */
export function mutationsOf(schema: JsonSchema): readonly Mutation[] {
  let mutations = mutationsBySchema.get(schema);
  if (!mutations) {
    mutations = deriveMutations(schema);
    mutationsBySchema.set(schema, mutations);
  }
  return mutations;
}

function deriveMutations(schema: JsonSchema): Mutation[] {
  const mutations: Mutation[] = [];
  for (const field of schemaFields(schema)) {
    if (field.required) mutations.push({ kind: 'drop', field: field.name, what: `required "${field.name}" missing` });
    for (const json of wrongValues(field)) {
      mutations.push({ kind: 'replace', field: field.name, json, what: `"${field.name}" set to ${preview(json)}` });
    }
  }
  return [...mutations, ...WHOLE_BODIES];
}

function wrongValues(field: SchemaField): string[] {
  if (field.type === 'integer') {
    const range = field.format === 'int32' ? ['2147483648', '-2147483649'] : OUT_OF_INT64;
    return [...WRONG_FOR_INTEGER, `"${FRESH}"`, ...NOT_INTEGERS, ...range];
  }
  if (field.type === 'string') return WRONG_FOR_STRING;
  if (field.type === 'boolean') return ['null', '0', '"true"', '[]', '{}'];
  return ['null', '"x"', '[]', '{}'];
}

function preview(json: string): string {
  const shown = json.replaceAll(FRESH_ABOVE_2_53, '2^53+N').replaceAll(FRESH, 'N');
  return shown.length > 24 ? `${shown.slice(0, 10)}… (${shown.length} characters)` : shown;
}

/** Invalid NewPlant bodies: one mutation of the schema (by `variant`), applied to generated valid drafts. */
export function invalidBodyArbitrary(schema: JsonSchema, variant: number): fc.Arbitrary<InvalidBody> {
  const mutations = mutationsOf(schema);
  const mutation = mutations[variant % mutations.length] ?? WHOLE_BODIES[0];
  if (!mutation) throw new Error('no mutation to apply');
  // No undeclared properties: the one defect is the point, and a target that stores what it wrongly
  // accepts (e.g. an id one past int64) cannot be sent the same case twice to shrink them away.
  const draft = newPlantArbitrary(schema).map((value): PlantDraft => ({ ...value, extras: [] }));
  return fc.record({ draft, mutation: fc.constant(mutation) });
}

/** The body text of an invalid case, with fresh ids where it keeps the draft's ids. */
export function renderInvalidBody(body: InvalidBody, fresh: FreshIds, salt: string): string {
  const { mutation } = body;
  // Fresh digits wherever a lenient target could read an id: one it stored earlier would pass for a refusal.
  if (mutation.kind === 'whole') return withFreshDigits(mutation.text, fresh, salt);
  if (mutation.kind === 'wrap-in-array') return `[${renderPlant(body.draft, fresh, salt).text}]`;
  const others = body.draft.fields.filter((field) => field.name !== mutation.field);
  if (mutation.kind === 'drop') return renderPlant({ ...body.draft, fields: others }, fresh, salt).text;
  // The field may be an optional one the draft left out: put it back, then write the wrong value.
  const fields = [...others, { name: mutation.field, kind: 'value' as const, value: '' }];
  const json = withFreshDigits(mutation.json, fresh, salt);
  return renderPlant({ ...body.draft, fields }, fresh, salt, new Map([[mutation.field, json]])).text;
}

function withFreshDigits(text: string, fresh: FreshIds, salt: string): string {
  const bits = fresh.bits(`${salt}:invalid`);
  return text.replaceAll(FRESH, String(bits)).replaceAll(FRESH_ABOVE_2_53, String(2n ** 53n + 2n * bits + 1n));
}
