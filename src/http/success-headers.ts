import fc from 'fast-check';
import { isLosslessNumber } from 'lossless-json';
import type { Contract, ResponseHeader } from '../contract/index.js';
import { numberText, stringifyExactJson } from '../contract/exact-json.js';
import type { SchemaDialect } from '../contract/schema/compiled-schema.js';
import { compileSchema } from '../contract/schema/index.js';
import type { AcceptedNewPlant } from '../contract/new-plant-request.js';

/** The headers of a success answer: one per header the document requires there, `undefined` when none. */
export type SuccessHeaders = (accepted: AcceptedNewPlant) => Readonly<Record<string, string>> | undefined;

/**
 * The required headers of the success response, each with a value its schema accepts: a `Location`
 * names the created plant (`/plants/12`, below the document's base path) as a server does; any other
 * (or a `Location` whose schema refuses that path, `format: uri`) its schema's `default`, `example` or
 * first `examples` entry, else, for a plain string, the header's name, else a value drawn from its schema
 * (a `format: uuid` request id). One no such value fits is left out.
 */
export function createSuccessHeaders(contract: Contract): SuccessHeaders {
  const required = contract.successHeaders.filter((header) => header.required);
  if (required.length === 0) return () => undefined;
  const fixed = new Map(required.map((header) => [header, fixedValue(header, contract.dialect)]));
  const plantsPath = `${contract.basePath}/plants`;
  return (accepted) => {
    const headers: Record<string, string> = {};
    for (const header of required) {
      const location = header.name.toLowerCase() === 'location' ? locationOf(plantsPath, accepted) : undefined;
      const value = location !== undefined && header.problem(location) === undefined ? location : fixed.get(header);
      if (value !== undefined) headers[header.name] = value;
    }
    return headers;
  };
}

/** `/plants/12`: where the created plant is, by its id as sent (a string id percent-encoded). */
function locationOf(plantsPath: string, { parsed }: AcceptedNewPlant): string | undefined {
  const id = Object.hasOwn(parsed, 'id') ? (parsed as Record<string, unknown>).id : undefined;
  if (typeof id === 'number') return `${plantsPath}/${numberText(parsed, 'id') ?? String(id)}`;
  // encodeURIComponent throws on a lone surrogate ("\ud800" is a valid JSON string): U+FFFD stands for it.
  if (typeof id === 'string') return `${plantsPath}/${encodeURIComponent(id.toWellFormed())}`;
  return undefined;
}

/** A value of the header's schema the document gives, else its name for a string without constraints, else one drawn. */
function fixedValue(header: ResponseHeader, dialect: SchemaDialect): string | undefined {
  const schema = (header.schema ?? {}) as Record<string, unknown>;
  const examples: unknown[] = Array.isArray(schema.examples) ? schema.examples : [];
  const candidates = [schema.default, schema.example, ...examples, header.name]
    .filter((value) => ['string', 'number', 'boolean'].includes(typeof value))
    .map(String);
  return candidates.find((value) => header.problem(value) === undefined) ?? drawnValue(header, dialect);
}

/** At most this many values of the header's schema are drawn before giving up on it. */
const DRAWS = 40;
const HEADER_VALUE = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/** A scalar of the header's schema HTTP carries as it is (visible ASCII), the same on every start. */
function drawnValue(header: ResponseHeader, dialect: SchemaDialect): string | undefined {
  if (header.schema === undefined) return undefined;
  let valid: fc.Arbitrary<unknown>;
  try {
    ({ valid } = compileSchema(header.schema, { dialect, subject: `the ${header.name} header` }));
  } catch {
    return undefined;
  }
  for (let seed = 0; seed < DRAWS; seed++) {
    const [value] = fc.sample(valid, { seed, numRuns: 1 });
    const scalar = ['string', 'boolean', 'bigint'].includes(typeof value) || isLosslessNumber(value);
    const text = scalar ? (typeof value === 'string' ? value : stringifyExactJson(value)) : undefined;
    if (text !== undefined && HEADER_VALUE.test(text) && header.problem(text) === undefined) return text;
  }
  return undefined;
}
