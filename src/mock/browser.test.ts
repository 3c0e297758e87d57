import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_TOKEN } from './dev-token.js';
import { createMockServer, type MockServer } from './mock-server.js';

const CHROMIUM = '/usr/bin/chromium';
// In CI the browser test must run (.ci/run installs Chromium); elsewhere it may be skipped.
const skipReason =
  !existsSync(CHROMIUM) && !process.env.CI
    ? `skipped: ${CHROMIUM} is missing (install it with: apt-get install -y chromium)`
    : undefined;

/** A frontend page: posts a good and a bad plant to the mock and shows what came back. */
function page(mockUrl: string): string {
  return `<!doctype html><meta charset="utf-8"><title>plants</title>
<p id="created">…</p><p id="error">…</p>
<script>
async function addPlant(body) {
  const response = await fetch(${JSON.stringify(`${mockUrl}/plants`)}, {
    method: 'POST',
    headers: { Authorization: 'Bearer ${DEV_TOKEN}', 'Content-Type': 'application/json' },
    body,
  });
  return { status: response.status, json: await response.json() };
}
addPlant('{"id": 9223372036854775807, "name": "Fern", "tag": "fern"}')
  .then(({ status, json }) => { document.getElementById('created').textContent = status + ' ' + json.name + '/' + json.tag; })
  .catch((error) => { document.getElementById('created').textContent = 'failed: ' + error; });
addPlant('{"id": 1.5, "name": "Fern"}')
  .then(({ status, json }) => { document.getElementById('error').textContent = status + ' ' + json.message; })
  .catch((error) => { document.getElementById('error').textContent = 'failed: ' + error; });
</script>`;
}

function servePage(html: string): Promise<{ server: Server; url: string }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({ server, url: `http://localhost:${(server.address() as AddressInfo).port}/` });
    });
  });
}

describe.skipIf(skipReason !== undefined)(skipReason ?? 'the mock from a page in headless Chromium', () => {
  let mock: MockServer;
  let pageServer: Server;
  let pageUrl: string;
  let context: BrowserContext;
  let profile: string;

  beforeAll(async () => {
    mock = await createMockServer();
    ({ server: pageServer, url: pageUrl } = await servePage(page(mock.url)));
    profile = await mkdtemp(join(tmpdir(), 'plantstore-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      timeout: 30_000,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    await mock?.close();
    pageServer?.close();
    if (profile) await rm(profile, { recursive: true, force: true });
  });

  it('a page on another origin creates a plant and shows the Error message of a bad request', async () => {
    const tab = await context.newPage();
    await tab.goto(pageUrl);
    const created = tab.locator('#created');
    const error = tab.locator('#error');
    await expect.poll(() => created.textContent(), { timeout: 15_000 }).not.toBe('…');
    await expect.poll(() => error.textContent(), { timeout: 15_000 }).not.toBe('…');
    expect(await created.textContent()).toBe('200 Fern/fern');
    expect(await error.textContent()).toMatch(/^400 Invalid NewPlant: field "id" must be a whole number/);
  }, 30_000);
});
