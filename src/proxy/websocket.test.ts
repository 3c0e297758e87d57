import { createServer as createHttpServer } from 'node:http';
import { connect, createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createProxyServer, type ProxyOptions } from './index.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const UPGRADE = [
  'GET /ws?token=abc HTTP/1.1',
  'Host: localhost:5173',
  'Connection: Upgrade',
  'Upgrade: websocket',
  'Sec-WebSocket-Version: 13',
  'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
  'Sec-WebSocket-Protocol: vite-hmr',
  '',
  '',
].join('\r\n');

async function listening(server: {
  listen: (port: number, host: string, done: () => void) => unknown;
  address: () => unknown;
  close: (done: () => void) => unknown;
}): Promise<string> {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  cleanups.push(() => new Promise((done) => server.close(() => done())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function proxied(upstream: string, options: Partial<ProxyOptions> = {}) {
  const log: string[] = [];
  const proxy = await createProxyServer({ upstream, onLog: (line) => log.push(line), ...options });
  cleanups.push(() => proxy.close());
  return { proxy, log };
}

/** A client socket on the proxy, with everything it read so far. */
function client(port: number): { socket: Socket; read: () => string; closed: Promise<void> } {
  const socket = connect(port, '127.0.0.1');
  cleanups.push(() => Promise.resolve(void socket.destroy()));
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  const closed = new Promise<void>((done) => socket.once('close', () => done()));
  return { socket, read: () => text, closed };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > 5000) throw new Error(`not in 5 s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("a WebSocket upgrade through the proxy (a Vite dev server HMR, an API's live updates)", () => {
  it('is forwarded: the 101 comes back and bytes go both ways (it was sent as a plain GET, Upgrade dropped)', async () => {
    const server = createHttpServer((_req, res) => res.end('not upgraded'));
    const upgrades: string[] = [];
    server.on('upgrade', (req, socket: Socket) => {
      upgrades.push(`${req.url ?? ''} ${req.headers.upgrade ?? ''} ${req.headers['sec-websocket-protocol'] ?? ''}`);
      socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
      socket.on('data', (chunk: Buffer) => socket.write(Buffer.concat([Buffer.from('echo:'), chunk])));
      socket.on('end', () => socket.end());
    });
    const { proxy, log } = await proxied(await listening(server));
    const { socket, read } = client(proxy.port);
    socket.write(UPGRADE);
    await until(() => read().includes('\r\n\r\n'), 'the 101');
    expect(read()).toMatch(/^HTTP\/1\.1 101 Switching Protocols\r\n/);
    socket.write('ping');
    await until(() => read().endsWith('echo:ping'), 'the echoed frame');
    expect(upgrades).toEqual(['/ws?token=abc websocket vite-hmr']);
    await until(() => log.length > 0, 'the log line');
    expect(log).toEqual([expect.stringMatching(/^GET \/ws 101 \S+ outside the contract \(forwarded, not judged\)$/)]);
  });

  it('an upstream that cannot be reached is a 502 Error and a closed connection, never a hang', async () => {
    const free = createNetServer();
    const url = await listening(free);
    await new Promise<void>((done) => free.close(() => done()));
    cleanups.pop();
    const { proxy, log } = await proxied(url);
    const { socket, read, closed } = client(proxy.port);
    socket.write(UPGRADE);
    await closed;
    expect(read()).toMatch(/^HTTP\/1\.1 502 Bad Gateway\r\n[\s\S]*"error":5001/);
    await until(() => log.length > 0, 'the log line');
    expect(log[0]).toMatch(/^GET \/ws 502 .*upstream unreachable \(connection-refused\)/);
  });

  it('an upstream silent for the timeout is a 504 and a closed connection', async () => {
    // It reads (so it sees the proxy close the connection) and never answers.
    const silent = createNetServer((socket) => socket.on('error', () => undefined).resume());
    const { proxy } = await proxied(await listening(silent), { timeoutMs: 300 });
    const { socket, read, closed } = client(proxy.port);
    socket.write(UPGRADE);
    await closed;
    expect(read()).toMatch(/^HTTP\/1\.1 504 Gateway Timeout\r\n[\s\S]*"error":5002/);
  });

  it('another upgrade (h2c) on POST /plants is dropped as hop-by-hop and the exchange judged', async () => {
    const server = createHttpServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"name":"Fern"}');
      });
    });
    const { proxy, log } = await proxied(await listening(server), { token: 't0ken-h2c' });
    const body = '{"id":1,"name":"Fern"}';
    const { socket, read } = client(proxy.port);
    socket.write(
      `POST /plants HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\nAuthorization: Bearer t0ken-h2c\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    await until(() => read().includes('{"name":"Fern"}'), 'the answer');
    await until(() => log.length > 0, 'the log line');
    expect(log[0]).toMatch(/^POST \/plants 200 \S+ conforms$/);
  });
});
