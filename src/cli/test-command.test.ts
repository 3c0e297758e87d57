import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { PACKAGE_ROOT } from '../contract/index.js';
import { createReferenceServer, type ReferenceServer } from '../reference/server.js';
import { runCli } from './main.js';
import { captureIo } from '../fixtures/cli-io.js';
import { created201 } from '../fixtures/faulty/status-defects.js';
import { startRecordingRelay } from '../fixtures/recording-relay.js';
import { listenOnLoopback } from '../fixtures/target-fixture.js';

const SENTINEL = 'cli-sentinel-token-51d0e2';
const run = promisify(execFile);

const io = captureIo;

function reportFiles(dir: string): string {
  const reports = join(dir, 'reports');
  return existsSync(reports)
    ? readdirSync(reports)
        .map((file) => readFileSync(join(reports, file), 'utf8'))
        .join('\n')
    : '';
}

describe('plantstore test', () => {
  let reference: ReferenceServer;
  beforeAll(async () => {
    reference = await createReferenceServer({ tokens: [SENTINEL] });
  });
  afterAll(() => reference.close());

  it('passes a conformant target, prints the seed, writes reports, and never shows the token', async () => {
    const cli = io({ PLANTSTORE_TOKEN: SENTINEL });
    const code = await runCli(['test', '--base-url', reference.url, '--runs', '5', '--seed', '99'], cli);
    expect(code, cli.err()).toBe(0);
    expect(cli.out()).toContain('99');
    const written = reportFiles(cli.cwd);
    expect(written).toContain('"seed": 99');
    for (const text of [cli.out(), cli.err(), written]) expect(text).not.toContain(SENTINEL);
  });

  it('reads the token from --token-file', async () => {
    const cli = io();
    const file = join(cli.cwd, 'token');
    writeFileSync(file, `${SENTINEL}\n`);
    const args = ['test', '--base-url', reference.url, '--token-file', file, '--runs', '3', '--reporter', 'json'];
    expect(await runCli(args, cli)).toBe(0);
    expect(cli.out() + cli.err() + reportFiles(cli.cwd)).not.toContain(SENTINEL);
  });

  it('speaks flags where the runner speaks options: skip reasons, notes and replay commands', async () => {
    const faulty = await created201.start();
    onTestFinished(() => faulty.close());
    const cli = io({ PLANTSTORE_TOKEN: faulty.token });
    const args = ['test', '--base-url', faulty.url, '--runs', '3', '--seed', '5'];
    expect(await runCli([...args, '--skip-check', 'echo', '--reporter', 'console,json'], cli)).toBe(1);
    expect(cli.out()).toContain('skipped with --skip-check');
    expect(cli.out()).toContain(`plantstore test --seed 5 --runs 3 --base-url ${faulty.url} --replay `);
    const report = JSON.parse(readFileSync(join(cli.cwd, 'reports', 'report.json'), 'utf8')) as {
      notes: string[];
      checks: { failures: { replay: string; rerun?: { seed: number } }[] }[];
    };
    expect(report.notes.join('\n')).not.toMatch(/`\w+`/);
    const failure = report.checks.flatMap((check) => check.failures)[0];
    expect(failure?.replay).toMatch(/^plantstore test --seed 5 /);
    expect(failure?.rerun?.seed).toBe(5);
  });

  it('exits 1 when a check fails, and 2 when every valid plant is refused for the token (the token names the fix)', async () => {
    const faulty = await created201.start();
    onTestFinished(() => faulty.close());
    const args = ['--runs', '3', '--check', 'positive-acceptance', '--reporter', 'json'];
    expect(await runCli(['test', '--base-url', faulty.url, ...args], io({ PLANTSTORE_TOKEN: faulty.token }))).toBe(1);
    const wrong = io({ PLANTSTORE_TOKEN: 'not-the-token' });
    expect(await runCli(['test', '--base-url', reference.url, ...args], wrong)).toBe(2);
    expect(wrong.err()).toContain('(PLANTSTORE_TOKEN, --token-file or --token)');
  });

  it('leaves no empty --out folder behind when the run writes no report (nothing listening, a bad baseline file)', async () => {
    const closed = await createReferenceServer({ tokens: [SENTINEL] });
    await closed.close();
    const cli = io({ PLANTSTORE_TOKEN: SENTINEL });
    writeFileSync(join(cli.cwd, 'baseline.json'), '{"findings": [{"fingerprint": "not-hex"}]}');
    const runs = [
      ['--base-url', closed.url, '--out', 'ci/reports'],
      ['--base-url', reference.url, '--out', 'ci/reports', '--baseline', 'baseline.json'],
    ];
    for (const args of runs) expect(await runCli(['test', ...args, '--runs', '3'], cli), cli.err()).toBe(2);
    expect(readdirSync(cli.cwd)).toEqual(['baseline.json']);
    // A run that judges writes its reports, and a baseline into a folder not made yet.
    const args = [
      '--base-url',
      reference.url,
      '--out',
      'ci/reports',
      '--write-baseline',
      'ci/baselines/plantstore.json',
    ];
    expect(await runCli(['test', ...args, '--runs', '3', '--check', 'echo'], cli), cli.err()).toBe(0);
    expect(readdirSync(join(cli.cwd, 'ci', 'reports')).sort()).toEqual(['junit.xml', 'report.html', 'report.json']);
    expect(existsSync(join(cli.cwd, 'ci', 'baselines', 'plantstore.json'))).toBe(true);
  });

  it("removes an earlier run's reports from --out when it starts: a run that writes none leaves none of another's", async () => {
    const closed = await createReferenceServer({ tokens: [SENTINEL] });
    await closed.close();
    const cli = io({ PLANTSTORE_TOKEN: SENTINEL });
    const out = join(cli.cwd, 'reports');
    mkdirSync(out);
    for (const file of ['junit.xml', 'report.json', 'report.html', 'notes.txt'])
      writeFileSync(join(out, file), 'earlier');
    expect(await runCli(['test', '--base-url', closed.url, '--runs', '3'], cli), cli.err()).toBe(2);
    expect(readdirSync(out)).toEqual(['notes.txt']);
  });

  it('exits 2 with one line when the target is unreachable, the token is missing or a check is unknown', async () => {
    const closed = await createReferenceServer({ tokens: [SENTINEL] });
    await closed.close();
    const cases: { args: string[]; env: Record<string, string>; message: RegExp }[] = [
      { args: ['--base-url', closed.url], env: { PLANTSTORE_TOKEN: SENTINEL }, message: /Cannot reach(?!.*PROXY)/ },
      // A CI runner behind a proxy: the one line says plantstore does not use it.
      {
        args: ['--base-url', closed.url],
        env: { PLANTSTORE_TOKEN: SENTINEL, https_proxy: 'http://proxy.corp.example:3128' },
        message: /Cannot reach .*connection-refused.* https_proxy is set: plantstore connects to the target directly/,
      },
      {
        args: ['--base-url', reference.url],
        env: {},
        message: /No token: testing \S+ needs its bearer token: pass PLANTSTORE_TOKEN, --token-file or --token\./,
      },
      { args: ['--check', 'no-such-check'], env: {}, message: /unknown check "no-such-check"/ },
      { args: ['--reporter', 'pdf'], env: {}, message: /unknown reporter/ },
    ];
    for (const { args, env, message } of cases) {
      const cli = io(env);
      expect(await runCli(['test', ...args], cli)).toBe(2);
      expect(cli.err()).toMatch(message);
      expect(cli.err().trim().split('\n')).toHaveLength(1);
      expect(cli.err()).not.toContain(SENTINEL);
    }
  });

  it('tests a target whose document asks no credential (security: []) without a token: its valid cases carry no Authorization', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plantstore-open-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const seed = readFileSync(join(PACKAGE_ROOT, 'openapi.yaml'), 'utf8');
    const open = seed.replace('security:\n  - bearerAuth: []\n', 'security: []\n');
    expect(open).not.toBe(seed);
    const spec = join(dir, 'open.yaml');
    writeFileSync(spec, open);
    const server = await createReferenceServer({ tokens: [SENTINEL], spec });
    onTestFinished(() => server.close());
    const relay = await startRecordingRelay(server.url);
    onTestFinished(() => relay.close());
    const cli = io({});
    const code = await runCli(['test', '--base-url', relay.url, '--spec', spec, '--runs', '5', '--seed', '3'], cli);
    expect(code, cli.err()).toBe(0);
    const sent = relay.requests();
    expect(sent.length).toBeGreaterThan(0);
    // Valid cases go without a credential; only the authentication probe's odd headers remain (judged for 5xx).
    const withoutCredential = sent.filter((request) => request.headers.authorization === undefined);
    expect(withoutCredential.length).toBeGreaterThan(sent.length / 2);
  });

  it('refuses a --base-url with a user, password, query or fragment, which the runner never sends, without showing it', async () => {
    const secret = 'gateway-secret-3f9a';
    for (const [value, what] of [
      [`https://ci:${secret}@127.0.0.1:9/api/v2`, 'a user name or password'],
      [`https://${secret}@127.0.0.1:9/api/v2`, 'a user name or password'],
      [`https://127.0.0.1:9/api/v2?access_token=${secret}`, 'a query string'],
      [`https://127.0.0.1:9/api/v2#${secret}`, 'a fragment'],
    ] as const) {
      const cli = io({ PLANTSTORE_TOKEN: SENTINEL });
      expect(await runCli(['test', '--base-url', value, '--runs', '1'], cli)).toBe(2);
      expect(cli.err()).toBe(
        `plantstore test: --base-url https://127.0.0.1:9/api/v2 carries ${what}, which plantstore never sends (it calls the base path + /plants with the token as Authorization: Bearer) and would show in every report: remove it.\n`,
      );
      expect(cli.out() + reportFiles(cli.cwd)).not.toContain(secret);
    }
  });

  it('hides the token on the could-not-judge line when a sign-in gateway echoes it in its redirect', async () => {
    const gateway = createServer((request, response) => {
      request.resume();
      const credential = request.headers.authorization ?? '';
      const echoed = `auth=${encodeURIComponent(credential)}&raw=${credential.split(' ')[1] ?? ''}`;
      response.writeHead(302, { location: `https://sso.example.net/login?${echoed}` }).end();
    });
    const target = await listenOnLoopback(gateway, SENTINEL);
    onTestFinished(() => target.close());
    const cli = io({ PLANTSTORE_TOKEN: SENTINEL });
    expect(await runCli(['test', '--base-url', target.url, '--runs', '5'], cli)).toBe(2);
    expect(cli.err()).toContain('could not judge');
    expect(cli.err()).toContain('https://sso.example.net/login?auth=Bearer%20$PLANTSTORE_TOKEN&raw=$PLANTSTORE_TOKEN');
    expect(cli.out() + cli.err() + reportFiles(cli.cwd)).not.toContain(SENTINEL);
  });

  it('says a --base-url without a scheme is not a URL and shows it with http://', async () => {
    for (const [value, example] of [
      ['localhost:18431', 'http://localhost:18431'],
      ['staging.example.com/api', 'http://staging.example.com/api'],
    ]) {
      const cli = io({ PLANTSTORE_TOKEN: SENTINEL });
      expect(await runCli(['test', '--base-url', value ?? ''], cli)).toBe(2);
      expect(cli.err()).toBe(`plantstore test: "${value}" is not a URL: pass e.g. --base-url ${example}.\n`);
    }
  });

  it('exits 2 before sending any case when --out cannot be created, naming the directory and why', async () => {
    let requests = 0;
    const counted = await createReferenceServer({ tokens: [SENTINEL], onRequest: () => (requests += 1) });
    try {
      const cli = io({ PLANTSTORE_TOKEN: SENTINEL });
      writeFileSync(join(cli.cwd, 'file'), 'not a directory\n');
      const cases = [
        { out: join(cli.cwd, 'file', 'reports'), reason: 'a part of the path is a file, not a directory' },
        { out: join(cli.cwd, 'file'), reason: 'it is a file, not a directory' },
        // Node's own recursive mkdir never returns there (ENOENT under a directory that exists).
        ...(existsSync('/proc/self')
          ? [{ out: '/proc/plantstore/reports', reason: 'no directory can be created there' }]
          : []),
      ];
      for (const { out, reason } of cases) {
        const run = io({ PLANTSTORE_TOKEN: SENTINEL });
        const args = ['test', '--base-url', counted.url, '--runs', '3', '--out', out];
        expect(await runCli(args, run)).toBe(2);
        expect(run.err()).toBe(`plantstore test: cannot write reports to ${out}: ${reason}; choose another --out.\n`);
      }
      expect(requests).toBe(0);
    } finally {
      await counted.close();
    }
  });

  it('exits 2 when a report cannot be written at the end of the run', async () => {
    const cli = io({ PLANTSTORE_TOKEN: SENTINEL });
    mkdirSync(join(cli.cwd, 'reports', 'report.json'), { recursive: true });
    const args = ['test', '--base-url', reference.url, '--runs', '3', '--reporter', 'json'];
    expect(await runCli(args, cli)).toBe(2);
    expect(cli.err()).toMatch(/the json reporter failed: EISDIR/);
  });

  it('says the token is set but empty when PLANTSTORE_TOKEN, --token or the token file is empty', async () => {
    const emptyFile = join(io().cwd, 'empty-token');
    writeFileSync(emptyFile, '\n');
    const cases: { args: string[]; env: Record<string, string>; message: string }[] = [
      { args: [], env: { PLANTSTORE_TOKEN: '' }, message: 'PLANTSTORE_TOKEN is set but empty' },
      { args: [], env: { PLANTSTORE_TOKEN: '  ' }, message: 'PLANTSTORE_TOKEN is set but empty' },
      { args: ['--token', ''], env: {}, message: '--token was given an empty value' },
      { args: ['--token-file', emptyFile], env: {}, message: `--token-file ${emptyFile} holds no token` },
    ];
    for (const { args, env, message } of cases) {
      const cli = io(env);
      expect(await runCli(['test', '--base-url', reference.url, ...args], cli)).toBe(2);
      expect(cli.err()).toContain(`plantstore test: ${message}`);
      expect(cli.err().trim().split('\n')).toHaveLength(1);
    }
  });

  it('runs from the built bin on the embedded reference and exits 0', async () => {
    const bin = join(PACKAGE_ROOT, 'dist/src/cli/bin.js');
    if (!existsSync(bin)) throw new Error('build first: npm run build');
    const cwd = mkdtempSync(join(tmpdir(), 'plantstore-test-bin-'));
    onTestFinished(() => rmSync(cwd, { recursive: true, force: true }));
    const { stdout } = await run(process.execPath, [bin, 'test', '--runs', '5', '--reporter', 'console'], {
      cwd,
      env: { ...process.env, CI: 'true' },
    });
    expect(stdout).toMatch(/seed \d+/);
  });
});
