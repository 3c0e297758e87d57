import {
  request as httpRequest,
  type Agent,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Agent as HttpsAgent } from 'node:https';
import { describeTransportError } from '../runner/http/transport-errors.js';
import { endToEnd, upstreamRequestHeaders } from './headers.js';

/** Where and how requests are forwarded. */
export interface Upstream {
  readonly url: URL;
  /** The upstream's base path without a trailing slash ('' for the root). */
  readonly basePath: string;
  readonly agent: Agent | HttpsAgent;
  /** No byte from the upstream for this long: 504 before its answer began, a cut answer after. */
  readonly timeoutMs: number;
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
    return Buffer.concat(this.chunks, this.size);
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

/** One exchange in flight: its two sockets and what has happened so far. */
class ExchangeInFlight {
  private readonly started = performance.now();
  private readonly requestBody: Capture;
  private status = 0;
  private headers: IncomingHttpHeaders = {};
  private responseBody: Capture | null = null;
  private responseDone = false;
  private timedOut = false;
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
    const { upstream } = this.options;
    const send = upstream.url.protocol === 'https:' ? httpsRequest : httpRequest;
    const outgoing = send({
      protocol: upstream.url.protocol,
      hostname: upstream.url.hostname.replace(/^\[|\]$/g, ''),
      port: upstream.url.port,
      method: this.req.method,
      path: `${upstream.basePath}${originForm(this.req.url)}`,
      headers: upstreamRequestHeaders(this.req.rawHeaders, upstream.url.host),
      agent: upstream.agent,
    });
    outgoing.setTimeout(upstream.timeoutMs, () => {
      this.timedOut = true;
      outgoing.destroy(new Error('upstream timeout'));
    });
    outgoing.on('response', (incoming) => this.relay(incoming));
    outgoing.on('error', (error) => this.upstreamFailed(error));
    this.req.on('data', (chunk: Buffer) => this.requestBody.add(chunk));
    const clientLeft = (): void => {
      this.clientGone = true;
      outgoing.destroy();
    };
    this.req.on('error', clientLeft);
    this.req.on('close', () => this.req.complete || clientLeft());
    this.req.pipe(outgoing);
    this.res.on('close', () => {
      if (this.res.writableFinished) return;
      outgoing.destroy();
      this.finish({ clientAborted: true });
    });
  }

  /** Sends the upstream's answer on, as it comes (or held whole first, to annotate it). */
  private relay(incoming: IncomingMessage): void {
    this.status = incoming.statusCode ?? 0;
    this.headers = incoming.headers;
    const body = new Capture(this.options.cap);
    this.responseBody = body;
    const head = (extra: readonly string[]): void => {
      this.res.writeHead(this.status, incoming.statusMessage, [...endToEnd(incoming.rawHeaders), ...extra]);
    };
    const { annotate } = this.options;
    if (annotate === undefined) {
      head([]);
      incoming.on('data', (chunk: Buffer) => body.add(chunk));
      incoming.pipe(this.res);
    } else {
      this.hold(incoming, body, (held) => {
        head(annotate(this.snapshot()));
        for (const chunk of held) this.res.write(chunk);
      });
    }
    incoming.on('end', () => {
      this.responseDone = true;
      if (annotate !== undefined) this.res.end();
      this.finish({});
    });
    incoming.on('error', (error) => this.upstreamFailed(error));
  }

  /** Keeps the answer until it is complete (or over the cap), then sends its head and what was held. */
  private hold(incoming: IncomingMessage, body: Capture, flush: (held: readonly Buffer[]) => void): void {
    const held: Buffer[] = [];
    let flushed = false;
    const release = (): void => {
      if (flushed) return;
      flushed = true;
      flush(held);
    };
    incoming.on('data', (chunk: Buffer) => {
      body.add(chunk);
      if (flushed) {
        if (!this.res.write(chunk)) {
          incoming.pause();
          this.res.once('drain', () => incoming.resume());
        }
        return;
      }
      held.push(chunk);
      if (body.over) release();
    });
    incoming.once('end', release);
  }

  private upstreamFailed(error: unknown): void {
    if (this.responseDone || this.settled) return;
    if (this.clientGone) {
      this.res.destroy();
      this.finish({ clientAborted: true });
      return;
    }
    const transportError = describeTransportError(error, this.timedOut);
    if (this.res.headersSent || this.res.destroyed) {
      // The answer had begun: the client can only see it cut, as the upstream left it.
      this.res.destroy();
      this.finish({ transportError });
      return;
    }
    const status = this.timedOut ? 504 : 502;
    const { body } = this.options.fault(status, transportError);
    this.res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    this.res.end(body);
    this.req.resume();
    this.finish({ transportError, answeredByProxy: status });
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

/** The request target in origin form: an absolute-form target (`POST http://host/plants`) loses its origin. */
export function originForm(target: string | undefined): string {
  const text = target ?? '/';
  const absolute = /^https?:\/\/[^/?#]*/i.exec(text);
  if (!absolute) return text.startsWith('/') ? text : `/${text}`;
  const rest = text.slice(absolute[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}
