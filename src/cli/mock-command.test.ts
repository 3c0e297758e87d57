import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { TEST_DOCUMENTS } from '../http/spec-following.case.js';
import { DEV_TOKEN } from '../mock/dev-token.js';
import type { CliIo } from './command.js';
import { runCli } from './main.js';

interface RunningCli {
  readonly url: string;
  output(): string;
  stop(): Promise<number>;
}

/** Starts `plantstore mock` in-process with captured output; resolves once it is listening. */
async function startMock(args: string[], env: Record<string, string> = {}): Promise<RunningCli> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let text = '';
  stdout.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  stderr.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  let stopNow = (): void => undefined;
  const stopped = new Promise<void>((resolve) => (stopNow = resolve));
  const io: CliIo = { stdout, stderr, env, cwd: process.cwd(), waitForStop: () => stopped };
  const exit = runCli(['mock', '--port', '0', ...args], io);
  for (let i = 0; i < 600 && !/listening on (\S+)/.test(text); i++) {
    await Promise.race([exit, new Promise((resolve) => setTimeout(resolve, 25))]);
  }
  const url = /listening on (http:\/\/\S+)/.exec(text)?.[1];
  if (url === undefined) throw new Error(`mock did not start: ${text}`);
  return {
    url,
    output: () => text,
    stop: async () => {
      stopNow();
      return exit;
    },
  };
}

async function post(url: string, token: string | undefined, body: string): Promise<number> {
  const response = await fetch(`${url}/plants`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body,
    signal: AbortSignal.timeout(10_000),
  });
  await response.arrayBuffer();
  return response.status;
}

describe('plantstore mock', () => {
  it('shows the development token at startup and logs one line per request', async () => {
    const cli = await startMock([]);
    expect(await post(cli.url, DEV_TOKEN, '{"id": 1, "name": "Fern"}')).toBe(200);
    expect(await post(cli.url, DEV_TOKEN, '{"id": 1}')).toBe(400);
    expect(await cli.stop()).toBe(0);
    const lines = cli.output().trimEnd().split('\n');
    expect(lines[0]).toContain(`Authorization: Bearer ${DEV_TOKEN}`);
    expect(lines.slice(1)).toHaveLength(2);
    expect(lines[1]).toMatch(/^POST \/plants 200 \d+\.\dms$/);
    expect(lines[2]).toMatch(/^POST \/plants 400 \d+\.\dms {2}.*field "name" is required/);
  });

  it('never prints a configured token, from a flag or the environment', async () => {
    const sentinel = 'sentinel-token-7f3a9c';
    for (const [args, env] of [
      [['--token', sentinel], {}],
      [[], { PLANTSTORE_TOKEN: sentinel }],
    ] as const) {
      const cli = await startMock([...args], env);
      expect(await post(cli.url, sentinel, '{"id": 1, "name": "Fern"}')).toBe(200);
      expect(await post(cli.url, DEV_TOKEN, '{"id": 1, "name": "Fern"}')).toBe(401);
      expect(await post(cli.url, `${sentinel}x`, '{"id": 1}')).toBe(401);
      await cli.stop();
      expect(cli.output()).not.toContain(sentinel);
      expect(cli.output()).not.toContain(DEV_TOKEN);
    }
  });

  it('mocks the document --spec names, and names at startup the other operations it answers', async () => {
    const cli = await startMock(['--spec', TEST_DOCUMENTS.constrained, '--quiet']);
    expect(await post(cli.url, DEV_TOKEN, '{"id": 1, "name": "Elevenchars"}')).toBe(400);
    expect(await post(cli.url, DEV_TOKEN, '{"id": 1, "name": "Fern"}')).toBe(200);
    expect(await cli.stop()).toBe(0);
    expect(cli.output().trimEnd().split('\n')[1]).toBe(
      "also answering, from the document's examples and schemas: GET /plants and DELETE /plants/{id}",
    );
  });

  it('refuses a --spec it cannot read, exit 2', async () => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let text = '';
    stderr.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    const io: CliIo = { stdout, stderr, env: {}, cwd: process.cwd(), waitForStop: () => Promise.resolve() };
    expect(await runCli(['mock', '--port', '0', '--spec', 'no-such-document.yaml'], io)).toBe(2);
    expect(text).toContain('no-such-document.yaml');
  });

  it('is silent after the startup line with --quiet', async () => {
    const cli = await startMock(['--quiet']);
    await post(cli.url, undefined, '{}');
    await cli.stop();
    expect(cli.output().trimEnd().split('\n')).toHaveLength(1);
  });

  it('says so at startup when it accepts any token, and names the seed of --dynamic', async () => {
    const cli = await startMock(['--any-token', '--dynamic', '--seed', '7']);
    expect(await post(cli.url, 'anything', '{"id": 1, "name": "Fern"}')).toBe(200);
    await cli.stop();
    expect(cli.output()).toMatch(/ANY non-empty bearer token/);
    expect(cli.output()).toMatch(/seed 7/);
  });

  it('takes --any-token over an exported PLANTSTORE_TOKEN, and shows the seed Prefer: dynamic=true uses', async () => {
    const cli = await startMock(['--any-token', '--seed', '5'], { PLANTSTORE_TOKEN: 'exported-for-test' });
    expect(await post(cli.url, 'anything', '{"id": 1, "name": "Fern"}')).toBe(200);
    await cli.stop();
    expect(cli.output()).toMatch(/Prefer: dynamic=true uses seed 5/);
  });

  it('refuses --any-token together with a token, exit 2', async () => {
    const stderr = new PassThrough();
    let text = '';
    stderr.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    const io: CliIo = {
      stdout: new PassThrough(),
      stderr,
      env: {},
      cwd: process.cwd(),
      waitForStop: () => Promise.resolve(),
    };
    expect(await runCli(['mock', '--any-token', '--token', 'x'], io)).toBe(2);
    expect(text).toMatch(/--any-token/);
  });
});
