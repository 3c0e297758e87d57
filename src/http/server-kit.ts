import type * as Http from 'node:http';
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo, Socket } from 'node:net';
import { errorBody, problem, type Problem } from '../contract/index.js';

// Node 22 and later build node:http's ES module namespace by reading every export, its lazy WebSocket
// getters included, which loads Node's own bundled undici: about 60 ms of CPU at every start. require() reads none.
// Every value this project's servers take from node:http comes through here (STATUS_CODES included).
const { createServer, STATUS_CODES } = createRequire(import.meta.url)('node:http') as typeof Http;
export { STATUS_CODES };

/** A server of this project, listening: where to reach it and how to stop it. */
export interface RunningServer {
  /** Base URL, e.g. `http://127.0.0.1:8080`. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  /** Stops accepting connections and closes open ones. */
  close(): Promise<void>;
}

/** One answered request of a server of this project, for its request log. Never carries a credential. */
export interface RequestLogEntry {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly ms: number;
  /** What was wrong with the request, when it failed. */
  readonly problem?: string;
}

/**
 * The request target as a log shows it: at most 200 characters, query values hidden. The contract
 * has no query parameters, but clients put tokens there (RFC 6750's `access_token`), and a log
 * must never hold one.
 */
export function loggedTarget(url: string | undefined): string {
  const target = url ?? '/';
  const at = target.indexOf('?');
  if (at < 0) return target.slice(0, 200);
  const query = target
    .slice(at + 1)
    .split('&')
    .map((pair) => (pair.includes('=') ? `${pair.slice(0, pair.indexOf('='))}=…` : pair))
    .join('&');
  return `${target.slice(0, at)}?${query}`.slice(0, 200);
}

/** The default request body limit of the servers: far above any real NewPlant, far below harm. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** Writes a JSON answer; `text` must already be JSON, labelled `contentType` (`application/json; charset=utf-8` unless told). */
export function sendJson(
  res: ServerResponse,
  status: number,
  text: string,
  headers?: Readonly<Record<string, string>>,
  contentType = JSON_CONTENT_TYPE,
): void {
  if (res.headersSent || res.destroyed) return;
  const length = String(Buffer.byteLength(text, 'utf8'));
  res.writeHead(
    status,
    headers === undefined
      ? { 'content-type': contentType, 'content-length': length }
      : { ...headers, 'content-type': contentType, 'content-length': length },
  );
  // A string goes out in one write together with the headers; a Buffer would cost a writev.
  res.end(text, 'utf8');
}

/** The label of a JSON answer whose document says `application/json`. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** The outcome of reading a request body under a size limit. */
export type BodyResult =
  { readonly ok: true; readonly body: Buffer } | { readonly ok: false; readonly problem: Problem };

/**
 * Reads the whole request body, refusing it as soon as it passes `limit` bytes (by its
 * Content-Length or while it streams), so an oversize body costs no more than `limit` of memory.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<BodyResult> {
  return new Promise((resolve) => readBodyThen(req, limit, resolve));
}

/**
 * {@link readBody} with a callback instead of a promise, called once: at the body's end, or, for a
 * body refused by its Content-Length, in a microtask (the turn a resolved promise would take).
 */
export function readBodyThen(req: IncomingMessage, limit: number, done: (result: BodyResult) => void): void {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    queueMicrotask(() => done(tooLarge(limit)));
    return;
  }
  // A small body nearly always comes in one chunk, passed on as it is instead of copied by Buffer.concat.
  let first: Buffer | undefined;
  let chunks: Buffer[] | undefined;
  let size = 0;
  let settled = false;
  const settle = (result: BodyResult): void => {
    if (settled) return;
    settled = true;
    done(result);
  };
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit) {
      req.pause();
      settle(tooLarge(limit));
      return;
    }
    if (first === undefined) first = chunk;
    else (chunks ??= [first]).push(chunk);
  });
  req.on('end', () => {
    const body = chunks === undefined ? (first ?? EMPTY_BODY) : Buffer.concat(chunks, size);
    settle({ ok: true, body });
  });
  // 'close' comes after every request, read or not: the Error is built only when it is the outcome.
  const incomplete = (): void => {
    if (!settled)
      settle({ ok: false, problem: problem('malformedRequest', 'The request body ended before it was complete.') });
  };
  req.on('error', incomplete);
  req.on('close', incomplete);
}

const EMPTY_BODY = Buffer.alloc(0);

function tooLarge(limit: number): BodyResult {
  return {
    ok: false,
    problem: problem('bodyTooLarge', `The request body is larger than ${limit} bytes; send a smaller NewPlant.`),
  };
}

/**
 * True when answering now would leave body bytes that are not worth draining: a body that is
 * chunked (unbounded) or declared larger than `limit`. Such a connection is closed after the answer.
 */
export function mustCloseAfterAnswer(req: IncomingMessage, limit: number): boolean {
  if (req.complete) return false;
  const declared = req.headers['content-length'];
  if (declared === undefined) return req.headers['transfer-encoding'] !== undefined;
  return !(Number(declared) <= limit);
}

/** How long a client may take; slow clients (slowloris) are cut off after these. */
export interface ClientTimeouts {
  /** Until the request headers are complete (default 10 s). */
  readonly headersTimeoutMs?: number | undefined;
  /** Until the whole request is complete (default 30 s). */
  readonly requestTimeoutMs?: number | undefined;
}

/** How {@link hardenServer} answers the requests it refuses itself; the servers' own wiring, not an option of theirs. */
export interface Rejections {
  /** Headers added to those 400 answers (the mock's CORS headers). */
  readonly rejectionHeaders?: Readonly<Record<string, string>>;
  /** Told of each such request, for the request log. */
  readonly onRejected?: (entry: RequestLogEntry) => void;
  /** Writes their Error body (default: the seed contract's `{error, message}`). */
  readonly errorBody?: (failure: Pick<Problem, 'code' | 'message'>) => string;
}

/**
 * A `node:http` server safe to face any client: bounded header and request times, checked every
 * second rather than Node's default 30, and {@link hardenServer}'s answers to malformed requests.
 */
export function createHardenedServer(handler: RequestListener, timeouts: ClientTimeouts & Rejections = {}): Server {
  const headersTimeout = timeouts.headersTimeoutMs ?? 10_000;
  const server = createServer(
    {
      headersTimeout,
      requestTimeout: Math.max(timeouts.requestTimeoutMs ?? 30_000, headersTimeout),
      connectionsCheckingInterval: Math.min(1000, headersTimeout),
      keepAliveTimeout: 5_000,
    },
    handler,
  );
  hardenServer(server, timeouts);
  return server;
}

/**
 * Makes a `node:http` server safe to face any client: a malformed request (bad framing, oversize
 * headers, both Content-Length and Transfer-Encoding) or one that arrives too slowly is answered
 * with a 400 Error and a closed connection instead of an exception.
 */
export function hardenServer(server: Server, options: Rejections = {}): void {
  const extra = Object.entries(options.rejectionHeaders ?? {})
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || (error.code === 'ECONNRESET' && socket.destroyed)) {
      socket.destroy();
      return;
    }
    const failure =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? problem('headersTooLarge', 'The request headers are larger than this server accepts.')
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? problem('requestTimeout', 'The request did not arrive in time: send it whole, without pauses.')
          : problem('malformedRequest', 'The request is not well-formed HTTP/1.1.');
    const body = (options.errorBody ?? errorBody)(failure);
    socket.end(
      `HTTP/1.1 400 Bad Request\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}connection: close\r\n\r\n${body}`,
    );
    // The request line may never have arrived whole: the log says what is known.
    options.onRejected?.({ method: '-', path: '-', status: 400, ms: 0, problem: failure.message });
  });
}

/** Starts listening and resolves once the server accepts connections. */
export function listen(server: Server, host: string, port: number): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve({
        url: `http://${shownHost}:${address.port}`,
        host: address.address,
        port: address.port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
