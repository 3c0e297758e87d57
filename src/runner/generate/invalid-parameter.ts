import fc from 'fast-check';
import { parseExactJson, type Contract } from '../../contract/index.js';
import {
  operationParameters,
  parameterRefusal,
  readsAsValidLeniently,
  writeParameter,
  type OperationParameter,
  type ParameterFault,
} from '../../contract/parameters.js';
import type { ExactJson, ValueVariant } from '../../contract/schema/index.js';
import { REQUEST_HEADERS } from '../http/client.js';

/** One way the document says a request's parameters are wrong, the rest of the request valid. */
export type ParameterBreak =
  | { readonly kind: 'missing'; readonly parameter: OperationParameter }
  | {
      readonly kind: 'refused';
      readonly parameter: OperationParameter;
      /** Values of the parameter that break one keyword, each written so HTTP carries it and the servers refuse it. */
      readonly values: fc.Arbitrary<ExactJson>;
      readonly keyword: string;
      /** What the values break: `not one of enum ["2024-01-01","2025-06-01"]`. */
      readonly label: string;
    };

/** How many values of a variant are sampled to decide whether it yields parameters that can be sent. */
const SAMPLES = 8;

const breaksByContract = new WeakMap<Contract, readonly ParameterBreak[]>();

/**
 * Every way the document's parameters can be broken: each required one left out, then each parameter
 * (required or optional: the document says what a valid value is) written with a value its schema
 * refuses, one keyword at a time. Empty for a document without parameters.
 */
export function parameterBreaksOf(contract: Contract): readonly ParameterBreak[] {
  let breaks = breaksByContract.get(contract);
  if (!breaks) {
    const parameters = operationParameters(contract);
    breaks = [
      ...parameters
        .filter((parameter) => parameter.required && !alwaysSent(parameter))
        .map((parameter): ParameterBreak => ({ kind: 'missing', parameter })),
      ...parameters.flatMap(refusedBreaks),
    ];
    breaksByContract.set(contract, breaks);
  }
  return breaks;
}

/** Headers that frame the message: no case sets them. */
const FRAMING = new Set(['host', 'content-length', 'transfer-encoding', 'connection']);
/** Headers every request carries (the client's own, and HTTP's framing): a case cannot leave them out. */
const ALWAYS_SENT = new Set([...Object.keys(REQUEST_HEADERS), ...FRAMING]);

function alwaysSent(parameter: OperationParameter): boolean {
  return parameter.in === 'header' && ALWAYS_SENT.has(parameter.name.toLowerCase());
}

/** `header "X-Request-ID"`, `query "api-version"`, `cookie "tenant"`. */
export function nameOf(parameter: OperationParameter): string {
  return `${parameter.in} "${parameter.name}"`;
}

function refusedBreaks(parameter: OperationParameter): ParameterBreak[] {
  const { compiled } = parameter;
  if (compiled === undefined || (parameter.in === 'header' && FRAMING.has(parameter.name.toLowerCase()))) return [];
  const seen = new Set<string>();
  const breaks: ParameterBreak[] = [];
  for (const variant of [...compiled.invalid, ...compiled.boundaries.filter((candidate) => !candidate.valid)]) {
    const sendable = (value: ExactJson): boolean => isSendableBreak(parameter, variant, value);
    const sample = fc.sample(variant.arbitrary, { seed: 42, numRuns: SAMPLES }).filter(sendable);
    // Kept when most values qualify, so the filter below finds one in a few draws.
    if (sample.length * 2 < SAMPLES) continue;
    // On the wire `null`, `[]` and `{}` are all an empty value: one case, said as such.
    const empty = sample.every((value) => writeParameter(parameter, value)?.text === '');
    const label = empty ? 'an empty value' : variant.label.replace(/^the body /, '');
    const key = `${variant.keyword}\u0000${variant.pointer}\u0000${label}`;
    if (seen.has(key)) continue;
    seen.add(key);
    breaks.push({
      kind: 'refused',
      parameter,
      values: variant.arbitrary.filter(sendable),
      keyword: variant.keyword,
      label,
    });
  }
  return breaks;
}

/**
 * Whether a refused value makes a case: HTTP carries it as written, the servers' parameter step refuses it
 * under every reading, the text breaks the variant's keyword as a server reads it (as text where the schema
 * takes strings, so `5` for a string-typed header is no case and `true` for a uuid is not a wrong type; as
 * JSON where it does not, so `0` breaks `minimum: 1`), and no common lenient reading takes it as valid
 * ({@link readsAsValidLeniently}: `05` or `+5` for a valid number, `yes` for a boolean, `DE` for enum `de`);
 * nor is an empty value of a parameter with `allowEmptyValue` or a value with whitespace at either end.
 */
function isSendableBreak(parameter: OperationParameter, variant: ValueVariant, value: ExactJson): boolean {
  const written = writeParameter(parameter, value);
  if (written === undefined || parameterRefusal(parameter, written.text) === undefined) return false;
  const { text } = written;
  if ((text === '' && parameter.allowEmptyValue) || text !== text.trim()) return false;
  const check = parameter.compiled?.check;
  if (check === undefined) return false;
  const asText = check(text);
  const reading = asText.some((violation) => violation.keyword === 'type') ? jsonReading(text) : text;
  if (!check(reading).some((violation) => violation.keyword === variant.keyword)) return false;
  return !readsAsValidLeniently(parameter, text);
}

/** The text read as JSON (`0`, `1.5`, `true`), or the text itself when it is not JSON. */
function jsonReading(text: string): unknown {
  try {
    return parseExactJson(text);
  } catch {
    return text;
  }
}

/** One invalid parameter: which break, and the value for a refused one (`undefined` when left out). */
export interface InvalidParameter {
  readonly index: number;
  readonly value: ExactJson | undefined;
}

/** Invalid parameters of break `variant` of the document. */
export function invalidParameterArbitrary(contract: Contract, variant: number): fc.Arbitrary<InvalidParameter> {
  const breaks = parameterBreaksOf(contract);
  const index = variant % breaks.length;
  const found = breaks[index];
  if (found === undefined) throw new Error('the document declares no parameter to break');
  const value = found.kind === 'missing' ? fc.constant(undefined) : found.values;
  return fc.record({ index: fc.constant(index), value });
}

/** The fault a probe applies to the request's parameters, and what it breaks, with the value sent. */
export function parameterFault(
  contract: Contract,
  invalid: InvalidParameter,
): { readonly fault: ParameterFault; readonly what: string; readonly parameter: string } {
  const found = parameterBreaksOf(contract)[invalid.index];
  if (found === undefined) throw new Error(`no parameter break ${invalid.index}`);
  const { parameter } = found;
  const name = nameOf(parameter);
  if (found.kind === 'missing' || invalid.value === undefined)
    return { fault: { parameter, written: undefined }, what: `required ${name} left out`, parameter: name };
  const written = writeParameter(parameter, invalid.value);
  const shown = written === undefined ? '' : ` holding ${JSON.stringify(written.text)}`;
  return {
    fault: { parameter, written },
    what: `${name}${shown}: ${found.label} (keyword ${found.keyword})`,
    parameter: name,
  };
}
