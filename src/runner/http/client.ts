import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { Client, Pool } from './undici.js';
import type { AuthHeader } from '../generate/auth-probe.js';
import type { PlannedRequest } from '../probe.js';
import type { RecordedRequest, RecordedResponse } from '../report.js';
import { describeTransportError } from './transport-errors.js';
import { redact, TOKEN_VARIABLE } from '../../contract/secrets.js';

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
  /** Whole-request deadline: connect, headers and body. */
  readonly timeoutMs: number;
  /** Response bodies are cut after this many bytes. */
  readonly maxBodyBytes: number;
}

/** Sends planned requests to the target over a pool of keep-alive connections. */
export interface TargetClient {
  /** Sends one request; the exchange holds the answer exactly as it came, to be judged as it is. */
  send(plan: PlannedRequest): Promise<Exchange>;
  /**
   * Sends requests in order over one new connection of their own, closed afterwards: what a request
   * leaves behind on a keep-alive connection (an unread body) then meets the next one.
   */
  sendOnOneConnection?(plans: readonly PlannedRequest[]): Promise<Exchange[]>;
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
  const pool = new Pool(base.origin, { ...connectionOptions, connections: options.concurrency });
  // Errors of idle sockets (a target resetting connections) surface on requests; nothing else to do.
  pool.on('connectionError', () => undefined);
  const urlBase = `${base.origin}${basePath}`;
  const sendOver = (dispatcher: Dispatcher, plan: PlannedRequest): Promise<Exchange> =>
    sendOne(dispatcher, urlBase, basePath, plan, options);
  async function sendOnOneConnection(plans: readonly PlannedRequest[]): Promise<Exchange[]> {
    const connection = new Client(base.origin, connectionOptions);
    connection.on('connectionError', () => undefined);
    try {
      const exchanges: Exchange[] = [];
      for (const plan of plans) exchanges.push(await sendOver(connection, plan));
      return exchanges;
    } finally {
      await connection.destroy().catch(() => undefined);
    }
  }
  return {
    send: (plan) => sendOver(pool, plan),
    // One pooled connection already keeps a sequence on one connection, and a target that serves one
    // connection at a time would never get to a second.
    ...(options.concurrency === 1 ? {} : { sendOnOneConnection }),
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
): Promise<Exchange> {
  const headers: Record<string, string> = { ...REQUEST_HEADERS };
  if (plan.contentType !== undefined) headers['content-type'] = plan.contentType;
  const authorization = authorizationValue(plan.auth, options.token);
  if (authorization !== undefined) headers.authorization = authorization;
  const request: RecordedRequest = {
    method: plan.method,
    url: `${urlBase}${plan.path}`,
    headers: { ...headers, ...recordedAuthorization(plan.auth, options.token) },
    body: plan.body,
  };
  const started = performance.now();
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), options.timeoutMs);
  let status = 0;
  let responseHeaders: Record<string, string> = {};
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  try {
    const response = await pool.request({
      method: plan.method,
      path: `${basePath}${plan.path}`,
      headers:
        plan.splitBody && plan.body !== null
          ? { ...headers, 'content-length': String(Buffer.byteLength(plan.body)) }
          : headers,
      body: plan.splitBody && plan.body !== null ? Readable.from(inTwoPieces(plan.body, abort.signal)) : plan.body,
      signal: abort.signal,
    });
    status = response.statusCode;
    responseHeaders = flattenHeaders(response.headers);
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      const room = options.maxBodyBytes - size;
      chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
      size += Math.min(chunk.length, room);
      if (chunk.length > room) {
        truncated = true;
        response.body.destroy();
        break;
      }
    }
    return exchange(plan, request, { status, headers: responseHeaders, chunks, truncated, started });
  } catch (error) {
    const kind = describeTransportError(error, abort.signal.aborted);
    // The status line arrived, then the connection died: the body is what is missing.
    const transportError = status !== 0 && kind === 'connection-reset' ? 'incomplete-body' : kind;
    return exchange(plan, request, { status, headers: responseHeaders, chunks, truncated, started, transportError });
  } finally {
    clearTimeout(timer);
  }
}

/** How long the second half of a split body waits: long enough to arrive as a separate read. */
export const SPLIT_BODY_PAUSE_MS = 150;

/** The body as two writes with a pause between them, as a slow network delivers it. */
async function* inTwoPieces(body: string, signal: AbortSignal): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(body, 'utf8');
  const middle = Math.floor(bytes.length / 2);
  yield bytes.subarray(0, middle);
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, SPLIT_BODY_PAUSE_MS);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
  yield bytes.subarray(middle);
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
    body: received ? Buffer.concat(raw.chunks).toString('utf8') : null,
    ...(raw.truncated ? { truncated: true } : {}),
    ...(raw.transportError === undefined ? {} : { transportError: raw.transportError }),
    durationMs: Math.round((performance.now() - raw.started) * 10) / 10,
  };
  return { plan, request, response };
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

/** The real header value: the only place the token is used. */
function authorizationValue(auth: AuthHeader, token: string): string | undefined {
  switch (auth.kind) {
    case 'none':
      return undefined;
    case 'literal':
      return auth.value;
    case 'token':
      return `${auth.scheme} ${token}`;
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
      return { authorization: `${auth.scheme} $${TOKEN_VARIABLE}` };
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
