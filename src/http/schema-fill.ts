import { randomUUID } from 'node:crypto';
import { ContractError, parseExactJson, stringifyExactJson, type SchemaCheck } from '../contract/index.js';
import { LosslessNumber } from 'lossless-json';
import { JsonPlaceholder, type ExactJson } from '../contract/schema/compiled-schema.js';
import { exactMember } from '../contract/compile-bodies.js';
import type { ExactIntegers } from '../contract/document-reader.js';
import { documentedValues, type ObjectView } from '../contract/object-view.js';

/** Where the filled values are checked and, failing the document's own, taken from. */
export interface FillSource {
  /** Checks whole values of the object schema the properties belong to. */
  readonly check: SchemaCheck;
  /** A valid value of that schema, generated with a fixed seed; undefined when none can be made. */
  readonly sample: () => ExactJson | undefined;
  /** What the schema is, for messages: `the Plant schema`. */
  readonly subject: string;
  /** The object view of the schema as the document writes it, whose annotations offer values. */
  readonly written: ObjectView;
  /** The document's integers beyond 2^53, so a default or example keeps its digits (JSON and YAML parsers round them). */
  readonly exactIntegers?: ExactIntegers;
  /**
   * The request schema as written, when the properties answer a request: a property it gives a `default`
   * and the request left out means that default, so the answer carries it.
   */
  readonly requested?: ObjectView;
}

/**
 * A schema-valid JSON text for each named property, for answers that must carry a property the
 * request did not: the request schema's `default` for it (what leaving it out means), else what a real
 * server makes for its format (the time as `new Date().toISOString()` for `date-time`, today for `date`,
 * `crypto.randomUUID()` for `uuid`, taken when the answers are prepared), else the property's
 * `default`, else one of its examples, else the value a generated
 * valid object holds. A candidate counts only when the generated object, with the candidate put in,
 * still passes `check`. Throws a {@link ContractError} when no valid value can be found.
 */
export function fillValues(names: readonly string[], source: FillSource): ReadonlyMap<string, string> {
  const fills = new Map<string, string>();
  if (names.length === 0) return fills;
  const sample = source.sample();
  const base = isRecord(sample) ? sample : undefined;
  const exact = source.exactIntegers ?? new Map();
  for (const name of names) {
    const candidates = [
      ...requestDefaults(source.requested, name, exact),
      ...serverMade(source.written, name),
      ...(documentedValues(source.written, name, exact) as ExactJson[]),
    ];
    const chosen = candidates.find((candidate) =>
      base === undefined ? false : passes(source.check, { ...base, [name]: candidate }),
    );
    const value = chosen ?? base?.[name];
    if (value === undefined) {
      throw new ContractError(
        `${source.subject} requires "${name}", which plantstore must fill in, but it declares no valid default or example for it and no valid value can be generated.`,
      );
    }
    fills.set(name, stringifyExactJson(value));
  }
  return fills;
}

function requestDefaults(requested: ObjectView | undefined, name: string, exact: ExactIntegers): ExactJson[] {
  const declarations = requested?.declarations.get(name) ?? [];
  return declarations
    .filter((schema) => 'default' in schema)
    .map((schema) => exactMember(schema, 'default', exact) as ExactJson);
}

/**
 * The value a server sets for a property of a known format itself. A generated one (`9994-01-05t23:59:42.9853Z`)
 * is valid RFC 3339, but a lower-case `t` and a far year break real clients (Python's `fromisoformat` before 3.11).
 */
function serverMade(written: ObjectView, name: string): ExactJson[] {
  const formats = (written.declarations.get(name) ?? []).map((schema) => schema.format);
  const now = new Date().toISOString();
  if (formats.includes('date-time')) return [now];
  if (formats.includes('date')) return [now.slice(0, 10)];
  if (formats.includes('uuid')) return [randomUUID()];
  return [];
}

function isRecord(value: ExactJson | undefined): value is { [key: string]: ExactJson } {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    !(value instanceof LosslessNumber) &&
    !(value instanceof JsonPlaceholder)
  );
}

function passes(check: SchemaCheck, value: Record<string, ExactJson>): boolean {
  try {
    return check(parseExactJson(stringifyExactJson(value))).length === 0;
  } catch {
    return false;
  }
}
