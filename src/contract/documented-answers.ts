import type { DocumentProblem } from './contract-error.js';
import { carriesError, type RefusalStatus } from './refusal-status.js';
import type { CompiledSchema } from './schema/compiled-schema.js';

/**
 * A refusal the document describes with its own body, beside the Error: FastAPI's 422
 * `HTTPValidationError` next to a 400 Error, a 401 `Unauthorized` schema, a `4XX` or `default`
 * response whose schema is not the Error's.
 */
export interface DocumentedAnswer {
  /** The response's key in the document: `401`, `4XX` or `default`. */
  readonly key: string;
  /** JSON pointer of its schema in the dereferenced document. */
  readonly pointer: string;
  /** The media type key the schema was found under. */
  readonly mediaType: string;
  /** The schema compiled for responses (writeOnly members never required, and refused when present). */
  readonly compiled: CompiledSchema;
}

/** A documented 4xx response whose schema plantstore cannot honour, so its bodies go unjudged. */
export interface UncheckedAnswer {
  readonly key: string;
  readonly problems: readonly DocumentProblem[];
  /** Why, in one sentence: the first problem without the compiler's advice to rewrite the document. */
  readonly reason: string;
}

/** An answer left unjudged for these problems. */
export function uncheckedAnswer(key: string, problems: readonly DocumentProblem[]): UncheckedAnswer {
  // The compiler's advice (rewrite the document) is for the schemas plantstore sends and expects.
  const reason = problems[0]?.message.split(' plantstore refuses the document')[0] ?? 'its schema cannot be compiled.';
  return { key, problems, reason };
}

/** The 4xx answers a document gives bodies of their own, beside the Plant and the Error. */
export interface DocumentedAnswers {
  /**
   * The documented body of a 4xx answer with this status that does not carry the Error: the
   * response keyed by the status itself, else `4XX`, else `default` (OpenAPI's order). `undefined`
   * when that response has no JSON schema, or is the Error's.
   */
  forStatus(status: number): DocumentedAnswer | undefined;
  /** The responses whose bodies are judged by their own schemas, in the document's order: `401`, `422`, `default`. */
  readonly judged: readonly DocumentedAnswer[];
  /** Documented 4xx responses with a JSON schema plantstore cannot honour; their bodies are not judged. */
  readonly unchecked: readonly UncheckedAnswer[];
}

/**
 * The documented answers of an operation whose responses are keyed `keys`: `compiled` holds each key's
 * compiled schema (keys without a JSON schema absent), `unchecked` the ones that could not be compiled.
 */
export function documentedAnswers(
  refusal: RefusalStatus,
  keys: readonly string[],
  compiled: ReadonlyMap<string, Omit<DocumentedAnswer, 'key'>>,
  unchecked: readonly UncheckedAnswer[],
): DocumentedAnswers {
  // The bundled document (200 and 400 only): nothing to look up for any answer.
  if (compiled.size === 0) return { forStatus: () => undefined, judged: [], unchecked };
  const judged = [...compiled].map(([key, answer]) => ({ key, ...answer }));
  const range = keys.find((key) => key.toUpperCase() === '4XX');
  const fallback = keys.includes('default') ? 'default' : undefined;
  const forStatus = (status: number): DocumentedAnswer | undefined => {
    if (status < 400 || status > 499 || carriesError(refusal, status)) return undefined;
    const key = keys.includes(String(status)) ? String(status) : (range ?? fallback);
    if (key === undefined || key === refusal.documented) return undefined;
    const found = compiled.get(key);
    return found && { key, ...found };
  };
  return { forStatus, judged, unchecked };
}

/** The response keys whose bodies may be documented answers: the 4xx codes, `4XX` and `default`. */
export function answerKeys(keys: readonly string[], errorKey: string): string[] {
  return keys.filter(
    (key) => key !== errorKey && (/^4\d\d$/.test(key) || key.toUpperCase() === '4XX' || key === 'default'),
  );
}
