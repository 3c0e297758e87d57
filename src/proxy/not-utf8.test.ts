import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { CORRECT_STEPS, refuse, startService } from '../fixtures/base/plant-service.js';
import type { StartedTarget } from '../fixtures/target-fixture.js';
import type { Report } from '../runner/report.js';
import { createProxyServer, type ProxyServer } from './index.js';
import { loadContract } from '../contract/index.js';
import { inferIntent } from './intent.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** `{"id":<id>,"name":"Fern<bytes>"}`: a valid NewPlant once the bytes are read as U+FFFD. */
const plantWith = (id: number, bytes: readonly number[]): Buffer =>
  Buffer.concat([Buffer.from(`{"id":${id},"name":"Fern`), Buffer.from(bytes), Buffer.from('"}')]);

const SEQUENCES = [[0xff], [0xe2, 0x82], [0xc0, 0xaf], [0xed, 0xa0, 0x80]];

/** The base service decoding strictly (500 on bytes that are not UTF-8) or with replacement (as Express does). */
function upstream(strict: boolean): Promise<StartedTarget> {
  return startService({
    ...CORRECT_STEPS,
    decode: (body, req) => {
      if (body.length === 0 || !strict) return body.length === 0 ? CORRECT_STEPS.decode(body, req) : body.toString();
      try {
        return new TextDecoder('utf-8', { fatal: true }).decode(body);
      } catch {
        return refuse(500, 'The encoded data was not valid for encoding utf-8', 500);
      }
    },
  });
}

async function proxied(strict: boolean): Promise<{ proxy: ProxyServer; token: string }> {
  const target = await upstream(strict);
  const proxy = await createProxyServer({ upstream: target.url, token: target.token, onLog: () => undefined });
  cleanups.push(
    () => target.close(),
    () => proxy.close(),
  );
  return { proxy, token: target.token };
}

async function sendAll(proxy: ProxyServer, token: string): Promise<number[]> {
  const statuses: number[] = [];
  for (const [index, bytes] of SEQUENCES.entries()) {
    const response = await request(`${proxy.url}/plants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: plantWith(9100 + index, bytes),
    });
    await response.body.dump();
    statuses.push(response.statusCode);
  }
  return statuses;
}

/** U+DC00 as raw bytes: no UTF-8 (a lone surrogate), what Nim 1.6's std/json writes for the escape `\\udc00`. */
const RAW_DC00 = Buffer.from([0xed, 0xb0, 0x80]);

const titles = (report: Report): string[] => (report.findings ?? []).map((finding) => finding.title);

describe('a body that is not valid UTF-8 through the proxy', () => {
  it('is a NewPlant of unpredictable meaning when it reads as one with U+FFFD, else still an invalid body', async () => {
    const contract = await loadContract();
    const context = { contract, rememberId: () => false };
    const observed = (body: Buffer) => ({
      authorization: 'Bearer t',
      contentType: 'application/json',
      body,
      bodyBytes: body.length,
      overCap: false,
      target: '/plants',
      rawHeaders: [],
    });
    for (const bytes of SEQUENCES)
      expect(inferIntent(observed(plantWith(1, bytes)), context).intent).toMatchObject({
        kind: 'unpredictable',
        notUtf8: true,
      });
    // No id: refused whichever way it is decoded.
    const invalid = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff]), Buffer.from('"}')]);
    expect(inferIntent(observed(invalid), context).intent.kind).toBe('invalid-body');
  });

  it("is judged by its answer's form: a strict decoder's 500 is one finding, its replacement's 200 none", async () => {
    const crashing = await proxied(true);
    expect(await sendAll(crashing.proxy, crashing.token)).toEqual([500, 500, 500, 500]);
    expect(titles(crashing.proxy.report())).toEqual(['status 500 for a body that is not valid UTF-8']);
    const [finding] = crashing.proxy.report().findings ?? [];
    expect(Buffer.from(finding?.counterexample.request.bodyBase64 ?? '', 'base64')).toEqual(plantWith(9100, [0xff]));
    const replacing = await proxied(false);
    expect(await sendAll(replacing.proxy, replacing.token)).toEqual([200, 200, 200, 200]);
    expect(titles(replacing.proxy.report())).toEqual([]);
  });

  it("fails the server when its answer's bytes are not UTF-8 (a lone surrogate escape written back raw, as Nim's std/json does)", async () => {
    const target = await startService({
      ...CORRECT_STEPS,
      write(res, answer) {
        const pieces = answer.body.split('\\udc00').map((piece) => Buffer.from(piece));
        const raw = Buffer.concat(pieces.flatMap((piece, index) => (index === 0 ? [piece] : [RAW_DC00, piece])));
        res.writeHead(answer.status, { ...answer.headers, 'content-length': String(raw.length) });
        res.end(raw);
      },
    });
    const proxy = await createProxyServer({ upstream: target.url, token: target.token, onLog: () => undefined });
    cleanups.push(
      () => target.close(),
      () => proxy.close(),
    );
    const response = await request(`${proxy.url}/plants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json' },
      body: '{"id":9200,"name":"Fern \\udc00"}',
    });
    const bytes = Buffer.from(await response.body.arrayBuffer());
    expect(bytes.includes(RAW_DC00)).toBe(true);
    expect(titles(proxy.report())).toEqual(['the 200 body is not JSON']);
  });
});
