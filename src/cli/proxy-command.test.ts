import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { captureIo } from '../fixtures/cli-io.js';
import { created201 } from '../fixtures/faulty/status-defects.js';
import { createReferenceServer } from '../reference/server.js';
import { runCli } from './main.js';

const TOKEN = 'proxy-cli-token-5e1b9d';
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A captured CliIo whose stop signal the test gives. */
function io(env: Record<string, string> = {}) {
  const captured = captureIo(env);
  dirs.push(captured.cwd);
  let stop: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  return { ...captured, waitForStop: () => stopped, stop: () => stop() };
}

describe('plantstore proxy', () => {
  it('shows its help and exit codes', async () => {
    const cli = io();
    expect(await runCli(['proxy', '--help'], cli)).toBe(0);
    expect(cli.out()).toMatch(/--upstream <url>/);
    expect(cli.out()).toMatch(/Exit codes: 0/);
  });

  it('refuses to start without an http(s) upstream (exit 2)', async () => {
    const missing = io();
    expect(await runCli(['proxy'], missing)).toBe(2);
    expect(missing.err()).toMatch(/--upstream is required/);
    const noScheme = io();
    expect(await runCli(['proxy', '--upstream', 'localhost:8080'], noScheme)).toBe(2);
    expect(noScheme.err()).toMatch(/http:\/\/ or https:\/\//);
  });

  it('logs each exchange and writes the three reports on stop, with no token anywhere', async () => {
    const reference = await createReferenceServer({ tokens: [TOKEN] });
    const cli = io({ PLANTSTORE_TOKEN: TOKEN });
    try {
      const exit = runCli(['proxy', '--upstream', reference.url, '--port', '0', '--out', 'out'], cli);
      await expect.poll(() => /listening on (http:\/\/\S+),/.exec(cli.out())?.[1], { timeout: 10_000 }).toBeTruthy();
      const url = /listening on (http:\/\/\S+),/.exec(cli.out())?.[1] ?? '';
      const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
      await (await fetch(`${url}/plants`, { method: 'POST', headers, body: '{"id":1,"name":"Fern"}' })).text();
      await (await fetch(`${url}/plants`, { method: 'POST', body: '{"id":2,"name":"Fern"}' })).text();
      cli.stop();
      expect(await exit).toBe(0);
      const files = ['report.json', 'junit.xml', 'report.html'].map((file) => join(cli.cwd, 'out', file));
      for (const file of files) expect(existsSync(file)).toBe(true);
      expect(cli.out()).toMatch(/POST \/plants 200 .*conforms/);
      expect(cli.out()).toMatch(/POST \/plants 401 .*client broke the contract: sent no Authorization header/);
      expect(cli.out()).toMatch(
        /2 exchanges judged; the server failed no check; the client broke the contract \(client-requests\); reports: /,
      );
      const written = [cli.out(), cli.err(), ...files.map((file) => readFileSync(file, 'utf8'))].join('\n');
      expect(written).not.toContain(TOKEN);
    } finally {
      await reference.close();
    }
  });

  it('names the checks the server failed in its closing line, exit 1', async () => {
    const faulty = await created201.start();
    const cli = io({ PLANTSTORE_TOKEN: faulty.token });
    try {
      const exit = runCli(['proxy', '--upstream', faulty.url, '--port', '0', '--out', 'out'], cli);
      await expect.poll(() => /listening on (http:\/\/\S+),/.exec(cli.out())?.[1], { timeout: 10_000 }).toBeTruthy();
      const url = /listening on (http:\/\/\S+),/.exec(cli.out())?.[1] ?? '';
      const headers = { authorization: `Bearer ${faulty.token}`, 'content-type': 'application/json' };
      await (await fetch(`${url}/plants`, { method: 'POST', headers, body: '{"id":7,"name":"Fern"}' })).text();
      cli.stop();
      expect(await exit).toBe(1);
      expect(cli.out()).toMatch(
        /1 exchanges judged; the server failed 2 checks \(positive-acceptance, documented-status\); the client kept the contract; reports: /,
      );
    } finally {
      await faulty.close();
    }
  });

  it('stops by itself after --duration, exit 2 when nothing was judged', async () => {
    const reference = await createReferenceServer({ tokens: [TOKEN] });
    const cli = io();
    try {
      const started = performance.now();
      const code = await runCli(['proxy', '--upstream', reference.url, '--port', '0', '--duration', '1'], cli);
      expect(code).toBe(2);
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(existsSync(join(cli.cwd, 'reports', 'report.json'))).toBe(true);
      expect(cli.err()).toMatch(/^plantstore proxy: no exchange was judged, so there is no verdict \(exit 2\)\.\n/);
      expect(cli.err()).toMatch(
        /\n {2}No exchange of an operation the document defines \(POST \/plants among them\) went through the proxy: .*Is the client pointed at the proxy\?/,
      );
      expect(cli.err()).toMatch(/OPTIONS preflight/);
    } finally {
      await reference.close();
    }
  });
});
