import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../contract/index.js';
import { createProxyServer, type ProxyOptions, type ProxyServer } from './index.js';
import { rawHeader, recordingUpstream, type RecordingUpstream } from './test-upstreams.js';

const TOKEN = 'proxy-test-token-4f8a1c';
const JSON_HEADERS = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

/** Bodies whose bytes a re-serialising proxy would change. */
const EXACT_BODIES: readonly (readonly [string, Buffer])[] = [
  ['2^63-1', Buffer.from('{"id":9223372036854775807,"name":"max"}')],
  ['2^53', Buffer.from('{"id":9007199254740992,"name":"two to the 53"}')],
  ['2^53+1', Buffer.from('{"id":9007199254740993,"name":"one more"}')],
  ['"\\ud800" and "\\u0000" escapes', Buffer.from('{"id":7,"name":"lone \\ud800","tag":"nul \\u0000 x"}')],
  ['a raw NUL and a byte that is not UTF-8', Buffer.from([0x7b, 0x00, 0xff, 0x20, 0x7d])],
];

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function started(upstream: RecordingUpstream | string, options: Partial<ProxyOptions> = {}) {
  const log: string[] = [];
  const proxy = await createProxyServer({
    upstream: typeof upstream === 'string' ? upstream : upstream.url,
    token: TOKEN,
    onLog: (line) => log.push(line),
    ...options,
  });
  cleanups.push(() => proxy.close());
  if (typeof upstream !== 'string') cleanups.push(() => upstream.close());
  return { proxy, log };
}

async function post(proxy: ProxyServer, body: Buffer | string, headers: Record<string, string> = JSON_HEADERS) {
  const response = await request(`${proxy.url}/plants`, { method: 'POST', headers, body });
  return {
    status: response.statusCode,
    headers: response.headers,
    body: Buffer.from(await response.body.arrayBuffer()),
  };
}

/** POSTs with Debian's curl, the body piped in from stdin exactly. */
function curl(url: string, body: Buffer, headers: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const args = ['-sS', '--max-time', '10', '-X', 'POST', url, '--data-binary', '@-'];
    for (const header of headers) args.push('-H', header);
    const child = spawn('curl', args);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('latin1')));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`curl exited ${code}`))));
    child.stdin.end(body);
  });
}

describe('transparency', () => {
  it('delivers every body to the upstream byte for byte, from undici', async () => {
    const upstream = await recordingUpstream();
    const { proxy } = await started(upstream);
    for (const [, body] of EXACT_BODIES) await post(proxy, body);
    expect(upstream.received.map((r) => r.body)).toEqual(EXACT_BODIES.map(([, body]) => body));
  });

  it('delivers every body to the upstream byte for byte, from curl', async () => {
    const upstream = await recordingUpstream();
    const { proxy } = await started(upstream);
    for (const [, body] of EXACT_BODIES) {
      await curl(`${proxy.url}/plants`, body, ['Content-Type: application/json', `Authorization: Bearer ${TOKEN}`]);
    }
    expect(upstream.received.map((r) => r.body)).toEqual(EXACT_BODIES.map(([, body]) => body));
  });

  it('delivers any body bytes exactly, whatever their length (property)', async () => {
    const upstream = await recordingUpstream();
    const { proxy } = await started(upstream);
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 100_000 }), async (bytes) => {
        const body = Buffer.from(bytes);
        const before = upstream.received.length;
        await post(proxy, body, { 'content-type': 'application/json' });
        expect(upstream.received[before]?.body.equals(body)).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it('passes headers as sent: no Content-Type added, a lower-case "bearer" kept, names in their own case', async () => {
    const upstream = await recordingUpstream();
    const { proxy } = await started(upstream);
    await post(proxy, '{"id":1,"name":"x"}', { authorization: `bearer ${TOKEN}`, 'X-Custom-Case': 'Kept' });
    const [received] = upstream.received;
    expect(rawHeader(received?.rawHeaders ?? [], 'content-type')).toBeUndefined();
    expect(rawHeader(received?.rawHeaders ?? [], 'authorization')).toBe(`bearer ${TOKEN}`);
    expect(received?.rawHeaders).toContain('X-Custom-Case');
    expect(rawHeader(received?.rawHeaders ?? [], 'host')).toBe(new URL(upstream.url).host);
  });

  it('returns the upstream answer byte for byte, status and headers included', async () => {
    const answer = Buffer.from('{"id":9223372036854775807,"name":"lone \\ud800"}');
    const upstream = await recordingUpstream((_req, res) => {
      res.writeHead(200, 'Fine', { 'Content-Type': 'application/json', 'X-Answer': 'a' });
      res.end(answer);
    });
    const { proxy } = await started(upstream);
    const response = await post(proxy, '{"id":1,"name":"x"}');
    expect(response.body).toEqual(answer);
    expect(response.headers['x-answer']).toBe('a');
    expect(response.headers['plantstore-violations']).toBeUndefined();
  });

  it('keeps its upstream connections alive', async () => {
    const upstream = await recordingUpstream();
    const { proxy } = await started(upstream);
    for (let i = 0; i < 10; i++) await post(proxy, `{"id":${i},"name":"x"}`);
    expect(upstream.received).toHaveLength(10);
    expect(upstream.connections()).toBe(1);
  });

  it('forwards to an https upstream, bytes intact, and answers 502 when its certificate is not trusted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plantstore-tls-'));
    cleanups.push(() => Promise.resolve(rmSync(dir, { recursive: true, force: true })));
    const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    const bodies: Buffer[] = [];
    const server = createHttpsServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        bodies.push(Buffer.concat(chunks));
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"name":"max"}');
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    cleanups.push(() => new Promise((done) => server.close(() => done())));
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const [, body] = EXACT_BODIES[0] ?? ['', Buffer.alloc(0)];
    const { proxy } = await started(url, { upstreamCa: readFileSync(cert, 'utf8') });
    expect((await post(proxy, body)).status).toBe(200);
    expect(bodies).toEqual([body]);
    const untrusting = await started(url);
    const refused = await post(untrusting.proxy, body);
    expect(refused.status).toBe(502);
    // Both say what to do: a local https dev server's certificate is rarely one Node trusts.
    const hint = 'the proxy does not trust its certificate; start it with NODE_EXTRA_CA_CERTS=';
    expect(untrusting.log[0]).toMatch(/upstream unreachable \(tls-[a-z-]+: .*\): the proxy answered 502; not judged/);
    expect(untrusting.log[0]).toContain(hint);
    expect(refused.body.toString()).toContain(hint);
  });

  it('forwards a CORS preflight and other paths, logged as outside the contract', async () => {
    const upstream = await recordingUpstream((_req, res) => {
      res.writeHead(204, { 'access-control-allow-origin': 'http://app.test', 'access-control-allow-headers': '*' });
      res.end();
    });
    const { proxy, log } = await started(upstream);
    const response = await request(`${proxy.url}/plants`, {
      method: 'OPTIONS',
      headers: { origin: 'http://app.test', 'access-control-request-method': 'POST' },
    });
    await response.body.dump();
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe('http://app.test');
    expect(upstream.received[0]?.method).toBe('OPTIONS');
    expect(log[0]).toMatch(/^OPTIONS \/plants 204 .* outside the contract/);
    expect(proxy.report().summary.cases).toBe(0);
  });
});

describe('judging', () => {
  it("judges POST /plants under the path of the document's first server too (/v1/plants)", async () => {
    const upstream = await recordingUpstream((_req, res) => {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end('{"name":"x"}');
    });
    const spec = join(PACKAGE_ROOT, 'src/fixtures/documents/01-name-length.yaml');
    const { proxy, log } = await started(upstream, { spec });
    const response = await request(`${proxy.url}/v1/plants`, {
      method: 'POST',
      headers: JSON_HEADERS,
      body: '{"id":1,"name":"x"}',
    });
    await response.body.dump();
    expect(upstream.received[0]?.url).toBe('/v1/plants');
    expect(log[0]).toMatch(/^POST \/v1\/plants 201 .*server/);
    expect(proxy.report().summary.cases).toBe(1);
    // The reproduction calls the path the client called, where the upstream answered (not its /plants: a 404).
    const failure = proxy.report().checks.flatMap((check) => check.failures)[0];
    expect(failure?.curl).toContain(`'${upstream.url}/v1/plants'`);
  });

  it("does not judge /v1/plants when the upstream URL already ends with the server's /v1: it reaches /v1/v1/plants", async () => {
    // A correct server answers 404 at /v1/v1/plants; that is the setup's mistake, not the server's.
    const upstream = await recordingUpstream((req, res) => {
      res.writeHead(req.url === '/v1/plants' ? 200 : 404, { 'content-type': 'application/json' });
      res.end(req.url === '/v1/plants' ? '{"name":"x"}' : '{"error":404,"message":"no such path"}');
    });
    const spec = join(PACKAGE_ROOT, 'src/fixtures/documents/01-name-length.yaml');
    const { proxy, log } = await started(`${upstream.url}/v1/`, { spec });
    cleanups.push(() => upstream.close());
    for (const path of ['/v1/plants', '/plants']) {
      const response = await request(`${proxy.url}${path}`, {
        method: 'POST',
        headers: JSON_HEADERS,
        body: '{"id":1,"name":"x"}',
      });
      await response.body.dump();
    }
    expect(upstream.received.map((received) => received.url)).toEqual(['/v1/v1/plants', '/v1/plants']);
    expect(log[0]).toMatch(/^POST \/v1\/plants 404 .*outside the contract/);
    expect(log[1]).toMatch(/^POST \/plants 200 .* conforms$/);
    expect(proxy.report().summary.cases).toBe(1);
  });

  it('says which side broke the contract on each POST /plants log line', async () => {
    const upstream = await recordingUpstream((_req, res) => {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end('{"name":"x"}');
    });
    const { proxy, log } = await started(upstream);
    await post(proxy, '{"id":1,"name":"x"}');
    await post(proxy, '{"id":1.5,"name":"x"}');
    expect(log[0]).toMatch(/^POST \/plants 201 .*server broke the contract \[documented-status\]/);
    expect(log[0]).not.toMatch(/client broke/);
    expect(log[1]).toMatch(/client broke the contract: sent an invalid NewPlant/);
    expect(log[1]).toMatch(/server broke the contract \[negative-rejection\]/);
  });

  it('keeps the request of a failing exchange in the report: its body, its URL and a curl line without the token', async () => {
    const upstream = await recordingUpstream((_req, res) => {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end('{"name":"x"}');
    });
    const { proxy } = await started(upstream);
    await post(proxy, '{"id":1,"name":"x"}');
    const [failure] = proxy.report().checks.find((check) => check.id === 'documented-status')?.failures ?? [];
    expect(failure?.request).toMatchObject({
      method: 'POST',
      url: `${upstream.url}/plants`,
      body: '{"id":1,"name":"x"}',
    });
    expect(failure?.request.headers.authorization).toBe('Bearer $PLANTSTORE_TOKEN');
    expect(failure?.curl).toContain('$PLANTSTORE_TOKEN');
    expect(JSON.stringify(failure)).not.toContain(TOKEN);
  });

  it('adds Plantstore-Violations only with annotate', async () => {
    const upstream = await recordingUpstream((_req, res) => {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end('{"name":"x"}');
    });
    const { proxy } = await started(upstream, { annotate: true });
    const response = await post(proxy, '{"id":1,"name":"x"}');
    expect(response.headers['plantstore-violations']).toBe('server:positive-acceptance, server:documented-status');
    // Readable by a page on another origin: the header is exposed beside the upstream's CORS answer.
    expect(response.headers['access-control-expose-headers']).toBe('Plantstore-Violations');
    expect(response.body.toString()).toBe('{"name":"x"}');
  });

  it('never writes the token, even when the upstream echoes it back', async () => {
    const upstream = await recordingUpstream((req, res) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'x-seen': rawHeader(req.rawHeaders, 'authorization') ?? '',
      });
      res.end(JSON.stringify({ name: `you sent ${rawHeader(req.rawHeaders, 'authorization') ?? ''}` }));
    });
    const { proxy, log } = await started(upstream);
    await post(proxy, '{"id":1,"name":"x"}');
    await post(proxy, '{"id":2,"name":"x"}', {
      authorization: 'Bearer another-secret-77',
      'content-type': 'application/json',
    });
    const written = `${log.join('\n')}\n${JSON.stringify(proxy.report())}`;
    expect(written).toMatch(/server broke the contract \[echo\]/);
    expect(written).not.toContain(TOKEN);
    expect(written).not.toContain('another-secret-77');
  });
});

describe('faults', () => {
  it('answers 502 with an Error body when the upstream cannot be reached', async () => {
    const closed = createNetServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const { port } = closed.address() as AddressInfo;
    await new Promise((done) => closed.close(done));
    const { proxy, log } = await started(`http://127.0.0.1:${port}`);
    const response = await post(proxy, '{"id":1,"name":"x"}');
    expect(response.status).toBe(502);
    const error = JSON.parse(response.body.toString()) as { error: number; message: string };
    expect(error.error).toBe(5001);
    expect(error.message).toContain('connection-refused');
    expect(log[0]).toMatch(/upstream unreachable \(connection-refused\): the proxy answered 502; not judged/);
    // The request never reached a server: nothing is known of what it does with it, and no side broke the contract.
    const report = proxy.report();
    expect(report.findings).toEqual([]);
    expect(report.checks.every((check) => check.status === 'skip')).toBe(true);
    expect(report.notes.join('\n')).toMatch(/1 POST \/plants requests never reached the upstream/);
    // Said to be the proxy's, so report.html offers no seed to replay.
    expect(report.source).toBe('proxy');
    // The client did reach the proxy: asking whether it points at the proxy would send its developer the wrong way.
    expect(report.notes.join('\n')).not.toMatch(/Is the client pointed at the proxy/);
  });

  it('counts only POST /plants among the requests that never reached an unreachable upstream', async () => {
    const closed = createNetServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const { port } = closed.address() as AddressInfo;
    await new Promise((done) => closed.close(done));
    const { proxy } = await started(`http://127.0.0.1:${port}`);
    const health = await request(`${proxy.url}/health`);
    await health.body.dump();
    expect(health.statusCode).toBe(502);
    await post(proxy, '{"id":1,"name":"x"}');
    const notes = proxy.report().notes.join('\n');
    expect(notes).toMatch(/2 requests met an unreachable or silent upstream/);
    expect(notes).toMatch(/1 POST \/plants requests never reached the upstream/);
  });

  it('answers 504 after the timeout when the upstream never answers', async () => {
    const upstream = await recordingUpstream(() => undefined);
    const { proxy, log } = await started(upstream, { timeoutMs: 300 });
    const response = await post(proxy, '{"id":1,"name":"x"}');
    expect(response.status).toBe(504);
    expect(JSON.parse(response.body.toString())).toMatchObject({ error: 5002 });
    expect(log[0]).toMatch(/the proxy answered 504/);
  });

  it('streams a body over the judging cap through whole, and says it judged only the form', async () => {
    const upstream = await recordingUpstream();
    const { proxy, log } = await started(upstream, { judgeBytes: 64 * 1024 });
    const huge = Buffer.alloc(3 * 1024 * 1024, 'a');
    const response = await post(proxy, huge);
    expect(response.status).toBe(200);
    expect(upstream.received[0]?.body.equals(huge)).toBe(true);
    expect(log[0]).toMatch(/over the judging cap/);
    expect(proxy.report().notes.join(' ')).toMatch(/larger than the proxy judges/);
  });

  it("judges the status of an answer to a body over the judging cap: an undocumented 201 fails, HTTP's 413 does not", async () => {
    const huge = Buffer.alloc(256 * 1024, 'a');
    const answeredWith = async (status: number) => {
      const upstream = await recordingUpstream((_req, res) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(status === 413 ? '{"error":413,"message":"too large"}' : '{"name":"x"}');
      });
      const { proxy } = await started(upstream, { judgeBytes: 64 * 1024 });
      await post(proxy, huge);
      return proxy
        .report()
        .checks.filter((check) => check.status === 'fail')
        .map((check) => check.id);
    };
    expect(await answeredWith(201)).toEqual(['documented-status']);
    expect(await answeredWith(413)).toEqual([]);
  });

  it('blames no one when the upstream refuses a large body early and resets, and passes its early answer on when it came first', async () => {
    // As Fastify does past its bodyLimit: the answer as soon as the head is read, then the connection
    // closed with the body unread (a reset). Either the answer is read before the proxy's next write
    // fails, and goes to the client, or it is lost with the connection: no one is blamed for that.
    const answer = '{"error":413,"message":"Request body is too large"}';
    const raw = createNetServer((socket) => {
      socket.once('data', () => {
        socket.write(
          `HTTP/1.1 413 Payload Too Large\r\nContent-Type: application/json\r\nContent-Length: ${answer.length}\r\nConnection: close\r\n\r\n${answer}`,
        );
        setTimeout(() => socket.resetAndDestroy(), 20);
      });
    });
    await new Promise<void>((done) => raw.listen(0, '127.0.0.1', done));
    cleanups.push(() => new Promise((done) => raw.close(() => done())));
    const { proxy, log } = await started(`http://127.0.0.1:${(raw.address() as AddressInfo).port}`);
    const huge = Buffer.from(`{"id":1,"name":"x","extra":"${'x'.repeat(4 * 1024 * 1024)}"}`);
    const status = await post(proxy, huge).then(
      (response) => response.status,
      () => 0,
    );
    expect([413, 502, 0]).toContain(status);
    await expect.poll(() => log.length, { timeout: 5000 }).toBe(1);
    expect(log[0]).not.toMatch(/server broke|client broke/);
    expect(log[0]).toMatch(
      status === 413 ? /^POST \/plants 413 .*answered before the request body's end/ : /before any answer.*not judged/,
    );
    expect(proxy.report().summary.failed).toBe(0);
  });

  it('never reuses an upstream connection that answered early and was not sent the whole body', async () => {
    // The answer's head comes at once, its body later: by then the client has sent all of its body,
    // which the proxy kept back. That connection still waits for the rest: the next request needs another.
    const connections: Socket[] = [];
    const raw = createNetServer((socket) => {
      connections.push(socket);
      socket.once('data', () => {
        // It reads no more: the proxy's writes back up, so the answer's head comes before the body's end.
        socket.pause();
        socket.write('HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n');
        setTimeout(() => socket.write('{"error":1,"message":"read none of it"}\n'), 300);
      });
    });
    await new Promise<void>((done) => raw.listen(0, '127.0.0.1', done));
    // A paused socket never reads the proxy's close: ended here.
    cleanups.push(
      () => new Promise((done) => (connections.forEach((socket) => socket.destroy()), raw.close(() => done()))),
    );
    const { proxy, log } = await started(`http://127.0.0.1:${(raw.address() as AddressInfo).port}`, {
      timeoutMs: 1500,
    });
    const huge = Buffer.from(`{"id":1,"name":"x","extra":"${'x'.repeat(16 * 1024 * 1024)}"}`);
    expect((await post(proxy, huge)).status).toBe(400);
    expect((await post(proxy, '{"id":2,"name":"y"}')).status).toBe(400);
    expect(connections).toHaveLength(2);
    await expect.poll(() => log.length, { timeout: 5000 }).toBe(2);
    expect(log[0]).toMatch(/answered before the request body's end/);
  });

  it('stays healthy when a client goes away in the middle of its request', async () => {
    const upstream = await recordingUpstream();
    const { proxy, log } = await started(upstream);
    const socket = connect(proxy.port, '127.0.0.1');
    await new Promise((done) => socket.once('connect', done));
    socket.write(
      `POST /plants HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"id":`,
    );
    await new Promise((done) => setTimeout(done, 50));
    socket.destroy();
    await expect.poll(() => log.length, { timeout: 5000 }).toBe(1);
    expect(log[0]).toMatch(/client went away/);
    expect((await post(proxy, '{"id":1,"name":"x"}')).status).toBe(200);
  });

  it('says the proxy stopped, not that the client went away, of an exchange cut by close (Ctrl-C)', async () => {
    const upstream = await recordingUpstream(() => undefined);
    const { proxy, log } = await started(upstream);
    const answer = post(proxy, '{"id":1,"name":"x"}').catch((error: unknown) => error);
    await expect.poll(() => upstream.received.length, { timeout: 5000 }).toBe(1);
    await proxy.close();
    // Settled by the time close resolves, so the report the CLI takes next counts it.
    expect(log).toHaveLength(1);
    expect(await answer).toBeInstanceOf(Error);
    expect(log[0]).toMatch(/^POST \/plants 0 .* the proxy stopped before the exchange was complete \(not judged\)$/);
    expect(proxy.report().notes.join('\n')).toMatch(/1 exchanges were in flight when the proxy stopped: not judged/);
    expect(proxy.report().notes.join('\n')).not.toMatch(/went away|Is the client pointed at the proxy/);
  });

  it('answers 502 to an answer that is not HTTP it can forward, and stays healthy', async () => {
    const raw = createNetServer((socket) => {
      socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\nX-Bad: a\u0001b\r\nContent-Length: 2\r\n\r\n{}'));
    });
    await new Promise<void>((done) => raw.listen(0, '127.0.0.1', done));
    cleanups.push(() => new Promise((done) => raw.close(() => done())));
    const { proxy, log } = await started(`http://127.0.0.1:${(raw.address() as AddressInfo).port}`);
    const answer = await post(proxy, '{"id":1,"name":"x"}');
    expect(answer.status).toBe(502);
    expect(log[0]).toMatch(
      /\(the upstream answered with something that is not HTTP the proxy can forward, unforwardable-header: the proxy answered 502\)/,
    );
    expect(answer.body.toString()).toMatch(/answered with something that is not HTTP the proxy can forward/);
    expect((await post(proxy, '{"id":2,"name":"x"}')).status).toBe(502);
  });

  it('cuts the answer as the upstream cut it, and blames the server', async () => {
    const upstream = await recordingUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"name":');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const { proxy, log } = await started(upstream);
    await expect(post(proxy, '{"id":1,"name":"x"}')).rejects.toThrow();
    await expect.poll(() => log.length, { timeout: 5000 }).toBe(1);
    expect(log[0]).toMatch(/server broke the contract \[no-server-error\].*answer was cut/);
  });
});

describe('a valid NewPlant with an id new to the session refused', () => {
  /** An upstream holding ids, as a store does: ids in `held` (stored before the proxy started) are refused too. */
  async function storeUpstream(held: readonly number[] = []) {
    const stored = new Set(held);
    return recordingUpstream((req, res) => {
      const { id, name } = JSON.parse(req.body.toString()) as { id: number; name: string };
      const refuse = stored.has(id) || id >= 1000;
      stored.add(id);
      res.writeHead(refuse ? 400 : 200, { 'content-type': 'application/json' });
      res.end(refuse ? '{"error":1,"message":"refused"}' : JSON.stringify({ name }));
    });
  }
  const plant = (id: number): string => JSON.stringify({ id, name: 'Fern' });
  const freshCheck = (proxy: ProxyServer) => proxy.report().checks.find((check) => check.id === 'fresh-id-accepted');

  it('warns, never fails, when the credential got a valid NewPlant accepted earlier in the session', async () => {
    const { proxy, log } = await started(await storeUpstream());
    expect((await post(proxy, plant(1))).status).toBe(200);
    expect((await post(proxy, plant(1000))).status).toBe(400);
    const report = proxy.report();
    const check = freshCheck(proxy);
    expect(check?.status).toBe('warn');
    expect(check?.failures[0]?.reason).toMatch(/held that id before the proxy started/);
    expect(report.verdict).toBe('conformant');
    expect(report.findings).toEqual([]);
    expect(log[1]).toMatch(/^POST \/plants 400 .*server warning \[fresh-id-accepted\]/);
    expect(JSON.stringify(report)).not.toContain(TOKEN);
  });

  it('judges a request without a credential as valid on a document that asks none (security: []), and warns there too', async () => {
    const seed = readFileSync(join(PACKAGE_ROOT, 'openapi.yaml'), 'utf8');
    const open = seed.replace('security:\n  - bearerAuth: []\n', 'security: []\n');
    expect(open).not.toBe(seed);
    const dir = mkdtempSync(join(tmpdir(), 'proxy-open-'));
    cleanups.push(() => Promise.resolve(rmSync(dir, { recursive: true, force: true })));
    const spec = join(dir, 'open.yaml');
    writeFileSync(spec, open);
    const { proxy } = await started(await storeUpstream(), { spec, token: undefined });
    const headers = { 'content-type': 'application/json' };
    expect((await post(proxy, plant(1), headers)).status).toBe(200);
    expect((await post(proxy, plant(1000), headers)).status).toBe(400);
    expect(freshCheck(proxy)?.status).toBe('warn');
    // No Authorization is what the document asks for: not the client's break.
    expect(proxy.report().checks.find((check) => check.id === 'client-requests')?.status).toBe('pass');
  });

  it('refuses a document whose POST /plants takes another credential than a bearer token, as plantstore test does', async () => {
    const seed = readFileSync(join(PACKAGE_ROOT, 'openapi.yaml'), 'utf8');
    const apiKey = seed
      .replace('security:\n  - bearerAuth: []\n', 'security:\n  - apiKey: []\n')
      .replace(
        '  securitySchemes:\n',
        '  securitySchemes:\n    apiKey: { type: apiKey, in: header, name: X-API-Key }\n',
      );
    const dir = mkdtempSync(join(tmpdir(), 'proxy-apikey-'));
    cleanups.push(() => Promise.resolve(rmSync(dir, { recursive: true, force: true })));
    const spec = join(dir, 'apikey.yaml');
    writeFileSync(spec, apiKey);
    // Every request would read as the client's break (no Authorization header), whatever it sent.
    await expect(createProxyServer({ upstream: 'http://127.0.0.1:9', spec })).rejects.toThrow(
      /apikey\.yaml: POST \/plants authenticates with an API key \(apiKey\), but plantstore sends bearer tokens only/,
    );
  });

  it('says nothing of an id sent earlier in the session, nor before any valid NewPlant was accepted', async () => {
    const { proxy } = await started(await storeUpstream([7]));
    // Held before the proxy started, and no credential proven yet: a correct server's refusal, not judged.
    expect((await post(proxy, plant(7))).status).toBe(400);
    expect((await post(proxy, plant(1))).status).toBe(200);
    // A repeat of an id the session carried: the server's refusal is right.
    expect((await post(proxy, plant(1))).status).toBe(400);
    expect((await post(proxy, plant(2))).status).toBe(200);
    const check = freshCheck(proxy);
    expect(check?.status).toBe('pass');
    expect(check?.cases).toBe(1);
  });
});
