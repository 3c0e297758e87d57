import { connect as connectTcp, isIP, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import type { Sweeper, Watched } from './sweep.js';

/** What happens on an upstream connection, told to the exchange using it. */
export interface UpstreamUser {
  /** The connection this exchange waited for (it was queued: every connection was in use). */
  attached(connection: UpstreamConnection): void;
  bytes(chunk: Buffer): void;
  drained(): void;
  /** The connection closed; `error` is what broke it, if anything did. */
  closed(error: unknown): void;
  /** No byte either way for the upstream's timeout, or no connection free for as long. */
  timedOut(): void;
}

/** One connection to the upstream, used by one exchange at a time. */
export interface UpstreamConnection {
  /** It served an exchange before this one: the upstream may have closed it as it sat idle. */
  readonly reused: boolean;
  /**
   * Sends bytes (or latin1 text) to the upstream: false when they wait in memory for the upstream
   * to take them (the client should pause until `drained`), as `socket.write` says.
   */
  send(bytes: Buffer | string): boolean;
  /** The last bytes sent were refused at once (the connection was already reset or closed): none of them went. */
  readonly refused: boolean;
  pause(): void;
  resume(): void;
}

/** Where requests are forwarded, and the kept-alive connections to it. */
export interface Upstream {
  readonly url: URL;
  /** The upstream's base path without a trailing slash ('' for the root). */
  readonly basePath: string;
  /** No byte from the upstream for this long: 504 before its answer began, a cut answer after. */
  readonly timeoutMs: number;
  /**
   * A connection for `user`'s exchange: an idle kept-alive one, or a new one (writable at once);
   * `undefined` when `maxConnections` are in use: `user.attached` is called when one is free.
   */
  acquire(user: UpstreamUser): UpstreamConnection | undefined;
  /** A new connection in place of `connection`, which is closed (a resend: it keeps its place under the cap). */
  replace(connection: UpstreamConnection, user: UpstreamUser): UpstreamConnection;
  /** Hands back a connection whose exchange ended cleanly, for the next one. */
  release(connection: UpstreamConnection): void;
  /** Closes a connection that cannot serve another exchange, or stops `user` waiting for one; its user hears nothing more. */
  discard(connection: UpstreamConnection | undefined, user: UpstreamUser): void;
  /** Ends every idle connection and the sweeps; those in use end with their exchanges. */
  destroy(): void;
  /** A connection of its own, outside the pool and its cap, read as a stream: a WebSocket's tunnel. */
  openTunnel(): Socket;
}

/** Connections to one upstream at most, by default: beyond, exchanges wait for one to be free. */
export const DEFAULT_MAX_CONNECTIONS = 256;
/** An idle connection is closed after this long: a server's usual keep-alive timeout (5 s) may be closing it. */
const IDLE_MS = 4_000;
/** Idle connections kept at most; more are closed as their exchanges end. */
const MAX_IDLE = 256;

/** How connections are made and watched, the same for each. */
interface Dialer {
  readonly open: (onBytes: (chunk: Buffer) => void) => Socket;
  readonly sweeper: Sweeper;
  readonly timeoutMs: number;
  readonly onClose: (connection: PooledConnection) => void;
}

/** A connection and its user of the moment; its listeners are set once and speak to whoever uses it. */
class PooledConnection implements UpstreamConnection, Watched {
  user: UpstreamUser | null = null;
  /** Exchanges it was given, the current one included. */
  exchanges = 0;
  /** It holds a place under the cap (until it closes, or is replaced). */
  counted = true;
  /** The tick of the last byte either way, or of when it went idle. */
  lastTick: number;
  /** It can serve another exchange: no error, its upstream side not ended, not closed (the stream getters cost more). */
  usable = true;
  readonly socket: Socket;
  private error: unknown;

  constructor(private readonly dialer: Dialer) {
    this.lastTick = dialer.sweeper.tick;
    const socket = dialer.open((chunk) => this.received(chunk));
    this.socket = socket;
    socket.setNoDelay(true);
    socket.on('drain', () => this.user?.drained());
    socket.on('error', (error) => {
      this.error ??= error;
      this.usable = false;
    });
    // The upstream closed its side: an idle connection is dropped at once, never handed out again.
    socket.on('end', () => {
      this.usable = false;
      if (this.user === null) socket.destroy();
    });
    socket.on('close', () => {
      this.usable = false;
      dialer.sweeper.unwatch(this);
      // The user first: an exchange that sends again on a new connection keeps this one's place.
      this.user?.closed(this.error);
      dialer.onClose(this);
    });
    dialer.sweeper.watch(this);
  }

  /** Gives the connection to `user`'s exchange, silent since the tick `since` (when it began waiting). */
  take(user: UpstreamUser, since = this.dialer.sweeper.tick): this {
    this.user = user;
    this.exchanges++;
    this.lastTick = since;
    return this;
  }

  get reused(): boolean {
    return this.exchanges > 1;
  }

  get refused(): boolean {
    // A write refused by the system marks the socket errored before `write` returns.
    return this.socket.errored !== null;
  }

  received(chunk: Buffer): void {
    this.lastTick = this.dialer.sweeper.tick;
    // Bytes on an idle connection belong to no request: the connection cannot be trusted again.
    if (this.user === null) this.socket.destroy();
    else this.user.bytes(chunk);
  }

  send(bytes: Buffer | string): boolean {
    this.lastTick = this.dialer.sweeper.tick;
    return typeof bytes === 'string' ? this.socket.write(bytes, 'latin1') : this.socket.write(bytes);
  }

  pause(): void {
    this.socket.pause();
  }

  resume(): void {
    this.socket.resume();
  }

  sweep(): void {
    const { sweeper, timeoutMs } = this.dialer;
    if (this.user === null) {
      if (sweeper.elapsed(this.lastTick, IDLE_MS)) this.socket.destroy();
    } else if (sweeper.elapsed(this.lastTick, timeoutMs)) {
      this.lastTick = sweeper.tick;
      this.user.timedOut();
    }
  }
}

/** An exchange waiting for a connection, and since when. */
class Waiting implements Watched {
  constructor(
    readonly user: UpstreamUser,
    readonly since: number,
    private readonly sweeper: Sweeper,
    private readonly timeoutMs: number,
  ) {}

  sweep(): void {
    if (this.sweeper.elapsed(this.since, this.timeoutMs)) this.user.timedOut();
  }
}

/** How {@link createUpstream} connects. */
export interface UpstreamOptions {
  readonly timeoutMs: number;
  /** PEM certificates to trust for an https upstream instead of Node's. */
  readonly ca?: string | undefined;
  /** Connections open at most, in use or idle (default {@link DEFAULT_MAX_CONNECTIONS}). */
  readonly maxConnections?: number | undefined;
  readonly sweeper: Sweeper;
}

/**
 * Keep-alive connections to `url`'s origin, plain TCP or TLS, at most `maxConnections` of them;
 * `ca` replaces the trusted certificates of an https upstream (Node's own, NODE_EXTRA_CA_CERTS
 * included, otherwise).
 */
export function createUpstream(url: URL, options: UpstreamOptions): Upstream {
  const { timeoutMs, sweeper } = options;
  const maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  const idle: PooledConnection[] = [];
  const waiting: Waiting[] = [];
  let open = 0;
  let destroyed = false;
  const connect = (user: UpstreamUser, since?: number): PooledConnection => {
    open++;
    return new PooledConnection(dialer).take(user, since);
  };
  /** The longest waiting exchange, no longer watched: its time waiting counts in its connection's timeout. */
  const nextWaiting = (): Waiting | undefined => {
    const next = destroyed ? undefined : waiting.shift();
    if (next !== undefined) sweeper.unwatch(next);
    return next;
  };
  const dialer: Dialer = {
    open: socketOpener(url, options.ca),
    sweeper,
    timeoutMs,
    onClose(connection) {
      const at = idle.indexOf(connection);
      if (at >= 0) idle.splice(at, 1);
      if (!connection.counted) return;
      connection.counted = false;
      open--;
      // A place under the cap is free: the longest waiting exchange gets a new connection.
      const next = nextWaiting();
      if (next !== undefined) next.user.attached(connect(next.user, next.since));
    },
  };
  return {
    url,
    basePath: url.pathname.replace(/\/+$/, ''),
    timeoutMs,
    acquire(user) {
      for (let connection = idle.pop(); connection !== undefined; connection = idle.pop()) {
        if (connection.usable && !connection.socket.destroyed) return (connection.resume(), connection.take(user));
        connection.socket.destroy();
      }
      if (open < maxConnections) return connect(user);
      const entry = new Waiting(user, sweeper.tick, sweeper, timeoutMs);
      waiting.push(entry);
      sweeper.watch(entry);
      return undefined;
    },
    replace(connection, user) {
      const pooled = connection as PooledConnection;
      pooled.user = null;
      if (pooled.counted) open--;
      pooled.counted = false;
      pooled.socket.destroy();
      return connect(user);
    },
    release(connection) {
      const pooled = connection as PooledConnection;
      pooled.user = null;
      pooled.lastTick = sweeper.tick;
      if (destroyed || !pooled.usable || pooled.socket.destroyed) return void pooled.socket.destroy();
      // A connection a waiting exchange needs goes to it straight away.
      const next = nextWaiting();
      if (next !== undefined) return next.user.attached(pooled.take(next.user, next.since));
      if (idle.length >= MAX_IDLE) return void pooled.socket.destroy();
      idle.push(pooled);
    },
    discard(connection, user) {
      if (connection === undefined) {
        const at = waiting.findIndex((entry) => entry.user === user);
        if (at >= 0) sweeper.unwatch(waiting.splice(at, 1)[0] as Waiting);
        return;
      }
      const pooled = connection as PooledConnection;
      pooled.user = null;
      pooled.socket.destroy();
    },
    openTunnel() {
      const host = url.hostname.replace(/^\[|\]$/g, '');
      if (url.protocol !== 'https:') return connectTcp({ host, port: Number(url.port || 80) });
      const { ca } = options;
      return connectTls({
        host,
        port: Number(url.port || 443),
        ...(isIP(host) ? {} : { servername: host }),
        ...(ca === undefined ? {} : { ca }),
      });
    },
    destroy() {
      destroyed = true;
      for (const connection of idle.splice(0)) connection.socket.destroy();
      for (const entry of waiting.splice(0)) sweeper.unwatch(entry);
    },
  };
}

/** One read buffer for every plain upstream connection: each read is copied out of it at once. */
const READ_BUFFER = Buffer.allocUnsafe(64 * 1024);

/** The bytes of the last read, in a buffer of their own (from Node's pool when small). */
function copyRead(length: number): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  READ_BUFFER.copy(bytes, 0, 0, length);
  return bytes;
}

/**
 * Opens a socket to the upstream, handing each chunk read to `onBytes`. Plain TCP reads into one
 * shared buffer (no stream machinery per read); TLS through its stream's `data` events.
 */
function socketOpener(url: URL, ca: string | undefined): Dialer['open'] {
  const tls = url.protocol === 'https:';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || (tls ? 443 : 80));
  if (!tls) {
    return (onBytes) =>
      connectTcp({
        host,
        port,
        onread: {
          buffer: READ_BUFFER,
          callback: (length) => (onBytes(copyRead(length)), true),
        },
      });
  }
  return (onBytes) => {
    const socket = connectTls({
      host,
      port,
      ...(isIP(host) ? {} : { servername: host }),
      ...(ca === undefined ? {} : { ca }),
    });
    socket.on('data', onBytes);
    return socket;
  };
}
