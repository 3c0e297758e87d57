import fc from 'fast-check';
import { stringifyExactJson, type JsonSchema } from '../../contract/index.js';
import type { FreshIds } from './fresh-ids.js';
import { int64IdArbitrary, materializeId, type IdShape } from './int64-id.js';
import { codePointArbitrary, plantTextArbitrary } from './plant-text.js';
import { schemaFields, type SchemaField } from './schema-fields.js';

/** One generated property of a NewPlant; ids keep their shape until a run gives them fresh bits. */
export type DraftField =
  | { readonly name: string; readonly kind: 'id'; readonly shape: IdShape }
  | { readonly name: string; readonly kind: 'value'; readonly value: string | number | boolean };

/** A valid NewPlant before its ids are made fresh: what fast-check generates and shrinks. */
export interface PlantDraft {
  readonly fields: readonly DraftField[];
  /** Properties the schema does not declare, which JSON Schema allows. */
  readonly extras: readonly (readonly [string, ExtraValue])[];
}

/** A NewPlant ready to send. */
export interface RenderedPlant {
  /** The JSON body text. */
  readonly text: string;
  /** Every string property sent, by name: what an echo must carry back. */
  readonly strings: Readonly<Record<string, string>>;
  /** The int64 ids sent, in field order. */
  readonly ids: readonly bigint[];
  /** True when an id is an exact fixed value that an earlier run may already have stored. */
  readonly idMayRepeat: boolean;
}

/** A JSON value two levels deep at most. */
export type ExtraValue = null | boolean | number | string | ExtraValue[] | { [key: string]: ExtraValue };

/**
 * Any JSON value for an undeclared property, two levels deep. Not fast-check's recursive `jsonValue`:
 * its depth counter is shared state, which made a recorded shrink path replay to another value.
 */
function extraValueArbitrary(): fc.Arbitrary<ExtraValue> {
  const scalar = fc.oneof(
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.string({ unit: codePointArbitrary, maxLength: 10 }),
  );
  return fc.oneof(
    { arbitrary: scalar, weight: 3 },
    fc.array(scalar, { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 6 }), scalar, { maxKeys: 3 }),
  );
}

const AWKWARD_KEYS = [
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  '',
  ' ',
  'ünïcödé',
  '🌱',
  'a.b',
  '$ref',
];

/** Valid NewPlants over the whole space the schema allows, derived from the dereferenced schema. */
export function newPlantArbitrary(schema: JsonSchema): fc.Arbitrary<PlantDraft> {
  const fields = schemaFields(schema);
  const declared = new Set(fields.map((field) => field.name));
  const fieldArbitraries = fields.map((field) => {
    const value = fieldArbitrary(field);
    return field.required ? value : fc.option(value, { nil: undefined, freq: 3 });
  });
  const key = fc
    .oneof(fc.constantFrom(...AWKWARD_KEYS), fc.string({ unit: codePointArbitrary, maxLength: 8 }))
    .filter((name) => !declared.has(name));
  const extras = fc.uniqueArray(fc.tuple(key, extraValueArbitrary()), {
    maxLength: 3,
    selector: ([name]) => name,
  });
  return fc.tuple(fc.tuple(...fieldArbitraries), extras).map(([values, extra]) => ({
    fields: values.filter((value): value is DraftField => value !== undefined),
    extras: extra,
  }));
}

function fieldArbitrary(field: SchemaField): fc.Arbitrary<DraftField> {
  const { name } = field;
  switch (field.type) {
    case 'integer':
      if (field.format === 'int32') {
        return fc.integer().map((value) => ({ name, kind: 'value' as const, value }));
      }
      return int64IdArbitrary().map((shape) => ({ name, kind: 'id' as const, shape }));
    case 'string':
      return plantTextArbitrary().map((value) => ({ name, kind: 'value' as const, value }));
    case 'boolean':
      return fc.boolean().map((value) => ({ name, kind: 'value' as const, value }));
    case 'number':
      return fc
        .double({ noNaN: true, noDefaultInfinity: true })
        .map((value) => ({ name, kind: 'value' as const, value }));
    default:
      throw new Error(`The runner cannot generate property "${name}" of type ${field.type}.`);
  }
}

const RAW = '\u0000plantstore-raw\u0000';

/**
 * The draft as JSON text with fresh ids; `salt` names the case so each case gets its own ids.
 * Fields named in `raw` are written as the given JSON text instead (for spellings and invalid values).
 */
export function renderPlant(
  draft: PlantDraft,
  fresh: FreshIds,
  salt: string,
  raw: ReadonlyMap<string, string> = new Map(),
): RenderedPlant {
  const body = Object.create(null) as Record<string, unknown>;
  const strings: Record<string, string> = Object.create(null) as Record<string, string>;
  const ids: bigint[] = [];
  let idMayRepeat = false;
  for (const field of draft.fields) {
    if (raw.has(field.name)) {
      define(body, field.name, `${RAW}${field.name}`);
    } else if (field.kind === 'id') {
      const { id, mayRepeat } = materializeId(field.shape, fresh, `${salt}:${field.name}`);
      ids.push(id);
      idMayRepeat ||= mayRepeat;
      define(body, field.name, id);
    } else {
      if (typeof field.value === 'string') strings[field.name] = field.value;
      define(body, field.name, field.value);
    }
  }
  for (const [name, value] of draft.extras) define(body, name, value);
  let text = stringifyExactJson(body);
  for (const [name, json] of raw) text = text.replace(JSON.stringify(`${RAW}${name}`), () => json);
  return { text, strings, ids, idMayRepeat };
}

/** Plain assignment would turn a `__proto__` key into a prototype change instead of a property. */
function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The draft with every id made fresh: a twin of a case is then never refused as a repeat of it. */
export function withFreshIds(draft: PlantDraft): PlantDraft {
  return {
    ...draft,
    fields: draft.fields.map((field) =>
      field.kind === 'id' ? { ...field, shape: { ...field.shape, fresh: true } } : field,
    ),
  };
}
