import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SPEC_PATH, loadContract } from '../contract/index.js';
import { DEV_TOKEN } from '../mock/dev-token.js';
import { createMockServer, type MockServer } from '../mock/mock-server.js';
import { createReferenceHandler } from '../reference/server.js';
import { createProxyServer, type ProxyServer } from './index.js';

const CHROMIUM = '/usr/bin/chromium';
const skipReason =
  !existsSync(CHROMIUM) && !process.env.CI
    ? `skipped: ${CHROMIUM} is missing (install it with: apt-get install -y chromium)`
    : undefined;
const TOKEN = 'browser-proxy-token-0c7e2a';

/** Bodies whose ids or escapes a re-serialising proxy would change, in the order the page sends them. */
const BODIES = [
  '{"id":9223372036854775807,"name":"max"}',
  '{"id":9007199254740992,"name":"two to the 53"}',
  '{"id":9007199254740993,"name":"one more"}',
  '{"id":9223372036854775807,"name":"max again"}',
  '{"id":11,"name":"lone \\ud800","tag":"nul \\u0000 x"}',
];

/** A page that posts every body to `endpoint` and shows each status and answer (and `header`'s value, if named). */
function page(endpoint: string, token: string, header?: string): string {
  return `<!doctype html><meta charset="utf-8"><title>plants</title><pre id="out">…</pre>
<script>
(async () => {
  const results = [];
  for (const body of ${JSON.stringify(BODIES)}) {
    const response = await fetch(${JSON.stringify(endpoint)}, {
      method: 'POST',
      headers: { Authorization: 'Bearer ${token}', 'Content-Type': 'application/json' },
      body,
    });
    const read = ${JSON.stringify(header ?? null)};
    results.push(response.status + ' ' + (await response.text()) + (read ? ' [' + response.headers.get(read) + ']' : ''));
  }
  document.getElementById('out').textContent = JSON.stringify(results);
})().catch((error) => { document.getElementById('out').textContent = 'failed: ' + error; });
</script>`;
}

/** `serve`'s handler for POST /plants, and the page itself at any other GET. */
async function servePageAndReference(): Promise<{ server: Server; url: string }> {
  const contract = await loadContract(DEFAULT_SPEC_PATH);
  const reference = createReferenceHandler(contract, { tokens: [TOKEN] });
  const server = createServer((req, res) => {
    if (req.method !== 'GET') return reference(req, res);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page('/plants', TOKEN));
  });
  return listen(server);
}

function listen(server: Server): Promise<{ server: Server; url: string }> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
    });
  });
}

async function shown(context: BrowserContext, url: string): Promise<string[]> {
  const tab = await context.newPage();
  await tab.goto(url);
  const out = tab.locator('#out');
  await expect.poll(() => out.textContent(), { timeout: 15_000 }).not.toBe('…');
  const text = (await out.textContent()) ?? '';
  await tab.close();
  return text.startsWith('failed') ? [text] : (JSON.parse(text) as string[]);
}

describe.skipIf(skipReason !== undefined)(skipReason ?? 'a page in headless Chromium through the proxy', () => {
  let context: BrowserContext;
  let profile: string;
  const closers: (() => unknown)[] = [];

  beforeAll(async () => {
    profile = await mkdtemp(join(tmpdir(), 'plantstore-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      timeout: 30_000,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    for (const close of closers.reverse()) await close();
    if (profile) await rm(profile, { recursive: true, force: true });
  });

  async function proxyTo(upstream: string, annotate = false): Promise<{ proxy: ProxyServer; log: string[] }> {
    const log: string[] = [];
    const proxy = await createProxyServer({ upstream, annotate, onLog: (line) => log.push(line) });
    closers.push(() => proxy.close());
    return { proxy, log };
  }

  it('page → proxy → serve: ids and escapes reach serve exactly, and nothing is reported', async () => {
    const { server, url } = await servePageAndReference();
    closers.push(() => server.close());
    const { proxy, log } = await proxyTo(url);
    const results = await shown(context, `${proxy.url}/`);
    // 2^53+1 stored beside 2^53, and 2^63-1 refused only as a repeat: the digits arrived as sent.
    expect(results.map((result) => result.slice(0, 3))).toEqual(['200', '200', '200', '400', '200']);
    expect(results[4]).toContain('"name":"lone \\ud800","tag":"nul \\u0000 x"');
    const report = proxy.report();
    expect(report.summary.cases).toBe(5);
    expect(report.checks.filter((check) => check.status === 'fail')).toEqual([]);
    expect(log.filter((line) => line.includes('server broke'))).toEqual([]);
  }, 30_000);

  it('a page on another origin: its CORS preflight goes through to the upstream (the mock)', async () => {
    const mock: MockServer = await createMockServer();
    closers.push(() => mock.close());
    const { proxy, log } = await proxyTo(mock.url);
    const pageServer = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(page(`${proxy.url}/plants`, DEV_TOKEN));
    });
    const { url } = await listen(pageServer);
    closers.push(() => pageServer.close());
    const results = await shown(context, url.replace('127.0.0.1', 'localhost'));
    expect(results[0]?.slice(0, 3)).toBe('200');
    expect(log.some((line) => /^OPTIONS \/plants 20\d .*outside the contract/.test(line))).toBe(true);
  }, 30_000);

  it('with annotate, a page on another origin reads the Plantstore-Violations header', async () => {
    const mock: MockServer = await createMockServer();
    closers.push(() => mock.close());
    const { proxy } = await proxyTo(mock.url, true);
    const pageServer = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(page(`${proxy.url}/plants`, DEV_TOKEN, 'Plantstore-Violations'));
    });
    const { url } = await listen(pageServer);
    closers.push(() => pageServer.close());
    const results = await shown(context, url.replace('127.0.0.1', 'localhost'));
    // Before, the header was sent but hidden from the script (not in Access-Control-Expose-Headers): [null].
    expect(results[0]).toMatch(/^200 .*\[none\]$/);
  }, 30_000);
});
