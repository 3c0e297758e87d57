import { connect as connectTcp, isIP, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';

/** What happens on an upstream connection, told to the exchange using it. */
export interface UpstreamUser {
  bytes(chunk: Buffer): void;
  drained(): void;
  /** The connection closed; `error` is what broke it, if anything did. */
  closed(error: unknown): void;
  /** No byte either way for the upstream's timeout. */
  timedOut(): void;
}

/** One connection to the upstream, used by one exchange at a time. */
export interface UpstreamConnection {
  readonly socket: Socket;
}

/** Where requests are forwarded, and the kept-alive connections to it. */
export interface Upstream {
  readonly url: URL;
  /** The upstream's base path without a trailing slash ('' for the root). */
  readonly basePath: string;
  /** No byte from the upstream for this long: 504 before its answer began, a cut answer after. */
  readonly timeoutMs: number;
  /** A connection for `user`'s exchange: an idle kept-alive one, or a new one (writable at once). */
  acquire(user: UpstreamUser): UpstreamConnection;
  /** Hands back a connection whose exchange ended cleanly, for the next one. */
  release(connection: UpstreamConnection): void;
  /** Closes a connection that cannot serve another exchange; its user hears nothing more. */
  discard(connection: UpstreamConnection): void;
  /** Ends every idle connection; those in use end with their exchanges. */
  destroy(): void;
}

/** An idle connection is not reused after this long: a server's usual keep-alive timeout (5 s) may be closing it. */
const IDLE_MS = 4_000;
/** Idle connections kept at most; more are closed as their exchanges end. */
const MAX_IDLE = 256;

/** A connection and its user of the moment; its listeners are set once and speak to whoever uses it. */
class PooledConnection implements UpstreamConnection {
  user: UpstreamUser | null = null;
  idleSince = 0;
  private error: unknown;

  constructor(
    readonly socket: Socket,
    timeoutMs: number,
    onClose: (connection: PooledConnection) => void,
  ) {
    socket.setNoDelay(true);
    socket.setTimeout(timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      // Bytes on an idle connection belong to no request: the connection cannot be trusted again.
      if (this.user === null) socket.destroy();
      else this.user.bytes(chunk);
    });
    socket.on('drain', () => this.user?.drained());
    socket.on('error', (error) => (this.error ??= error));
    socket.on('timeout', () => {
      if (this.user === null) socket.destroy();
      else this.user.timedOut();
    });
    socket.on('close', () => {
      onClose(this);
      this.user?.closed(this.error);
    });
  }
}

/**
 * Keep-alive connections to `url`'s origin, plain TCP or TLS; `ca` replaces the trusted
 * certificates of an https upstream (Node's own, NODE_EXTRA_CA_CERTS included, otherwise).
 */
export function createUpstream(url: URL, timeoutMs: number, ca?: string): Upstream {
  const tls = url.protocol === 'https:';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || (tls ? 443 : 80));
  const idle: PooledConnection[] = [];
  let destroyed = false;
  const forget = (connection: PooledConnection): void => {
    const at = idle.indexOf(connection);
    if (at >= 0) idle.splice(at, 1);
  };
  const open = (): PooledConnection =>
    new PooledConnection(
      tls
        ? connectTls({ host, port, ...(isIP(host) ? {} : { servername: host }), ...(ca === undefined ? {} : { ca }) })
        : connectTcp({ host, port }),
      timeoutMs,
      forget,
    );
  return {
    url,
    basePath: url.pathname.replace(/\/+$/, ''),
    timeoutMs,
    acquire(user) {
      const now = performance.now();
      for (let connection = idle.pop(); connection !== undefined; connection = idle.pop()) {
        if (connection.socket.destroyed || now - connection.idleSince > IDLE_MS) {
          connection.socket.destroy();
          continue;
        }
        connection.user = user;
        connection.socket.resume();
        return connection;
      }
      const connection = open();
      connection.user = user;
      return connection;
    },
    release(connection) {
      const pooled = connection as PooledConnection;
      pooled.user = null;
      if (destroyed || idle.length >= MAX_IDLE || pooled.socket.destroyed) return void pooled.socket.destroy();
      pooled.idleSince = performance.now();
      idle.push(pooled);
    },
    discard(connection) {
      (connection as PooledConnection).user = null;
      connection.socket.destroy();
    },
    destroy() {
      destroyed = true;
      for (const connection of idle.splice(0)) connection.socket.destroy();
    },
  };
}
