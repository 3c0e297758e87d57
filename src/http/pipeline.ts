import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  operationPath,
  problem,
  requestPath,
  routeProblem,
  type BearerCheck,
  type Problem,
} from '../contract/index.js';
import { checkMediaType, readNewPlantBody, type AcceptedNewPlant } from '../contract/new-plant-request.js';
import { corsHeaders, isPreflight, preflightHeaders } from './cors.js';
import type { ServedContract } from './served-contract.js';
import { loggedTarget, mustCloseAfterAnswer, readBody, sendJson, type RequestLogEntry } from './server-kit.js';

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
  readonly checkBearer: BearerCheck;
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
 * authentication (401) → Content-Type → body (size, UTF-8, exact JSON, depth) → the NewPlant
 * schema → `answer` → log. Every failure is the document's Error; nothing ever answers 5xx.
 */
export function createPipeline(settings: PipelineSettings): (req: IncomingMessage, res: ServerResponse) => void {
  const { served, checkBearer, bodyLimit } = settings;

  async function judge(req: IncomingMessage): Promise<Outcome> {
    if (settings.cors && isPreflight(req.method, req.headers)) {
      return { status: 204, body: '', headers: preflightHeaders(req.headers) };
    }
    const failure =
      routeProblem(req.method, operationPath(requestPath(req.url), served.contract.basePath)) ??
      checkBearer(req.headers.authorization) ??
      checkMediaType(req.headers['content-type'], served.mediaType);
    if (failure) return { failure };
    const read = await readBody(req, bodyLimit);
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

  return (req, res) => {
    const started = performance.now();
    judge(req)
      .catch(fault)
      .then((outcome) => {
        const status = send(req, res, outcome, settings);
        settings.onRequest?.({
          method: req.method ?? '?',
          path: loggedTarget(req.url),
          status,
          ms: performance.now() - started,
          ...('failure' in outcome ? { problem: outcome.failure.message } : {}),
        });
      })
      .catch(() => undefined);
  };
}

/** Writes an outcome; a large unread body is not waited for: the connection closes instead. */
function send(req: IncomingMessage, res: ServerResponse, outcome: Outcome, settings: PipelineSettings): number {
  const { status, body, headers } =
    'failure' in outcome
      ? { ...outcome.failure, body: settings.served.errorBody(outcome.failure) }
      : { ...outcome, headers: outcome.headers ?? {} };
  if (status === 204) {
    res.writeHead(204, headers);
    res.end();
    return status;
  }
  const close = mustCloseAfterAnswer(req, settings.bodyLimit);
  sendJson(res, status, body, {
    ...headers,
    ...(settings.cors ? corsHeaders(req.headers) : {}),
    ...(close ? { connection: 'close' } : {}),
  });
  if (close) res.once('finish', () => req.socket.destroySoon());
  return status;
}
