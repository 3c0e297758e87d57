import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createBearerCheck, DEFAULT_SPEC_PATH, loadContract, problem, type Contract } from '../contract/index.js';
import { requestAuthentication } from '../http/authentication.js';
import { createPipeline, type Answer } from '../http/pipeline.js';
import { serveContract, type ServedContract } from '../http/served-contract.js';
import {
  DEFAULT_BODY_LIMIT,
  createHardenedServer,
  type ClientTimeouts,
  type RequestLogEntry,
  listen,
  type RunningServer,
} from '../http/server-kit.js';
import { validSamples } from '../http/valid-samples.js';
import { idKeyOf } from '../contract/id-key.js';
import { createMemoryStore, type PlantStore } from './plant-store.js';

export type { RequestLogEntry } from '../http/server-kit.js';

/** Options of {@link createReferenceServer}. */
export interface ReferenceServerOptions extends ClientTimeouts {
  /** Accepted bearer tokens. When none are given, one is generated (see `generatedToken`). */
  readonly tokens?: readonly string[] | undefined;
  /** Interface to bind; `127.0.0.1` unless told otherwise. */
  readonly host?: string | undefined;
  /** Port to bind; 0 (the default) picks a free one. */
  readonly port?: number | undefined;
  /** Largest accepted request body in bytes (default 1 MiB). */
  readonly bodyLimit?: number | undefined;
  /** The OpenAPI document (default: the package's `openapi.yaml`). */
  readonly spec?: string | undefined;
  /** Where plants are kept (default: in memory). */
  readonly store?: PlantStore | undefined;
  /** Called once per answered request. */
  readonly onRequest?: ((entry: RequestLogEntry) => void) | undefined;
}

/** A running reference server. */
export interface ReferenceServer extends RunningServer {
  /** The token generated when no tokens were configured; absent otherwise. */
  readonly generatedToken?: string;
  /** Operations the document declares besides POST /plants, which the reference does not serve. */
  readonly notServed: readonly string[];
  /** False when the document lets POST /plants be called without a credential (`security: []`). */
  readonly asksCredential: boolean;
}

/**
 * Starts the reference implementation of `POST /plants`: the executable meaning of the contract,
 * following the project's decisions for everything the contract leaves open.
 */
export async function createReferenceServer(options: ReferenceServerOptions = {}): Promise<ReferenceServer> {
  const contract = await loadContract(options.spec ?? DEFAULT_SPEC_PATH);
  const served = serveContract(contract, validSamples(contract));
  const asksCredential = contract.auth !== 'none';
  const generatedToken = options.tokens?.length || !asksCredential ? undefined : randomBytes(24).toString('base64url');
  const handler = createReferenceHandler(contract, {
    ...options,
    tokens: generatedToken === undefined ? (options.tokens ?? []) : [generatedToken],
  });
  const server = createHardenedServer(handler, {
    ...options,
    errorBody: served.errorBody,
    ...(options.onRequest ? { onRejected: options.onRequest } : {}),
  });
  const running = await listen(server, options.host ?? '127.0.0.1', options.port ?? 0);
  const described = { ...running, notServed: served.notServed, asksCredential };
  return generatedToken === undefined ? described : { ...described, generatedToken };
}

/** The reference as a plain `node:http` request handler, for use inside another server. */
export function createReferenceHandler(
  contract: Contract,
  options: ReferenceServerOptions & { readonly tokens: readonly string[] },
): (req: IncomingMessage, res: ServerResponse) => void {
  const served = serveContract(contract, validSamples(contract));
  return createPipeline({
    served,
    authenticate: requestAuthentication(contract, createBearerCheck(options.tokens)),
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    noun: 'server',
    answer: storeAndEcho(served, options.store ?? createMemoryStore()),
    ...(options.onRequest ? { onRequest: options.onRequest } : {}),
  });
}

/** The reference's answer: a plant whose id is taken is refused (409 when documented, else 400); any other is kept and echoed. */
function storeAndEcho(served: ServedContract, store: PlantStore): Answer {
  // A document that lists 409 Conflict for POST /plants says how a taken id is refused.
  const conflict = served.contract.refusal.listed.includes(409);
  return (accepted) => {
    const id = idKeyOf(accepted);
    if (id !== undefined && !store.add(id)) {
      const failure = problem('duplicateId', `A plant with id ${id} already exists: choose another id.`);
      return { failure: conflict ? { ...failure, status: 409 } : failure };
    }
    const headers = served.successHeaders(accepted);
    const body = served.plantBody(accepted);
    return headers === undefined
      ? { status: served.contract.success.status, body }
      : { status: served.contract.success.status, body, headers };
  };
}
