import { compileDescribedSchema } from '../contract/described-schemas.js';
import { OPERATION, type CompiledSchema, type Contract } from '../contract/index.js';
import { contentKeyFor, isJsonContentKey } from '../contract/media-types.js';
import {
  isObject,
  PATH_ITEM_METHODS,
  pathTemplatePattern,
  responseKeyFor,
  summariseList,
} from '../contract/operations.js';
import { parametersAt } from '../contract/parameters.js';
import { responseHeaders, type ResponseHeader } from '../contract/response-headers.js';
import { securityAlternatives, type OperationAuth } from '../contract/security.js';
import { readerOf, type ParameterReader } from './parameters.js';

type JsonObject = Record<string, unknown>;

/** A body the document describes for a request or an answer: its media types, and its JSON schema compiled. */
export interface DescribedBody {
  /** The content keys as written (`application/json`, `*\/*`); empty when the document gives no content. */
  readonly mediaTypes: readonly string[];
  /** The schema of the best JSON key, compiled; `undefined` when none or when it cannot be honoured. */
  readonly compiled: CompiledSchema | undefined;
  /**
   * The compiled schema of the key a body labelled `contentType` meets most closely (`application/problem+json`
   * beside `application/json`), else of the best JSON key; `undefined` when that key is not JSON or has no schema
   * plantstore can honour.
   */
  compiledFor(contentType: string): CompiledSchema | undefined;
}

/** One response of an operation, as the document describes it. */
export interface DescribedAnswer extends DescribedBody {
  /** Its key: `200`, `4XX` or `default`. */
  readonly key: string;
  readonly headers: readonly ResponseHeader[];
}

/** An operation of the document other than POST /plants, read once when the proxy starts. */
export interface DocumentOperation {
  /** `GET /plants/{id}`. */
  readonly name: string;
  readonly method: string;
  /** The path parameters' names, in the order the template writes them. */
  readonly templateNames: readonly string[];
  readonly pattern: RegExp;
  readonly parameters: ParameterReader | undefined;
  /** `undefined` when the operation has no requestBody. */
  readonly body: (DescribedBody & { readonly required: boolean }) | undefined;
  /** Each alternative of its security (its own or the document's); empty when none is asked. */
  readonly security: readonly OperationAuth[];
  /** `components.securitySchemes`, to read where each scheme's credential travels. */
  readonly schemes: JsonObject;
  readonly answers: readonly DescribedAnswer[];
}

/** A request matched to an operation, with its path parameters' texts (decoded). */
export interface MatchedOperation {
  readonly operation: DocumentOperation;
  readonly pathTexts: ReadonlyMap<string, string>;
}

/** Finds the operation a request's method and path (below the server's base path) call. */
export type OperationRouter = (method: string, path: string) => MatchedOperation | undefined;

/**
 * The router of every operation the document defines besides POST /plants (judged as it always was), or
 * `undefined` when it defines none, so the bundled document costs nothing per request. Paths without a template
 * match first, then templated ones with the most fixed text first (OpenAPI: `/plants/mine` before `/plants/{id}`).
 */
export function operationRouter(contract: Contract): OperationRouter | undefined {
  const operations = documentOperations(contract);
  if (operations.length === 0) return undefined;
  return (method, path) => {
    for (const operation of operations) {
      if (operation.method !== method) continue;
      const captured = operation.pattern.exec(path);
      if (captured === null) continue;
      const texts = pathTexts(operation.templateNames, captured);
      if (texts !== undefined) return { operation, pathTexts: texts };
    }
    return undefined;
  };
}

function documentOperations(contract: Contract): DocumentOperation[] {
  const paths = isObject(contract.document.paths) ? contract.document.paths : {};
  const found: DocumentOperation[] = [];
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const method of PATH_ITEM_METHODS) {
      if (!isObject(item[method])) continue;
      if (path === contract.operationPath && method === OPERATION.method) continue;
      found.push(operationOf(contract, path, method, item[method]));
    }
  }
  const fixedText = (operation: DocumentOperation): number =>
    operation.templateNames.length === 0 ? Infinity : operation.pattern.source.replace(/\(\[\^\/\]\+\)/g, '').length;
  return found.sort((a, b) => fixedText(b) - fixedText(a));
}

function operationOf(contract: Contract, path: string, method: string, operation: JsonObject): DocumentOperation {
  const name = `${method.toUpperCase()} ${path}`;
  const { document } = contract;
  const components = isObject(document.components) ? document.components : {};
  const requestBody = isObject(operation.requestBody) ? operation.requestBody : undefined;
  return {
    name,
    method: method.toUpperCase(),
    templateNames: [...path.matchAll(/\{([^}]*)\}/g)].map((match) => match[1] ?? ''),
    pattern: pathTemplatePattern(path),
    parameters: readerOf(parametersAt(contract, path, method)),
    body: requestBody && {
      ...describedBody(contract, requestBody.content, 'request', `a request body of ${name}`),
      required: requestBody.required === true,
    },
    security: securityAlternatives(document, operation),
    schemes: isObject(components.securitySchemes) ? components.securitySchemes : {},
    answers: answersOf(contract, operation, name),
  };
}

function answersOf(contract: Contract, operation: JsonObject, name: string): DescribedAnswer[] {
  const responses = isObject(operation.responses) ? operation.responses : {};
  return Object.entries(responses).flatMap(([key, response]) =>
    isObject(response)
      ? [
          {
            key,
            ...describedBody(contract, response.content, 'response', `a ${key} answer of ${name}`),
            headers: responseHeaders(operation, key),
          },
        ]
      : [],
  );
}

/** A Content map's keys, and the schemas of its JSON keys compiled for `direction`. */
function describedBody(
  contract: Contract,
  content: unknown,
  direction: 'request' | 'response',
  subject: string,
): DescribedBody {
  const map = isObject(content) ? content : {};
  const mediaTypes = Object.keys(map);
  const bySchema = new Map<unknown, CompiledSchema | undefined>();
  const byKey = new Map<string | undefined, CompiledSchema | undefined>();
  for (const key of mediaTypes.filter(isJsonContentKey)) {
    const media = map[key];
    const schema = isObject(media) ? media.schema : undefined;
    // Swashbuckle's three keys of one answer share their schema: compiled once.
    if (!bySchema.has(schema)) bySchema.set(schema, compileDescribedSchema(schema, direction, contract, subject));
    byKey.set(key, bySchema.get(schema));
  }
  return {
    mediaTypes,
    compiled: byKey.get(contentKeyFor(mediaTypes)),
    compiledFor: (contentType) => byKey.get(contentKeyFor(mediaTypes, contentType)),
  };
}

/** The template's captures, percent-decoded; `undefined` when one does not decode (then no operation matches). */
function pathTexts(names: readonly string[], captured: RegExpExecArray): Map<string, string> | undefined {
  const texts = new Map<string, string>();
  for (let i = 0; i < names.length; i++) {
    try {
      texts.set(names[i] ?? '', decodeURIComponent(captured[i + 1] ?? ''));
    } catch {
      return undefined;
    }
  }
  return texts;
}

/** The response of the document that answers `status`: its code, else its range (`4XX`), else `default`. */
export function answerFor(operation: DocumentOperation, status: number): DescribedAnswer | undefined {
  const key = responseKeyFor(
    operation.answers.map((answer) => answer.key),
    status,
  );
  return operation.answers.find((answer) => answer.key === key);
}

/** `200, 404 and default`: the responses an operation documents. */
export function documentedKeys(operation: DocumentOperation): string {
  return summariseList(
    operation.answers.map(({ key }) => key),
    8,
  );
}
