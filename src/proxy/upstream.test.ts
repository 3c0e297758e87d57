import { createServer as createHttpServer } from 'node:http';
import { connect, createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createProxyServer, type ProxyOptions, type ProxyServer } from './index.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const PLANT = '{"id":1,"name":"x"}';
const ANSWER = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 12\r\n\r\n{"name":"x"}';

/** What a raw upstream saw: each connection's requests, by the first line of each. */
interface RawUpstream {
  readonly url: string;
  readonly connections: string[][];
}

/**
 * An upstream read off raw sockets, answering the `n`th request of a connection as `onRequest`
 * decides: the test controls exactly when a kept-alive connection closes.
 */
async function rawUpstream(onRequest: (socket: Socket, n: number) => void): Promise<RawUpstream> {
  const connections: string[][] = [];
  const server: Server = createNetServer((socket) => {
    const lines: string[] = [];
    connections.push(lines);
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => {
      // Every request here fits one read and has no body, or a body within the chunk it came in.
      for (const line of chunk.toString('latin1').match(/^[A-Z]+ \S+ HTTP\/1\.1$/gm) ?? []) {
        lines.push(line);
        onRequest(socket, lines.length);
      }
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  cleanups.push(() => new Promise((done) => server.close(() => done())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connections };
}

async function started(upstream: string, options: Partial<ProxyOptions> = {}) {
  const log: string[] = [];
  const proxy = await createProxyServer({ upstream, onLog: (line) => log.push(line), ...options });
  cleanups.push(() => proxy.close());
  return { proxy, log };
}

/** Writes `bytes` to the proxy on one connection and reads until `answers` status lines came (5 s at most). */
async function rawExchange(proxy: ProxyServer, bytes: string, answers: number): Promise<string[]> {
  const socket = connect(proxy.port, '127.0.0.1');
  cleanups.push(() => Promise.resolve(void socket.destroy()));
  let text = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not ${answers} answers in 5 s: ${JSON.stringify(text)}`)), 5000);
    const statuses = (): string[] => text.match(/HTTP\/1\.1 \d{3}/g) ?? [];
    const settle = (): void => (clearTimeout(timer), resolve(statuses()));
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (statuses().length >= answers) settle();
    });
    socket.on('close', settle);
    socket.on('error', () => undefined);
    socket.write(bytes);
  });
}

const plantRequest = (id: number, extra = ''): string => {
  const body = PLANT.replace('1', String(id));
  return `POST /plants HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${extra}Content-Length: ${body.length}\r\n\r\n${body}`;
};

describe('a reused upstream connection the upstream closed', () => {
  it('sends a request again on a new connection when its write to the reused one was refused: nothing had reached the upstream', async () => {
    // Each connection answers once, then is reset: the pipelined second request meets a connection
    // that looks idle and alive, but whose reset has arrived.
    const upstream = await rawUpstream((socket) => {
      socket.write(ANSWER);
      socket.resetAndDestroy();
    });
    const { proxy } = await started(upstream.url);
    const statuses = await rawExchange(proxy, plantRequest(1) + plantRequest(2), 2);
    expect(statuses).toEqual(['HTTP/1.1 200', 'HTTP/1.1 200']);
    // The second request reached the upstream once, on a connection of its own.
    expect(upstream.connections).toEqual([['POST /plants HTTP/1.1'], ['POST /plants HTTP/1.1']]);
  });

  it('sends a GET again when the reused connection closes before any byte of its answer', async () => {
    const upstream = await rawUpstream((socket, n) => (n === 1 ? socket.write(ANSWER) : socket.destroy()));
    const { proxy } = await started(upstream.url);
    const get = 'GET /health HTTP/1.1\r\nHost: x\r\n\r\n';
    expect(await rawExchange(proxy, get, 1)).toEqual(['HTTP/1.1 200']);
    expect(await rawExchange(proxy, get, 1)).toEqual(['HTTP/1.1 200']);
    expect(upstream.connections).toEqual([['GET /health HTTP/1.1', 'GET /health HTTP/1.1'], ['GET /health HTTP/1.1']]);
  });

  it('answers 502 to a POST /plants written on a reused connection that closed, without sending it twice', async () => {
    const upstream = await rawUpstream((socket, n) => (n === 1 ? socket.write(ANSWER) : socket.destroy()));
    const { proxy, log } = await started(upstream.url);
    expect(await rawExchange(proxy, plantRequest(1), 1)).toEqual(['HTTP/1.1 200']);
    expect(await rawExchange(proxy, plantRequest(2), 1)).toEqual(['HTTP/1.1 502']);
    // The upstream may have stored plant 2: sending it again would make its answer a repeated id.
    expect(upstream.connections).toEqual([['POST /plants HTTP/1.1', 'POST /plants HTTP/1.1']]);
    await expect.poll(() => log.length, { timeout: 5000 }).toBe(2);
    // It was reached (it read the request), then closed: not 'unreachable', which sends one to check the URL.
    expect(log[1]).toMatch(
      /\(the upstream closed the connection before a complete answer, connection-reset: the proxy answered 502\)/,
    );
    expect(log[1]).not.toMatch(/unreachable/);
  });

  it('sends a POST with an Idempotency-Key again, and a request on a new connection never', async () => {
    const upstream = await rawUpstream((socket, n) => (n === 1 ? socket.write(ANSWER) : socket.destroy()));
    const { proxy } = await started(upstream.url);
    const keyed = plantRequest(2, 'Idempotency-Key: plant-2\r\n');
    expect(await rawExchange(proxy, plantRequest(1), 1)).toEqual(['HTTP/1.1 200']);
    expect(await rawExchange(proxy, keyed, 1)).toEqual(['HTTP/1.1 200']);
    expect(upstream.connections.map((requests) => requests.length)).toEqual([2, 1]);

    const silent = await rawUpstream((socket) => socket.destroy());
    const fresh = await started(silent.url);
    expect(await rawExchange(fresh.proxy, 'GET / HTTP/1.1\r\nHost: x\r\n\r\n', 1)).toEqual(['HTTP/1.1 502']);
    expect(silent.connections).toEqual([['GET / HTTP/1.1']]);
  });
});

describe('the upstream connection cap', () => {
  it('opens no more upstream connections than allowed, and answers every exchange waiting for one', async () => {
    let open = 0;
    let most = 0;
    const upstream = createHttpServer((req, res) => {
      req.resume();
      req.on('end', () => setTimeout(() => res.end('{"name":"x"}'), 20));
    });
    upstream.on('connection', (socket: Socket) => {
      most = Math.max(most, ++open);
      socket.on('close', () => open--);
    });
    await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
    cleanups.push(() => new Promise((done) => upstream.close(() => done())));
    const { proxy } = await started(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, {
      maxConnections: 3,
    });
    const clients = Array.from({ length: 12 }, (_, i) =>
      request(`${proxy.url}/plants`, { method: 'POST', body: PLANT.replace('1', String(i)) }).then(
        async (response) => (await response.body.arrayBuffer(), response.statusCode),
      ),
    );
    expect(await Promise.all(clients)).toEqual(Array.from({ length: 12 }, () => 200));
    expect(most).toBeLessThanOrEqual(3);
    expect(most).toBeGreaterThan(0);
  });

  it('answers 504 to an exchange that waited for a connection as long as the timeout', async () => {
    const upstream = await rawUpstream(() => undefined);
    const { proxy, log } = await started(upstream.url, { maxConnections: 1, timeoutMs: 200 });
    const answers = await Promise.all([rawExchange(proxy, plantRequest(1), 1), rawExchange(proxy, plantRequest(2), 1)]);
    expect(answers).toEqual([['HTTP/1.1 504'], ['HTTP/1.1 504']]);
    await expect.poll(() => log.length, { timeout: 5000 }).toBe(2);
    expect(log.every((line) => line.includes('the proxy answered 504'))).toBe(true);
  });
});

describe('an upstream that stops with a request in flight', () => {
  it('fails that exchange (no-server-error) and, when later requests find it unreachable, says in a note that it stopped', async () => {
    const server: Server = createNetServer((socket) => {
      socket.on('error', () => undefined);
      // Reads the request, then dies as a SIGKILL leaves it: the connection reset, nothing listening.
      socket.once('data', () => {
        socket.destroy();
        server.close();
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    const { proxy, log } = await started(`http://127.0.0.1:${port}`);
    expect(await rawExchange(proxy, plantRequest(1), 1)).toEqual(['HTTP/1.1 502']);
    expect(await rawExchange(proxy, plantRequest(2), 1)).toEqual(['HTTP/1.1 502']);
    await expect.poll(() => log.length, { timeout: 5000 }).toBe(2);
    const report = proxy.report();
    expect(report.checks.find((check) => check.id === 'no-server-error')?.status).toBe('fail');
    expect(report.notes.join('\n')).toMatch(
      /1 POST \/plants exchanges ended with the upstream closing its connection before answering, and later requests found it unreachable: it stopped/,
    );
  });

  it('adds no such note when the upstream still answers after a reset', async () => {
    let requests = 0;
    const upstream = await rawUpstream((socket) => (++requests === 1 ? socket.destroy() : socket.write(ANSWER)));
    const { proxy } = await started(upstream.url);
    expect(await rawExchange(proxy, plantRequest(1), 1)).toEqual(['HTTP/1.1 502']);
    expect(await rawExchange(proxy, plantRequest(2), 1)).toEqual(['HTTP/1.1 200']);
    expect(proxy.report().notes.join('\n')).not.toMatch(/it stopped/);
  });
});
