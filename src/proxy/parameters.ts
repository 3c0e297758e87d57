import {
  cookiesOf,
  operationParameters,
  parameterRefusal,
  queryOf,
  queryText,
  readsAsValidLeniently,
  type OperationParameter,
} from '../contract/parameters.js';
import type { Contract } from '../contract/index.js';

/** How a request breaks the document's parameters, worded as the runner's `invalid-parameter` intent. */
export interface ParameterBreak {
  /** `required header "X-Request-ID" left out`, `query "api-version" holding "x": must be equal to …`. */
  readonly what: string;
  /** The parameter broken: `header "X-Request-ID"`. */
  readonly parameter: string;
  /**
   * A common lenient reading takes the value as a valid one (see {@link readsAsValidLeniently}): the client broke
   * the document, but a server that accepts it is lenient, not wrong.
   */
  readonly lenient: boolean;
}

/** The document's parameters as one request sent them: for reports' reproductions. */
export interface SentParameters {
  /** Declared header parameters, and a `cookie` of the declared cookies, names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /** The declared query parameters as sent (`a=1&b=2`), or ``. */
  readonly query: string;
}

/** Reads one request's parameters from its target (for the query) and its raw headers. */
export interface ParameterReader {
  /** The first parameter the request breaks, if any; `path` holds the path parameters' texts, decoded. */
  broken(target: string, rawHeaders: readonly string[], path?: ReadonlyMap<string, string>): ParameterBreak | undefined;
  /** The declared parameters it sent, and only those (anything else may carry a secret). */
  sent(target: string, rawHeaders: readonly string[]): SentParameters;
}

/** A refused value is shown up to this many characters (it may be long, and it is the client's data). */
const SHOWN_CHARACTERS = 60;

/**
 * The first of the document's header, query and cookie parameters that a request breaks, in declaration
 * order, read as the servers' parameter step (`parameterCheck`) reads them: a required one missing, or any
 * declared one whose text its schema refuses. `undefined` when POST /plants declares none it can check, so
 * a document without parameters costs nothing per request.
 */
export function parameterReader(contract: Contract): ParameterReader | undefined {
  return readerOf(operationParameters(contract));
}

/**
 * The reader of any operation's declared parameters (`parametersAt`): path ones too, a required one missing or
 * one whose text its schema refuses; `undefined` when there is none it can check.
 */
export function readerOf(declared: readonly OperationParameter[]): ParameterReader | undefined {
  const parameters = declared.filter((parameter) => parameter.compiled !== undefined);
  if (parameters.length === 0) return undefined;
  const readsQuery = parameters.some((parameter) => parameter.in === 'query');
  const readsCookies = parameters.some((parameter) => parameter.in === 'cookie');
  const texts = (
    target: string,
    rawHeaders: readonly string[],
    path?: ReadonlyMap<string, string>,
  ): (string | undefined)[] => {
    const query = readsQuery ? queryOf(target) : undefined;
    const cookies = readsCookies ? cookiesOf(headerText(rawHeaders, 'cookie')) : undefined;
    return parameters.map((parameter) =>
      parameter.in === 'header'
        ? headerText(rawHeaders, parameter.name.toLowerCase())
        : parameter.in === 'query'
          ? queryText(query, parameter.name)
          : parameter.in === 'path'
            ? path?.get(parameter.name)
            : cookies?.get(parameter.name),
    );
  };
  return {
    broken(target, rawHeaders, path) {
      const read = texts(target, rawHeaders, path);
      for (let i = 0; i < parameters.length; i++) {
        const parameter = parameters[i] as OperationParameter;
        const found = breakOf(parameter, read[i], () => sentTwice(parameter, target, rawHeaders));
        if (found !== undefined) return found;
      }
      return undefined;
    },
    sent(target, rawHeaders) {
      return sentParameters(parameters, texts(target, rawHeaders), target);
    },
  };
}

/** The declared parameters among those sent: header and cookie values as read, query pairs as written. */
function sentParameters(
  parameters: readonly OperationParameter[],
  texts: readonly (string | undefined)[],
  target: string,
): SentParameters {
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  const queryNames = new Set<string>();
  parameters.forEach((parameter, i) => {
    const text = texts[i];
    if (parameter.in === 'query') queryNames.add(parameter.name);
    else if (text === undefined || parameter.in === 'path') return;
    else if (parameter.in === 'header') headers[parameter.name.toLowerCase()] = text;
    else cookies.push(`${parameter.name}=${text}`);
  });
  if (cookies.length > 0) headers.cookie = cookies.join('; ');
  const at = target.indexOf('?');
  const pairs = at < 0 ? [] : target.slice(at + 1).split('&');
  const query = pairs.filter((pair) => {
    const [name] = [...new URLSearchParams(pair).keys()];
    return name !== undefined && queryNames.has(name);
  });
  return { headers, query: query.join('&') };
}

function breakOf(
  parameter: OperationParameter,
  text: string | undefined,
  repeated: () => boolean,
): ParameterBreak | undefined {
  const name = `${parameter.in} "${parameter.name}"`;
  if (text === undefined)
    return parameter.required ? { what: `required ${name} left out`, parameter: name, lenient: false } : undefined;
  const refused = parameterRefusal(parameter, text);
  if (refused === undefined) return undefined;
  const shown = text.length > SHOWN_CHARACTERS ? `${text.slice(0, SHOWN_CHARACTERS)}…` : text;
  return {
    what: `${name} holding ${JSON.stringify(shown)}: ${refused.replace(/^is not valid: (?:the body |field "" )?/, '')}`,
    parameter: name,
    lenient: repeated() || readsAsValidLeniently(parameter, text),
  };
}

/** Whether a query or header parameter came more than once: servers differ on which value they read. */
function sentTwice(parameter: OperationParameter, target: string, rawHeaders: readonly string[]): boolean {
  if (parameter.in === 'query') return queryOf(target).getAll(parameter.name).length > 1;
  if (parameter.in === 'cookie' || parameter.in === 'path') return false;
  const lowerName = parameter.name.toLowerCase();
  let seen = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if ((rawHeaders[i] ?? '').toLowerCase() === lowerName) seen++;
  return seen > 1;
}

/**
 * A header's values as Node's `IncomingMessage` gives them to the servers: repeated ones joined by `, `
 * (Cookie headers by `; `).
 */
function headerText(raw: readonly string[], lowerName: string): string | undefined {
  const separator = lowerName === 'cookie' ? '; ' : ', ';
  let joined: string | undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] ?? '';
    if (name.length !== lowerName.length || name.toLowerCase() !== lowerName) continue;
    const value = raw[i + 1] ?? '';
    joined = joined === undefined ? value : `${joined}${separator}${value}`;
  }
  return joined;
}
