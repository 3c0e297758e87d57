import type { Socket } from 'node:net';
import { describeTransportError } from '../runner/http/transport-errors.js';
import { endToEnd, upstreamRequestHeaders } from './headers.js';
import type { Upstream, UpstreamConnection, UpstreamUser } from './upstream.js';
import {
  bodyReader,
  headEnd,
  headerValue,
  keepsAlive,
  MAX_HEAD_BYTES,
  parseRequestHead,
  parseResponseHead,
  requestFraming,
  responseFraming,
  type BodyReader,
  type Framing,
  type RequestHead,
  type ResponseHead,
} from './wire.js';

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
  /** The answer's headers as sent (`[name, value, …]`), empty when no answer began. */
  readonly rawHeaders: readonly string[];
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

/** What the proxy does with one request whose head has arrived. */
export interface ExchangeHooks {
  readonly annotate?: Annotate;
  /** The exchange is over, however it ended. */
  settled(forwarded: Forwarded): void;
}

/** How a client connection's requests are forwarded. */
export interface ConnectionOptions {
  readonly upstream: Upstream;
  /** Bytes of each body kept for judging. */
  readonly cap: number;
  readonly fault: FaultAnswer;
  /** Called as each request's head arrives. */
  readonly onRequest: (head: RequestHead) => ExchangeHooks;
}

/** A client connection with no exchange is closed after this long (Node's server keeps 5 s; browsers like longer). */
const CLIENT_IDLE_MS = 65_000;
/** Bytes of pipelined requests read ahead of the current exchange before the client is paused. */
const READ_AHEAD_BYTES = 64 * 1024;

/**
 * Serves one client connection: its requests read one after another off the socket, each
 * forwarded to the upstream with its bytes as they come (nothing parsed or re-serialised but the
 * heads), its answer sent back the same way, the first `cap` bytes of each body kept for judging.
 */
export function serveConnection(socket: Socket, options: ConnectionOptions): void {
  new ClientConnection(socket, options).start();
}

class ClientConnection {
  /** Bytes read that belong to requests after the current one. */
  private buffered: Buffer | null = null;
  private exchange: ExchangeInFlight | null = null;
  private closing = false;

  constructor(
    private readonly socket: Socket,
    private readonly options: ConnectionOptions,
  ) {}

  start(): void {
    const { socket } = this;
    socket.setNoDelay(true);
    socket.setTimeout(CLIENT_IDLE_MS, () => {
      if (this.exchange === null) socket.destroy();
    });
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('drain', () => this.exchange?.clientDrained());
    socket.on('error', () => undefined);
    socket.on('end', () => {
      if (this.exchange === null) this.close();
      else this.exchange.clientEnded();
    });
    socket.on('close', () => {
      this.closing = true;
      this.exchange?.clientGone();
    });
  }

  private onData(chunk: Buffer): void {
    if (this.closing) return;
    let rest = chunk;
    if (this.exchange?.readingBody === true) {
      const taken = this.exchange.requestBytes(rest);
      if (taken === rest.length) return;
      rest = rest.subarray(taken);
    }
    this.buffered = this.buffered === null ? rest : Buffer.concat([this.buffered, rest]);
    if (this.exchange === null) this.readRequest();
    else if (this.buffered.length > READ_AHEAD_BYTES) this.socket.pause();
  }

  /** Starts the exchange of the next request once its head has arrived. */
  private readRequest(): void {
    const bytes = skipBlankLines(this.buffered);
    this.buffered = bytes;
    if (bytes === null || this.closing) return;
    const end = headEnd(bytes);
    if (end < 0) {
      if (bytes.length > MAX_HEAD_BYTES) this.refuse('431 Request Header Fields Too Large');
      return;
    }
    const head = parseRequestHead(bytes.toString('latin1', 0, end - 4));
    const framing = typeof head === 'string' || head.method === 'CONNECT' ? 'refused' : requestFraming(head);
    // A request that is not HTTP never reaches the upstream: 400, as Node itself would answer.
    if (typeof head === 'string' || typeof framing === 'string') return this.refuse('400 Bad Request');
    this.buffered = null;
    const exchange = new ExchangeInFlight(head, framing, this.socket, this.options, this.options.onRequest(head));
    this.exchange = exchange;
    const rest = bytes.subarray(end);
    const taken = exchange.start(rest, (keepOpen) => this.exchangeOver(keepOpen));
    if (taken < rest.length && !this.closing) this.buffered = rest.subarray(taken);
  }

  private exchangeOver(keepOpen: boolean): void {
    this.exchange = null;
    if (!keepOpen) return this.close();
    this.socket.resume();
    this.readRequest();
  }

  private refuse(status: string): void {
    if (this.socket.writable) this.socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    this.close();
  }

  private close(): void {
    this.closing = true;
    this.buffered = null;
    if (!this.socket.destroyed) this.socket.end();
  }
}

/** Bytes without the blank lines a client may send between requests (RFC 9112, 2.2); null when nothing is left. */
function skipBlankLines(bytes: Buffer | null): Buffer | null {
  let start = 0;
  while (bytes !== null && start < bytes.length && (bytes[start] === 0x0d || bytes[start] === 0x0a)) start++;
  return bytes === null || start === bytes.length ? null : bytes.subarray(start);
}

/** Transport failures that mean the upstream stayed silent (504) rather than unreachable (502). */
const SILENT = new Set(['timeout', 'connect-timeout']);

/** One exchange in flight: the client's request, the upstream's answer, and what has happened so far. */
class ExchangeInFlight implements UpstreamUser {
  private readonly started = performance.now();
  private readonly requestBody: Capture;
  private readonly requestReader: BodyReader;
  private readonly connection: UpstreamConnection;
  private over: ((keepOpen: boolean) => void) | undefined;
  private clientKeepsAlive: boolean;
  /** Response bytes read before its head was complete. */
  private responseStart: Buffer | null = null;
  private responseHead: ResponseHead | null = null;
  private responseFraming: Framing = { kind: 'none' };
  private responseReader: BodyReader | null = null;
  private status = 0;
  private rawHeaders: readonly string[] = [];
  private responseBody: Capture | null = null;
  /** The answer's head, until it leaves with the first body bytes (one write, not two). */
  private unsentHead: string | undefined;
  /** Body chunks kept back while an annotated answer is held. */
  private held: Buffer[] | undefined;
  /** Answer bytes reach the client decoded (an HTTP/1.0 client of a chunked answer), then the connection ends. */
  private decodeForClient = false;
  private upstreamReusable = true;
  private settled = false;

  constructor(
    private readonly head: RequestHead,
    private readonly framing: Framing,
    private readonly client: Socket,
    private readonly options: ConnectionOptions,
    private readonly hooks: ExchangeHooks,
  ) {
    this.requestBody = new Capture(options.cap);
    this.requestReader = bodyReader(framing);
    this.clientKeepsAlive = keepsAlive(head.rawHeaders, head.minorVersion);
    this.connection = options.upstream.acquire(this);
  }

  /** The client is still sending this request's body. */
  get readingBody(): boolean {
    return !this.requestReader.done && !this.settled;
  }

  /** Sends the request's head and what of its body came with it; how many of `rest`'s bytes were its body. */
  start(rest: Buffer, over: (keepOpen: boolean) => void): number {
    this.over = over;
    const { socket } = this.connection;
    const expect = headerValue(this.head.rawHeaders, 'expect');
    if (expect?.toLowerCase() === '100-continue') this.client.write('HTTP/1.1 100 Continue\r\n\r\n');
    const taken = this.requestReader.take(rest, (content) => this.requestBody.add(content));
    if (taken < 0) return this.brokenBody(rest.length);
    const headText = this.upstreamHead();
    if (taken === 0) socket.write(headText, 'latin1');
    else socket.write(withHead(headText, rest.subarray(0, taken)));
    return taken;
  }

  /** Chunks that break the coding: nothing more of this connection can be read. */
  private brokenBody(length: number): number {
    this.clientGone();
    this.client.destroy();
    return length;
  }

  private upstreamHead(): string {
    const { upstream } = this.options;
    const raw = upstreamRequestHeaders(this.head.rawHeaders, upstream.url.host);
    let text = `${this.head.method} ${upstream.basePath}${originForm(this.head.target)} HTTP/1.1\r\n`;
    for (let i = 0; i + 1 < raw.length; i += 2) text += `${raw[i] ?? ''}: ${raw[i + 1] ?? ''}\r\n`;
    if (this.framing.kind === 'chunked') text += 'Transfer-Encoding: chunked\r\n';
    return `${text}\r\n`;
  }

  /** More of the request's body: sent on as it came; how many bytes belonged to it. */
  requestBytes(bytes: Buffer): number {
    const taken = this.requestReader.take(bytes, (content) => this.requestBody.add(content));
    if (taken < 0) return this.brokenBody(bytes.length);
    if (taken > 0 && !this.connection.socket.write(bytes.subarray(0, taken))) this.client.pause();
    return taken;
  }

  clientDrained(): void {
    this.connection.socket.resume();
  }

  drained(): void {
    this.client.resume();
  }

  timedOut(): void {
    this.upstreamFailed('timeout');
  }

  /** The client half-closed its side: the answer still goes back, then the connection ends. */
  clientEnded(): void {
    if (this.requestReader.done) this.clientKeepsAlive = false;
    else this.clientGone();
  }

  /** The client went away before the exchange was over: the upstream connection is dropped with it. */
  clientGone(): void {
    if (this.settled) return;
    this.options.upstream.discard(this.connection);
    this.finish({ clientAborted: true }, false);
  }

  bytes(chunk: Buffer): void {
    if (this.settled) return;
    const rest = this.responseReader === null ? this.readResponseHead(chunk) : chunk;
    if (rest !== null) this.answerBytes(rest);
    this.flushHead();
  }

  /** Reads the answer's head; the bytes after it, or null while it is incomplete or was refused. */
  private readResponseHead(chunk: Buffer): Buffer | null {
    const bytes = this.responseStart === null ? chunk : Buffer.concat([this.responseStart, chunk]);
    const end = headEnd(bytes);
    if (end < 0) {
      this.responseStart = bytes;
      if (bytes.length > MAX_HEAD_BYTES) this.upstreamFailed('not-http');
      return null;
    }
    this.responseStart = null;
    const head = parseResponseHead(bytes.toString('latin1', 0, end - 4));
    if (typeof head === 'string') return (this.upstreamFailed(head), null);
    // 1xx answers are the upstream's business with its connection; the final answer follows.
    if (head.status < 200) return end < bytes.length ? this.readResponseHead(bytes.subarray(end)) : null;
    const framing = responseFraming(head, this.head.method);
    if (typeof framing === 'string') return (this.upstreamFailed(framing), null);
    this.beginAnswer(head, framing);
    return bytes.subarray(end);
  }

  /** Sends the answer's head, or holds it (with the body) when the answer is annotated. */
  private beginAnswer(head: ResponseHead, framing: Framing): void {
    this.responseHead = head;
    this.responseFraming = framing;
    this.responseReader = bodyReader(framing);
    this.status = head.status;
    this.rawHeaders = head.rawHeaders;
    this.responseBody = new Capture(this.options.cap);
    this.decodeForClient = framing.kind === 'chunked' && this.head.minorVersion === 0;
    if (framing.kind === 'close' || this.decodeForClient) this.clientKeepsAlive = false;
    const { annotate } = this.hooks;
    if (annotate === undefined) this.unsentHead = this.clientHead([]);
    else this.held = [];
  }

  private clientHead(extra: readonly string[]): string {
    const head = this.responseHead;
    if (head === null) return '';
    let text = `HTTP/1.1 ${head.status} ${head.statusText}\r\n`;
    const raw = endToEnd(head.rawHeaders);
    if (extra.length > 0) raw.push(...extra);
    for (let i = 0; i + 1 < raw.length; i += 2) text += `${raw[i] ?? ''}: ${raw[i + 1] ?? ''}\r\n`;
    if (this.responseFraming.kind === 'chunked' && !this.decodeForClient) text += 'Transfer-Encoding: chunked\r\n';
    if (!this.clientKeepsAlive) text += 'Connection: close\r\n';
    else if (this.head.minorVersion === 0) text += 'Connection: keep-alive\r\n';
    return `${text}\r\n`;
  }

  private answerBytes(chunk: Buffer): void {
    const reader = this.responseReader;
    const capture = this.responseBody;
    if (reader === null || capture === null) return;
    const taken = reader.take(chunk, (content) => {
      capture.add(content);
      if (this.decodeForClient) this.toClient(content);
    });
    if (taken < 0) return this.upstreamFailed('not-http');
    if (!this.decodeForClient && taken > 0) this.toClient(taken === chunk.length ? chunk : chunk.subarray(0, taken));
    // Bytes after the answer belong to no request: that connection cannot be trusted again.
    if (taken < chunk.length) this.upstreamReusable = false;
    if (this.held !== undefined && capture.over) this.release();
    if (reader.done) this.complete();
  }

  private toClient(bytes: Buffer): void {
    if (this.held !== undefined) return void this.held.push(bytes);
    const head = this.unsentHead;
    this.unsentHead = undefined;
    if (!this.client.write(head === undefined ? bytes : withHead(head, bytes))) this.connection.socket.pause();
  }

  /** Sends the answer's head if no body bytes went with it. */
  private flushHead(): void {
    if (this.unsentHead === undefined) return;
    this.client.write(this.unsentHead, 'latin1');
    this.unsentHead = undefined;
  }

  /** Sends the head of an annotated answer and what was held, then lets the rest stream. */
  private release(): void {
    const held = this.held;
    const annotate = this.hooks.annotate;
    if (held === undefined || annotate === undefined) return;
    this.held = undefined;
    this.client.write(this.clientHead(annotate(this.snapshot())), 'latin1');
    for (const chunk of held) this.client.write(chunk);
  }

  /** The answer arrived whole: the upstream connection goes back to the pool when it can serve another. */
  private complete(): void {
    this.flushHead();
    this.release();
    const head = this.responseHead;
    const reusable =
      this.upstreamReusable &&
      this.requestReader.done &&
      head !== null &&
      this.responseFraming.kind !== 'close' &&
      keepsAlive(head.rawHeaders, head.minorVersion);
    if (reusable) this.options.upstream.release(this.connection);
    else this.options.upstream.discard(this.connection);
    this.finish(undefined, this.clientKeepsAlive && this.requestReader.done);
  }

  closed(error: unknown): void {
    if (this.settled) return;
    if (this.responseFraming.kind === 'close' && this.responseReader !== null) return this.complete();
    if (error !== undefined) return this.upstreamFailed(describeTransportError(error, false));
    this.upstreamFailed(this.responseStart === null ? 'connection-reset' : 'not-http');
  }

  /** The upstream failed: the proxy answers itself if no answer began, else the client sees it cut. */
  private upstreamFailed(transportError: string): void {
    if (this.settled) return;
    this.options.upstream.discard(this.connection);
    if (this.responseReader !== null) {
      this.client.destroy();
      return this.finish({ transportError }, false);
    }
    this.status = 0;
    const status = SILENT.has(transportError) ? 504 : 502;
    const { body } = this.options.fault(status, transportError);
    const close = !this.requestReader.done || !this.clientKeepsAlive;
    this.client.write(
      `HTTP/1.1 ${status} ${status === 504 ? 'Gateway Timeout' : 'Bad Gateway'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${close ? 'Connection: close\r\n' : ''}\r\n${body}`,
    );
    this.finish({ transportError, answeredByProxy: status }, !close);
  }

  /** How the exchange went so far; `extra` says how it failed, when it did. */
  private snapshot(extra?: Partial<Forwarded>): Forwarded {
    const forwarded: Forwarded = {
      requestBody: this.requestBody,
      status: this.status,
      rawHeaders: this.rawHeaders,
      responseBody: this.responseBody,
      clientAborted: false,
      durationMs: performance.now() - this.started,
    };
    return extra === undefined ? forwarded : { ...forwarded, ...extra };
  }

  private finish(extra: Partial<Forwarded> | undefined, keepOpen: boolean): void {
    if (this.settled) return;
    this.settled = true;
    this.hooks.settled(this.snapshot(extra));
    this.over?.(keepOpen);
  }
}

/** A head (latin1 text) and the bytes that follow it, in one buffer. */
function withHead(head: string, bytes: Buffer): Buffer {
  const joined = Buffer.allocUnsafe(head.length + bytes.length);
  joined.write(head, 0, 'latin1');
  bytes.copy(joined, head.length);
  return joined;
}

/** The request target in origin form: an absolute-form target (`POST http://host/plants`) loses its origin. */
export function originForm(target: string | undefined): string {
  const text = target ?? '/';
  const absolute = /^https?:\/\/[^/?#]*/i.exec(text);
  if (!absolute) return text.startsWith('/') ? text : `/${text}`;
  const rest = text.slice(absolute[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}
