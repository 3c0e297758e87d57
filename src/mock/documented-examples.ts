import { withExactIntegers } from '../contract/compile-bodies.js';
import type { ExactIntegers } from '../contract/document-reader.js';
import { OPERATION, stringifyExactJson, type Contract } from '../contract/index.js';
import { documentedResponse, isObject } from '../contract/operations.js';

/**
 * Whether the document gives the response POST /plants answers with `status` an example of its own
 * (`example` or `examples` on a media type, or on its schema): the response keyed by the status, else
 * `4XX`-style, else `default`, as OpenAPI picks it. Such a response is answered with the document's
 * example; one without is a sample Prism makes up (`"title": "string"`).
 */
export function documentedExampleOf(contract: Contract): (status: number) => boolean {
  const paths = contract.document.paths as Record<string, Record<string, unknown> | undefined>;
  return exampledResponses(paths[contract.operationPath]?.[OPERATION.method]);
}

/** {@link exactExampleText} for POST /plants. */
export function documentedExampleTextOf(contract: Contract): (status: number, body: unknown) => string | undefined {
  const paths = contract.document.paths as Record<string, Record<string, unknown> | undefined>;
  const operation = paths[contract.operationPath]?.[OPERATION.method];
  return (status, body) => exactExampleText(operation, status, body, contract.exactIntegers);
}

/** {@link documentedExampleOf} for any operation object of the document. */
export function exampledResponses(operation: unknown): (status: number) => boolean {
  const answers = new Map<number, boolean>();
  return (status) => {
    let known = answers.get(status);
    if (known === undefined) {
      known = hasExample(documentedResponse(operation, status));
      answers.set(status, known);
    }
    return known;
  };
}

/** Each response's examples as Prism gives them (JSON of the document's values) and as the document writes them. */
const exampleTexts = new WeakMap<object, ReadonlyMap<string, string>>();

/**
 * The JSON text, with the document's own digits, of the example of `operation`'s `status` answer that
 * `body` is: Prism answers with a copy of the document's value, whose integers past 2^53 the document's
 * parser rounded (an example's id 2^63-1 came out as 9223372036854776000). `undefined` when the document
 * has no such integer or `body` is none of its examples (a generated sample).
 */
export function exactExampleText(
  operation: unknown,
  status: number,
  body: unknown,
  exact: ExactIntegers,
): string | undefined {
  const response = documentedResponse(operation, status);
  if (exact.size === 0 || !isObject(response) || !isObject(response.content)) return undefined;
  let texts = exampleTexts.get(response);
  if (texts === undefined) {
    texts = new Map(documentedValues(response.content, exact));
    exampleTexts.set(response, texts);
  }
  return texts.get(JSON.stringify(body ?? null));
}

/** Each example of a response's media types, as JSON.stringify writes it and with its integers exact. */
function documentedValues(content: Record<string, unknown>, exact: ExactIntegers): [string, string][] {
  return Object.values(content).flatMap((media) =>
    mediaExamples(media, exact).map(({ value, exact: exactValue }): [string, string] => [
      JSON.stringify(value),
      stringifyExactJson(exactValue),
    ]),
  );
}

/** One example of a media type: where it is written, its value as parsed, and the same with its integers exact. */
export interface MediaExample {
  /** `example`, `schema example` or `example "fern"` (an `examples` entry). */
  readonly name: string;
  readonly value: unknown;
  readonly exact: unknown;
}

/** A Media Type Object's examples (`example`, the schema's `example`, each `examples` entry's `value`), in that order. */
export function mediaExamples(media: unknown, exact: ExactIntegers): MediaExample[] {
  if (!isObject(media)) return [];
  const named = isObject(media.examples) ? Object.entries(media.examples) : [];
  const holders: [string, unknown, string][] = [
    ['example', media, 'example'],
    ['schema example', media.schema, 'example'],
    ...named.map(([name, one]): [string, unknown, string] => [`example "${name}"`, one, 'value']),
  ];
  const found: MediaExample[] = [];
  for (const [name, holder, key] of holders) {
    if (!isObject(holder) || holder[key] === undefined) continue;
    const value = holder[key];
    // An example that is one number is held, exact, by its holder; one that is an object or array holds its own.
    const exactValue =
      exact.get(holder)?.get(key) ??
      (value !== null && typeof value === 'object'
        ? withExactIntegers(value as Record<string, unknown>, exact)
        : value);
    found.push({ name, value, exact: exactValue });
  }
  return found;
}

function hasExample(response: unknown): boolean {
  if (!isObject(response) || !isObject(response.content)) return false;
  return Object.values(response.content).some(
    (media) => isObject(media) && (carriesExample(media) || carriesExample(media.schema)),
  );
}

function carriesExample(holder: unknown): boolean {
  if (!isObject(holder)) return false;
  if (holder.example !== undefined) return true;
  const { examples } = holder;
  return Array.isArray(examples) ? examples.length > 0 : isObject(examples) && Object.keys(examples).length > 0;
}
