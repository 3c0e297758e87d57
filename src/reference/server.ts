import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  createBearerCheck,
  DEFAULT_SPEC_PATH,
  loadContract,
  problem,
  readNewPlant,
  requestPath,
  routeProblem,
  type Contract,
  type Problem,
} from '../contract/index.js';
import {
  DEFAULT_BODY_LIMIT,
  createHardenedServer,
  loggedTarget,
  type ClientTimeouts,
  type RequestLogEntry,
  mustCloseAfterAnswer,
  listen,
  readBody,
  sendJson,
  sendProblem,
  type RunningServer,
} from '../http/server-kit.js';
import { createMemoryStore, type PlantStore } from './plant-store.js';

export type { RequestLogEntry } from '../http/server-kit.js';

/** Options of {@link createReferenceServer}. */
export interface ReferenceServerOptions extends ClientTimeouts {
  /** Accepted bearer tokens. When none are given, one is generated (see `generatedToken`). */
  readonly tokens?: readonly string[];
  /** Interface to bind; `127.0.0.1` unless told otherwise. */
  readonly host?: string;
  /** Port to bind; 0 (the default) picks a free one. */
  readonly port?: number;
  /** Largest accepted request body in bytes (default 1 MiB). */
  readonly bodyLimit?: number;
  /** The OpenAPI document (default: the package's `openapi.yaml`). */
  readonly spec?: string;
  /** Where plants are kept (default: in memory). */
  readonly store?: PlantStore;
  /** Called once per answered request. */
  readonly onRequest?: (entry: RequestLogEntry) => void;
}

/** A running reference server. */
export interface ReferenceServer extends RunningServer {
  /** The token generated when no tokens were configured; absent otherwise. */
  readonly generatedToken?: string;
}

/**
 * Starts the reference implementation of `POST /plants`: the executable meaning of the contract,
 * following the project's decisions for everything the contract leaves open.
 */
export async function createReferenceServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  const contract = await loadContract(options.spec ?? DEFAULT_SPEC_PATH);
  const generatedToken = options.tokens?.length ? undefined : randomBytes(24).toString('base64url');
  const handler = createReferenceHandler(contract, {
    ...options,
    tokens: generatedToken === undefined ? (options.tokens ?? []) : [generatedToken],
  });
  const server = createHardenedServer(handler, {
    ...options,
    ...(options.onRequest ? { onRejected: options.onRequest } : {}),
  });
  const running = await listen(server, options.host ?? '127.0.0.1', options.port ?? 0);
  return generatedToken === undefined ? running : { ...running, generatedToken };
}

/** The reference as a plain `node:http` request handler, for use inside another server. */
export function createReferenceHandler(
  contract: Contract,
  options: ReferenceServerOptions & { readonly tokens: readonly string[] },
): (req: IncomingMessage, res: ServerResponse) => void {
  const checkBearer = createBearerCheck(options.tokens);
  const store = options.store ?? createMemoryStore();
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<Problem | undefined> {
    const routeFailure = routeProblem(req.method, requestPath(req.url));
    if (routeFailure) return reject(req, res, bodyLimit, routeFailure);
    const authProblem = checkBearer(req.headers.authorization);
    if (authProblem) return reject(req, res, bodyLimit, authProblem);
    const read = await readBody(req, bodyLimit);
    if (!read.ok) return reject(req, res, bodyLimit, read.problem);
    const result = readNewPlant(contract, req.headers['content-type'], read.body);
    if (!result.ok) return reject(req, res, bodyLimit, result.problem);
    const { plant } = result;
    if (!store.add(plant)) {
      return reject(
        req,
        res,
        bodyLimit,
        problem('duplicateId', `A plant with id ${plant.id} already exists: choose another id.`),
      );
    }
    sendJson(
      res,
      200,
      JSON.stringify(plant.tag === undefined ? { name: plant.name } : { name: plant.name, tag: plant.tag }),
    );
    return undefined;
  }

  return (req, res) => {
    const started = performance.now();
    answer(req, res)
      .catch((error: unknown) => {
        process.emitWarning(
          `plantstore reference: unexpected ${error instanceof Error ? error.name : 'error'} while answering`,
        );
        return reject(req, res, bodyLimit, problem('unprocessable', 'The server could not process this request.'));
      })
      .then((failure) => {
        options.onRequest?.({
          method: req.method ?? '?',
          path: loggedTarget(req.url),
          status: res.statusCode,
          ms: performance.now() - started,
          ...(failure ? { problem: failure.message } : {}),
        });
      })
      .catch(() => undefined);
  };
}

/** Answers with a problem; a large unread body is not waited for: the connection closes instead. */
function reject(req: IncomingMessage, res: ServerResponse, bodyLimit: number, failure: Problem): Problem {
  const close = mustCloseAfterAnswer(req, bodyLimit);
  sendProblem(res, failure, close ? { connection: 'close' } : {});
  if (close) res.once('finish', () => req.socket.destroySoon());
  return failure;
}
