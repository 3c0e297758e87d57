import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { Client, Pool } from './undici.js';
import { responseHeaders } from './response-headers.js';
import type { AuthHeader } from '../generate/auth-probe.js';
import { PLANTS_PATH, type PlannedRequest } from '../probe.js';
import type { RecordedRequest, RecordedResponse } from '../report.js';
import { DelayedBodies } from './delayed-bodies.js';
import { describeTransportError } from './transport-errors.js';
import { redact, TOKEN_VARIABLE } from '../../contract/secrets.js';
import { recordedBody } from '../judge.js';

/** One request as sent and what came back, both recorded without the token. */
export interface Exchange {
  readonly plan: PlannedRequest;
  readonly request: RecordedRequest;
  readonly response: RecordedResponse;
}

/** Options of {@link createTargetClient}. */
export interface TargetClientOptions {
  readonly baseUrl: string;
  readonly token: string;
  readonly concurrency: number;
  /** Most connections open at once (default `concurrency`): more when hung requests may wait beside the others. */
  readonly connections?: number;
  /** Whole-request deadline: connect, headers and body. */
  readonly timeoutMs: number;
  /** Response bodies are cut after this many bytes. */
  readonly maxBodyBytes: number;
  /** The path called where plans say `/plants`: `/plants/` when the document writes it so (see `calledPlantsPath`). */
  readonly plantsPath?: string;
}

/** How one sending may differ from the client's defaults. */
export interface SendOptions {
  /** A deadline shorter than the client's `timeoutMs` (a longer one is ignored): its request times out sooner. */
  readonly timeoutMs?: number;
}

/** Sends planned requests to the target over a pool of keep-alive connections. */
export interface TargetClient {
  /** Sends one request; the exchange holds the answer exactly as it came, to be judged as it is. */
  send(plan: PlannedRequest, options?: SendOptions): Promise<Exchange>;
  /**
   * Sends requests in order over one new connection of their own, closed afterwards: what a request
   * leaves behind on a keep-alive connection (an unread body) then meets the next one.
   */
  sendOnOneConnection?(plans: readonly PlannedRequest[], options?: SendOptions): Promise<Exchange[]>;
  /** Whether answers came as a server holding each body back does, so requests now go on a connection each. */
  delaysBodies?(): boolean;
  /** Hides the token in text about to be shown or stored (a target may echo it back). */
  readonly redact: (text: string) => string;
  close(): Promise<void>;
}

/**
 * Headers of every request the runner sends. `identity`: with no Accept-Encoding at all, RFC 9110
 * lets a server pick any content coding.
 */
export const REQUEST_HEADERS: Readonly<Record<string, string>> = {
  accept: 'application/json',
  'accept-encoding': 'identity',
  'user-agent': 'plantstore-conformance',
};

/** Largest response body read: a Plant or Error is tiny, anything beyond this is a flood. */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** A client for one target; redirects are not followed (a 3xx is an answer the contract does not document). */
export function createTargetClient(options: TargetClientOptions): TargetClient {
  const base = new URL(options.baseUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  const connectionOptions = {
    pipelining: 1,
    // Before the whole-request deadline, so a host that never accepts reads as unreachable, not slow.
    connectTimeout: Math.max(1, Math.floor(options.timeoutMs * 0.9)),
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  };
  const pool = new Pool(base.origin, { ...connectionOptions, connections: options.connections ?? options.concurrency });
  // Errors of idle sockets (a target resetting connections) surface on requests; nothing else to do.
  pool.on('connectionError', () => undefined);
  const urlBase = `${base.origin}${basePath}`;
  const delayedBodies = new DelayedBodies();
  const sendOver = (
    dispatcher: Dispatcher,
    plan: PlannedRequest,
    sending: SendOptions | undefined,
    pooled?: DelayedBodies,
  ): Promise<Exchange> => {
    const shorter = sending?.timeoutMs !== undefined && sending.timeoutMs < options.timeoutMs;
    const sendOptions = shorter ? { ...options, timeoutMs: sending.timeoutMs } : options;
    return sendOne(dispatcher, urlBase, basePath, plan, sendOptions, pooled);
  };
  async function sendOnOneConnection(plans: readonly PlannedRequest[], sending?: SendOptions): Promise<Exchange[]> {
    const connection = new Client(base.origin, connectionOptions);
    connection.on('connectionError', () => undefined);
    try {
      const exchanges: Exchange[] = [];
      for (const plan of plans) exchanges.push(await sendOver(connection, plan, sending));
      return exchanges;
    } finally {
      await connection.destroy().catch(() => undefined);
    }
  }
  return {
    send: (plan, sending) => sendOver(pool, plan, sending, delayedBodies),
    // One pooled connection already keeps a sequence on one connection, and a target that serves one
    // connection at a time would never get to a second.
    ...(options.concurrency === 1 ? {} : { sendOnOneConnection }),
    delaysBodies: () => delayedBodies.connectionPerRequest,
    redact: (text) => redact(text, options.token),
    close: () => pool.destroy().catch(() => undefined),
  };
}

async function sendOne(
  pool: Dispatcher,
  urlBase: string,
  basePath: string,
  plan: PlannedRequest,
  options: TargetClientOptions,
  pooled?: DelayedBodies,
): Promise<Exchange> {
  const path = options.plantsPath === undefined ? plan.path : calledPath(plan.path, options.plantsPath);
  const headers: Record<string, string> = { ...REQUEST_HEADERS, ...plan.headers };
  if (plan.contentType !== undefined) headers['content-type'] = plan.contentType;
  const authorization = authorizationValue(plan.auth, options.token);
  const wire = wireHeaders(headers, authorization, plan.lowerCaseNames === true);
  const request: RecordedRequest = {
    method: plan.method,
    url: `${urlBase}${path}`,
    headers: { ...headers, ...recordedAuthorization(plan.auth, options.token) },
    body: plan.body,
    ...(plan.bodyBytes === undefined ? {} : { bodyBase64: Buffer.from(plan.bodyBytes).toString('base64') }),
    ...(plan.lowerCaseNames === true ? { lowerCaseNames: true } : {}),
  };
  const sent = plan.bodyBytes ?? plan.body;
  const started = performance.now();
  const split = plan.splitBody === true && sent !== null ? splitBody(sent) : undefined;
  const response = new ResponseCollector(options.maxBodyBytes, split?.body);
  const timer = setTimeout(() => {
    split?.stop();
    response.timeOut();
  }, options.timeoutMs);
  try {
    const error = await response.collect(pool, {
      method: plan.method,
      path: `${basePath}${path}`,
      headers: split ? { ...wire, 'content-length': split.length } : wire,
      body: split ? split.body : sent,
      ...(pooled?.connectionPerRequest === true ? { reset: true } : {}),
    });
    const { status, headers: answerHeaders, chunks, truncated, timedOut } = response;
    if (error === undefined) {
      pooled?.observe(response.headersAt - started, performance.now() - response.headersAt, response.size);
      return exchange(plan, request, { status, headers: answerHeaders, chunks, truncated, started });
    }
    const kind = describeTransportError(error, timedOut);
    // The status line arrived, then the connection died: the body is what is missing.
    const transportError = status !== 0 && kind === 'connection-reset' ? 'incomplete-body' : kind;
    return exchange(plan, request, { status, headers: answerHeaders, chunks, truncated, started, transportError });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One response, read through undici's dispatch handler API: what `request()` and its body stream
 * gave (the final status, the headers as `util.parseHeaders` reads them, joined, the body cut at the size
 * limit, the error that ended it) without a stream, an abort signal and an async resource per
 * request, most of the client's cost per case.
 */
class ResponseCollector {
  status = 0;
  headers: Record<string, string> = {};
  readonly chunks: Buffer[] = [];
  truncated = false;
  timedOut = false;
  /** `performance.now()` when the final head came. */
  headersAt = 0;
  /** Body bytes kept. */
  size = 0;
  private abortRequest: ((reason: Error) => void) | undefined;
  private settle: ((error: unknown) => void) | undefined;
  private settled = false;

  constructor(
    private readonly maxBodyBytes: number,
    /** A streamed request body, destroyed when the request fails (as `request()` does). */
    private readonly body: Readable | undefined,
  ) {}

  /** Dispatches the request; resolves when the response is read (`undefined`) or failed (the error). */
  collect(pool: Dispatcher, request: Dispatcher.DispatchOptions): Promise<unknown> {
    return new Promise((resolve) => {
      this.settle = resolve;
      pool.dispatch(request, this);
    });
  }

  /** The whole-request deadline passed: abort now, or as soon as a connection takes the request. */
  timeOut(): void {
    this.timedOut = true;
    this.abortRequest?.(new RequestTimedOut());
  }

  onConnect(abort: (reason: Error) => void): void {
    if (this.timedOut) abort(new RequestTimedOut());
    else this.abortRequest = abort;
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[]): boolean {
    // 1xx answers are interim: the final one follows.
    if (statusCode < 200) return true;
    this.status = statusCode;
    this.headersAt = performance.now();
    this.headers = responseHeaders(rawHeaders);
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.settled) return false;
    const room = this.maxBodyBytes - this.size;
    this.chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
    this.size += Math.min(chunk.length, room);
    if (chunk.length <= room) return true;
    this.truncated = true;
    this.finish(undefined);
    this.abortRequest?.(new BodyCut());
    return false;
  }

  onComplete(): void {
    this.finish(undefined);
  }

  onError(error: Error): void {
    this.body?.on('error', () => undefined).destroy(error);
    this.finish(error);
  }

  private finish(error: unknown): void {
    if (this.settled) return;
    this.settled = true;
    this.settle?.(error);
  }
}

/** The reason a request is aborted at the runner's deadline (reported as `timeout` whatever undici makes of it). */
class RequestTimedOut extends Error {
  override readonly name = 'RequestTimedOut';
}

/** The reason a response is abandoned once its body passed the size limit. */
class BodyCut extends Error {
  override readonly name = 'BodyCut';
}

/** How long the second half of a split body waits: long enough to arrive as a separate read. */
export const SPLIT_BODY_PAUSE_MS = 150;

/** The body as two writes with a pause between them, as a slow network delivers it; `stop` ends the pause. */
function splitBody(body: string | Uint8Array): { body: Readable; length: string; stop: () => void } {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body);
  const middle = Math.floor(bytes.length / 2);
  let stop = (): void => undefined;
  async function* inTwoPieces(): AsyncGenerator<Buffer> {
    yield bytes.subarray(0, middle);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, SPLIT_BODY_PAUSE_MS);
      stop = () => (clearTimeout(timer), resolve());
    });
    yield bytes.subarray(middle);
  }
  return { body: Readable.from(inTwoPieces()), length: String(bytes.length), stop: () => stop() };
}

interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly chunks: readonly Buffer[];
  readonly truncated: boolean;
  readonly started: number;
  readonly transportError?: string;
}

function exchange(plan: PlannedRequest, request: RecordedRequest, raw: RawResponse): Exchange {
  const received = raw.status !== 0 || raw.chunks.length > 0;
  const response: RecordedResponse = {
    status: raw.status,
    headers: raw.headers,
    ...recordedBody(received ? bodyBytes(raw.chunks) : null, raw.truncated),
    ...(raw.truncated ? { truncated: true } : {}),
    ...(raw.transportError === undefined ? {} : { transportError: raw.transportError }),
    durationMs: Math.round((performance.now() - raw.started) * 10) / 10,
  };
  return { plan, request, response };
}

/** The body's bytes; a body that came in one chunk (most do) without a copy. */
function bodyBytes(chunks: readonly Buffer[]): Buffer {
  const [only] = chunks;
  return chunks.length === 1 && only !== undefined ? only : Buffer.concat(chunks);
}

/** The runner's own header names as curl (and the contract) write them. */
const WIRE_NAMES: Readonly<Record<string, string>> = {
  accept: 'Accept',
  'accept-encoding': 'Accept-Encoding',
  authorization: 'Authorization',
  'content-type': 'Content-Type',
  'user-agent': 'User-Agent',
};

/**
 * The headers as sent: the runner's own names written as the curl lines of its findings write them, so a target that
 * reads them case-sensitively (PHP's `getallheaders()['Authorization']`) meets the same request from both; with
 * `authorization` it refused every request and the run blamed the token, while the curl line was accepted. With
 * `lowerCase` every name goes in lower case, as HTTP/2 clients send them (the `header-names` twin's).
 */
function wireHeaders(
  headers: Readonly<Record<string, string>>,
  authorization: string | undefined,
  lowerCase: boolean,
): Record<string, string> {
  const wire: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) wire[lowerCase ? name : (WIRE_NAMES[name] ?? name)] = value;
  if (authorization !== undefined) wire[lowerCase ? 'authorization' : 'Authorization'] = authorization;
  return wire;
}

/** The real header value: the only place the token is used. */
function authorizationValue(auth: AuthHeader, token: string): string | undefined {
  switch (auth.kind) {
    case 'none':
      return undefined;
    case 'literal':
      return auth.value;
    case 'token':
      // No token: a document that lets POST /plants be called without a credential, tested without one.
      return token === '' ? undefined : `${auth.scheme} ${token}`;
    case 'token-variant':
      return `${auth.variant === 'bare' ? '' : 'Bearer '}${damagedToken(effectiveVariant(auth.variant, token), token)}`;
  }
}

type TokenVariant = Extract<AuthHeader, { kind: 'token-variant' }>['variant'];

/** A token without letters reads the same in either case: it gets the suffix variant instead. */
function effectiveVariant(variant: TokenVariant, token: string): TokenVariant {
  return variant === 'case-flipped' && flipCase(token) === token ? 'suffix' : variant;
}

function damagedToken(variant: TokenVariant, token: string): string {
  if (variant === 'suffix') return `${token}-`;
  if (variant === 'prefix') return `x${token}`;
  if (variant === 'truncated') return token.slice(0, -1);
  if (variant === 'case-flipped') return flipCase(token);
  return token;
}

/** Every letter in the other case, as bash's `${VAR~~}` does. */
function flipCase(text: string): string {
  return [...text].map((char) => (char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase())).join('');
}

/** The header as recorded: shell syntax that rebuilds it from `$PLANTSTORE_TOKEN`. */
function recordedAuthorization(auth: AuthHeader, token: string): Record<string, string> {
  switch (auth.kind) {
    case 'none':
      return {};
    case 'literal':
      return { authorization: auth.value };
    case 'token':
      return token === '' ? {} : { authorization: `${auth.scheme} $${TOKEN_VARIABLE}` };
    case 'token-variant': {
      const shell: Record<TokenVariant, string> = {
        suffix: `$${TOKEN_VARIABLE}-`,
        prefix: `x$${TOKEN_VARIABLE}`,
        truncated: `\${${TOKEN_VARIABLE}%?}`,
        'case-flipped': `\${${TOKEN_VARIABLE}~~}`,
        bare: `$${TOKEN_VARIABLE}`,
      };
      const variant = effectiveVariant(auth.variant, token);
      return { authorization: variant === 'bare' ? shell.bare : `Bearer ${shell[variant]}` };
    }
  }
}

/** A plan's `/plants` (and `/plants?query`) at the path called instead (`/plants/?query`); any other path as it is. */
function calledPath(path: string, plantsPath: string): string {
  return path === PLANTS_PATH || path.startsWith(`${PLANTS_PATH}?`)
    ? `${plantsPath}${path.slice(PLANTS_PATH.length)}`
    : path;
}
