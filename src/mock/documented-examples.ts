import { OPERATION, type Contract } from '../contract/index.js';
import { isObject } from '../contract/operations.js';

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

/** {@link documentedExampleOf} for any operation object of the document. */
export function exampledResponses(operation: unknown): (status: number) => boolean {
  const responses = isObject(operation) && isObject(operation.responses) ? operation.responses : {};
  const answers = new Map<number, boolean>();
  return (status) => {
    let known = answers.get(status);
    if (known === undefined) {
      const response = responses[String(status)] ?? responses[`${String(status)[0] ?? ''}XX`] ?? responses.default;
      known = hasExample(response);
      answers.set(status, known);
    }
    return known;
  };
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
