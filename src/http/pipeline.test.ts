import { createServer } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBearerCheck, loadContract } from '../contract/index.js';
import { exactJsonText } from '../contract/new-plant-request.js';
import { createPipeline, type Answer, type PipelineSettings } from './pipeline.js';
import { requestAuthentication } from './authentication.js';
import { serveContract } from './served-contract.js';
import type { RequestLogEntry } from './server-kit.js';
import { listen, type RunningServer } from './server-kit.js';
import { validSamples } from './valid-samples.js';

const answered: string[] = [];
const log: RequestLogEntry[] = [];
let answer: Answer = (accepted) => {
  answered.push(exactJsonText(accepted.parsed, 'name'));
  return { status: 200, body: '{"ok":true}' };
};

async function start(settings: Partial<PipelineSettings>): Promise<RunningServer> {
  const contract = await loadContract();
  const handler = createPipeline({
    served: serveContract(contract, validSamples(contract)),
    authenticate: requestAuthentication(contract, createBearerCheck(['t'])),
    bodyLimit: 1024,
    noun: 'server',
    answer: (accepted, req) => answer(accepted, req),
    onRequest: (entry) => log.push(entry),
    ...settings,
  });
  return listen(createServer(handler), '127.0.0.1', 0);
}

async function send(url: string, init: RequestInit & { path?: string } = {}): Promise<[number, string, Headers]> {
  const response = await fetch(`${url}${init.path ?? '/plants'}`, {
    method: 'POST',
    signal: AbortSignal.timeout(10_000),
    ...init,
  });
  return [response.status, await response.text(), response.headers];
}

describe('the request pipeline', () => {
  let server: RunningServer;
  let cors: RunningServer;
  beforeAll(async () => {
    server = await start({});
    cors = await start({ cors: true });
  });
  afterAll(async () => {
    await server.close();
    await cors.close();
  });

  const json = { 'content-type': 'application/json', authorization: 'Bearer t' };

  it('judges path, method, credentials, Content-Type and body in that order before answering', async () => {
    answered.length = 0;
    const bad = { 'content-type': 'text/plain' };
    expect((await send(server.url, { path: '/pets', headers: bad, body: '[' }))[0]).toBe(404);
    expect((await send(server.url, { method: 'PUT', headers: bad, body: '[' }))[1]).toContain('"error":3002');
    expect((await send(server.url, { headers: bad, body: '[' }))[1]).toContain('"error":2001');
    expect((await send(server.url, { headers: { ...bad, authorization: 'Bearer t' }, body: '[' }))[1]).toContain(
      '"error":1003',
    );
    expect((await send(server.url, { headers: json, body: '[' }))[1]).toContain('"error":1001');
    expect((await send(server.url, { headers: json, body: '{"id":1}' }))[1]).toContain('"error":1005');
    expect(answered).toEqual([]);
    const [status, body] = await send(server.url, { headers: json, body: '{"id":1,"name":"Fern"}' });
    expect([status, body]).toEqual([200, '{"ok":true}']);
    expect(answered).toEqual(['"Fern"']);
  });

  it("serves the operation under the path of the document's first server too, and nothing else there", async () => {
    const contract = { ...(await loadContract()), basePath: '/v1' };
    const versioned = await start({ served: serveContract(contract, validSamples(contract)) });
    try {
      const plant = { headers: json, body: '{"id":1,"name":"Fern"}' };
      expect((await send(versioned.url, { ...plant, path: '/v1/plants' }))[0]).toBe(200);
      expect((await send(versioned.url, plant))[0]).toBe(200);
      expect((await send(versioned.url, { ...plant, path: '/v1/pets' }))[0]).toBe(404);
      expect((await send(versioned.url, { ...plant, path: '/v2/plants' }))[0]).toBe(404);
      expect((await send(server.url, { ...plant, path: '/v1/plants' }))[0]).toBe(404);
    } finally {
      await versioned.close();
    }
  });

  it('writes a failure of the answer step as the Error, and a fault as 1099 without a 5xx', async () => {
    answer = () => ({ failure: { status: 400, code: 4999, message: 'refused by the answer', headers: {} } });
    expect((await send(server.url, { headers: json, body: '{"id":1,"name":"a"}' }))[1]).toBe(
      '{"error":4999,"message":"refused by the answer"}',
    );
    answer = () => {
      throw new Error('boom');
    };
    const [status, body] = await send(server.url, { headers: json, body: '{"id":1,"name":"a"}' });
    expect([status, body]).toEqual([400, '{"error":1099,"message":"The server could not process this request."}']);
    expect(log.at(-1)).toMatchObject({ method: 'POST', path: '/plants', status: 400 });
  });

  it('answers a promised outcome once it settles, and a rejected one as the fault', async () => {
    answer = () => new Promise((resolve) => setTimeout(() => resolve({ status: 200, body: '{"later":true}' }), 5));
    const [later, laterBody] = await send(server.url, { headers: json, body: '{"id":1,"name":"a"}' });
    expect([later, laterBody]).toEqual([200, '{"later":true}']);
    answer = () => Promise.reject(new Error('boom'));
    const [status, body] = await send(server.url, { headers: json, body: '{"id":1,"name":"a"}' });
    expect([status, body]).toEqual([400, '{"error":1099,"message":"The server could not process this request."}']);
    expect(log.at(-1)).toMatchObject({ method: 'POST', path: '/plants', status: 400 });
  });

  it('adds CORS only when asked: a preflight gets 204, every answer the allow-origin header', async () => {
    const preflight = { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' };
    expect((await send(cors.url, { method: 'OPTIONS', headers: preflight }))[0]).toBe(204);
    expect((await send(server.url, { method: 'OPTIONS', headers: preflight }))[0]).toBe(405);
    const [, , headers] = await send(cors.url, { headers: { origin: 'http://localhost:5173' }, body: '{}' });
    expect(headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    const [, , plain] = await send(server.url, { headers: { origin: 'http://localhost:5173' }, body: '{}' });
    expect(plain.get('access-control-allow-origin')).toBeNull();
  });

  it("writes the answer's header lines in order: the outcome's, CORS, Connection, then Content-Type and Length", async () => {
    const port = new URL(cors.url).port;
    const request = (headers: string): Promise<string[]> =>
      rawHeaderNames(Number(port), `POST /plants HTTP/1.1\r\nHost: x\r\nOrigin: http://a.test\r\n${headers}\r\n`);
    expect(await request('Content-Length: 0\r\n')).toEqual([
      'www-authenticate',
      'access-control-allow-origin',
      'access-control-allow-credentials',
      'access-control-expose-headers',
      'vary',
      'content-type',
      'content-length',
    ]);
    // A chunked body left unread: the connection closes after the answer.
    expect(await request('Transfer-Encoding: chunked\r\n')).toEqual([
      'www-authenticate',
      'access-control-allow-origin',
      'access-control-allow-credentials',
      'access-control-expose-headers',
      'vary',
      'connection',
      'content-type',
      'content-length',
    ]);
  });
});

/** The header names of the first answer to a raw request, as written, but those node:http adds to every answer. */
function rawHeaderNames(port: number, request: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let received = '';
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer')));
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.destroy();
      const lines = received.slice(0, end).toLowerCase().split('\r\n').slice(1);
      const own = lines.filter((line) => !/^(date|keep-alive):|^connection: keep-alive$/.test(line));
      resolve(own.map((line) => line.slice(0, line.indexOf(':'))));
    });
    socket.on('error', reject);
  });
}
