import { connect, createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { readByCallback } from './forward.js';
import { createProxyServer, type ProxyServer } from './index.js';
import { rawHeader, recordingUpstream } from './test-upstreams.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function proxyTo(upstream: string): Promise<{ proxy: ProxyServer; log: string[] }> {
  const log: string[] = [];
  const proxy = await createProxyServer({ upstream, onLog: (line) => log.push(line) });
  cleanups.push(() => proxy.close());
  return { proxy, log };
}

/** Writes raw bytes to the proxy and reads until `done` says the answer is all there (5 s at most). */
async function exchangeRaw(
  proxy: ProxyServer,
  writes: readonly (string | Buffer)[],
  done: (text: string) => boolean,
): Promise<string> {
  const socket: Socket = connect(proxy.port, '127.0.0.1');
  cleanups.push(() => Promise.resolve(void socket.destroy()));
  let text = '';
  const answered = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no complete answer in 5 s: ${JSON.stringify(text)}`)), 5000);
    const settle = (): void => {
      clearTimeout(timer);
      resolve(text);
    };
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (done(text)) settle();
    });
    socket.on('close', settle);
    socket.on('error', () => undefined);
  });
  await new Promise((resolve) => socket.once('connect', resolve));
  for (const bytes of writes) {
    socket.write(bytes);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return answered;
}

const count = (text: string, part: string): number => text.split(part).length - 1;

describe('client connections, read by the proxy itself', () => {
  it('forwards a chunked request: the upstream receives the same body, split however it came', async () => {
    const upstream = await recordingUpstream();
    cleanups.push(() => upstream.close());
    const { proxy } = await proxyTo(upstream.url);
    const answer = await exchangeRaw(
      proxy,
      [
        'POST /plants HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n7\r\n{"id":9',
        '\r\n15\r\n223372036854775807,"n\r\n',
        '9\r\name":"x"}\r\n0\r\n\r\n',
      ],
      (text) => text.includes('bytes"}'),
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(upstream.received[0]?.body.toString()).toBe('{"id":9223372036854775807,"name":"x"}');
  });

  it('drops a connection whose chunks break the coding, and stays healthy', async () => {
    const upstream = await recordingUpstream();
    cleanups.push(() => upstream.close());
    const { proxy, log } = await proxyTo(upstream.url);
    const broken = await exchangeRaw(
      proxy,
      ['POST /plants HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n'],
      () => false,
    );
    expect(broken).toBe('');
    expect(log[0]).toMatch(/client went away/);
    const fine = await exchangeRaw(proxy, ['POST /plants HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}'], (text) =>
      text.includes('bytes"}'),
    );
    expect(fine).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('answers pipelined requests in order on one connection', async () => {
    const upstream = await recordingUpstream();
    cleanups.push(() => upstream.close());
    const { proxy } = await proxyTo(upstream.url);
    const request = (body: string): string =>
      `POST /plants HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    const answer = await exchangeRaw(
      proxy,
      [request('{"id":1}') + request('{"id":22}') + request('{"id":333}')],
      (text) => count(text, '0\r\n\r\n') === 3,
    );
    expect([...answer.matchAll(/"name":"(\d+) bytes"/g)].map((match) => match[1])).toEqual(['8', '9', '10']);
    expect(upstream.received.map((received) => received.body.toString())).toEqual([
      '{"id":1}',
      '{"id":22}',
      '{"id":333}',
    ]);
  });

  it('answers 100 Continue itself and does not pass Expect on', async () => {
    const upstream = await recordingUpstream();
    cleanups.push(() => upstream.close());
    const { proxy } = await proxyTo(upstream.url);
    const answer = await exchangeRaw(
      proxy,
      ['POST /plants HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n', '{}'],
      (text) => text.includes('bytes"}'),
    );
    expect(answer).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 /);
    expect(rawHeader(upstream.received[0]?.rawHeaders ?? [], 'expect')).toBeUndefined();
  });

  it('answers a HEAD without a body, and an HTTP/1.0 client with the connection closed after', async () => {
    const upstream = await recordingUpstream((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '5' });
      res.end(req.method === 'HEAD' ? undefined : 'hello');
    });
    cleanups.push(() => upstream.close());
    const { proxy } = await proxyTo(upstream.url);
    const head = await exchangeRaw(proxy, ['HEAD /health HTTP/1.1\r\nHost: x\r\n\r\n'], (text) =>
      text.includes('\r\n\r\n'),
    );
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(head.endsWith('\r\n\r\n')).toBe(true);
    const old = await exchangeRaw(proxy, ['GET /health HTTP/1.0\r\n\r\n'], () => false);
    expect(old).toMatch(/Connection: close\r\n/);
    expect(old.endsWith('\r\n\r\nhello')).toBe(true);
  });

  it('passes a chunked answer on as chunks and judges its content', async () => {
    const upstream = await recordingUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"name":');
      res.end('"x"}');
    });
    cleanups.push(() => upstream.close());
    const { proxy, log } = await proxyTo(upstream.url);
    const body = '{"id":1,"name":"x"}';
    const answer = await exchangeRaw(
      proxy,
      [
        `POST /plants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      ],
      (text) => text.endsWith('0\r\n\r\n'),
    );
    expect(answer).toMatch(/Transfer-Encoding: chunked\r\n/);
    expect(answer).toContain('8\r\n{"name":\r\n');
    expect(log[0]).toMatch(/^POST \/plants 200 .* conforms$/);
  });

  it('passes an answer that ends with its connection on, and closes the client connection after it', async () => {
    const raw = createNetServer((socket) => {
      socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the end'));
    });
    await new Promise<void>((done) => raw.listen(0, '127.0.0.1', done));
    cleanups.push(() => new Promise((done) => raw.close(() => done())));
    const { proxy } = await proxyTo(`http://127.0.0.1:${(raw.address() as AddressInfo).port}`);
    const answer = await exchangeRaw(proxy, ['GET /stream HTTP/1.1\r\nHost: x\r\n\r\n'], () => false);
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answer).toMatch(/Connection: close\r\n/);
    expect(answer.endsWith('\r\n\r\nuntil the end')).toBe(true);
  });

  it('refuses what is not HTTP with a 400 and a head too long with a 431, and never forwards them', async () => {
    const upstream = await recordingUpstream();
    cleanups.push(() => upstream.close());
    const { proxy } = await proxyTo(upstream.url);
    const garbage = await exchangeRaw(proxy, ['HELLO THERE\r\n\r\n'], () => false);
    expect(garbage).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    const long = await exchangeRaw(proxy, [`GET / HTTP/1.1\r\nX-Long: ${'a'.repeat(20_000)}`], () => false);
    expect(long).toMatch(/^HTTP\/1\.1 431 /);
    const both = await exchangeRaw(
      proxy,
      ['POST /plants HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}'],
      () => false,
    );
    expect(both).toMatch(/^HTTP\/1\.1 400 /);
    expect(upstream.received).toEqual([]);
  });
});

describe('client connections read by callback', () => {
  /** A server whose connections go to `accepted`, and a client connected to it. */
  async function connected(pauseOnConnect: boolean): Promise<{ accepted: Socket; client: Socket; server: Server }> {
    let accept: (socket: Socket) => void = () => undefined;
    const accepting = new Promise<Socket>((resolve) => (accept = resolve));
    const server = createNetServer({ pauseOnConnect, allowHalfOpen: true }, accept);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const client = connect((server.address() as AddressInfo).port, '127.0.0.1');
    const accepted = await accepting;
    cleanups.push(async () => {
      client.destroy();
      accepted.destroy();
      await new Promise((done) => server.close(done));
    });
    return { accepted, client, server };
  }

  it('takes over a connection accepted paused: its bytes come to the callback, its server counts it gone', async () => {
    const { accepted, client, server } = await connected(true);
    const read: Buffer[] = [];
    const socket = readByCallback(accepted, (bytes) => read.push(bytes));
    expect(socket).toBeDefined();
    expect(socket).not.toBe(accepted);
    cleanups.push(() => Promise.resolve(void socket?.destroy()));
    client.write('first ');
    await new Promise((resolve) => setTimeout(resolve, 20));
    client.write('second');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(Buffer.concat(read).toString()).toBe('first second');
    // Each read is a buffer of its own, not a view of the shared one: the first read is intact.
    expect(read[0]?.toString()).toBe('first ');
    socket?.write('answer');
    const answer = await new Promise<string>((resolve) =>
      client.once('data', (bytes: Buffer) => resolve(bytes.toString('latin1'))),
    );
    expect(answer).toBe('answer');
    const open = await new Promise<number>((resolve) => server.getConnections((_error, count) => resolve(count)));
    expect(open).toBe(0);
  });

  it('leaves a connection already read by its stream as it is', async () => {
    const { accepted } = await connected(false);
    expect(readByCallback(accepted, () => undefined)).toBeUndefined();
  });

  it('serves a client that half-closes after its request: the answer still comes back', async () => {
    const upstream = await recordingUpstream();
    cleanups.push(() => upstream.close());
    const { proxy } = await proxyTo(upstream.url);
    const socket: Socket = connect(proxy.port, '127.0.0.1');
    cleanups.push(() => Promise.resolve(void socket.destroy()));
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    const closed = new Promise((resolve) => socket.on('close', resolve));
    socket.end('POST /plants HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}');
    await closed;
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    expect(text).toMatch(/Connection: close\r\n/);
    expect(upstream.received[0]?.body.toString()).toBe('{}');
  });
});
