import { exactInteger } from './integers.js';
import { JsonDepthError, numberText, parseExactJson } from './exact-json.js';
import { problem, type Problem, type ProblemKind } from './problems.js';
import type { Contract } from './spec.js';
import type { ViolationKind } from './schemas.js';

/** A NewPlant read exactly from a request: the id as a `bigint`, name and tag as sent. */
export interface NewPlant {
  readonly id: bigint;
  readonly name: string;
  readonly tag?: string;
}

/** The outcome of reading a request body: the plant, or the problem to answer with. */
export type NewPlantResult =
  { readonly ok: true; readonly plant: NewPlant } | { readonly ok: false; readonly problem: Problem };

const KIND_OF_VIOLATION: Record<ViolationKind, ProblemKind> = {
  'not-object': 'notAnObject',
  required: 'missingField',
  type: 'wrongType',
  integer: 'invalidInteger',
  constraint: 'constraintViolated',
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads the body of `POST /plants` as the contract asks: `application/json` in UTF-8, a JSON
 * object that is a valid NewPlant, integers judged exactly. Every failure names what was wrong.
 */
export function readNewPlant(contract: Contract, contentType: string | undefined, body: Uint8Array): NewPlantResult {
  const mediaProblem = checkMediaType(contentType);
  if (mediaProblem) return fail(mediaProblem);
  if (body.length === 0)
    return fail(
      problem('emptyBody', 'The request body is empty: send a NewPlant as JSON, e.g. {"id": 1, "name": "Fern"}.'),
    );
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    return fail(problem('malformedJson', 'The request body is not valid UTF-8: JSON must be sent as UTF-8 text.'));
  }
  let value: unknown;
  try {
    value = parseExactJson(text);
  } catch (error) {
    if (error instanceof JsonDepthError)
      return fail(problem('tooDeep', `The request body is too deeply nested: ${error.message}.`));
    const reason = error instanceof Error ? error.message : String(error);
    return fail(problem('malformedJson', `The request body is not valid JSON: ${reason}.`));
  }
  const violations = contract.check.newPlant(value);
  const first = violations[0];
  if (first) {
    const shown = violations.slice(0, 5).map((v) => v.message);
    const more = violations.length > shown.length ? `; and ${violations.length - shown.length} more` : '';
    return fail(problem(KIND_OF_VIOLATION[first.kind], `Invalid NewPlant: ${shown.join('; ')}${more}.`));
  }
  const record = value as Record<string, unknown>;
  const id = exactInteger(numberText(record, 'id') ?? String(record.id));
  if (id === undefined)
    return fail(problem('invalidInteger', 'Invalid NewPlant: field "id" must be an int64 integer.'));
  const plant: NewPlant =
    typeof record.tag === 'string'
      ? { id, name: String(record.name), tag: record.tag }
      : { id, name: String(record.name) };
  return { ok: true, plant };
}

function fail(failure: Problem): NewPlantResult {
  return { ok: false, problem: failure };
}

/** `application/json`, any letter case, with an optional UTF-8 charset; `undefined` when acceptable. */
export function checkMediaType(contentType: string | undefined): Problem | undefined {
  if (contentType === undefined || contentType.trim() === '') {
    return problem(
      'unsupportedMediaType',
      'The Content-Type header is missing: send "Content-Type: application/json".',
    );
  }
  const [mediaType = '', ...parameters] = contentType.split(';').map((part) => part.trim());
  if (mediaType.toLowerCase() !== 'application/json') {
    return problem(
      'unsupportedMediaType',
      `The Content-Type is "${mediaType.slice(0, 60)}", but this operation accepts only "application/json".`,
    );
  }
  for (const parameter of parameters) {
    const [name = '', rawValue = ''] = parameter.split('=').map((part) => part.trim());
    const value = rawValue.replace(/^"(.*)"$/, '$1').toLowerCase();
    if (name.toLowerCase() === 'charset' && value !== 'utf-8' && value !== 'utf8') {
      return problem(
        'unsupportedMediaType',
        `The charset "${value.slice(0, 30)}" is not supported: send the JSON as UTF-8.`,
      );
    }
  }
  return undefined;
}
