import type { IncomingMessage, ServerResponse } from 'node:http';
import { OPERATION, PROBLEMS, type BearerCheck, type Contract } from '../contract/index.js';
import { pathBelowBase, pathTemplatePattern } from '../contract/operations.js';
import { serverBasePath } from '../contract/security.js';
import { operationAuthentication, type RequestAuthentication } from '../http/authentication.js';
import { corsHeaders } from '../http/cors.js';
import type { Failure } from '../http/pipeline.js';
import type { ServedContract } from '../http/served-contract.js';
import { loggedTarget, type RequestLogEntry } from '../http/server-kit.js';
import { MOCK_PROBLEMS } from './answers.js';
import { pageAnswers, type PageAnswer } from './collection-page.js';
import { exactExampleText, exampledResponses } from './documented-examples.js';
import { parsePrefer } from './prefer.js';
import type { PrismDecision, PrismEngine } from './prism-engine.js';
import {
  invalidExamples,
  isDocumentedExample,
  responseSchemas,
  validAnswerText,
  type ResponseSchemas,
} from './response-schemas.js';

type JsonObject = Record<string, unknown>;

/** What the mock needs to answer the document's other operations. */
export interface OtherOperationsSettings {
  readonly served: ServedContract;
  readonly engine: PrismEngine;
  readonly checkBearer: BearerCheck;
  readonly dynamic: boolean;
  readonly seed: number;
  readonly onRequest?: (entry: RequestLogEntry) => void;
}

interface Route {
  readonly method: string;
  /** The path as the document writes it: `/plants/{id}`. */
  readonly written: string;
  readonly pattern: RegExp;
  /** The names of the path's template parts, in the order the pattern captures them: `['id']`. */
  readonly parameterNames: readonly string[];
  readonly authenticate: RequestAuthentication;
  /** The statuses the document lists for the operation, for messages. */
  readonly statuses: readonly string[];
  /** Whether the document gives the answer of this status an example of its own. */
  readonly exampled: (status: number) => boolean;
  /** The document's example Prism's `body` is a copy of, with the document's own digits (see `exactExampleText`). */
  readonly exampleText: (status: number, body: unknown) => string | undefined;
  /** Its response schemas, which every answer but a documented example is made to fit. */
  readonly schemas: ResponseSchemas;
  /** Whether Prism's body is one of the document's examples of this status's answer. */
  readonly documented: (status: number, body: unknown) => boolean;
  /** A generated collection answer made consistent (its `total` the number of items), with its counting headers. */
  readonly page: PageAnswer;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/**
 * Answers the operations the document declares besides POST /plants (`GET /plants`, `GET
 * /plants/{id}`) as Prism does: the status a `Prefer: code=` asks for, the documented example (a
 * named one with `Prefer: example=`), else a sample of the response schema, generated with
 * `--dynamic` or `Prefer: dynamic=true`; after the operation's own authentication, with CORS. The
 * mock keeps nothing, so a listing does not hold the plants posted. The handler returns whether it
 * answered: a request for no such operation (POST /plants among them) is the pipeline's. `undefined`
 * for a document without other operations.
 */
export function createOtherOperations(
  settings: OtherOperationsSettings,
): ((req: IncomingMessage, res: ServerResponse) => boolean) | undefined {
  const routes = routesOf(settings.served.contract, settings.checkBearer);
  if (routes.length === 0) return undefined;
  const base = serverBasePath(settings.served.contract.document);
  const methods = new Set(routes.map((route) => route.method));
  // HEAD is GET without the body (RFC 9110); node:http leaves the body out of a HEAD answer itself.
  if (methods.has('GET')) methods.add('HEAD');
  const served = settings.served.contract.operationPath;
  const allowedAt = allowedMethods(routes, served);
  // The targets a POST /plants is sent to, as clients write them.
  const postsHere = new Set([served, `${base}${served}`]);
  let generated = 0;
  return (req, res) => {
    if (req.method === undefined) return false;
    // Most requests are POST /plants: its URL is not parsed when no other operation takes POST, nor a
    // preflight's (the pipeline's).
    if (
      !methods.has(req.method) &&
      (req.method === 'OPTIONS' || (req.method === 'POST' && postsHere.has(req.url ?? '')))
    )
      return false;
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const url = new URL(req.url ?? '/', 'http://mock.invalid');
    const path = pathBelowBase(url.pathname, base);
    const route = routes.find((candidate) => candidate.method === method && candidate.pattern.test(path));
    if (route === undefined) {
      // A path the document gives other methods: 405 naming them, as for /plants (RFC 9110, 15.5.6).
      const allowed = allowedAt(path);
      // POST /plants itself, when another operation takes POST, is the pipeline's.
      if (allowed === undefined || allowed.includes(req.method)) return false;
      answerNotAllowed(req, res, allowed, path, settings);
      return true;
    }
    const started = performance.now();
    const finish = (
      status: number,
      body: string,
      contentType: string,
      failure?: Failure,
      counted?: Readonly<Record<string, string>>,
    ): void =>
      writeAnswer(req, res, settings, {
        started,
        status,
        body,
        contentType,
        headers:
          counted === undefined ? route.schemas.headersOf(status) : { ...route.schemas.headersOf(status), ...counted },
        ...(failure ? { failure } : {}),
      });
    // The operation's own body of that status, where it has one the POST /plants Error does not fit.
    const refuse = (failure: Failure): void => {
      const written = settings.served.errorBody(failure, failure.status);
      const contentType = settings.served.errorContentTypeFor(failure.status);
      const own = route.schemas.refusalOf(failure, written, contentType);
      finish(failure.status, own?.body ?? written, own?.contentType ?? contentType, failure);
    };
    // The body is not the mock's business here: read to its end, then answered.
    let sentBody = false;
    req.on('data', (chunk: Buffer) => {
      if (chunk.length > 0) sentBody = true;
    });
    req.once('end', () => {
      const refused = route.authenticate(req);
      if (refused !== undefined) {
        refuse(refused);
        return;
      }
      const prefer = parsePrefer(
        Array.isArray(req.headers.prefer) ? req.headers.prefer.join(', ') : req.headers.prefer,
      );
      if (!prefer.ok) {
        refuse(mockProblem(prefer.message));
        return;
      }
      const dynamic = prefer.preferences.dynamic ?? settings.dynamic;
      // A generated answer's own seed, for the values that mend it: the same --seed and requests, the same answers.
      const answerSeed = dynamic ? generated++ : undefined;
      const query = Object.fromEntries(
        [...url.searchParams.keys()].map((name) => [name, url.searchParams.getAll(name)]),
      );
      settings.engine
        .answerOther(
          {
            method,
            path,
            query,
            accept: req.headers.accept,
            headers: headerTexts(req),
            pathParameters: pathParameterTexts(route, path),
            sentBody,
          },
          {
            code: prefer.preferences.code,
            exampleKey: prefer.preferences.exampleKey,
            dynamic,
            seed: answerSeed === undefined ? undefined : `${settings.seed}-other-${answerSeed}`,
          },
        )
        .then(
          (decision) =>
            answer(decision, route, {
              finish,
              refuse,
              refusalStatus: settings.served.contract.refusal.status,
              seed: answerSeed === undefined ? undefined : (settings.seed + answerSeed) % 2 ** 31,
            }),
          () => refuse(mockProblem(`The mock could not answer ${req.method ?? ''} ${route.written}.`)),
        );
    });
    return true;
  };
}

/** How {@link answer} writes: a body, a refusal (fitted to the operation's schema), the document's refusal status. */
interface Answering {
  readonly finish: (
    status: number,
    body: string,
    contentType: string,
    failure?: undefined,
    counted?: Readonly<Record<string, string>>,
  ) => void;
  readonly refuse: (failure: Failure) => void;
  readonly refusalStatus: number;
  /** The seed of values mending a generated answer; `undefined` for a static one (always the same values). */
  readonly seed: number | undefined;
}

function answer(decision: PrismDecision, route: Route, answering: Answering): void {
  const { finish, refuse, refusalStatus } = answering;
  if (decision.violations !== undefined && decision.violations.length > 0) {
    // The 4xx Prism chose for an invalid request when the document writes it (400, 422), else the document's
    // refusal status: Prism says 422 for a `default` answer, where POST /plants and serve refuse with 400.
    const chosen = decision.kind === 'response' ? decision.response.statusCode : 0;
    const status = chosen >= 400 && chosen <= 499 && route.statuses.includes(String(chosen)) ? chosen : refusalStatus;
    const said = decision.violations.map(({ message }) => message.replace(/^Request /, 'the ')).join('; ');
    refuse({
      status,
      code: PROBLEMS.invalidParameter.code,
      message: `Invalid request to ${route.method} ${route.written}: ${said}.`,
      headers: {},
    });
    return;
  }
  if (decision.kind === 'problem') {
    // Said as for POST /plants, with the statuses to use instead.
    const undocumented = /Requested status code (\d+) is not defined/.exec(decision.detail)?.[1];
    refuse(
      mockProblem(
        undocumented === undefined
          ? `${route.method} ${route.written}: ${decision.detail.replace(/\.$/, '')}.`
          : `Prefer: code=${undocumented} asks for a status the document does not list for ${route.method} ${route.written}; use one of ${route.statuses.join(', ')}.`,
      ),
    );
    return;
  }
  const { statusCode, body, headers } = decision.response;
  // Without an example of the document's, Prism's error body is a placeholder ("title": "string").
  if (statusCode >= 400 && !route.exampled(statusCode)) {
    const failure: Failure = {
      status: statusCode,
      code: MOCK_PROBLEMS.forcedError.code,
      message: `This is the documented ${statusCode} answer of ${route.method} ${route.written}, sent because the request asked for it with "Prefer: code=${statusCode}"; the request itself was valid.`,
      headers: {},
    };
    refuse(failure);
    return;
  }
  const contentType = headerValue(headers, 'content-type') ?? 'application/json';
  if (body === undefined) finish(statusCode, '', contentType);
  else if (typeof body === 'string') finish(statusCode, body, contentType);
  else if (route.documented(statusCode, body))
    finish(statusCode, fittedBody(route, statusCode, contentType, body), contentType);
  else {
    const fitted = fittedBody(route, statusCode, contentType, body, answering.seed);
    const page = route.page(statusCode, contentType, fitted);
    finish(statusCode, page?.text ?? fitted, contentType, undefined, page?.headers);
  }
}

/**
 * Prism's body as the document's digits write it; a sample of Prism's the schema refuses (json-schema-faker
 * misses `pattern`, int64, `multipleOf`, `oneOf`...) made valid. A documented example is answered as written,
 * valid or not: the user wrote it (the startup says which are invalid).
 */
function fittedBody(route: Route, status: number, contentType: string, body: unknown, seed?: number): string {
  const text = route.exampleText(status, body) ?? JSON.stringify(body);
  if (route.documented(status, body)) return text;
  const compiled = route.schemas.schemaOf(status, contentType);
  return compiled === undefined ? text : validAnswerText(compiled, text, seed);
}

/** The request's headers as Prism reads them, repeated ones joined (Authorization left out). */
function headerTexts(req: IncomingMessage): Record<string, string> {
  const texts: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === 'authorization') continue;
    texts[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return texts;
}

/**
 * The methods the document gives `path` (a request path below the server's), for an `Allow` header: its
 * other operations' (with HEAD beside GET, which the mock answers), and POST where it is POST /plants;
 * `undefined` where no other operation is at that path (the pipeline's 404 or 405).
 */
function allowedMethods(routes: readonly Route[], served: string): (path: string) => readonly string[] | undefined {
  return (path) => {
    const methods = new Set(routes.filter((route) => route.pattern.test(path)).map((route) => route.method));
    if (methods.size === 0) return undefined;
    if (methods.has('GET')) methods.add('HEAD');
    if (path === served) methods.add(OPERATION.method.toUpperCase());
    return [...methods].sort();
  };
}

/** The 405 Error for a method the document does not give `path`, once the request's body has been read. */
function answerNotAllowed(
  req: IncomingMessage,
  res: ServerResponse,
  allowed: readonly string[],
  path: string,
  settings: OtherOperationsSettings,
): void {
  const started = performance.now();
  const { code, status } = PROBLEMS.methodNotAllowed;
  const listed = allowed.filter((method) => method !== 'HEAD');
  const use = listed.length === 1 ? listed[0] : `${listed.slice(0, -1).join(', ')} or ${listed.at(-1) ?? ''}`;
  const failure: Failure = {
    status,
    code,
    message: `${req.method ?? '?'} is not allowed on ${path.slice(0, 100)}: use ${use ?? ''}.`,
    headers: { allow: allowed.join(', ') },
  };
  const body = settings.served.errorBody(failure, status);
  const contentType = settings.served.errorContentTypeFor(status);
  req.resume();
  req.once('end', () => writeAnswer(req, res, settings, { started, status, body, contentType, failure }));
}

/** Writes an answer with the CORS headers (and a failure's own headers), and logs it. */
function writeAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  settings: OtherOperationsSettings,
  answered: {
    started: number;
    status: number;
    body: string;
    contentType: string;
    failure?: Failure;
    headers?: Readonly<Record<string, string>>;
  },
): void {
  const { started, status, body, contentType, failure } = answered;
  res.writeHead(status, {
    ...answered.headers,
    ...failure?.headers,
    ...corsHeaders(req.headers),
    'content-type': contentType,
    'content-length': String(Buffer.byteLength(body)),
  });
  res.end(body);
  settings.onRequest?.({
    method: req.method ?? '?',
    path: loggedTarget(req.url),
    status,
    ms: performance.now() - started,
    ...(failure === undefined ? {} : { problem: failure.message }),
  });
}

/** The texts of the path's parameters by name (`{id: '5'}` for `/plants/{id}` and `/plants/5`), decoded. */
function pathParameterTexts(route: Pick<Route, 'parameterNames' | 'pattern'>, path: string): Record<string, string> {
  const values = route.pattern.exec(path)?.slice(1) ?? [];
  const texts: Record<string, string> = {};
  route.parameterNames.forEach((name, index) => {
    const value = values[index];
    if (value === undefined) return;
    try {
      texts[name] = decodeURIComponent(value);
    } catch {
      texts[name] = value;
    }
  });
  return texts;
}

function mockProblem(message: string): Failure {
  const { code, status } = MOCK_PROBLEMS.unsupportedPreference;
  return { status, code, message, headers: {} };
}

function headerValue(headers: Readonly<Record<string, unknown>> | undefined, name: string): string | undefined {
  const found = Object.entries(headers ?? {}).find(([key]) => key.toLowerCase() === name);
  return typeof found?.[1] === 'string' ? found[1] : undefined;
}

/** The other operations the mock answers, as the contract lists them: `GET /plants/{id}`. */
export function otherOperationLabels(contract: Contract): readonly string[] {
  return routesOf(contract, () => undefined).map((route) => `${route.method} ${route.written}`);
}

/** The documented examples of the answers (POST /plants's and the other operations') their own schemas refuse. */
export function invalidDocumentedExamples(contract: Contract): readonly string[] {
  const paths = (contract.document.paths ?? {}) as Record<string, JsonObject | undefined>;
  const posts = {
    label: `POST ${contract.operationPath}`,
    operation: paths[contract.operationPath]?.[OPERATION.method],
  };
  const others = operationsOf(contract).map(({ method, written, operation }) => ({
    label: `${method} ${written}`,
    operation,
  }));
  return invalidExamples(contract, [posts, ...others]);
}

/** The document's operations other than POST /plants, concrete paths first. */
function operationsOf(
  contract: Contract,
): { method: string; written: string; item: JsonObject | undefined; operation: JsonObject }[] {
  const paths = (contract.document.paths ?? {}) as Record<string, JsonObject | undefined>;
  const served = contract.operationPath;
  // OpenAPI matches concrete paths before templated ones (`/plants/count` before `/plants/{id}`), as Prism does.
  const concreteFirst = Object.entries(paths).sort(([a], [b]) => templatedParts(a) - templatedParts(b));
  return concreteFirst.flatMap(([written, item]) =>
    METHODS.filter(
      (method) => item?.[method] !== undefined && !(method === OPERATION.method && written === served),
    ).map((method) => ({ method: method.toUpperCase(), written, item, operation: item?.[method] as JsonObject })),
  );
}

/** The document's operations other than POST /plants, each with its path pattern and authentication. */
function routesOf(contract: Contract, checkBearer: BearerCheck): Route[] {
  const { document, exactIntegers } = contract;
  return operationsOf(contract).map(({ method, written, operation }) => {
    const schemas = responseSchemas(contract, operation);
    return {
      method,
      written,
      pattern: pathTemplatePattern(written),
      parameterNames: [...written.matchAll(/\{([^}]*)\}/g)].map((match) => match[1] ?? ''),
      authenticate: operationAuthentication(document, operation, checkBearer),
      statuses: Object.keys((operation.responses as JsonObject | undefined) ?? {}),
      exampled: exampledResponses(operation),
      exampleText: (status: number, body: unknown) => exactExampleText(operation, status, body, exactIntegers),
      schemas,
      documented: (status: number, body: unknown) => isDocumentedExample(operation, status, body),
      page: pageAnswers(operation, schemas),
    };
  });
}

/** How many of a path template's segments are templated: `/plants/{id}` has one. */
function templatedParts(written: string): number {
  return written.split('/').filter((segment) => segment.includes('{')).length;
}
