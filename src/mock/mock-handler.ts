import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  createBearerCheck,
  OPERATION,
  problem,
  readNewPlant,
  requestPath,
  routeProblem,
  type Contract,
} from '../contract/index.js';
import { loggedTarget, mustCloseAfterAnswer, readBody, sendJson, type RequestLogEntry } from '../http/server-kit.js';
import { mockProblemAnswer, problemAnswer, type MockAnswer } from './answers.js';
import { corsHeaders, isPreflight, preflightHeaders } from './cors.js';
import { parsePrefer } from './prefer.js';
import { prismSafeBody, renderDecision } from './prism-answer.js';
import type { PrismEngine } from './prism-engine.js';

/** What the handler needs besides the request: the contract, Prism, and the mock's settings. */
export interface MockHandlerSettings {
  readonly contract: Contract;
  readonly engine: PrismEngine;
  readonly tokens: readonly string[];
  readonly anyToken: boolean;
  readonly dynamic: boolean;
  /** Base of the per-request seeds of generated bodies. */
  readonly seed: number;
  readonly bodyLimit: number;
  readonly onRequest?: (entry: RequestLogEntry) => void;
}

/** The mock as a plain `node:http` request handler. */
export function createMockHandler(settings: MockHandlerSettings): (req: IncomingMessage, res: ServerResponse) => void {
  const checkBearer = createBearerCheck(settings.tokens, { anyToken: settings.anyToken });
  const documentedStatuses = Object.keys(
    (settings.contract.document.paths as Record<string, Record<string, { responses: object }>>)[OPERATION.path]?.[
      OPERATION.method
    ]?.responses ?? {},
  );
  let generated = 0;

  async function answerNewPlant(req: IncomingMessage): Promise<MockAnswer> {
    const authProblem = checkBearer(req.headers.authorization);
    if (authProblem) return problemAnswer(authProblem);
    const read = await readBody(req, settings.bodyLimit);
    if (!read.ok) return problemAnswer(read.problem);
    const result = readNewPlant(settings.contract, req.headers['content-type'], read.body);
    if (!result.ok) return problemAnswer(result.problem);
    const prefer = parsePrefer(headerText(req.headers.prefer));
    if (!prefer.ok) return mockProblemAnswer('unsupportedPreference', prefer.message);
    const { preferences } = prefer;
    const dynamic = preferences.dynamic ?? settings.dynamic;
    const decision = await settings.engine.decide({
      authorization: (req.headers.authorization ?? '').trim().replace(/^\S+\s+/, 'Bearer '),
      accept: req.headers.accept,
      body: prismSafeBody(result.plant),
      // Prism's generator seed is process-wide: a seed per request keeps a run reproducible.
      preferences: { ...preferences, dynamic, ...(dynamic ? { seed: `${settings.seed}-${generated++}` } : {}) },
    });
    return renderDecision(decision, { plant: result.plant, preferences, dynamic, documentedStatuses });
  }

  async function answer(req: IncomingMessage): Promise<MockAnswer> {
    if (isPreflight(req.method, req.headers)) return { status: 204, body: '', headers: preflightHeaders(req.headers) };
    const routeFailure = routeProblem(req.method, requestPath(req.url));
    if (routeFailure) return problemAnswer(routeFailure);
    return answerNewPlant(req);
  }

  return (req, res) => {
    const started = performance.now();
    answer(req)
      .catch((error: unknown) => {
        process.emitWarning(
          `plantstore mock: unexpected ${error instanceof Error ? error.name : 'error'} while answering`,
        );
        return problemAnswer(problem('unprocessable', 'The mock could not process this request.'));
      })
      .then((reply) => {
        send(req, res, reply, settings.bodyLimit);
        settings.onRequest?.({
          method: req.method ?? '?',
          path: loggedTarget(req.url),
          status: reply.status,
          ms: performance.now() - started,
          ...(reply.problem === undefined ? {} : { problem: reply.problem }),
        });
      })
      .catch(() => undefined);
  };
}

/** Writes an answer with its CORS headers; a large unread body is not waited for. */
function send(req: IncomingMessage, res: ServerResponse, reply: MockAnswer, bodyLimit: number): void {
  if (reply.status === 204) {
    res.writeHead(204, reply.headers);
    res.end();
    return;
  }
  const close = mustCloseAfterAnswer(req, bodyLimit);
  sendJson(res, reply.status, reply.body, {
    ...reply.headers,
    ...corsHeaders(req.headers),
    ...(close ? { connection: 'close' } : {}),
  });
  if (close) res.once('finish', () => req.socket.destroySoon());
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}
