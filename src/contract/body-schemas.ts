import { isJsonEssence, mediaTypeEssence } from './media-types.js';
import { escapePointer } from './operations.js';
import type { JsonSchema } from './schemas.js';

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** One schema of the operation: where it is in the document and under which media type it was found. */
export interface BodySchema {
  readonly schema: JsonSchema;
  /** JSON pointer of the schema in the document, e.g. `/paths/~1plants/post/requestBody/content/application~1json/schema`. */
  readonly pointer: string;
  /** The media type key it was found under, e.g. `application/json` or `application/json; charset=utf-8`. */
  readonly mediaType: string;
}

/** The operation's three schemas, each found or explained. */
export interface OperationBodies {
  readonly newPlant: BodySchema | string;
  readonly plant: (BodySchema & { readonly status: string }) | string;
  /** `undocumented`: no 400, 4XX, default or 422 response has a JSON schema, so the Error is any JSON (`{}`). */
  readonly error: (BodySchema & { readonly status: string; readonly undocumented?: true }) | string;
}

const MEDIA_TYPES_SOUGHT = 'application/json, application/json with parameters, or a type ending in +json';

/** Media ranges an answer's content may be keyed by: springdoc writes every response as `*\/*` by default. */
const ANSWER_RANGES: readonly string[] = ['application/*', '*/*'];

/**
 * How well a media type key says "JSON": lower is better; `undefined` is not JSON. For an answer, a
 * range that includes JSON counts after every JSON type.
 */
function jsonRank(key: string, answer: boolean): number | undefined {
  const type = mediaTypeEssence(key);
  if (answer && ANSWER_RANGES.includes(type)) return 3 + ANSWER_RANGES.indexOf(type);
  if (!isJsonEssence(type)) return undefined;
  if (type === 'application/json') return key.includes(';') ? 1 : 0;
  return 2;
}

/** Picks the JSON schema of a Content map (`application/json` first), or says what is missing. */
function jsonSchemaOf(content: unknown, pointer: string, what: string, answer = true): BodySchema | string {
  const keys = isObject(content) ? Object.keys(content) : [];
  const ranked = keys
    .map((key) => ({ key, rank: jsonRank(key, answer) }))
    .filter((entry): entry is { key: string; rank: number } => entry.rank !== undefined)
    .sort((a, b) => a.rank - b.rank);
  const best = ranked[0];
  if (!best) {
    const found = keys.length === 0 ? 'it lists no media type' : `it lists only ${keys.join(', ')}`;
    return `${what} has no JSON media type (looked for ${MEDIA_TYPES_SOUGHT} under ${pointer}/content; ${found}).`;
  }
  const schemaPointer = `${pointer}/content/${escapePointer(best.key)}/schema`;
  const schema = (content as JsonObject)[best.key];
  const written = isObject(schema) ? schema.schema : undefined;
  if (written === false) {
    return `${what} is the schema false for ${best.key}, which no value satisfies (at ${schemaPointer}): write the schema its bodies meet, or true for any JSON.`;
  }
  // 3.1 (JSON Schema 2020-12): the schema `true` is `{}`, any JSON value.
  if (written === true) return { schema: {}, pointer: schemaPointer, mediaType: best.key };
  if (!isObject(written)) return `${what} has no schema for ${best.key} (looked at ${schemaPointer}).`;
  return { schema: written, pointer: schemaPointer, mediaType: best.key };
}

/**
 * Finds the NewPlant (request body), Plant (success response) and Error schemas of an operation of the
 * dereferenced document. The Plant schema is the 200 response's when there is one; else the first of
 * 201, the other 2xx codes in order and `2XX` that has a JSON schema. The Error schema is the 400
 * response's; failing that a `4XX`, `default` or 422 response's; failing those any JSON, marked `undocumented`. Each
 * other one missing is explained in a sentence naming where it was looked for.
 */
export function findBodies(operation: JsonObject, pointer: string, name: string): OperationBodies {
  const requestBody = operation.requestBody;
  const newPlant = isObject(requestBody)
    ? jsonSchemaOf(requestBody.content, `${pointer}/requestBody`, `The request body of ${name}`, false)
    : `${name} has no request body (looked for requestBody at ${pointer}); plantstore sends a NewPlant there.`;
  const responses = isObject(operation.responses) ? operation.responses : {};
  return { newPlant, plant: findPlantBody(responses, pointer, name), error: findErrorBody(responses, pointer) };
}

/** The JSON schema of the response keyed `key` of an operation, or `undefined` when it documents none. */
export function responseBody(operation: JsonObject, pointer: string, key: string): BodySchema | undefined {
  const responses = isObject(operation.responses) ? operation.responses : {};
  const response = responses[key];
  if (!isObject(response)) return undefined;
  const found = jsonSchemaOf(response.content, `${pointer}/responses/${key}`, 'unused');
  return typeof found === 'string' ? undefined : found;
}

function findPlantBody(responses: JsonObject, pointer: string, name: string): OperationBodies['plant'] {
  const statuses = Object.keys(responses);
  const schemaAt = (status: string, what: string): OperationBodies['plant'] => {
    const found = jsonSchemaOf((responses[status] as JsonObject).content, `${pointer}/responses/${status}`, what);
    return typeof found === 'string' ? found : { ...found, status };
  };
  if (isObject(responses['200'])) return schemaAt('200', `The 200 response of ${name}`);
  const successes = successCandidates(responses);
  for (const status of successes) {
    const found = schemaAt(status, 'unused');
    if (typeof found !== 'string') return found;
  }
  const none = `${name} documents no success response with a Plant: no 200, and no 2xx response with a JSON schema`;
  const without =
    successes.length === 0 ? '' : `${successes.join(', ')} carr${successes.length === 1 ? 'ies' : 'y'} none; `;
  return `${none} (${without}looked under ${pointer}/responses; ${listedStatuses(statuses)}); plantstore expects the created Plant there.`;
}

/** The 2xx responses other than 200, in the order the success is chosen: 201, the others ascending, `2XX`. */
function successCandidates(responses: JsonObject): string[] {
  const codes = Object.keys(responses)
    .filter((key) => /^2\d\d$/.test(key) && key !== '200' && isObject(responses[key]))
    .sort((a, b) => (a === '201' ? -1 : b === '201' ? 1 : Number(a) - Number(b)));
  const range = Object.keys(responses).filter((key) => key.toUpperCase() === '2XX' && isObject(responses[key]));
  return [...codes, ...range];
}

function listedStatuses(statuses: readonly string[]): string {
  return statuses.length === 0 ? 'it documents no response' : `it documents ${statuses.join(', ')}`;
}

function findErrorBody(responses: JsonObject, pointer: string): OperationBodies['error'] {
  const candidates = [
    '400',
    ...Object.keys(responses).filter((key) => key.toUpperCase() === '4XX'),
    ...Object.keys(responses).filter((key) => key === 'default'),
    // FastAPI, Rails, Laravel: a request that fails validation is answered 422.
    '422',
  ];
  for (const status of candidates) {
    const response = responses[status];
    if (!isObject(response)) continue;
    const found = jsonSchemaOf(response.content, `${pointer}/responses/${status}`, 'unused');
    if (typeof found !== 'string') return { ...found, status };
  }
  // drf-spectacular's default output, NestJS without @ApiBadRequestResponse({type}), a `400: {description}`: the
  // document says nothing of a refusal's body, so any JSON body is the target's to write.
  const listed = candidates.find((status) => isObject(responses[status])) ?? '400';
  // Goa's `application/vnd.goa.error`: the label the document gives its refusals, if any.
  const content = (responses[listed] as JsonObject | undefined)?.content;
  const [mediaType = 'application/json'] = isObject(content) ? Object.keys(content) : [];
  return { schema: {}, pointer: `${pointer}/responses`, mediaType, status: listed, undocumented: true };
}
