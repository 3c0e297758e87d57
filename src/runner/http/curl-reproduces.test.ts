import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { RecordedRequest } from '../report.js';
import { curlCommands } from './curl.js';
import { SPLIT_BODY_PAUSE_MS } from './client.js';

const run = promisify(execFile);

interface Received {
  readonly socket: Socket;
  readonly authorization: string | undefined;
  readonly body: Buffer;
  /** The body as the reads that delivered it. */
  readonly reads: readonly Buffer[];
  readonly headers: IncomingMessage['headers'];
}

/** A server on 127.0.0.1 that records what arrives, on which connection, and answers 200. */
async function recordingServer(): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        socket: request.socket,
        authorization: request.headers.authorization,
        body: Buffer.concat(chunks),
        reads: chunks,
        headers: request.headers,
      });
      response.end('{}');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  onTestFinished(() => new Promise<void>((done) => (server.closeAllConnections(), server.close(() => done()))));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/plants`, received };
}

describe('a curl reproduction, run by the real curl in dash', () => {
  it('sends the case on one connection, the binary body byte for byte, and the case-flipped token', async () => {
    const { url, received } = await recordingServer();
    const bytes = Buffer.from([0x7b, 0x22, 0x89, 0xff, 0x00, 0x22, 0x7d]);
    const requests: RecordedRequest[] = [
      {
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json', authorization: 'Bearer ${PLANTSTORE_TOKEN~~}' },
        body: bytes.toString('latin1'),
        bodyBase64: bytes.toString('base64'),
      },
      { method: 'POST', url, headers: { authorization: 'Bearer $PLANTSTORE_TOKEN' }, body: '{"id":1}' },
    ];
    const command = curlCommands(requests, true);
    await run('dash', ['-c', `${command} > /dev/null`], {
      env: { PATH: process.env.PATH, PLANTSTORE_TOKEN: 'aB3c' },
      timeout: 10_000,
    });
    expect(received).toHaveLength(2);
    expect(received[0]?.socket).toBe(received[1]?.socket);
    expect(received[0]?.body.equals(bytes)).toBe(true);
    expect(received[0]?.authorization).toBe('Bearer Ab3C');
    expect(received[1]?.authorization).toBe('Bearer aB3c');
    expect(received[1]?.body.toString()).toBe('{"id":1}');
  });

  it('sends several exact bodies on one connection, each from a file of its own folder, removed afterwards', async () => {
    const { url, received } = await recordingServer();
    const bodies = [Buffer.from([0x7b, 0x01, 0xfe, 0x7d]), Buffer.from('{"name":"a\u0089b"}')];
    const requests: RecordedRequest[] = bodies.map((bytes) => ({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json', authorization: 'Bearer $PLANTSTORE_TOKEN' },
      body: bytes.toString('latin1'),
      bodyBase64: bytes.toString('base64'),
    }));
    const command = curlCommands(requests, true);
    expect(command.split('\n')).toHaveLength(1);
    const folder = mkdtempSync(join(tmpdir(), 'plantstore-curl-'));
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }));
    await run('dash', ['-c', `${command} > /dev/null`], {
      env: { PATH: process.env.PATH, PLANTSTORE_TOKEN: 'aB3c', TMPDIR: folder },
      timeout: 10_000,
    });
    expect(received.map((each) => each.body.toString('base64'))).toEqual(
      bodies.map((bytes) => bytes.toString('base64')),
    );
    expect(received[0]?.socket).toBe(received[1]?.socket);
    expect(readdirSync(folder)).toEqual([]);
  });

  it('sends a split body in two writes, as the runner did: two reads, the whole Content-Length, no chunking', async () => {
    const { url, received } = await recordingServer();
    const body = '{"name":"Ficus \u0089","id":7}';
    const request: RecordedRequest = {
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json', authorization: 'Bearer $PLANTSTORE_TOKEN' },
      body,
    };
    const command = curlCommands([request], false, [true]);
    // Longer than the runner's pause: curl starts and reads its input after the shell wrote the first half.
    expect(command).toContain('sleep 1;');
    expect(SPLIT_BODY_PAUSE_MS).toBeLessThan(1_000);
    await run('dash', ['-c', `${command} > /dev/null`], {
      env: { PATH: process.env.PATH, PLANTSTORE_TOKEN: 'aB3c' },
      timeout: 10_000,
    });
    const bytes = Buffer.from(body);
    expect(received[0]?.body.equals(bytes)).toBe(true);
    expect(received[0]?.reads.map((read) => read.length)).toEqual([
      Math.floor(bytes.length / 2),
      Math.ceil(bytes.length / 2),
    ]);
    expect(received[0]?.headers['content-length']).toBe(String(bytes.length));
    expect(received[0]?.headers['transfer-encoding']).toBeUndefined();
    expect(received[0]?.authorization).toBe('Bearer aB3c');
  });

  it('ends a request the target never answers as the run did, with curl timing out (exit 28), not waiting for ever', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    onTestFinished(() => new Promise<void>((done) => (silent.closeAllConnections(), silent.close(() => done()))));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/plants`;
    const request: RecordedRequest = { method: 'POST', url, headers: {}, body: '[[[[]]]]' };
    const command = curlCommands([request], false, [], { maxTimeSeconds: 1 });
    const ended = await run('dash', ['-c', `${command} > /dev/null`], {
      env: { PATH: process.env.PATH },
      timeout: 10_000,
    })
      .then(() => 0)
      .catch((error: { code?: number }) => error.code);
    expect(ended).toBe(28);
  });
});
