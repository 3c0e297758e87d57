import { randomInt } from 'node:crypto';
import { DEFAULT_SPEC_PATH, loadContract, type Contract } from '../contract/index.js';
import {
  createHardenedServer,
  DEFAULT_BODY_LIMIT,
  listen,
  type ClientTimeouts,
  type RunningServer,
} from '../http/server-kit.js';
import { apiKeyPlace, type ApiKeyPlace } from '../http/authentication.js';
import { corsHeaders } from '../http/cors.js';
import { serveContract } from '../http/served-contract.js';
import type { RequestLogEntry } from '../http/server-kit.js';
import { validPlants, validSamples } from '../http/valid-samples.js';
import { DEV_TOKEN } from './dev-token.js';
import { createMockHandler } from './mock-handler.js';
import { invalidDocumentedExamples, otherOperationLabels } from './other-operations.js';
import { createPrismEngine } from './prism-engine.js';

/** Options of {@link createMockServer}. */
export interface MockServerOptions extends ClientTimeouts {
  /** Accepted bearer tokens; when given, {@link DEV_TOKEN} is no longer accepted. */
  readonly tokens?: readonly string[] | undefined;
  /** Accept any non-empty bearer token (quick UI work). */
  readonly anyToken?: boolean | undefined;
  /** Answer 200 with plants Prism generates from the schema instead of echoing the request. */
  readonly dynamic?: boolean | undefined;
  /** Seed of the generated plants: the same seed and requests give the same answers. Random by default. */
  readonly seed?: number | undefined;
  /** Interface to bind; `127.0.0.1` unless told otherwise. */
  readonly host?: string | undefined;
  /** Port to bind; 0 (the default) picks a free one. */
  readonly port?: number | undefined;
  /** Largest accepted request body in bytes (default 1 MiB). */
  readonly bodyLimit?: number | undefined;
  /** The OpenAPI document (default: the package's `openapi.yaml`). */
  readonly spec?: string | undefined;
  /** Called once per answered request. */
  readonly onRequest?: ((entry: RequestLogEntry) => void) | undefined;
}

/** A running mock. */
export interface MockServer extends RunningServer {
  /** Which tokens the mock accepts, in words safe to print (a configured token is never shown). */
  readonly accepting: string;
  /** The seed of generated plants (pass it as `seed` to get the same plants again). */
  readonly seed: number;
  /** Operations the document declares that the mock does not answer (webhooks, HEAD, OPTIONS, TRACE ones). */
  readonly notServed: readonly string[];
  /** The document's operations besides POST /plants that the mock answers as Prism does, e.g. `GET /plants/{id}`. */
  readonly otherOperations: readonly string[];
  /**
   * The document's examples of answers that its own schemas refuse, one line each (`GET /plants/{id} 200
   * example: "id" must be integer`): answered as written, since the user wrote them.
   */
  readonly invalidExamples: readonly string[];
}

/**
 * Starts the mock of `POST /plants` for frontend work. The project's request pipeline judges each
 * request by the document (`spec`, default `openapi.yaml`) as the reference does: exact int64,
 * Error bodies that say what was wrong, real bearer authentication, plus CORS. Prism decides only
 * what it alone decides: `Prefer` statuses and examples, negotiation on Accept, generated plants.
 */
export async function createMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const contract = await loadContract(options.spec ?? DEFAULT_SPEC_PATH);
  const served = serveContract(contract, validSamples(contract));
  const dynamic = options.dynamic ?? false;
  const engine = await createPrismEngine(contract, dynamic);
  const tokens = options.tokens?.length ? options.tokens : [DEV_TOKEN];
  const seed = options.seed ?? randomInt(0, 2 ** 31);
  const handler = createMockHandler({
    served,
    engine,
    generatePlant: validPlants(contract),
    tokens,
    anyToken: options.anyToken ?? false,
    dynamic,
    seed,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    ...(options.onRequest ? { onRequest: options.onRequest } : {}),
  });
  const server = createHardenedServer(handler, {
    ...options,
    // A browser reads a rejection only with CORS headers; its Origin is unknown here, so any.
    rejectionHeaders: corsHeaders({}),
    errorBody: served.errorBody,
    ...(options.onRequest ? { onRejected: options.onRequest } : {}),
  });
  const running = await listen(server, options.host ?? '127.0.0.1', options.port ?? 0);
  const otherOperations = otherOperationLabels(contract);
  const notServed = served.notServed.filter((operation) => !otherOperations.includes(operation));
  const invalidExamples = invalidDocumentedExamples(contract);
  return {
    ...running,
    accepting: describeAccepted(options, contract),
    seed,
    notServed,
    otherOperations,
    invalidExamples,
  };
}

/** Which credentials POST /plants takes, in words safe to print, where the document puts them. */
function describeAccepted(options: MockServerOptions, contract: Contract): string {
  if (contract.auth === 'none') return 'no authentication (the document declares none)';
  const place = apiKeyPlace(contract);
  const what = place === undefined ? 'bearer token' : `API key (${keyPlace(place)})`;
  if (options.anyToken) return `accepting ANY non-empty ${what} (--any-token)`;
  const count = options.tokens?.length ?? 0;
  if (count === 0) {
    const sent =
      place === undefined
        ? `Authorization: Bearer ${DEV_TOKEN}`
        : place.in === 'header'
          ? `${place.name}: ${DEV_TOKEN}`
          : place.in === 'query'
            ? `?${place.name}=${DEV_TOKEN}`
            : `Cookie: ${place.name}=${DEV_TOKEN}`;
    return `accepting the development token: ${sent}`;
  }
  const configured = count === 1 ? 'configured token' : `${count} configured tokens`;
  return place === undefined ? `accepting the ${configured}` : `accepting the ${configured} as the ${what}`;
}

function keyPlace(place: ApiKeyPlace): string {
  return place.in === 'header'
    ? `header ${place.name}`
    : `${place.in === 'query' ? 'query parameter' : 'cookie'} ${place.name}`;
}
