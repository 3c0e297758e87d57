import { parseExactJson } from './exact-json.js';
import { isObject } from './operations.js';
import { compileSchemaCheck, type JsonSchema } from './schemas.js';

/** A header the document declares on the success response (`Location` on a 201). */
export interface ResponseHeader {
  /** As the document writes it: `Location`. */
  readonly name: string;
  /** Whether the document says every success answer carries it (`required: true`). */
  readonly required: boolean;
  /** Its schema, dereferenced; `undefined` when it has none (or only `content`). */
  readonly schema: JsonSchema | undefined;
  /**
   * Why a value of the header breaks its schema (`must match format "uri"`), or `undefined` when it
   * does not or cannot be judged: a scalar read in OpenAPI's `simple` style, an array or object never.
   */
  readonly problem: (value: string) => string | undefined;
}

/**
 * The headers of the response `status` of an operation (dereferenced), in the document's order.
 * OpenAPI: a response header named `Content-Type` is ignored.
 */
export function responseHeaders(operation: Record<string, unknown>, status: string): readonly ResponseHeader[] {
  const responses = isObject(operation.responses) ? operation.responses : {};
  const response = responses[status];
  const headers = isObject(response) && isObject(response.headers) ? response.headers : {};
  return Object.entries(headers).flatMap(([name, declared]) => {
    if (name.toLowerCase() === 'content-type' || !isObject(declared)) return [];
    const schema = isObject(declared.schema) ? declared.schema : undefined;
    return [{ name, required: declared.required === true, schema, problem: headerProblem(name, schema) }];
  });
}

/** A judge of a header's values against a scalar schema; one that cannot be compiled judges nothing. */
function headerProblem(name: string, schema: JsonSchema | undefined): ResponseHeader['problem'] {
  const type = schema?.type;
  if (schema === undefined || (type !== 'string' && type !== 'integer' && type !== 'number' && type !== 'boolean')) {
    return () => undefined;
  }
  let check: ReturnType<typeof compileSchemaCheck>;
  try {
    check = compileSchemaCheck(schema, `the ${name} header`);
  } catch {
    return () => undefined;
  }
  return (value) => {
    const read = type === 'string' ? value : scalarOf(value.trim());
    const [first] = check(read);
    return first?.message.replace(/^(?:the body|field "") /, '');
  };
}

/** A header value as the number or boolean it spells, else the text itself (which the schema's type then refuses). */
function scalarOf(text: string): unknown {
  if (!/^(?:true|false|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)$/.test(text)) return text;
  return parseExactJson(text);
}
