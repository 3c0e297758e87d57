import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { loadContract, parameterCheck } from '../contract/index.js';
import { startParameterService } from '../fixtures/parameter-targets.js';
import { createReferenceServer } from '../index.js';
import { createProxyServer, type ProxyServer } from './index.js';
import { parameterReader } from './parameters.js';

const WITH_PARAMETERS = fileURLToPath(new URL('../http/test-documents/parameters-3.1.yaml', import.meta.url));
const TOKEN = 'proxy-parameters-token-9c2e';
let nextId = 7_000_000 + Math.floor(Math.random() * 1e6);
/** A valid plant of an id not sent before (a repeated one may be refused). */
const plant = (): string => `{"id":${nextId++},"name":"Fern"}`;
const REQUEST_ID = '0b6e2f7c-3d4a-4b8e-9f1a-2c3d4e5f6a7b';
/** Every parameter of the document valid. */
const VALID = { query: 'api-version=2024-01-01', requestId: REQUEST_ID, cookie: 'tenant=acme' };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function proxyInFrontOf(upstream: { url: string; close(): Promise<void> }, token: string) {
  cleanups.push(() => upstream.close());
  const log: string[] = [];
  const proxy = await createProxyServer({
    upstream: upstream.url,
    spec: WITH_PARAMETERS,
    token,
    onLog: (line) => log.push(line),
  });
  cleanups.push(() => proxy.close());
  return { proxy, log };
}

interface Parameters {
  readonly query?: string;
  readonly requestId?: string;
  readonly cookie?: string;
}

/** POSTs a valid plant with undici, with the parameters given (each left out when absent). */
async function post(proxy: ProxyServer, token: string, parameters: Parameters): Promise<number> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  if (parameters.requestId !== undefined) headers['x-request-id'] = parameters.requestId;
  if (parameters.cookie !== undefined) headers.cookie = parameters.cookie;
  const query = parameters.query === undefined ? '' : `?${parameters.query}`;
  const response = await request(`${proxy.url}/plants${query}`, { method: 'POST', headers, body: plant() });
  await response.body.dump();
  return response.statusCode;
}

/** POSTs a valid plant with Debian's curl; the status it got. */
function curl(url: string, token: string, headers: readonly string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const args = ['-sS', '--max-time', '10', '-o', '/dev/null', '-w', '%{http_code}', '-X', 'POST', url];
    for (const header of [...headers, `Authorization: Bearer ${token}`, 'Content-Type: application/json'])
      args.push('-H', header);
    const child = spawn('curl', [...args, '--data-binary', plant()]);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('latin1')));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Number(out)) : reject(new Error(`curl exited ${code}`))));
  });
}

const failedChecks = (proxy: ProxyServer): string[] =>
  proxy
    .report()
    .checks.filter((check) => check.status === 'fail')
    .map((check) => check.id);

describe('the proxy judges the parameters of a document that declares them', () => {
  it('in front of serve --spec: a client leaving out or breaking a parameter is the client side, serve refusing it passes', async () => {
    const serve = await createReferenceServer({ spec: WITH_PARAMETERS, tokens: [TOKEN] });
    const { proxy, log } = await proxyInFrontOf(serve, TOKEN);
    expect(await post(proxy, TOKEN, VALID)).toBe(200);
    expect(await post(proxy, TOKEN, { ...VALID, requestId: undefined })).toBe(400);
    expect(await post(proxy, TOKEN, { ...VALID, query: 'api-version=2023-01-01' })).toBe(400);
    expect(await post(proxy, TOKEN, { ...VALID, query: `${VALID.query}&dryRun=maybe` })).toBe(400);
    const withoutCookie = await curl(`${proxy.url}/plants?${VALID.query}`, TOKEN, [`X-Request-ID: ${REQUEST_ID}`]);
    expect(withoutCookie).toBe(400);
    expect(log[0]).toMatch(/ 200 .* conforms$/);
    expect(log[1]).toMatch(/client broke the contract: sent a request with required header "X-Request-ID" left out$/);
    expect(log[2]).toMatch(/client broke the contract: sent a request with query "api-version" holding "2023-01-01": /);
    expect(log[3]).toMatch(/client broke the contract: sent a request with query "dryRun" holding "maybe": /);
    expect(log[4]).toMatch(/client broke the contract: sent a request with required cookie "tenant" left out$/);
    expect(log.join('\n')).not.toMatch(/server broke/);
    expect(failedChecks(proxy)).toEqual([]);
    expect(log.join('\n')).not.toContain(TOKEN);
  }, 30_000);

  it('in front of a service that ignores X-Request-ID: its 200 to a request without it is the server side, with a reproduction that sends the other parameters', async () => {
    const service = await startParameterService(['X-Request-ID']);
    const { proxy, log } = await proxyInFrontOf(service, service.token);
    expect(await post(proxy, service.token, VALID)).toBe(200);
    expect(await post(proxy, service.token, { ...VALID, requestId: 'not-a-uuid' })).toBe(200);
    expect(await post(proxy, service.token, { ...VALID, query: undefined })).toBe(400);
    expect(log[0]).toMatch(/conforms$/);
    expect(log[1]).toMatch(
      /server broke the contract \[negative-rejection\]: A valid NewPlant sent with header "X-Request-ID" holding "not-a-uuid": .* was accepted with 200/,
    );
    expect(log[1]).toMatch(/client broke the contract: sent a request with header "X-Request-ID" holding "not-a-uuid"/);
    expect(log[2]).not.toMatch(/server broke/);
    expect(failedChecks(proxy)).toEqual(['negative-rejection']);
    const check = proxy.report().checks.find(({ id }) => id === 'negative-rejection');
    const [failure] = check?.failures ?? [];
    expect(failure?.defect).toBe('a request breaking the header "X-Request-ID" parameter accepted');
    expect(failure?.request.url).toBe(`${service.url}/plants?${VALID.query}`);
    expect(failure?.request.headers).toMatchObject({ 'x-request-id': 'not-a-uuid', cookie: VALID.cookie });
    expect(JSON.stringify(proxy.report())).not.toContain(service.token);
  }, 30_000);
});

describe('values lenient servers read as valid', () => {
  it('are the client side only: a service accepting dryRun=1 or a cookie with a %XX escape is not blamed, one accepting dryRun=maybe or tenant=ACME is', async () => {
    const service = await startParameterService(['dryRun', 'tenant']);
    const { proxy, log } = await proxyInFrontOf(service, service.token);
    expect(await post(proxy, service.token, { ...VALID, query: `${VALID.query}&dryRun=1` })).toBe(200);
    expect(await post(proxy, service.token, { ...VALID, cookie: 'tenant=ac%6De' })).toBe(200);
    expect(await post(proxy, service.token, { ...VALID, query: `${VALID.query}&dryRun=maybe` })).toBe(200);
    expect(await post(proxy, service.token, { ...VALID, cookie: 'tenant=ACME' })).toBe(200);
    expect(log[0]).toMatch(/client broke the contract: sent a request with query "dryRun" holding "1"/);
    expect(log[1]).toMatch(/client broke the contract: sent a request with cookie "tenant" holding "ac%6De"/);
    expect(log.slice(0, 2).join('\n')).not.toMatch(/server broke/);
    const failures = proxy.report().checks.find(({ id }) => id === 'negative-rejection')?.failures ?? [];
    expect(failures.map((failure) => failure.defect).sort()).toEqual([
      'a request breaking the cookie "tenant" parameter accepted',
      'a request breaking the query "dryRun" parameter accepted',
    ]);
  }, 30_000);

  it('a repeated query parameter is the client side only: servers differ on which value they read', async () => {
    const contract = await loadContract(WITH_PARAMETERS);
    const reader = parameterReader(contract);
    const raw = ['X-Request-ID', REQUEST_ID, 'Cookie', VALID.cookie];
    expect(reader?.broken('/plants?api-version=2024-01-01&api-version=2025-06-01', raw)).toMatchObject({
      parameter: 'query "api-version"',
      lenient: true,
    });
    expect(reader?.broken('/plants?api-version=2024-13-01', raw)).toMatchObject({ lenient: false });
  });
});

describe('parameterReader', () => {
  it('is undefined for a document that declares no parameters (no work per request)', async () => {
    expect(parameterReader(await loadContract())).toBeUndefined();
  });

  it('finds a break exactly when the servers parameter step refuses the request (property)', async () => {
    const contract = await loadContract(WITH_PARAMETERS);
    const reader = parameterReader(contract);
    const check = parameterCheck(contract);
    if (reader === undefined || check === undefined) throw new Error('the document declares parameters');
    const text = fc.oneof(
      fc.constantFrom('2024-01-01', '2025-06-01', 'true', 'false', 'acme', REQUEST_ID, '', 'x y', 'ab', '1'),
      fc.string({ maxLength: 12 }),
    );
    const header = fc.option(text, { nil: undefined });
    const query = fc.array(fc.tuple(fc.constantFrom('api-version', 'dryRun', 'other'), text), { maxLength: 3 });
    const cookies = fc.array(fc.tuple(fc.constantFrom('tenant', 'session'), text), { maxLength: 2 });
    fc.assert(
      fc.property(header, query, cookies, (requestId, pairs, cookiePairs) => {
        const search = new URLSearchParams(pairs).toString();
        const target = search === '' ? '/plants' : `/plants?${search}`;
        const raw: string[] = [];
        const headers: Record<string, string> = {};
        if (requestId !== undefined) raw.push('X-Request-ID', (headers['x-request-id'] = requestId));
        if (cookiePairs.length > 0)
          raw.push('Cookie', (headers.cookie = cookiePairs.map(([name, value]) => `${name}=${value}`).join('; ')));
        const refused = check({ headers, url: target }) !== undefined;
        expect(reader.broken(target, raw) !== undefined).toBe(refused);
      }),
      { numRuns: 500 },
    );
  });
});
