import fc from 'fast-check';
import { compileDescribedSchema } from '../contract/described-schemas.js';
import { parseExactJson, stringifyExactJson, type Contract } from '../contract/index.js';
import { contentKeyFor, isJsonContentKey } from '../contract/media-types.js';
import { documentedResponse, isObject } from '../contract/operations.js';
import type { CompiledSchema, ExactJson } from '../contract/schema/compiled-schema.js';
import { mediaExamples } from './documented-examples.js';
import { nearPrism } from './near-prism.js';

type JsonObject = Record<string, unknown>;

/** The seed of a static answer's generated body: the same document gives the same body in every process. */
const STATIC_SEED = 20261123;

/** The response schemas of one operation of the document, compiled for answers as the contract judges them. */
export interface ResponseSchemas {
  /**
   * The compiled schema of the answer with `status` and `contentType` (the response keyed by the status,
   * else `4XX`-style, else `default`; the media type as labelled, else the response's JSON one).
   * `undefined` where the document gives no JSON schema there or one the compiler cannot honour.
   */
  schemaOf(status: number, contentType: string): CompiledSchema | undefined;
  /** A Schema Object of the operation's responses, compiled once. */
  compiled(schema: JsonObject): CompiledSchema | undefined;
  /** The headers the answer of `status` documents, each with a valid value (its example where valid). */
  headersOf(status: number): Readonly<Record<string, string>>;
  /**
   * A refusal's body fitted to the operation's own schema of its status, with that media type: `written`
   * (the Error) where it fits, else problem details saying the same, else a valid body of the schema with
   * as much of them as it takes. `undefined` where the document gives that status no JSON schema.
   */
  refusalOf(
    failure: { readonly status: number; readonly message: string },
    written: string,
    contentType: string,
  ): { body: string; contentType: string } | undefined;
}

/** {@link ResponseSchemas} of `operation` (an Operation Object of the contract's dereferenced document). */
export function responseSchemas(
  contract: Pick<Contract, 'dialect' | 'exactIntegers'>,
  operation: unknown,
): ResponseSchemas {
  const cache = new Map<object, CompiledSchema | undefined>();
  const compiled = (schema: JsonObject): CompiledSchema | undefined => {
    if (!cache.has(schema)) cache.set(schema, compileDescribedSchema(schema, 'response', contract, 'an answer'));
    return cache.get(schema);
  };
  const headers = new Map<number, Readonly<Record<string, string>>>();
  const schemaOf = (status: number, contentType: string): CompiledSchema | undefined => {
    const schema = schemaObjectOf(documentedResponse(operation, status), contentType);
    return schema === undefined ? undefined : compiled(schema);
  };
  return {
    schemaOf,
    compiled,
    headersOf(status) {
      let known = headers.get(status);
      if (known === undefined) {
        known = documentedHeaders(documentedResponse(operation, status), contract);
        headers.set(status, known);
      }
      return known;
    },
    refusalOf(failure, written, contentType) {
      const response = documentedResponse(operation, failure.status);
      const found = mediaOf(response, contentType);
      const schema = found?.[1].schema;
      const fitted = isObject(schema) ? compiled(schema) : undefined;
      if (found === undefined || fitted === undefined) return undefined;
      return { body: refusalText(fitted, failure, written), contentType: found[0] };
    },
  };
}

/** The JSON media type entry of a response for a content type: the one it meets most closely, else the first JSON one. */
function mediaOf(response: unknown, contentType: string): [string, JsonObject] | undefined {
  if (!isObject(response) || !isObject(response.content)) return undefined;
  const content = response.content;
  const key = contentKeyFor(Object.keys(content), contentType);
  const media = key === undefined ? undefined : content[key];
  return key !== undefined && isJsonContentKey(key) && isObject(media) ? [key, media] : undefined;
}

function schemaObjectOf(response: unknown, contentType: string): JsonObject | undefined {
  const schema = mediaOf(response, contentType)?.[1].schema;
  return isObject(schema) ? schema : undefined;
}

/**
 * A body of `compiled` in place of `text`, where `text` does not validate (or only under one reading of a
 * `discriminator`): a generated valid value (deterministic from `seed`, a fixed one for static answers) brought as
 * near Prism's as the schema lets it ({@link nearPrism}), else that whole value. `text` itself when it validates or
 * nothing valid can be generated.
 */
export function validAnswerText(compiled: CompiledSchema, text: string, seed: number | undefined): string {
  if (seed !== undefined) return fittedText(compiled, text, seed);
  // A static answer is Prism's same sample every time: fitted once.
  let known = staticAnswers.get(compiled);
  if (known === undefined) {
    known = new Map();
    staticAnswers.set(compiled, known);
  }
  let fitted = known.get(text);
  if (fitted === undefined) {
    fitted = fittedText(compiled, text, undefined);
    if (known.size < 64) known.set(text, fitted);
  }
  return fitted;
}

/** The static answers fitted so far, by schema and Prism's text. */
const staticAnswers = new WeakMap<CompiledSchema, Map<string, string>>();

function fittedText(compiled: CompiledSchema, text: string, seed: number | undefined): string {
  const fits = (candidate: string): boolean => {
    try {
      return compiled.check(parseExactJson(candidate)).length === 0;
    } catch {
      return false;
    }
  };
  // Generated only where Prism's text needs it (at most once).
  let sample: { readonly value: ExactJson | undefined } | undefined;
  const generated = (): ExactJson | undefined => (sample ??= { value: sampleOf(compiled, seed) }).value;
  const near = nearPrism(compiled, text, generated);
  if (fits(near)) return near;
  const value = generated();
  const whole = value === undefined ? text : stringifyExactJson(value);
  return fits(whole) ? whole : text;
}

/**
 * The documented examples of the operations' answers that their own schemas refuse, one line each
 * (`GET /plants/{id} 200 example "fern": "id" must be integer`): the mock answers them as written, since
 * the user wrote them, and says so once at startup.
 */
export function invalidExamples(
  contract: Pick<Contract, 'dialect' | 'exactIntegers'>,
  operations: readonly { readonly label: string; readonly operation: unknown }[],
): string[] {
  const lines: string[] = [];
  for (const { label, operation } of operations) {
    const responses = isObject(operation) && isObject(operation.responses) ? operation.responses : {};
    const schemas = responseSchemas(contract, operation);
    for (const [key, response] of Object.entries(responses)) {
      if (!isObject(response) || !isObject(response.content)) continue;
      for (const [mediaType, media] of Object.entries(response.content)) {
        if (!isJsonContentKey(mediaType) || !isObject(media)) continue;
        const compiled = isObject(media.schema) ? schemas.compiled(media.schema) : undefined;
        if (compiled === undefined) continue;
        for (const { name, exact } of mediaExamples(media, contract.exactIntegers)) {
          const problems = compiled.check(parseExactJson(stringifyExactJson(exact)));
          if (problems.length === 0) continue;
          const said = problems
            .slice(0, 2)
            .map(({ message }) => message.replace(/\.$/, ''))
            .join('; ');
          lines.push(`${label} ${key} ${name} (${mediaType}): ${said}`);
        }
      }
    }
  }
  return lines;
}

/** Whether `body` (as Prism gives it) is one of the document's examples of the operation's `status` answer. */
export function isDocumentedExample(operation: unknown, status: number, body: unknown): boolean {
  const response = documentedResponse(operation, status);
  if (!isObject(response) || !isObject(response.content)) return false;
  const text = JSON.stringify(body ?? null);
  return Object.values(response.content).some((media) =>
    mediaExamples(media, new Map()).some(({ value }) => JSON.stringify(value ?? null) === text),
  );
}

/** Reason phrases for the problem details a refusal is written as (RFC 9110). */
const TITLES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** The refusal as the schema takes it: the Error written, problem details, else a valid body keeping what fits. */
function refusalText(compiled: CompiledSchema, failure: { status: number; message: string }, written: string): string {
  const problem = JSON.stringify({
    type: 'about:blank',
    title: TITLES[failure.status] ?? 'Error',
    status: failure.status,
    detail: failure.message,
  });
  const count = (text: string): number => compiled.check(parseExactJson(text)).length;
  const fits = [written, problem].find((text) => count(text) === 0);
  if (fits !== undefined) return fits;
  const closer = count(problem) < count(written) ? problem : written;
  const valid = validAnswerText(compiled, closer, undefined);
  // A generated `status` member says the refusal's own status where the schema takes it.
  const withStatus = valid.replace(/("status":)-?\d+/, `$1${failure.status}`);
  return withStatus !== valid && count(withStatus) === 0 ? withStatus : valid;
}

/** Each header a response documents (Content-Type aside) with its example where valid, else a generated value. */
function documentedHeaders(
  response: unknown,
  contract: Pick<Contract, 'dialect' | 'exactIntegers'>,
): Readonly<Record<string, string>> {
  const declared = isObject(response) && isObject(response.headers) ? response.headers : {};
  const values: Record<string, string> = {};
  for (const [name, header] of Object.entries(declared)) {
    if (!isObject(header) || !isObject(header.schema) || /^content-(type|length)$/i.test(name)) continue;
    const compiled = compileDescribedSchema(header.schema, 'response', contract, 'an answer');
    if (compiled === undefined) continue;
    const candidates = [header.example, header.schema.example, header.schema.default].filter((v) => v !== undefined);
    const documented = candidates.find((value) => compiled.check(parseExactJson(JSON.stringify(value))).length === 0);
    const value = documented ?? sampleOf(compiled);
    if (value === undefined) continue;
    values[name.toLowerCase()] = typeof value === 'string' ? value : stringifyExactJson(value);
  }
  return values;
}

function sampleOf(compiled: CompiledSchema, seed = STATIC_SEED): ExactJson | undefined {
  try {
    return fc.sample(compiled.valid, { seed, numRuns: 1 })[0];
  } catch {
    return undefined;
  }
}
