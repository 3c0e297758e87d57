import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../contract/index.js';
import { runCli } from './main.js';

const BIN = join(PACKAGE_ROOT, 'dist/src/cli/bin.js');
const SECRET = 'sentinel-token-7f3a9c';

interface Started {
  url: string;
  output: () => string;
  stop: () => Promise<number | null>;
}

const running: Started[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()));
});

/** Starts the built CLI the way a user does, and waits for its startup line. */
function startServe(args: string[], env: Record<string, string> = {}): Promise<Started> {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run "npm run build" first (npm test does).`);
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${output}`)), 10_000);
    child.stdout.on('data', () => {
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (!match?.[1]) return;
      clearTimeout(timer);
      const started: Started = {
        url: match[1],
        output: () => output,
        stop: () => {
          child.kill('SIGTERM');
          return exited;
        },
      };
      running.push(started);
      resolve(started);
    });
    child.on('exit', () => reject(new Error(`serve exited early: ${output}`)));
  });
}

async function post(
  url: string,
  body: string,
  auth?: string,
): Promise<{ status: number; text: string; headers: Headers }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (auth !== undefined) headers.authorization = auth;
  const res = await fetch(`${url}/plants`, { method: 'POST', headers, body });
  return { status: res.status, text: await res.text(), headers: res.headers };
}

describe('plantstore serve', () => {
  it('answers as the contract says and never prints the token', async () => {
    const server = await startServe(['--token', SECRET]);
    const ok = await post(server.url, '{"id":9223372036854775807,"name":" Fern ","tag":"ü"}', `Bearer ${SECRET}`);
    expect(ok).toMatchObject({ status: 200, text: '{"name":" Fern ","tag":"ü"}' });
    expect((await post(server.url, '{"id":1.5,"name":"a"}', `bearer ${SECRET}`)).status).toBe(400);
    const denied = await post(server.url, '{"id":1,"name":"a"}');
    expect(denied.status).toBe(401);
    expect(denied.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await post(server.url, '{"id":2,"name":"a"}', `Bearer ${SECRET}x`)).toMatchObject({ status: 401 });
    expect(await server.stop()).toBe(0);
    expect(server.output()).toMatch(/POST \/plants 200 /);
    expect(server.output()).not.toContain(SECRET);
  });

  it('reads the token from PLANTSTORE_TOKEN', async () => {
    const server = await startServe([], { PLANTSTORE_TOKEN: SECRET });
    expect((await post(server.url, '{"id":1,"name":"a"}', `Bearer ${SECRET}`)).status).toBe(200);
    expect(server.output()).toContain('PLANTSTORE_TOKEN');
    expect(server.output()).not.toContain(SECRET);
  });

  it('generates a token into a private file when none is configured', async () => {
    const server = await startServe(['--quiet']);
    const file = /\$\(cat (\S+)\)/.exec(server.output())?.[1];
    expect(file).toBeDefined();
    const { readFileSync, statSync } = await import('node:fs');
    const token = readFileSync(file ?? '', 'utf8').trim();
    expect(statSync(file ?? '').mode & 0o077).toBe(0);
    expect(server.output()).not.toContain(token);
    expect((await post(server.url, '{"id":1,"name":"a"}', `Bearer ${token}`)).status).toBe(200);
  });

  it('says a document asking no credential (security: []) needs none, and generates no token for it', async () => {
    const { mkdtempSync, readFileSync, rmSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'plantstore-serve-open-'));
    try {
      const seed = readFileSync(join(PACKAGE_ROOT, 'openapi.yaml'), 'utf8');
      const open = seed.replace('security:\n  - bearerAuth: []\n', 'security: []\n');
      expect(open).not.toBe(seed);
      writeFileSync(join(dir, 'open.yaml'), open);
      const server = await startServe(['--quiet', '--spec', join(dir, 'open.yaml')], { PLANTSTORE_TOKEN: SECRET });
      expect(server.output()).toContain('(POST /plants); no authentication (the document declares none)');
      expect(server.output()).not.toMatch(/PLANTSTORE_TOKEN|cat /);
      expect((await post(server.url, '{"id":1,"name":"a"}')).status).toBe(200);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('deletes the generated token file when it stops', async () => {
    const stdout = new PassThrough();
    let text = '';
    stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    let stop = (): void => undefined;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const exit = runCli(['serve', '--port', '0', '--quiet'], {
      stdout,
      stderr: new PassThrough(),
      env: {},
      cwd: process.cwd(),
      waitForStop: () => stopped,
    });
    for (let i = 0; i < 400 && !/\$\(cat (\S+)\)/.test(text); i++) {
      await Promise.race([exit, new Promise((resolve) => setTimeout(resolve, 25))]);
    }
    const file = /export PLANTSTORE_TOKEN=\$\(cat (\S+)\)/.exec(text)?.[1];
    if (file === undefined) throw new Error(`serve did not start: ${text}`);
    expect(existsSync(file)).toBe(true);
    stop();
    expect(await exit).toBe(0);
    expect(existsSync(file)).toBe(false);
  });
});
