import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  isSuccessStatus,
  OPERATION,
  operationPath,
  parameterCheck,
  problem,
  requestPath,
  routeProblem,
  type Contract,
  type Problem,
} from '../contract/index.js';
import { calledPlantsPath, pathBelowBase, pathTemplatePattern } from '../contract/operations.js';
import { serverBasePath } from '../contract/security.js';
import { mediaTypeEssence } from '../contract/media-types.js';
import { checkMediaType, readNewPlantBody, type AcceptedNewPlant } from '../contract/new-plant-request.js';
import { corsHeaders, isPreflight, preflightHeaders } from './cors.js';
import type { ServedContract } from './served-contract.js';
import type { RequestAuthentication } from './authentication.js';
import {
  loggedTarget,
  mustCloseAfterAnswer,
  readBodyThen,
  sendJson,
  type BodyResult,
  type RequestLogEntry,
} from './server-kit.js';

/** A failed request: status, the Error's code and message, and the headers HTTP asks for. */
export type Failure = Pick<Problem, 'status' | 'code' | 'message' | 'headers'>;

/** How a request is answered: a finished JSON body, or a failure the pipeline writes as the document's Error. */
export type Outcome =
  | { readonly status: number; readonly body: string; readonly headers?: Readonly<Record<string, string>> }
  | { readonly failure: Failure };

/** What the answering step gets: the accepted NewPlant and the request (for headers such as `Prefer`). */
export type Answer = (accepted: AcceptedNewPlant, req: IncomingMessage) => Outcome | Promise<Outcome>;

/** Settings of {@link createPipeline}. */
export interface PipelineSettings {
  readonly served: ServedContract;
  /** Judges the request's credentials: `requestAuthentication` (a bearer token, or an API key where the document puts it). */
  readonly authenticate: RequestAuthentication;
  /** Largest accepted request body in bytes. */
  readonly bodyLimit: number;
  /** Answer CORS preflights and put CORS headers on every answer (the mock, for pages on other origins). */
  readonly cors?: boolean;
  /** Which server this is, for the message of an unexpected fault: `server` or `mock`. */
  readonly noun: string;
  /** Answers a request that passed every step before it. */
  readonly answer: Answer;
  /** Called once per answered request. */
  readonly onRequest?: (entry: RequestLogEntry) => void;
}

/**
 * The one request pipeline of the project's servers, as a `node:http` handler: route (404, 405) →
 * authentication (401) → Content-Type → the document's header, query and cookie parameters (400) →
 * body (size, UTF-8, exact JSON, depth) → the NewPlant schema → `answer` → log. Every failure is the
 * document's Error; nothing ever answers 5xx.
 */
export function createPipeline(settings: PipelineSettings): (req: IncomingMessage, res: ServerResponse) => void {
  const { served, authenticate, bodyLimit, onRequest } = settings;
  const isRouted = withDeclaredOperations(
    routeOf(served.contract.basePath, served.contract.operationPath),
    served.contract,
    settings.noun,
  );
  const checkContentType = mediaTypeCheck(served.mediaType, served.readsAsJson);
  const checkParameters = parameterCheck(served.contract);

  /** The steps before the body: their outcome when one of them decides the answer, else `undefined`. */
  function screen(req: IncomingMessage): Outcome | undefined {
    if (settings.cors && isPreflight(req.method, req.headers)) {
      return { status: 204, body: '', headers: preflightHeaders(req.headers) };
    }
    const failure =
      isRouted(req) ?? authenticate(req) ?? checkContentType(req.headers['content-type']) ?? checkParameters?.(req);
    return failure ? { failure } : undefined;
  }

  /** The steps after the body: the NewPlant schema, then the answer. */
  function judgeBody(read: BodyResult, req: IncomingMessage): Outcome | PromiseLike<Outcome> {
    if (!read.ok) return { failure: read.problem };
    const result = readNewPlantBody(served.checkNewPlant, read.body);
    if (!result.ok) return { failure: result.problem };
    return settings.answer(result, req);
  }

  const fault = (error: unknown): Outcome => {
    process.emitWarning(
      `plantstore ${settings.noun}: unexpected ${error instanceof Error ? error.name : 'error'} while answering`,
    );
    return { failure: problem('unprocessable', `The ${settings.noun} could not process this request.`) };
  };

  // Callbacks rather than an async function: a promise or two per request, and their turns, were a
  // visible share of the mock's CPU under load. The order of events is the same: an answer decided
  // before the body is written in the same microtask checkpoint as before (queueMicrotask), an answer
  // after the body once the body has ended, an asynchronous answer when it settles.
  return (req, res) => {
    // The clock is read only for the log.
    const started = onRequest ? performance.now() : 0;
    const finish = (outcome: Outcome): void => {
      try {
        const status = send(req, res, outcome, settings);
        if (onRequest) onRequest(logEntry(req, status, performance.now() - started, outcome));
      } catch {
        // As before: a failure to write or log an answer is not answered again.
      }
    };
    const answer = (outcome: Outcome | PromiseLike<Outcome>): void => {
      if (isPromiseLike(outcome)) outcome.then(finish, (error: unknown) => finish(fault(error)));
      else finish(outcome);
    };
    let early: Outcome | undefined;
    try {
      early = screen(req);
    } catch (error) {
      early = fault(error);
    }
    if (early !== undefined) {
      const decided = early;
      queueMicrotask(() => finish(decided));
      return;
    }
    readBodyThen(req, bodyLimit, (read) => {
      let outcome: Outcome | PromiseLike<Outcome>;
      try {
        outcome = judgeBody(read, req);
      } catch (error) {
        outcome = fault(error);
      }
      answer(outcome);
    });
  };
}

function isPromiseLike(value: Outcome | PromiseLike<Outcome>): value is PromiseLike<Outcome> {
  return typeof (value as { then?: unknown }).then === 'function';
}

/**
 * The route step: `undefined` for `POST /plants` (or under the document's base path, or at the path
 * the document writes, `/api/v1/plants`), else the 404 or 405. The targets a client sends nearly
 * always are compared whole first: for them the general path reading can only agree.
 */
function routeOf(basePath: string, written: string): (req: IncomingMessage) => Failure | undefined {
  const direct = OPERATION.path;
  const based = basePath === '' ? direct : `${basePath}${OPERATION.path}`;
  // `/plants/` for a document writing `/api/plants/`: what `test --base-url <this server>` calls.
  const called = calledPlantsPath(written);
  return (req) => {
    const { url } = req;
    if (req.method === 'POST' && (url === direct || url === based || url === written || url === called))
      return undefined;
    const path = requestPath(url);
    return routeProblem(
      req.method,
      path === written || path === called ? OPERATION.path : operationPath(path, basePath),
    );
  };
}

/**
 * A route refusal of a document that declares other operations says so: a request for one of them
 * (serve answers only POST /plants) is told that the document has it and what answers it instead of
 * "the only operation is POST /plants", and a path the document does not have is told which it has.
 */
function withDeclaredOperations(
  route: (req: IncomingMessage) => Failure | undefined,
  contract: Contract,
  noun: string,
): (req: IncomingMessage) => Failure | undefined {
  const declared = contract.otherOperations.flatMap((label) => {
    const match = /^([A-Z]+) (\/\S*)$/.exec(label);
    return match?.[1] === undefined || match[2] === undefined ? [] : [{ label, method: match[1], path: match[2] }];
  });
  if (declared.length === 0) return route;
  const patterns = declared.map((operation) => ({ ...operation, pattern: pathTemplatePattern(operation.path) }));
  const base = serverBasePath(contract.document);
  const listed = ['POST /plants', ...declared.map(({ label }) => label)];
  const operations = listed.length > 6 ? `${listed.slice(0, 6).join(', ')}, …` : listed.join(', ');
  return (req) => {
    const failure = route(req);
    if (failure === undefined) return undefined;
    const requested = requestPath(req.url);
    const path = pathBelowBase(requested, base);
    const operation = patterns.find((candidate) => candidate.method === req.method && candidate.pattern.test(path));
    if (operation !== undefined) {
      const instead = noun === 'mock' ? '' : '; plantstore mock answers it from the document';
      return {
        ...failure,
        message: `${operation.label} is in the document, but this ${noun} answers only POST /plants${instead}.`,
      };
    }
    if (failure.status !== 404) return failure;
    return {
      ...failure,
      message: `There is no ${requested.slice(0, 100)} here: the document's operations are ${operations}${base === '' ? '' : `, below ${base}`}.`,
    };
  };
}

/** At most this many distinct accepted Content-Type values are remembered (clients choose them). */
const MEDIA_TYPES_KEPT = 16;

/** The Content-Type step; a value once accepted is accepted again without being read anew. */
function mediaTypeCheck(
  declared: string,
  readsAsJson: (essence: string) => boolean,
): (contentType: string | undefined) => Failure | undefined {
  const accepted = new Set<string>();
  return (contentType) => {
    if (contentType !== undefined && accepted.has(contentType)) return undefined;
    const essence = contentType === undefined ? '' : mediaTypeEssence(contentType);
    // Another JSON type the document declares is checked as the declared one is (its charset too).
    const failure = checkMediaType(contentType, readsAsJson(essence) ? essence : declared);
    if (failure === undefined && contentType !== undefined && accepted.size < MEDIA_TYPES_KEPT) {
      accepted.add(contentType);
    }
    return failure;
  };
}

function logEntry(req: IncomingMessage, status: number, ms: number, outcome: Outcome): RequestLogEntry {
  const method = req.method ?? '?';
  const path = loggedTarget(req.url);
  return 'failure' in outcome
    ? { method, path, status, ms, problem: outcome.failure.message }
    : { method, path, status, ms };
}

const NO_HEADERS: Readonly<Record<string, string>> = {};

/** Writes an outcome; a large unread body is not waited for: the connection closes instead. */
function send(req: IncomingMessage, res: ServerResponse, outcome: Outcome, settings: PipelineSettings): number {
  const failed = 'failure' in outcome;
  const status = failed ? refusalStatus(outcome.failure.status, settings) : outcome.status;
  const headers = failed ? outcome.failure.headers : outcome.headers;
  if (status === 204) {
    res.writeHead(204, headers ?? NO_HEADERS);
    res.end();
    return status;
  }
  const body = failed ? settings.served.errorBody(outcome.failure, status) : outcome.body;
  const close = mustCloseAfterAnswer(req, settings.bodyLimit);
  const head = answerHeaders(headers, settings.cors ? corsHeaders(req.headers) : undefined, close);
  const plant = !failed && isSuccessStatus(settings.served.contract.success, status);
  const label = plant
    ? settings.served.plantContentType
    : failed
      ? settings.served.errorContentTypeFor(status)
      : settings.served.errorContentType;
  sendJson(res, status, body, head !== undefined && isEmpty(head) ? undefined : head, label);
  if (close) res.once('finish', () => req.socket.destroySoon());
  return status;
}

/** A refused request gets the document's refusal status: 400, or the 422 its Error is documented under. */
function refusalStatus(status: number, settings: PipelineSettings): number {
  return status === 400 ? settings.served.contract.refusal.status : status;
}

const CLOSE = { connection: 'close' } as const;

/**
 * The answer's header lines before Content-Type and Content-Length, in this order: the outcome's,
 * CORS, then Connection (a later part replaces an earlier one of the same name). A part alone is
 * passed on as it is: a spread of three sources per request (most of them empty) left about 200
 * bytes a request that outlived young collections under load, and so more full collections.
 */
function answerHeaders(
  headers: Readonly<Record<string, string>> | undefined,
  cors: Readonly<Record<string, string>> | undefined,
  close: boolean,
): Readonly<Record<string, string>> | undefined {
  if (!close && cors === undefined) return headers;
  if (!close && (headers === undefined || isEmpty(headers))) return cors;
  const merged: Record<string, string> = {};
  if (headers !== undefined) Object.assign(merged, headers);
  if (cors !== undefined) Object.assign(merged, cors);
  if (close) Object.assign(merged, CLOSE);
  return merged;
}

function isEmpty(record: object): boolean {
  for (const name in record) if (Object.hasOwn(record, name)) return false;
  return true;
}
