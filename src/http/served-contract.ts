import {
  ContractError,
  parseExactJson,
  PROBLEMS,
  refusesNullAt,
  stringifyExactJson,
  type Contract,
  type DocumentedAnswer,
  type Problem,
  type SchemaCheck,
} from '../contract/index.js';
import { declaredJsonTypes, isJsonEssence, mediaTypeEssence } from '../contract/media-types.js';
import { exactJsonText, type AcceptedNewPlant } from '../contract/new-plant-request.js';
import { objectView } from '../contract/object-view.js';
import { escapePointer } from '../contract/operations.js';
import type { ExactJson } from '../contract/schema/compiled-schema.js';
import { fillValues, type FillSource } from './schema-fill.js';
import { createSuccessHeaders, type SuccessHeaders } from './success-headers.js';
import { JSON_CONTENT_TYPE, STATUS_CODES } from './server-kit.js';

/**
 * What a server of this project needs of the document, prepared once: how to judge a NewPlant,
 * how to answer an accepted one, and how to write an Error the document's Error schema accepts.
 */
export interface ServedContract {
  readonly contract: Contract;
  /** Judges a parsed request body against the NewPlant schema. */
  readonly checkNewPlant: SchemaCheck;
  /** The request's media type: `application/json`, or the JSON type the document declares (`application/vnd.plant+json`). */
  readonly mediaType: string;
  /**
   * Whether a request's media type (its essence) is another JSON type the document declares the NewPlant in
   * (Swashbuckle's `text/json`, a range such as `application/*+json`): taken as `mediaType` is.
   */
  readonly readsAsJson: (essence: string) => boolean;
  /** The Content-Type of a 200 Plant: the document's media type for it (`application/json; charset=utf-8` for JSON). */
  readonly plantContentType: string;
  /** The Content-Type of an Error: the document's media type for the Error (`application/problem+json`, say). */
  readonly errorContentType: string;
  /**
   * The 200 body: the Plant schema's projection of the accepted NewPlant. Every Plant property the
   * NewPlant declares and the request holds is echoed exactly (numbers as written); a required one it
   * lacks (or a readOnly one, which is the server's to set) gets the valid value chosen at startup; an
   * optional one stays absent. A value sent that the Plant refuses there (a Plant id `minimum: 1` beside a
   * NewPlant's plain int64) is treated as not sent: the answer never leaves the document.
   */
  readonly plantBody: (accepted: AcceptedNewPlant) => string;
  /** The headers the document requires on the success answer (a 201's `Location`), or `undefined`. */
  readonly successHeaders: SuccessHeaders;
  /**
   * The body of a refusal with this code and message: an Error filled out to satisfy the document's Error
   * schema, or, for a 4xx the document gives a body of its own (a 401 schema), a body valid under that.
   */
  readonly errorBody: (failure: Pick<Problem, 'code' | 'message'>, status?: number) => string;
  /** The Content-Type of a refusal with this status: the Error's, or the media type of its own documented body. */
  readonly errorContentTypeFor: (status: number) => string;
  /** Operations the document declares that plantstore does not serve, e.g. `GET /plants`. */
  readonly notServed: readonly string[];
}

/** Valid values of the response schemas, generated with a fixed seed, for properties that must be filled. */
export interface ValidSamples {
  readonly plant: () => ExactJson | undefined;
  readonly error: () => ExactJson | undefined;
  /** A valid body of a 4xx answer the document gives a schema of its own. */
  readonly answer: (answer: DocumentedAnswer) => ExactJson | undefined;
}

const prepared = new WeakMap<Contract, ServedContract>();

/**
 * Prepares a contract for serving, once per contract. Throws a {@link ContractError} when a
 * required response property cannot be filled validly, or the Error schema refuses the Error
 * bodies plantstore writes (its `error` is an int32 code, its `message` a sentence).
 */
export function serveContract(contract: Contract, samples: ValidSamples): ServedContract {
  let served = prepared.get(contract);
  if (!served) {
    served = {
      contract,
      checkNewPlant: contract.check.newPlant,
      mediaType: jsonMediaType(contract.mediaTypes.newPlant),
      readsAsJson: declaredJsonTypes(contract.requestMediaTypes),
      plantContentType: answerContentType(contract.mediaTypes.plant),
      errorContentType: answerContentType(contract.mediaTypes.error),
      plantBody: createPlantProjection(contract, samples),
      successHeaders: createSuccessHeaders(contract),
      errorBody: withDocumentedAnswers(contract, samples, createErrorWriter(contract, samples)),
      errorContentTypeFor: (status) => {
        const answer = contract.answers.forStatus(status);
        return answerContentType(answer ? answer.mediaType : contract.mediaTypes.error);
      },
      notServed: contract.otherOperations,
    };
    prepared.set(contract, served);
  }
  return served;
}

interface Member {
  readonly name: string;
  /** `"name":`, written once. */
  readonly prefix: string;
  /** The text written when the request lacks the property; undefined: leave it out. */
  readonly fill: string | undefined;
  /** Whether the request may set it (the NewPlant declares it). */
  readonly echoed: boolean;
  /** Whether the Plant refuses null there, so a null sent is not echoed. */
  readonly nullRefused: boolean;
  /** Whether the Plant's schema there is not the NewPlant's, so a value sent may be one the Plant refuses. */
  readonly retyped: boolean;
}

function createPlantProjection(contract: Contract, samples: ValidSamples): ServedContract['plantBody'] {
  const plant = objectView(contract.compiled.plant.schema);
  const requested = objectView(contract.compiled.newPlant.schema).required;
  const requestProperties = objectView(contract.compiled.newPlant.schema).properties;
  const retyped = (name: string): boolean =>
    JSON.stringify(plant.properties.get(name)) !== JSON.stringify(requestProperties.get(name));
  const source = {
    check: contract.check.plant,
    sample: samples.plant,
    subject: 'The Plant schema',
    written: objectView(contract.schemas.plant),
    requested: objectView(contract.schemas.newPlant),
    exactIntegers: contract.exactIntegers,
  };
  const fills = new Map(
    fillValues(
      [...plant.required].filter((name) => !requested.has(name)),
      source,
    ),
  );
  // A required property the request sets but the Plant bounds otherwise (a Plant id `minimum: 1` beside a
  // NewPlant's plain int64): a value sent that the Plant refuses is replaced, as a store assigns an id.
  for (const [name, text] of standIns(
    [...plant.required].filter((name) => requested.has(name) && retyped(name)),
    source,
  ))
    fills.set(name, text);
  // Only what a NewPlant declares is the client's to set: a readOnly property (left out of the request
  // schema) or another Plant-only one the request happens to carry is the server's, as if not sent.
  const sendable = new Set(objectView(contract.compiled.newPlant.schema).names);
  const members: Member[] = plant.names.map((name) => ({
    name,
    prefix: `${JSON.stringify(name)}:`,
    fill: fills.get(name),
    echoed: sendable.has(name),
    // A null sent where the Plant refuses null (a nullable NewPlant tag, a plain Plant tag) is left out.
    nullRefused: refusesNullAt(contract.check.plant, name),
    retyped: retyped(name),
  }));
  const nextId = sendable.has('id') ? undefined : idSequence(contract, fills, samples);
  return ({ parsed }) => {
    let body = '';
    for (const member of members) {
      const refused = member.nullRefused && (parsed as Record<string, unknown>)[member.name] === null;
      const echo =
        member.echoed && Object.hasOwn(parsed, member.name) && !refused
          ? echoText(contract, member, parsed)
          : undefined;
      if (echo !== undefined) body += `,${member.prefix}${echo}`;
      else if (nextId !== undefined && member.name === 'id') body += `,${member.prefix}${nextId()}`;
      else if (member.fill !== undefined) body += `,${member.prefix}${member.fill}`;
    }
    return `{${body.slice(1)}}`;
  };
}

/**
 * Valid values for required properties the request sets, used only where the value sent cannot be echoed;
 * none (the value left out, as before) when the Plant schema gives no valid value for one.
 */
function standIns(names: readonly string[], source: FillSource): ReadonlyMap<string, string> {
  try {
    return fillValues(names, source);
  } catch (error) {
    if (error instanceof ContractError) return new Map();
    throw error;
  }
}

/**
 * The text of a property sent, as the Plant writes it: as sent, or, where the Plant's schema refuses that value
 * and takes the number's text as a string (pydantic's `Decimal`, read from a number or a string and written as
 * a string), that string; `undefined` when the Plant takes neither (then filled or left out, as if not sent).
 */
function echoText(contract: Contract, member: Member, parsed: Record<string, unknown>): string | undefined {
  const text = exactJsonText(parsed, member.name);
  if (!member.retyped || !refusedAt(contract, member.name, text)) return text;
  const asString = JSON.stringify(text);
  return typeof parsed[member.name] === 'number' && !refusedAt(contract, member.name, asString) ? asString : undefined;
}

/** Whether the Plant refuses the JSON text `text` as its property `name`, judged as parsed (integers by their text). */
function refusedAt(contract: Contract, name: string, text: string): boolean {
  const pointer = `/${escapePointer(name)}`;
  // Parsed, not built: the check reads an integer beyond 2^53 (a bigint) by the JSON text it was parsed from.
  return contract.check
    .plant(parseExactJson(`{${JSON.stringify(name)}:${text}}`))
    .some((violation) => violation.pointer === pointer || violation.pointer.startsWith(`${pointer}/`));
}

/**
 * An integer `id` the server sets (readOnly, or not in the NewPlant: TypeSpec's `@visibility(Lifecycle.Read)`)
 * counts up from the value chosen at startup, one per answer, as a store's sequence does, while the Plant
 * schema takes it; then it starts again. `undefined` when the Plant has no such id.
 */
function idSequence(
  contract: Contract,
  fills: ReadonlyMap<string, string>,
  samples: ValidSamples,
): (() => string) | undefined {
  const first = fills.get('id');
  const sample = samples.plant();
  if (first === undefined || !/^-?\d+$/.test(first) || sample === null || typeof sample !== 'object') return undefined;
  if (Array.isArray(sample)) return undefined;
  let next = BigInt(first);
  return () => {
    const candidate = stringifyExactJson({ ...sample, id: next });
    if (contract.check.plant(parseExactJson(candidate)).length > 0) next = BigInt(first);
    const id = String(next);
    next += 1n;
    return id;
  };
}

/**
 * The members of RFC 9457 (7807) problem details an Error schema may declare, and what each says of a
 * refusal: `detail` the message, `title` the kind of problem, `status` the answer's status; and
 * `statusCode`, the status in NestJS's HttpException body (`{statusCode, message, error}`).
 */
const PROBLEM_MEMBERS = ['type', 'title', 'status', 'detail', 'statusCode'] as const;
const TITLES: ReadonlyMap<number, string> = new Map(Object.values(PROBLEMS).map(({ code, title }) => [code, title]));

/**
 * Whether the Error schema takes what plantstore writes in a problem member it declares: FastAPI's
 * `HTTPValidationError` declares `detail` as a list of errors, which a message is not.
 */
function takesProblemMember(contract: Contract, name: (typeof PROBLEM_MEMBERS)[number]): boolean {
  const trial = {
    type: 'about:blank',
    title: PROBLEMS.malformedJson.title,
    status: 400,
    detail: 'A message.',
    statusCode: 400,
  };
  const violations = contract.check.error(parseExactJson(JSON.stringify({ [name]: trial[name] })));
  return violations.every(({ field }) => field !== name && !field.startsWith(`${name}.`));
}

/**
 * Whether the Error's `error` is a text rather than a code: NestJS writes the reason phrase there
 * (`"error": "Bad Request"`), and its document types it `string`, which the int32 code breaks.
 */
function takesReasonAsError(contract: Contract): boolean {
  const refuses = (value: unknown): boolean =>
    contract.check
      .error(parseExactJson(JSON.stringify({ error: value })))
      .some(({ field }) => field === 'error' || field.startsWith('error.'));
  return refuses(1001) && !refuses('Bad Request');
}

/** FastAPI's (pydantic's) error `type` for the refusals that have one of their own. */
const VALIDATION_TYPES: ReadonlyMap<number, string> = new Map([
  [PROBLEMS.malformedJson.code, 'json_invalid'],
  [PROBLEMS.missingField.code, 'missing'],
]);

/** One item of FastAPI's `detail` list: where (`["body", "name"]`), the message, the kind of error. */
function validationError(code: number, message: string): { loc: (string | number)[]; msg: string; type: string } {
  const field = /field "([^"]+)"/.exec(message)?.[1];
  const path = field === undefined ? [] : field.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
  return { loc: ['body', ...path], msg: message, type: VALIDATION_TYPES.get(code) ?? 'value_error' };
}

/** Whether the Error's `detail` is FastAPI's list of validation errors (`HTTPValidationError`). */
function takesDetailList(contract: Contract): boolean {
  const trial = {
    detail: [validationError(PROBLEMS.missingField.code, 'Invalid NewPlant: field "id" is required but missing.')],
  };
  const violations = contract.check.error(parseExactJson(JSON.stringify(trial)));
  return violations.every(({ field }) => field !== 'detail' && !field.startsWith('detail.'));
}

/**
 * The Error's `error` for a refusal: plantstore's code, else (a document enumerating the HTTP statuses there,
 * `error: {enum: [400, 401, 409, …]}`) the answer's status, else the refusal status, whichever the schema takes.
 */
function errorCodeWriter(contract: Contract): (code: number, status: number) => number {
  const taken = new Map<number, boolean>();
  const takes = (value: number): boolean => {
    let known = taken.get(value);
    if (known === undefined) {
      const violations = contract.check.error(parseExactJson(JSON.stringify({ error: value })));
      known = violations.every(({ field }) => field !== 'error' && !field.startsWith('error.'));
      taken.set(value, known);
    }
    return known;
  };
  return (code, status) => [code, status, contract.refusal.status].find((value) => takes(value)) ?? code;
}

/** Whether the Error takes `value` as its member `name` (other members aside). */
function takesMember(contract: Contract, name: string, value: unknown): boolean {
  const violations = contract.check.error(parseExactJson(JSON.stringify({ [name]: value })));
  return violations.every(({ field }) => field !== name && !field.startsWith(`${name}.`));
}

/**
 * How the Error's `message` carries the refusal's words: as the sentence, else as a list of it (NestJS's
 * ValidationPipe `message: [..]`, a DRF `{field: [msg]}` map documented as `additionalProperties: {type: array}`),
 * else as the text the schema lists there (tsoa's ValidateErrorJSON, `message: {enum: [Validation failed]}`);
 * `undefined` when it takes none of them (the member is left out).
 */
function messageWriter(contract: Contract): ((message: string) => string) | undefined {
  const sentence = 'Invalid NewPlant: field "name" is required but missing.';
  if (takesMember(contract, 'message', sentence)) return (message) => JSON.stringify(message);
  if (takesMember(contract, 'message', [sentence])) return (message) => JSON.stringify([message]);
  const listed = objectView(contract.compiled.error.schema).properties.get('message');
  const texts: unknown[] = [...(Array.isArray(listed?.enum) ? (listed.enum as unknown[]) : []), listed?.const];
  const text = texts.find((value) => typeof value === 'string' && takesMember(contract, 'message', value));
  return text === undefined ? undefined : () => JSON.stringify(text);
}

/** Words naming an HTTP status in an enumerated text `error` (gRPC's and Google APIs' codes: `INVALID_ARGUMENT`). */
const STATUS_WORDS: ReadonlyMap<number, RegExp> = new Map([
  [400, /INVALID|BAD.?REQUEST|VALIDATION|MALFORMED/i],
  [401, /UNAUTH/i],
  [403, /PERMISSION|FORBIDDEN/i],
  [409, /EXISTS|CONFLICT|DUPLICATE/i],
  [413, /TOO.?LARGE|PAYLOAD/i],
  [415, /UNSUPPORTED|MEDIA/i],
  [422, /INVALID|VALIDATION|UNPROCESSABLE/i],
]);

/**
 * The Error's `error` for a status when the document enumerates texts there (`enum: [INVALID_ARGUMENT,
 * UNAUTHENTICATED, ALREADY_EXISTS]`): the one naming the status, else the one naming a bad request, else the
 * first the schema takes; `undefined` when `error` lists no text.
 */
function enumeratedErrorWriter(contract: Contract): ((status: number) => string) | undefined {
  const values = objectView(contract.compiled.error.schema).properties.get('error')?.enum;
  if (!Array.isArray(values)) return undefined;
  const texts = values.filter(
    (value): value is string =>
      typeof value === 'string' &&
      contract.check
        .error(parseExactJson(JSON.stringify({ error: value })))
        .every(({ field }) => field !== 'error' && !field.startsWith('error.')),
  );
  const [first] = texts;
  if (first === undefined) return undefined;
  const naming = (status: number) => texts.find((text) => STATUS_WORDS.get(status)?.test(text) === true);
  return (status) => naming(status) ?? naming(400) ?? first;
}

function createErrorWriter(contract: Contract, samples: ValidSamples): ServedContract['errorBody'] {
  const error = objectView(contract.compiled.error.schema);
  // `error` and `message` are the contract's; a closed Error that does not declare them (a strict problem) gets neither.
  const carries = (name: string): boolean => error.additionalProperties !== false || error.properties.has(name);
  const problem = PROBLEM_MEMBERS.filter((name) => error.properties.has(name) && takesProblemMember(contract, name));
  const detailList = error.properties.has('detail') && !problem.includes('detail') && takesDetailList(contract);
  const toFill = [...error.required].filter(
    (name) =>
      name !== 'error' &&
      name !== 'message' &&
      !(problem as readonly string[]).includes(name) &&
      !(detailList && name === 'detail'),
  );
  const fills = fillValues(toFill, {
    check: contract.check.error,
    sample: samples.error,
    subject: 'The Error schema',
    written: objectView(contract.schemas.error),
    exactIntegers: contract.exactIntegers,
  });
  const extra = [...fills].map(([name, text]) => `,${JSON.stringify(name)}:${text}`).join('');
  const refusal = contract.refusal.status;
  const errorAsReason = error.properties.has('error') && takesReasonAsError(contract);
  const errorCode = errorCodeWriter(contract);
  const errorText = errorAsReason ? undefined : enumeratedErrorWriter(contract);
  const messageText = messageWriter(contract);
  // An `error` the schema does not declare, refused where undeclared members must be lists (DRF's {field: [msg]}).
  const errorTaken = error.properties.has('error') || takesMember(contract, 'error', 1001);
  const write: ServedContract['errorBody'] = ({ code, message }, status = refusal) => {
    const members: string[] = [];
    if (carries('error') && errorTaken)
      members.push(
        `"error":${errorAsReason ? JSON.stringify(STATUS_CODES[status] ?? 'Error') : errorText !== undefined ? JSON.stringify(errorText(status)) : errorCode(code, status)}`,
      );
    if (carries('message') && messageText !== undefined) members.push(`"message":${messageText(message)}`);
    const title = TITLES.get(code) ?? message;
    const values = { type: 'about:blank', title, status, detail: message, statusCode: status };
    for (const name of problem) members.push(`${JSON.stringify(name)}:${JSON.stringify(values[name])}`);
    if (detailList) members.push(`"detail":${JSON.stringify([validationError(code, message)])}`);
    return `{${members.join(',')}${extra}}`;
  };
  // Every code the servers answer with must pass: a document may bound or enumerate `error`.
  const violations = Object.values(PROBLEMS).flatMap(({ code, title }) =>
    contract.check.error(parseExactJson(write({ code, message: `${title}.` }))),
  );
  if (violations.length > 0) {
    const reasons = [...new Set(violations.map((v) => v.message))].slice(0, 3).join('; ');
    throw new ContractError(
      `The document's Error schema refuses the Error bodies plantstore answers with (an int32 "error" code and a "message" sentence, or problem details: type, title, status, detail): ${reasons}.`,
    );
  }
  return write;
}

/** The members of a documented body that take a refusal's words, in the order they are tried. */
const MESSAGE_MEMBERS = ['message', 'detail', 'error_description', 'title'] as const;

/**
 * Refusals with a body of their own in the document (a 401 `{ "detail": ... }`) are written to its
 * schema: the Error when that schema takes it, else a valid sample of the schema (fixed seed) with the
 * refusal's message in each member that takes it. Decided once per documented response and code.
 */
function withDocumentedAnswers(
  contract: Contract,
  samples: ValidSamples,
  writeError: ServedContract['errorBody'],
): ServedContract['errorBody'] {
  const templates = new Map<string, ((message: string) => string) | undefined>();
  return (failure, status = contract.refusal.status) => {
    const answer = contract.answers.forStatus(status);
    if (answer === undefined) return writeError(failure, status);
    const key = `${answer.key} ${failure.code}`;
    if (!templates.has(key)) templates.set(key, answerTemplate(answer, samples, writeError(failure, status)));
    const template = templates.get(key);
    return template === undefined ? writeError(failure, status) : template(failure.message);
  };
}

function answerTemplate(
  answer: DocumentedAnswer,
  samples: ValidSamples,
  errorText: string,
): ((message: string) => string) | undefined {
  const fits = (text: string): boolean => answer.compiled.check(parseExactJson(text)).length === 0;
  if (fits(errorText)) return undefined;
  const sample = samples.answer(answer);
  if (sample === undefined) return undefined;
  const text = stringifyExactJson(sample);
  if (sample === null || typeof sample !== 'object' || Array.isArray(sample)) return () => text;
  const withMessage = (names: readonly string[], message: string): string =>
    stringifyExactJson({ ...sample, ...Object.fromEntries(names.map((name) => [name, message])) });
  const members = MESSAGE_MEMBERS.filter((name) => fits(withMessage([name], 'A message.')));
  if (members.length === 0) return () => text;
  return (message) => {
    const written = withMessage(members, message);
    return fits(written) ? written : text;
  };
}

/** The label of an answer the document gives `declared` (a JSON type): UTF-8 said for plain JSON, as before. */
function answerContentType(declared: string): string {
  const essence = jsonMediaType(declared);
  return essence === 'application/json' ? JSON_CONTENT_TYPE : essence;
}

/**
 * The essence of a declared JSON media type; `application/json` for a range (`application/*`, `*\/*`). A refusal the
 * document labels with a type of its own and no schema (Goa's `application/vnd.goa.error`) keeps that type.
 */
function jsonMediaType(declared: string): string {
  const essence = mediaTypeEssence(declared);
  if (isJsonEssence(essence)) return essence;
  return essence.includes('*') ? 'application/json' : essence;
}
