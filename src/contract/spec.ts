import { findBodies, responseBody, type BodySchema } from './body-schemas.js';
import { compileBody, withExactIntegers } from './compile-bodies.js';
import { ContractError, describeProblems, type DocumentProblem } from './contract-error.js';
import { documentPointer, isWritten, type DocumentFiles } from './document-pointer.js';
import {
  documentReadings,
  nullRootReading,
  shapelessNewPlantReading,
  type DocumentReading,
} from './document-readings.js';
import {
  answerKeys,
  documentedAnswers,
  type DocumentedAnswer,
  type DocumentedAnswers,
  type UncheckedAnswer,
  uncheckedAnswer,
} from './documented-answers.js';
import { dereferenceDocument, documentFiles, readDocument, type ExactIntegers } from './document-reader.js';
import { dialectProblem, documentVersion } from './openapi-version.js';
import { findOperation, isObject, listOperations, plantsPathOf } from './operations.js';
import { mediaTypeEssence } from './media-types.js';
import { DEFAULT_SPEC_PATH } from './package-files.js';
import { prebuiltReadings } from './prebuilt-document.js';
import { prebuiltValidators } from './prebuilt-validators.js';
import type { CompiledSchema, SchemaDialect } from './schema/compiled-schema.js';
import {
  loadSchemaCompiler,
  usePrebuiltValidators,
  withTrustedSchemas,
  type JsonSchema,
  type SchemaCheck,
} from './schemas.js';
import { operationAuth, serverBasePath, undeclaredSchemes, type ContractAuth } from './security.js';
import { refusalStatusOf, type RefusalStatus } from './refusal-status.js';
import { responseHeaders, type ResponseHeader } from './response-headers.js';
import { successStatusOf, type SuccessStatus } from './success-status.js';

export { ContractError, type DocumentProblem } from './contract-error.js';

export { DEFAULT_SPEC_PATH } from './package-files.js';

/** The path and method of the contract's one operation. */
export const OPERATION = { path: '/plants', method: 'post' } as const;

type Three<T> = { readonly newPlant: T; readonly plant: T; readonly error: T };

/** The contract, loaded once: the dereferenced document, its schemas compiled, and what else it declares. */
export interface Contract {
  /** Where the document was read from. */
  readonly source: string;
  /** The validated, fully dereferenced OpenAPI document (recursive schemas are cyclic objects). */
  readonly document: Record<string, unknown>;
  /**
   * The document's integers a double cannot hold (an example's id 2^63-1), by the object of `document`
   * holding each and its key: `document` has them rounded, as JSON.parse and YAML parsers read them.
   */
  readonly exactIntegers: ExactIntegers;
  /** The document's `openapi` field, e.g. `3.0.3`. */
  readonly version: string;
  /** The schema dialect of its Schema Objects. */
  readonly dialect: SchemaDialect;
  /** The operationId of POST /plants. */
  readonly operationId: string;
  /** The request body (NewPlant), success response (Plant) and Error schemas, dereferenced. */
  readonly schemas: Three<JsonSchema>;
  /** Checks of parsed JSON values (see `parseExactJson`) against the three schemas (`compiled.*.check`). */
  readonly check: Three<SchemaCheck>;
  /** The three schemas compiled: exact validators and generators of valid, boundary and invalid values. */
  readonly compiled: Three<CompiledSchema>;
  /** Where each schema is in the document (JSON pointers of the dereferenced document). */
  readonly locations: Three<string>;
  /** The media type key each schema was found under, e.g. `application/json; charset=utf-8`. */
  readonly mediaTypes: Three<string>;
  /** Every media type the request body declares, as essences (`application/x-www-form-urlencoded` beside JSON). */
  readonly requestMediaTypes: readonly string[];
  /** The response the Plant schema comes from: `200`, else `201`, another 2xx or `2XX` (see `findBodies`). */
  readonly success: SuccessStatus;
  /** The headers the success response declares (`Location` on a 201), with whether each is required. */
  readonly successHeaders: readonly ResponseHeader[];
  /** The response the Error schema comes from: `400`, else `4XX`, else `default`, else `422`. */
  readonly errorStatus: string;
  /** The statuses that refuse a request as the document says, and the one the Error comes with. */
  readonly refusal: RefusalStatus;
  /** The 4xx answers the document gives bodies of their own beside the Error (a 401 schema, FastAPI's 422). */
  readonly answers: DocumentedAnswers;
  /** The document's key for POST /plants: `/plants`, or that below a prefix (`/api/v1/plants`). */
  readonly operationPath: string;
  /**
   * The path of the first server URL (`/v1`) followed by the operation's prefix (`/api/v1` of
   * `/api/v1/plants`), `` when none: a hint for `--base-url`, never applied.
   */
  readonly basePath: string;
  /** How POST /plants authenticates, from its security requirements or the document's. */
  readonly auth: ContractAuth;
  /** The security scheme names behind `auth`. */
  readonly authSchemes: readonly string[];
  /** Every other operation and webhook the document declares, e.g. `GET /plants`, `webhook newPlant (POST)`. */
  readonly otherOperations: readonly string[];
}

/** What `validate` learns about a document: every problem that would stop plantstore, or the contract. */
export interface DocumentInspection {
  readonly source: string;
  /** The `openapi` (or `swagger`) field, when there is one. */
  readonly version: string | undefined;
  readonly problems: readonly DocumentProblem[];
  /** Present exactly when there is no problem. */
  readonly contract: Contract | undefined;
  /** Where the tested schemas read two ways, at the places the document writes them (none without a contract). */
  readonly readings?: readonly DocumentReading[];
}

const loaded = new Map<string, Promise<Contract>>();

/**
 * Loads an OpenAPI 3.0 or 3.1 document once per path: validates it, dereferences it, finds POST
 * /plants and its three schemas and compiles them. Throws a {@link ContractError} listing every
 * problem (Swagger 2.0, a missing operation or body, a schema construct that cannot be honoured).
 */
export function loadContract(source: string = DEFAULT_SPEC_PATH): Promise<Contract> {
  let contract = loaded.get(source);
  if (!contract) {
    contract = buildContract(source);
    loaded.set(source, contract);
    contract.catch(() => loaded.delete(source));
  }
  return contract;
}

async function buildContract(source: string): Promise<Contract> {
  // The bundled openapi.yaml is validated by `npm test` (swagger-parser and Redocly); validating it
  // again at every start would cost half a second of meta-schema compilation for nothing.
  const inspection = await inspect(source, source !== DEFAULT_SPEC_PATH);
  if (inspection.contract) return inspection.contract;
  throw unusable(source, inspection.problems);
}

/** The error for a document with problems: one line per problem, each with its place. */
export function unusable(source: string, problems: readonly DocumentProblem[]): ContractError {
  // A sentence about the whole document (Swagger 2.0, not YAML) already names the file.
  const [only] = problems;
  if (problems.length === 1 && only?.pointer === '' && only.message.startsWith(source)) {
    return new ContractError(only.message, problems);
  }
  const count = problems.length === 1 ? 'a problem' : `${problems.length} problems`;
  return new ContractError(`${source} cannot be used (${count}):\n${describeProblems(problems)}`, problems);
}

/**
 * Reads a document as `loadContract` would and reports every problem that would stop `test`,
 * `serve` or `mock`, instead of stopping at the first. Throws a {@link ContractError} only when
 * the file cannot be read at all.
 */
export function inspectDocument(source: string): Promise<DocumentInspection> {
  return inspect(source, true);
}

async function inspect(source: string, metaValidate: boolean): Promise<DocumentInspection> {
  // The build read and dereferenced the bundled document already (prebuilt-document.ts), and compiled
  // its schemas' validators (prebuilt-validators.ts): a default run loads no ajv.
  const [prebuilt, validators] =
    !metaValidate && source === DEFAULT_SPEC_PATH
      ? await Promise.all([prebuiltReadings(), prebuiltValidators()])
      : [undefined, undefined];
  if (prebuilt && validators) usePrebuiltValidators(validators);
  else await loadSchemaCompiler();
  const raw = prebuilt ? { document: prebuilt.raw, exact: undefined } : await readDocument(source);
  if ('problem' in raw) return { source, version: undefined, problems: [raw.problem], contract: undefined };
  const version = documentVersion(raw.document, source);
  if ('refused' in version) {
    return {
      source,
      version: version.version,
      problems: [{ pointer: '', message: version.refused }],
      contract: undefined,
    };
  }
  const read = prebuilt
    ? { document: prebuilt.document, exactIntegers: prebuilt.exactIntegers, problems: [] }
    : await dereferenceDocument(source, raw, version.dialect, metaValidate);
  if (!read.document) return { source, version: version.version, problems: read.problems, contract: undefined };
  const exact = read.exactIntegers ?? new Map();
  const files = documentFiles(source);
  const readings = { document: read.document, raw: raw.document, files, exact };
  // The bundled document's schemas are valid JSON Schema (checked by `npm test`), like the document.
  const build = (): Assembled => assemble(source, readings, version.dialect);
  const built = metaValidate ? build() : withTrustedSchemas(build);
  const declared = version.dialect === 'openapi-3.1' ? raw.document.jsonSchemaDialect : undefined;
  const dialect = dialectProblem(declared, 'The document');
  const problems = [
    ...read.problems,
    ...(dialect === undefined ? [] : [{ pointer: '/jsonSchemaDialect', message: dialect }]),
    ...built.problems,
  ];
  const contract = problems.length === 0 ? built.contract : undefined;
  return {
    source,
    version: version.version,
    problems,
    contract,
    readings: contract && [...(built.readings ?? []), ...writtenReadings(contract, readings)],
  };
}

/** The contract's two-way readings, each at the place the document (or another of its files) writes it. */
function writtenReadings(contract: Contract, { raw, files }: Readings): DocumentReading[] {
  const { schemas, locations, dialect } = contract;
  const tested = (['newPlant', 'plant', 'error'] as const).map((name) => ({
    schema: schemas[name],
    location: locations[name],
  }));
  const root = [
    nullRootReading(schemas.newPlant, dialect),
    shapelessNewPlantReading(contract.compiled.newPlant.schema),
  ];
  const rootReadings: DocumentReading[] = root.flatMap((reading) =>
    reading === undefined ? [] : [{ pointer: locations.newPlant, reading }],
  );
  return [...rootReadings, ...documentReadings(tested, dialect, contract.exactIntegers)].map(
    ({ pointer, reading, written }) => {
      if (written === true) return { pointer, reading };
      const located = documentPointer(raw, '', pointer, files);
      return { pointer: isWritten(raw, located, files) ? located : pointer, reading };
    },
  );
}

type Assembled = { problems: DocumentProblem[]; contract?: Contract; readings?: DocumentReading[] };

/** The read-as line of an operation documenting no refusal body (see `findBodies`). */
const UNDOCUMENTED_ERROR =
  'no Error schema: none of the 400, 4XX, default and 422 responses has a JSON schema (drf-spectacular and NestJS ' +
  'document none unless asked), so refusals are judged by their status only (400, or a 4xx the document lists) and ' +
  'their JSON bodies are the target\'s to write; serve and mock answer the contract\'s Error, {"error": …, ' +
  '"message": …} (document a 400 response with its schema to have refusal bodies judged)';

/** The document dereferenced, as written (with its other files), and its integers beyond 2^53. */
interface Readings {
  readonly document: Record<string, unknown>;
  readonly raw: unknown;
  readonly files: DocumentFiles;
  readonly exact: ExactIntegers;
}

function assemble(source: string, readings: Readings, dialect: SchemaDialect): Assembled {
  const { document } = readings;
  const operationPath = plantsPathOf(document);
  const operation = findOperation(document, operationPath, OPERATION.method);
  if ('missing' in operation) {
    return { problems: [{ pointer: '/paths', message: operation.missing }] };
  }
  const bodies = findBodies(operation.found, operation.pointer, `${OPERATION.method.toUpperCase()} ${operationPath}`);
  const problems: DocumentProblem[] = [];
  const compile = (body: BodySchema | string, subject: string, name: string): CompiledSchema | undefined => {
    if (typeof body !== 'string') return compileFound(body, { subject, name, dialect, readings }, problems);
    problems.push({ pointer: operation.pointer, message: body });
    return undefined;
  };
  problems.push(...undeclaredSchemes(document, operation.found, operation.pointer));
  const newPlant = compile(bodies.newPlant, 'a NewPlant', 'NewPlant');
  const plant = compile(bodies.plant, 'a Plant', 'Plant');
  const error = compile(bodies.error, 'an Error', 'Error');
  if (!newPlant || !plant || !error || problems.length > 0) return { problems: onePerPlace(problems) };
  type Status = { readonly status: string };
  const found = bodies as Three<BodySchema> & { readonly plant: Status; readonly error: Status };
  const { operationId } = operation.found;
  const auth = operationAuth(document, operation.found);
  const keys = responseKeys(operation.found);
  const refusal = refusalStatusOf(found.error.status, keys);
  const contract: Contract = {
    source,
    document,
    exactIntegers: readings.exact,
    version: String(document.openapi),
    dialect,
    operationId: typeof operationId === 'string' ? operationId : 'addPlant',
    schemas: { newPlant: found.newPlant.schema, plant: found.plant.schema, error: found.error.schema },
    check: { newPlant: newPlant.check, plant: plant.check, error: error.check },
    compiled: { newPlant, plant, error },
    locations: { newPlant: found.newPlant.pointer, plant: found.plant.pointer, error: found.error.pointer },
    mediaTypes: { newPlant: found.newPlant.mediaType, plant: found.plant.mediaType, error: found.error.mediaType },
    requestMediaTypes: declaredRequestTypes(operation.found),
    success: successStatusOf(found.plant.status),
    successHeaders: responseHeaders(operation.found, found.plant.status),
    errorStatus: found.error.status,
    refusal,
    answers: compileAnswers(refusal, keys, {
      operation: operation.found,
      pointer: operation.pointer,
      dialect,
      readings,
    }),
    operationPath,
    basePath: `${serverBasePath(document)}${operationPath.replace(/\/$/, '').slice(0, -OPERATION.path.length)}`,
    auth: auth.auth,
    authSchemes: auth.schemes,
    otherOperations: listOperations(document, { path: operationPath, method: OPERATION.method }),
  };
  const undocumented = found.error as { readonly undocumented?: true };
  const errorReadings = undocumented.undocumented ? [{ pointer: operation.pointer, reading: UNDOCUMENTED_ERROR }] : [];
  return { problems, contract, readings: errorReadings };
}

/**
 * Compiles the schemas of the document's other 4xx responses. One it cannot honour is not a problem of
 * the document for plantstore (those bodies are the target's to write): it is listed, its bodies unjudged.
 */
function compileAnswers(
  refusal: RefusalStatus,
  keys: readonly string[],
  how: { operation: Record<string, unknown>; pointer: string; dialect: SchemaDialect; readings: Readings },
): DocumentedAnswers {
  const compiled = new Map<string, Omit<DocumentedAnswer, 'key'>>();
  const unchecked: UncheckedAnswer[] = [];
  for (const key of answerKeys(keys, refusal.documented)) {
    const body = responseBody(how.operation, how.pointer, key);
    if (body === undefined) continue;
    const problems: DocumentProblem[] = [];
    const schema = compileFound(body, { subject: `a ${key} answer`, name: `${key} response`, ...how }, problems);
    if (schema && problems.length === 0)
      compiled.set(key, { pointer: body.pointer, mediaType: body.mediaType, compiled: schema });
    else unchecked.push(uncheckedAnswer(key, problems));
  }
  return documentedAnswers(refusal, keys, compiled, unchecked);
}

/** Compiles one schema found in the document, adding what it cannot honour to `problems`. */
function compileFound(
  body: BodySchema,
  how: { subject: string; name: string; dialect: SchemaDialect; readings: Readings },
  problems: DocumentProblem[],
): CompiledSchema | undefined {
  const { subject, name, dialect, readings } = how;
  const locate = locator(readings, body.pointer);
  const declared = dialect === 'openapi-3.1' ? dialectProblem(body.schema.$schema, `The ${name} schema`) : undefined;
  if (declared !== undefined) {
    problems.push({ pointer: locate('/$schema') ?? body.pointer, message: declared });
    return undefined;
  }
  const schema = withExactIntegers(body.schema, readings.exact);
  const result = compileBody({ schema, dialect, subject, name, locate });
  problems.push(...result.problems);
  return result.compiled;
}

/** Maps a pointer inside the schema at `base` to where the document writes it, if it does. */
function locator({ raw, files }: Readings, base: string): (pointer: string) => string | undefined {
  return (pointer) => {
    const located = documentPointer(raw, '', `${base}${pointer}`, files);
    return isWritten(raw, located, files) ? located : undefined;
  };
}

/** A schema shared by NewPlant and Plant is refused once, at the place it is written. */
function onePerPlace(problems: readonly DocumentProblem[]): DocumentProblem[] {
  const places = new Set<string>();
  return problems.filter(({ pointer }) => {
    if (pointer === '' || pointer.startsWith('/paths/')) return true;
    if (places.has(pointer)) return false;
    places.add(pointer);
    return true;
  });
}

/**
 * Validates an OpenAPI 3.0 or 3.1 document and returns it dereferenced. Throws a
 * {@link ContractError} listing each problem with its location (Swagger 2.0 is refused).
 */
export async function validateDocument(source: string): Promise<Record<string, unknown>> {
  const raw = await readDocument(source);
  if ('problem' in raw) throw unusable(source, [raw.problem]);
  const version = documentVersion(raw.document, source);
  if ('refused' in version) throw unusable(source, [{ pointer: '', message: version.refused }]);
  const read = await dereferenceDocument(source, raw, version.dialect, true);
  if (!read.document || read.problems.length > 0) throw unusable(source, read.problems);
  return read.document;
}

function responseKeys(operation: Record<string, unknown>): string[] {
  return isObject(operation.responses) ? Object.keys(operation.responses) : [];
}

function declaredRequestTypes(operation: Record<string, unknown>): string[] {
  const { requestBody } = operation;
  const content = isObject(requestBody) && isObject(requestBody.content) ? requestBody.content : {};
  return Object.keys(content).map(mediaTypeEssence);
}
