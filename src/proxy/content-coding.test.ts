import * as zlib from 'node:zlib';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { decodedBody } from './content-coding.js';
import { createProxyServer } from './index.js';
import { recordingUpstream } from './test-upstreams.js';

const PLANT = Buffer.from('{"name":"Fern","tag":"fern"}');

describe('decodedBody', () => {
  it.each([
    ['gzip', gzipSync(PLANT)],
    ['x-gzip', gzipSync(PLANT)],
    ['deflate', deflateSync(PLANT)],
    ['deflate', deflateRawSync(PLANT)],
    ['br', brotliCompressSync(PLANT)],
    ['BR', brotliCompressSync(PLANT)],
    ['identity', PLANT],
    ['gzip, br', brotliCompressSync(gzipSync(PLANT))],
  ])('undoes Content-Encoding %s', (coding, sent) => {
    expect(decodedBody(coding, sent, 1024).body?.toString()).toBe(PLANT.toString());
  });

  const zstdCompress = (zlib as { zstdCompressSync?: (bytes: Buffer) => Buffer }).zstdCompressSync;
  it.skipIf(zstdCompress === undefined)('undoes zstd where Node has it (22.15 and later; Chromium asks for it)', () => {
    const sent = zstdCompress?.(PLANT) ?? PLANT;
    expect(decodedBody('zstd', sent, 1024).body?.toString()).toBe(PLANT.toString());
  });

  it('leaves a body without Content-Encoding, and an empty one with it, as they are', () => {
    expect(decodedBody(undefined, PLANT, 1024).body).toBe(PLANT);
    expect(decodedBody('gzip', Buffer.alloc(0), 1024)).toEqual({ body: Buffer.alloc(0) });
  });

  it('says a coding it does not know, a body that does not decode, and one that decodes past the cap', () => {
    expect(decodedBody('compress', PLANT, 1024).undecoded).toMatch(/"compress" is not one the proxy decodes/);
    expect(decodedBody('gzip', PLANT, 1024).corrupt).toMatch(/does not decode as its Content-Encoding gzip says/);
    expect(decodedBody('gzip', gzipSync(Buffer.alloc(4096, 0x20)), 1024).undecoded).toMatch(
      /more than the judging cap/,
    );
  });
});

describe('the proxy judges a compressed answer as its client reads it', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** POSTs a valid NewPlant through the proxy to an upstream that answers `body` with `coding`. */
  async function judged(coding: string, body: Buffer): Promise<string[]> {
    const upstream = await recordingUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': coding });
      res.end(body);
    });
    const log: string[] = [];
    const proxy = await createProxyServer({
      upstream: upstream.url,
      token: 'coding-token',
      onLog: (line) => log.push(line),
    });
    cleanups.push(
      () => upstream.close(),
      () => proxy.close(),
    );
    const response = await request(`${proxy.url}/plants`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer coding-token',
        'content-type': 'application/json',
        'accept-encoding': 'gzip, deflate, br',
      },
      body: '{"id":1,"name":"Fern","tag":"fern"}',
    });
    // Passed on as the upstream sent it, still compressed.
    expect(Buffer.from(await response.body.arrayBuffer())).toEqual(body);
    await proxy.close();
    return log.filter((line) => line.startsWith('POST /plants'));
  }

  it('a gzip or br Plant conforms (it was blamed as "not JSON")', async () => {
    expect(await judged('gzip', gzipSync(PLANT))).toEqual([expect.stringMatching(/^POST \/plants 200 \S+ conforms$/)]);
    expect(await judged('br', brotliCompressSync(PLANT))).toEqual([expect.stringMatching(/ conforms$/)]);
  });

  it('a compressed answer that breaks the Plant schema is blamed for that, not for being compressed', async () => {
    const [line] = await judged('br', brotliCompressSync('{"tag":"fern"}'));
    expect(line).toMatch(/server broke the contract \[response-schema\]: .*"name" is required/);
    expect(line).not.toMatch(/not JSON/);
  });

  it("an unknown coding is judged by the answer's form only, and said", async () => {
    const [line] = await judged('compress', Buffer.from('\x1f\x9d...'));
    expect(line).toMatch(/"compress" is not one the proxy decodes: only its form judged/);
    expect(line).not.toMatch(/server broke/);
  });

  it("a body that does not decode as its coding says is the server's break, and said", async () => {
    const [line] = await judged('gzip', PLANT);
    expect(line).toMatch(/server broke the contract \[response-schema\]/);
    expect(line).toMatch(/does not decode as its Content-Encoding gzip says/);
  });
});
