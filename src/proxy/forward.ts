import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { Pool, type Dispatcher } from 'undici';
import { describeTransportError } from '../runner/http/transport-errors.js';
import { endToEnd, upstreamRequestHeaders } from './headers.js';

/** Where and how requests are forwarded. */
export interface Upstream {
  readonly url: URL;
  /** The upstream's base path without a trailing slash ('' for the root). */
  readonly basePath: string;
  /** Keep-alive connections to the upstream (http or https). */
  readonly pool: Dispatcher;
  /** No byte from the upstream for this long: 504 before its answer began, a cut answer after. */
  readonly timeoutMs: number;
}

/**
 * Opens keep-alive connections to `url`'s origin, with the proxy's timeout on every wait; `ca`
 * replaces the trusted certificates of an https upstream (Node's own, NODE_EXTRA_CA_CERTS included, otherwise).
 */
export function createUpstream(url: URL, timeoutMs: number, ca?: string): Upstream {
  const pool = new Pool(url.origin, {
    connections: 256,
    pipelining: 1,
    connectTimeout: timeoutMs,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    ...(ca === undefined ? {} : { connect: { ca } }),
  });
  // A failed connection surfaces on the request that needed it; nothing else to do here.
  pool.on('connectionError', () => undefined);
  return { url, basePath: url.pathname.replace(/\/+$/, ''), pool, timeoutMs };
}

/** The first bytes of a stream, up to a cap, and how many went by in all. */
export class Capture {
  private readonly chunks: Buffer[] = [];
  size = 0;
  total = 0;

  constructor(private readonly cap: number) {}

  add(chunk: Buffer): void {
    this.total += chunk.length;
    const room = this.cap - this.size;
    if (room <= 0) return;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.chunks.push(kept);
    this.size += kept.length;
  }

  get over(): boolean {
    return this.total > this.cap;
  }

  bytes(): Buffer {
    return this.chunks.length === 1 && this.chunks[0] ? this.chunks[0] : Buffer.concat(this.chunks, this.size);
  }
}

/** How one forwarded exchange went. */
export interface Forwarded {
  readonly requestBody: Capture;
  /** The upstream's status, 0 when no answer arrived. */
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly responseBody: Capture | null;
  /** How the exchange failed below HTTP, in the runner's words (`timeout`, `connection-refused`, …). */
  readonly transportError?: string;
  /** The proxy answered itself (502 or 504): the upstream gave no answer. */
  readonly answeredByProxy?: number;
  /** The client went away before the exchange was complete. */
  readonly clientAborted: boolean;
  readonly durationMs: number;
}

/** Extra headers for an answer held until complete (`--annotate`); called once, before the head is sent. */
export type Annotate = (partial: Forwarded) => readonly string[];

/** Answers the proxy gives itself when the upstream gives none. */
export type FaultAnswer = (status: 502 | 504, transportError: string) => { body: string };

interface ForwardOptions {
  readonly upstream: Upstream;
  /** Bytes of each body kept for judging. */
  readonly cap: number;
  readonly annotate?: Annotate;
  readonly fault: FaultAnswer;
}

/**
 * Forwards one request to the upstream and its answer back, bytes as they come (nothing parsed or
 * re-serialised), keeping the first `cap` bytes of each body. Resolves when the exchange is over,
 * however it ended; never rejects.
 */
export function forward(req: IncomingMessage, res: ServerResponse, options: ForwardOptions): Promise<Forwarded> {
  return new Promise((resolve) => new ExchangeInFlight(req, res, options, resolve).start());
}

/** Bodies up to this size, with a Content-Length, are read whole before they are sent on. */
const WHOLE_BODY_BYTES = 64 * 1024;

/** Transport failures that mean the upstream stayed silent (504) rather than unreachable (502). */
const SILENT = new Set(['timeout', 'connect-timeout']);

/** One exchange in flight: the client's request, the upstream's answer, and what has happened so far. */
class ExchangeInFlight implements Dispatcher.DispatchHandler {
  private readonly started = performance.now();
  private readonly requestBody: Capture;
  private status = 0;
  private headers: IncomingHttpHeaders = {};
  private responseBody: Capture | null = null;
  /** Chunks kept back while an annotated answer is held; `undefined` once the head is sent. */
  private held: Buffer[] | undefined;
  private abort: ((reason?: Error) => void) | undefined;
  private clientGone = false;
  private settled = false;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly options: ForwardOptions,
    private readonly resolve: (forwarded: Forwarded) => void,
  ) {
    this.requestBody = new Capture(options.cap);
  }

  start(): void {
    const clientLeft = (): void => {
      this.clientGone = true;
      this.abort?.();
    };
    this.req.on('error', clientLeft);
    this.req.on('close', () => this.req.complete || clientLeft());
    this.res.on('close', () => {
      if (this.res.writableFinished) return;
      clientLeft();
      this.finish({ clientAborted: true });
    });
    const length = Number(this.req.headers['content-length'] ?? NaN);
    if (length > 0 && length <= WHOLE_BODY_BYTES && this.req.headers['transfer-encoding'] === undefined) {
      // A small body goes on in one write with the head: cheaper than a stream, and no later.
      const chunks: Buffer[] = [];
      this.req.on('data', (chunk: Buffer) => (chunks.push(chunk), this.requestBody.add(chunk)));
      this.req.on('end', () => this.dispatch(chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks)));
      return;
    }
    // undici sends an async iterable as a stream; its types list only Readable.
    this.dispatch(hasBody(this.req) ? (captured(this.req, this.requestBody) as unknown as Readable) : null);
  }

  private dispatch(body: Buffer | Readable | null): void {
    const { upstream } = this.options;
    upstream.pool.dispatch(
      {
        method: this.req.method ?? 'GET',
        path: `${upstream.basePath}${originForm(this.req.url)}`,
        headers: upstreamRequestHeaders(this.req.rawHeaders, upstream.url.host),
        body,
      },
      this,
    );
  }

  onConnect(abort: (reason?: Error) => void): void {
    this.abort = abort;
    if (this.clientGone) abort();
  }

  onHeaders(status: number, rawHeaders: Buffer[], resume: () => void, statusText: string): boolean {
    // 1xx answers are the upstream's business with its connection; the final answer follows.
    if (status < 200) return true;
    const raw = rawHeaders.map((part) => part.toString('latin1'));
    this.status = status;
    this.headers = headerObject(raw);
    this.responseBody = new Capture(this.options.cap);
    this.res.on('drain', resume);
    const { annotate } = this.options;
    if (annotate === undefined) return this.sendHead(() => this.res.writeHead(status, statusText, endToEnd(raw)));
    this.held = [];
    this.head = () => this.res.writeHead(status, statusText, [...endToEnd(raw), ...annotate(this.snapshot())]);
    return true;
  }

  /** Sends the held head of an annotated answer; set when one is held. */
  private head: (() => void) | undefined;

  /**
   * Writes the answer's head; a header Node refuses to send (a control character, say) makes the
   * answer one the proxy cannot forward: 502, and the upstream's answer is dropped.
   */
  private sendHead(write: () => void): boolean {
    try {
      write();
      return true;
    } catch {
      this.status = 0;
      this.answerFault('unforwardable-header');
      this.abort?.();
      return false;
    }
  }

  onData(chunk: Buffer): boolean {
    if (this.settled) return true;
    this.responseBody?.add(chunk);
    if (this.held === undefined) return this.res.write(chunk);
    this.held.push(chunk);
    if (this.responseBody?.over === true) this.release();
    return true;
  }

  onComplete(): void {
    if (this.settled || !this.release()) return;
    this.res.end();
    this.finish({});
  }

  onError(error: Error): void {
    if (this.settled) return;
    if (this.clientGone || this.res.destroyed || (this.req.destroyed && !this.req.complete)) {
      this.res.destroy();
      this.finish({ clientAborted: true });
      return;
    }
    const transportError = describeTransportError(error, false);
    if (this.res.headersSent || this.status !== 0) {
      // The answer had begun: the client can only see it cut, as the upstream left it.
      this.res.destroy();
      this.finish({ transportError });
      return;
    }
    this.answerFault(transportError);
  }

  /** The proxy's own answer when the upstream gave none it can forward: 504 if silent, else 502. */
  private answerFault(transportError: string): void {
    const status = SILENT.has(transportError) ? 504 : 502;
    const { body } = this.options.fault(status, transportError);
    this.res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    this.res.end(body);
    this.req.resume();
    this.finish({ transportError, answeredByProxy: status });
  }

  /** Sends the head of an annotated answer and what was held, then lets the rest stream. */
  private release(): boolean {
    if (this.held === undefined || this.head === undefined) return true;
    const held = this.held;
    this.held = undefined;
    if (!this.sendHead(this.head)) return false;
    for (const chunk of held) this.res.write(chunk);
    return true;
  }

  private snapshot(extra: Partial<Forwarded> = {}): Forwarded {
    return {
      requestBody: this.requestBody,
      status: this.status,
      headers: this.headers,
      responseBody: this.responseBody,
      clientAborted: false,
      durationMs: performance.now() - this.started,
      ...extra,
    };
  }

  private finish(extra: Partial<Forwarded>): void {
    if (this.settled) return;
    this.settled = true;
    this.resolve(this.snapshot(extra));
  }
}

/** Whether a request carries a body (RFC 9112, 6.3): a Content-Length above 0, or Transfer-Encoding. */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** The request's body as it arrives, its first bytes kept for judging on the way. */
async function* captured(req: IncomingMessage, capture: Capture): AsyncGenerator<Buffer> {
  for await (const chunk of req as AsyncIterable<Buffer>) {
    capture.add(chunk);
    yield chunk;
  }
}

/** Raw headers as Node's `IncomingHttpHeaders`: lower-case names, repeated ones joined (Set-Cookie kept apart). */
function headerObject(raw: readonly string[]): IncomingHttpHeaders {
  const headers: Record<string, string | string[]> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = (raw[i] ?? '').toLowerCase();
    const value = raw[i + 1] ?? '';
    const existing = headers[name];
    if (existing === undefined) headers[name] = name === 'set-cookie' ? [value] : value;
    else if (Array.isArray(existing)) existing.push(value);
    else headers[name] = `${existing}, ${value}`;
  }
  return headers;
}

/** The request target in origin form: an absolute-form target (`POST http://host/plants`) loses its origin. */
export function originForm(target: string | undefined): string {
  const text = target ?? '/';
  const absolute = /^https?:\/\/[^/?#]*/i.exec(text);
  if (!absolute) return text.startsWith('/') ? text : `/${text}`;
  const rest = text.slice(absolute[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}
