import { Socket } from 'node:net';
import { describeTransportError } from '../runner/http/transport-errors.js';
import { endToEnd, upstreamRequestHeaders } from './headers.js';
import type { Sweeper, Watched } from './sweep.js';
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
  type ContentSink,
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
  /** The whole request body went upstream (not so when the upstream answered or closed before its end). */
  readonly requestWhole: boolean;
  /**
   * The upstream closed or reset the connection while the request body was still on its way, before
   * any answer: a server refusing a body early (over its size limit) does that after answering, and
   * its answer is lost with the connection, so the proxy cannot tell what it said.
   */
  readonly uploadCut?: boolean;
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
  /** The proxy's one timer: idle client connections are closed on its sweeps. */
  readonly sweeper: Sweeper;
}

/** A client connection with no exchange is closed after this long (Node's server keeps 5 s; browsers like longer). */
const CLIENT_IDLE_MS = 65_000;
/** Bytes of pipelined requests read ahead of the current exchange before the client is paused. */
const READ_AHEAD_BYTES = 64 * 1024;

/**
 * Serves one client connection: its requests read one after another off the socket, each
 * forwarded to the upstream with its bytes as they come (nothing parsed or re-serialised but the
 * heads), its answer sent back the same way, the first `cap` bytes of each body kept for judging.
 * Returns the socket the connection is served on (see {@link readByCallback}).
 */
export function serveConnection(socket: Socket, options: ConnectionOptions): Socket {
  const client = new ClientConnection(options);
  const served = readByCallback(socket, (chunk) => client.onData(chunk)) ?? socket;
  client.start(served, served === socket);
  return served;
}

/** One read buffer for every client connection read by callback: each read is copied out of it at once. */
const CLIENT_READ_BUFFER = Buffer.allocUnsafe(64 * 1024);

/** Node's own handle of a socket, as far as {@link readByCallback} looks at it. */
interface SocketInternals {
  _handle?: { reading?: unknown; readStart?: unknown } | null;
}

/**
 * The connection of `socket`, a server's socket accepted paused (`pauseOnConnect`) and not yet read,
 * as a socket that reads into one shared buffer and hands each read to `onBytes` (`onread`, which
 * Node offers for sockets it connects but not for those a server accepts): no stream machinery and
 * no 64 KiB allocation per read. `socket` is closed without its handle (its server counts it gone).
 * `undefined` when `socket` has no such handle (another stream, or reading already): serve it as is.
 */
export function readByCallback(socket: Socket, onBytes: (chunk: Buffer) => void): Socket | undefined {
  const internals = socket as unknown as SocketInternals;
  const handle = internals._handle;
  if (!(socket instanceof Socket) || socket.readableLength > 0 || socket.readableFlowing !== false) return undefined;
  if (handle == null || handle.reading !== false || typeof handle.readStart !== 'function') return undefined;
  internals._handle = null;
  socket.destroy();
  const onread = {
    buffer: CLIENT_READ_BUFFER,
    callback: (length: number): boolean => {
      const bytes = Buffer.allocUnsafe(length);
      CLIENT_READ_BUFFER.copy(bytes, 0, 0, length);
      onBytes(bytes);
      return true;
    },
  };
  // `handle` is not in Node's typings of the constructor's options, but is how its servers make their sockets.
  const options = { handle, allowHalfOpen: true, readable: true, writable: true, onread };
  return new Socket(options);
}

class ClientConnection implements Watched {
  /** Bytes read that belong to requests after the current one. */
  private buffered: Buffer | null = null;
  private exchange: ExchangeInFlight | null = null;
  /** The upstream connection a WebSocket upgrade goes through: every byte read is for it. */
  private tunnelled: Socket | null = null;
  private closing = false;
  /** The sweeper's tick when a byte last arrived or the last exchange ended. */
  private lastTick: number;

  private socket!: Socket;

  constructor(private readonly options: ConnectionOptions) {
    this.lastTick = options.sweeper.tick;
  }

  /** Serves `socket`; `streamed` when its bytes come as `data` events (else the caller hands them to `onData`). */
  start(socket: Socket, streamed: boolean): void {
    const { options } = this;
    this.socket = socket;
    socket.setNoDelay(true);
    options.sweeper.watch(this);
    if (streamed) {
      socket.on('data', (chunk: Buffer) => this.onData(chunk));
      socket.resume();
    }
    socket.on('drain', () => this.exchange?.clientDrained());
    socket.on('error', () => undefined);
    socket.on('end', () => {
      if (this.exchange === null) this.close();
      else this.exchange.clientEnded();
    });
    socket.on('close', () => {
      this.closing = true;
      options.sweeper.unwatch(this);
      this.exchange?.clientGone();
    });
  }

  sweep(): void {
    // A WebSocket may be quiet for long: it ends when either side closes it.
    if (this.tunnelled !== null) return;
    if (this.exchange === null && this.options.sweeper.elapsed(this.lastTick, CLIENT_IDLE_MS)) this.socket.destroy();
  }

  onData(chunk: Buffer): void {
    if (this.tunnelled !== null) return this.toTunnel(chunk);
    if (this.closing) return;
    this.lastTick = this.options.sweeper.tick;
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
    const head = parseRequestHead(bytes.toString('latin1', 0, end - 4), bytes);
    const framing = typeof head === 'string' || head.method === 'CONNECT' ? 'refused' : requestFraming(head);
    // A request that is not HTTP never reaches the upstream: 400, as Node itself would answer.
    if (typeof head === 'string' || typeof framing === 'string') return this.refuse('400 Bad Request');
    this.buffered = null;
    if (asksForWebSocket(head)) return this.openTunnel(head, bytes.subarray(end));
    const exchange = new ExchangeInFlight(head, framing, this.socket, this.options, this.options.onRequest(head));
    this.exchange = exchange;
    const rest = bytes.subarray(end);
    const taken = exchange.start(rest, (keepOpen) => this.exchangeOver(keepOpen));
    if (taken < rest.length && !this.closing) this.buffered = rest.subarray(taken);
  }

  private exchangeOver(keepOpen: boolean): void {
    this.exchange = null;
    this.lastTick = this.options.sweeper.tick;
    if (!keepOpen) return this.close();
    this.socket.resume();
    this.readRequest();
  }

  /**
   * Forwards a WebSocket upgrade (a Vite dev server's HMR, an API's live updates) on an upstream connection
   * of its own, then every byte both ways until either side closes: the upstream's answer, 101 or a
   * refusal, reaches the client as it came. Not judged; logged once its status line arrives.
   */
  private openTunnel(head: RequestHead, rest: Buffer): void {
    const { options } = this;
    const hooks = options.onRequest(head);
    const started = performance.now();
    const upstream = options.upstream.openTunnel();
    this.tunnelled = upstream;
    let answered = false;
    const settle = (status: number, extra?: Partial<Forwarded>): void =>
      hooks.settled({
        requestBody: new Capture(0),
        status,
        rawHeaders: [],
        responseBody: null,
        clientAborted: false,
        requestWhole: true,
        durationMs: performance.now() - started,
        ...extra,
      });
    const failed = (transportError: string): void => {
      if (answered) return;
      answered = true;
      upstream.destroy();
      const status = SILENT.has(transportError) ? 504 : 502;
      const { body } = options.fault(status, transportError);
      this.tunnelled = null;
      this.socket.end(
        `HTTP/1.1 ${status} ${status === 504 ? 'Gateway Timeout' : 'Bad Gateway'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
      settle(0, { transportError, answeredByProxy: status });
    };
    upstream.setNoDelay(true);
    upstream.setTimeout(options.upstream.timeoutMs, () => {
      failed('timeout');
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!answered) {
        answered = true;
        upstream.setTimeout(0);
        settle(Number(/^HTTP\/1\.[01] (\d{3})/.exec(chunk.toString('latin1', 0, 16))?.[1] ?? 0));
      }
      if (!this.socket.write(chunk)) upstream.pause();
    });
    this.socket.on('drain', () => upstream.resume());
    upstream.on('drain', () => this.socket.resume());
    upstream.on('error', (error) => failed(describeTransportError(error, false)));
    upstream.on('close', () => {
      failed('connection-reset');
      if (this.tunnelled !== null) this.socket.destroy();
    });
    this.socket.once('close', () => upstream.destroy());
    upstream.write(this.tunnelHead(head));
    if (rest.length > 0) this.toTunnel(rest);
  }

  private tunnelHead(head: RequestHead): string {
    const { upstream } = this.options;
    const raw = upstreamRequestHeaders(head.rawHeaders, upstream.url.host);
    let text = `${head.method} ${upstream.basePath}${originForm(head.target)} HTTP/1.1\r\n`;
    for (let i = 0; i + 1 < raw.length; i += 2) text += `${raw[i] ?? ''}: ${raw[i + 1] ?? ''}\r\n`;
    return `${text}Connection: Upgrade\r\nUpgrade: ${headerValue(head.rawHeaders, 'upgrade') ?? 'websocket'}\r\n\r\n`;
  }

  private toTunnel(chunk: Buffer): void {
    if (this.tunnelled?.write(chunk) === false) this.socket.pause();
  }

  private refuse(status: string): void {
    if (this.socket.writable) this.socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    this.close();
  }

  private close(): void {
    this.closing = true;
    this.buffered = null;
    // A client still sending a body (its answer came first) is read to its end and dropped, not left blocked.
    this.socket.resume();
    if (!this.socket.destroyed) this.socket.end();
  }
}

/** A request to switch to WebSocket (RFC 6455, 4.1: a GET with `Upgrade: websocket`); other upgrades (h2c) are dropped as hop-by-hop. */
function asksForWebSocket(head: RequestHead): boolean {
  if (head.method !== 'GET') return false;
  const upgrade = headerValue(head.rawHeaders, 'upgrade');
  return upgrade !== undefined && /(^|,)\s*websocket\s*(,|$)/i.test(upgrade);
}

/** Bytes without the blank lines a client may send between requests (RFC 9112, 2.2); null when nothing is left. */
function skipBlankLines(bytes: Buffer | null): Buffer | null {
  let start = 0;
  while (bytes !== null && start < bytes.length && (bytes[start] === 0x0d || bytes[start] === 0x0a)) start++;
  if (bytes === null || start === bytes.length) return null;
  return start === 0 ? bytes : bytes.subarray(start);
}

/** Transport failures that mean the upstream stayed silent (504) rather than unreachable (502). */
const SILENT = new Set(['timeout', 'connect-timeout']);

/** One exchange in flight: the client's request, the upstream's answer, and what has happened so far. */
class ExchangeInFlight implements UpstreamUser {
  private readonly started = performance.now();
  private readonly requestBody: Capture;
  private readonly requestReader: BodyReader;
  /** Undefined while the exchange waits for a connection (every one allowed is in use). */
  private connection: UpstreamConnection | undefined;
  /** What was to go upstream while no connection was free. */
  private pending: (Buffer | string)[] | undefined;
  /** Everything sent upstream while it is little enough to send again (see `mayResend`), else null. */
  private sent: (Buffer | string)[] | null = [];
  private sentBytes = 0;
  private resent = false;
  /** The client was paused while no connection was free. */
  private waitedForConnection = false;
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
  /** Body bytes were kept back: the upstream had answered before the body's end. */
  private bodyWithheld = false;

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
    if (this.connection === undefined) this.pending = [];
  }

  /** The client is still sending this request's body. */
  get readingBody(): boolean {
    return !this.requestReader.done && !this.settled;
  }

  /** Sends the request's head and what of its body came with it; how many of `rest`'s bytes were its body. */
  start(rest: Buffer, over: (keepOpen: boolean) => void): number {
    this.over = over;
    const expect = headerValue(this.head.rawHeaders, 'expect');
    if (expect?.toLowerCase() === '100-continue') this.client.write('HTTP/1.1 100 Continue\r\n\r\n');
    const taken = this.requestReader.take(rest, this.requestBody);
    if (taken < 0) return this.brokenBody(rest.length);
    const headText = this.upstreamHead();
    this.toUpstream(
      taken === 0 ? headText : withHead(headText, taken === rest.length ? rest : rest.subarray(0, taken)),
    );
    return taken;
  }

  /**
   * Sends bytes of the request upstream, or keeps them until a connection is free. When the first
   * write to a reused connection is refused at once, the upstream had closed it: nothing of the
   * request reached it, and the request goes again on a new connection.
   */
  private toUpstream(bytes: Buffer | string): void {
    const connection = this.connection;
    if (connection === undefined) return void this.pending?.push(bytes);
    const first = this.sentBytes === 0;
    this.keepSent(bytes);
    const flowing = connection.send(bytes);
    // Only a first write to a reused connection is looked at: any other failure ends the exchange as it closes.
    if (first && connection.reused && !this.resent && connection.refused) return this.resend(connection, [bytes]);
    if (!flowing) this.client.pause();
  }

  /** Keeps what was sent while the request may go again, up to {@link RESEND_BYTES}. */
  private keepSent(bytes: Buffer | string): void {
    this.sentBytes += bytes.length;
    if (this.sent === null) return;
    if (this.sentBytes > RESEND_BYTES) this.sent = null;
    else this.sent.push(bytes);
  }

  /** The request again, from its first byte, on a new connection in place of `connection` (once). */
  private resend(connection: UpstreamConnection, again: readonly (Buffer | string)[]): void {
    this.resent = true;
    const fresh = this.options.upstream.replace(connection, this);
    this.connection = fresh;
    let flowing = true;
    for (const bytes of again) flowing = fresh.send(bytes);
    if (!flowing) this.client.pause();
  }

  /**
   * Whether a request whose connection closed (or was reset as it read) before any byte of its
   * answer may be sent again, as Go's net/http transport decides (`shouldRetryRequest`): never on a
   * new connection, never twice, only a request held whole (at most 64 KiB) that its method or an
   * Idempotency-Key says may be repeated. A POST /plants without one may have been stored: 502.
   */
  private mayResend(error: unknown): boolean {
    const readFailed = error === undefined || (error as { syscall?: unknown }).syscall === 'read';
    return (
      readFailed && this.connection?.reused === true && !this.resent && this.sent !== null && replayable(this.head)
    );
  }

  /** The connection this exchange waited for: what was kept for it goes now. */
  attached(connection: UpstreamConnection): void {
    this.connection = connection;
    const pending = this.pending ?? [];
    this.pending = undefined;
    for (const bytes of pending) this.toUpstream(bytes);
    if (this.waitedForConnection) this.client.resume();
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
    const taken = this.requestReader.take(bytes, this.requestBody);
    if (taken < 0) return this.brokenBody(bytes.length);
    // An upstream that answered before the body's end is done with it (a body over its limit, say):
    // the rest would only meet its closed connection, and lose its answer with it.
    // (Only a final answer: a 1xx, or a head not yet whole, lets the body go on.)
    if (taken > 0 && this.responseReader === null) this.toUpstream(bytes.subarray(0, taken));
    else if (taken > 0) this.bodyWithheld = true;
    // A request waiting for a connection is held in memory: the client waits too.
    if (this.pending !== undefined && taken > 0) {
      this.waitedForConnection = true;
      this.client.pause();
    }
    return taken;
  }

  clientDrained(): void {
    this.connection?.resume();
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
    this.options.upstream.discard(this.connection, this);
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
    const head = parseResponseHead(bytes.toString('latin1', 0, end - 4), bytes);
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
    // The rest of the body is not sent on (see requestBytes): the client, paused while the upstream
    // took it slowly, is read again.
    if (!this.requestReader.done) this.client.resume();
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
    const taken = reader.take(chunk, this.decodeForClient ? this.decodingSink(capture) : capture);
    if (taken < 0) return this.upstreamFailed('not-http');
    if (!this.decodeForClient && taken > 0) this.toClient(taken === chunk.length ? chunk : chunk.subarray(0, taken));
    // Bytes after the answer belong to no request: that connection cannot be trusted again.
    if (taken < chunk.length) this.upstreamReusable = false;
    if (this.held !== undefined && capture.over) this.release();
    if (reader.done) this.complete();
  }

  /** Content kept for judging and sent on decoded (an HTTP/1.0 client of a chunked answer). */
  private decodingSink(capture: Capture): ContentSink {
    return {
      add: (content) => {
        capture.add(content);
        this.toClient(content);
      },
    };
  }

  private toClient(bytes: Buffer): void {
    if (this.held !== undefined) return void this.held.push(bytes);
    const head = this.unsentHead;
    this.unsentHead = undefined;
    if (!this.client.write(head === undefined ? bytes : withHead(head, bytes))) this.connection?.pause();
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
      // It answered before the body's end, and still waits for the rest it was not sent.
      !this.bodyWithheld &&
      head !== null &&
      this.responseFraming.kind !== 'close' &&
      keepsAlive(head.rawHeaders, head.minorVersion);
    const { upstream } = this.options;
    if (reusable && this.connection !== undefined) upstream.release(this.connection);
    else upstream.discard(this.connection, this);
    this.finish(undefined, this.clientKeepsAlive && this.requestReader.done);
  }

  closed(error: unknown): void {
    if (this.settled) return;
    if (this.responseFraming.kind === 'close' && this.responseReader !== null) return this.complete();
    const connection = this.connection;
    const answerBegan = this.responseReader !== null || this.responseStart !== null;
    if (!answerBegan && connection !== undefined && this.sent !== null && this.mayResend(error))
      return this.resend(connection, this.sent);
    if (error !== undefined) return this.upstreamFailed(describeTransportError(error, false));
    this.upstreamFailed(this.responseStart === null ? 'connection-reset' : 'not-http');
  }

  /** The upstream failed: the proxy answers itself if no answer began, else the client sees it cut. */
  private upstreamFailed(transportError: string): void {
    if (this.settled) return;
    this.options.upstream.discard(this.connection, this);
    if (this.responseReader !== null) {
      this.client.destroy();
      return this.finish({ transportError }, false);
    }
    this.status = 0;
    const status = SILENT.has(transportError) ? 504 : 502;
    const { body } = this.options.fault(status, transportError);
    const close = !this.requestReader.done || !this.clientKeepsAlive;
    const uploadCut = transportError === 'connection-reset' && this.sentBytes > 0 && !this.requestReader.done;
    this.client.write(
      `HTTP/1.1 ${status} ${status === 504 ? 'Gateway Timeout' : 'Bad Gateway'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${close ? 'Connection: close\r\n' : ''}\r\n${body}`,
    );
    this.finish({ transportError, answeredByProxy: status, ...(uploadCut ? { uploadCut } : {}) }, !close);
  }

  /** How the exchange went so far; `extra` says how it failed, when it did. */
  private snapshot(extra?: Partial<Forwarded>): Forwarded {
    const forwarded: Forwarded = {
      requestBody: this.requestBody,
      status: this.status,
      rawHeaders: this.rawHeaders,
      responseBody: this.responseBody,
      clientAborted: false,
      requestWhole: this.requestReader.done && !this.bodyWithheld,
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

/** Bytes of a request kept to send it again: as much as is sent in one write (a request head and a small body). */
const RESEND_BYTES = 64 * 1024;

/** Methods a client may send again without asking (RFC 9110, 9.2.2), as Go's transport reads `isReplayable`. */
const REPEATABLE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

/** Whether a request may be sent twice: an idempotent method, or an idempotency key says so. */
function replayable(head: RequestHead): boolean {
  return (
    REPEATABLE_METHODS.has(head.method) ||
    headerValue(head.rawHeaders, 'idempotency-key') !== undefined ||
    headerValue(head.rawHeaders, 'x-idempotency-key') !== undefined
  );
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
