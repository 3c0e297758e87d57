import { readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { created201, invalidAs422 } from '../fixtures/faulty/status-defects.js';
import { captureIo } from '../fixtures/cli-io.js';
import { listenOnLoopback, randomToken, type StartedTarget, type TargetFixture } from '../fixtures/target-fixture.js';
import type { Report } from '../runner/report.js';
import { runCli } from './main.js';

/** Small, bounded runs: these tests are about the verdict, not about coverage. */
const QUICK = ['--runs', '5', '--concurrency', '4', '--timeout', '3000', '--budget', '30000'];

async function started(fixture: Pick<TargetFixture, 'start'>): Promise<StartedTarget> {
  const target = await fixture.start();
  onTestFinished(() => target.close());
  return target;
}

async function plantstoreTest(target: StartedTarget, args: readonly string[], baseUrl = target.url) {
  const cli = captureIo({ PLANTSTORE_TOKEN: target.token });
  const code = await runCli(['test', '--base-url', baseUrl, ...QUICK, ...args], cli);
  const report = (): Report => JSON.parse(readFileSync(join(cli.cwd, 'reports', 'report.json'), 'utf8')) as Report;
  return { code, cli, report };
}

/** The one `could not judge` line the CLI writes on stderr. */
function couldNotJudgeLine(stderr: string): string {
  const lines = stderr.split('\n').filter((line) => line.includes('could not judge'));
  expect(lines, stderr).toHaveLength(1);
  return lines[0] ?? '';
}

describe('plantstore test: could not judge → exit 2 with the probable fix', () => {
  it('a wrong base path (the store is at /, --base-url names /api): exit 2, the reason names --base-url and the path', async () => {
    const target = await started(created201);
    const { code, cli, report } = await plantstoreTest(target, ['--reporter', 'console,json'], `${target.url}/api`);
    expect(code, cli.out()).toBe(2);
    const line = couldNotJudgeLine(cli.err());
    expect(line).toMatch(/answered 404/);
    expect(line).toContain('--base-url');
    expect(line).toContain('/api');
    expect(report().verdict).toBe('could-not-judge');
    expect(report().couldNotJudge?.code).toBe('not-found');
    expect(cli.out()).toContain('COULD NOT JUDGE');
    expect(cli.out()).not.toContain('NOT CONFORMANT');
  }, 60_000);

  it('a token the target refuses on every valid NewPlant (401): exit 2, the reason names the token, not the target', async () => {
    const target = await started(created201);
    const cli = captureIo({ PLANTSTORE_TOKEN: `${target.token}-rotated` });
    const code = await runCli(['test', '--base-url', target.url, ...QUICK, '--reporter', 'console,json'], cli);
    expect(code, cli.out()).toBe(2);
    const line = couldNotJudgeLine(cli.err());
    expect(line).toMatch(/answered 401/);
    expect(line).toContain('PLANTSTORE_TOKEN');
    const report = JSON.parse(readFileSync(join(cli.cwd, 'reports', 'report.json'), 'utf8')) as Report;
    expect(report.couldNotJudge?.code).toBe('credential-refused');
    expect(cli.out()).not.toContain('NOT CONFORMANT');
    expect(cli.out() + cli.err()).not.toContain(target.token);
  }, 60_000);

  it('a port that speaks another protocol (SSH): exit 2, the reason names the port', async () => {
    const server = createNetServer((socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n'));
    const target = await started({ start: () => listenOnLoopback(server, randomToken()) });
    const { code, cli, report } = await plantstoreTest(target, ['--reporter', 'json']);
    expect(code, cli.err()).toBe(2);
    expect(couldNotJudgeLine(cli.err())).toMatch(/not in HTTP.*port .*--base-url/);
    expect(report().couldNotJudge?.code).toBe('not-http');
    // Nothing to blame, and nothing to wait for: it answers the same later.
    expect(report().findings).toEqual([]);
    expect(report().checks.filter((check) => check.status === 'fail')).toEqual([]);
    expect(report().notes.join('\n')).not.toMatch(/stopped answering/);
  }, 60_000);

  it.each([404, 200])(
    'a front proxy answering the same HTML page to everything (POST: %i): exit 2',
    async (status) => {
      const page = '<!doctype html><html><body>Welcome to nginx!</body></html>';
      const server = createHttpServer((request, response) => {
        request.resume();
        response.writeHead(request.method === 'GET' ? 200 : status, { 'content-type': 'text/html' }).end(page);
      });
      const target = await started({ start: () => listenOnLoopback(server, randomToken()) });
      const { code, cli, report } = await plantstoreTest(target, ['--reporter', 'json']);
      expect(code, cli.err()).toBe(2);
      expect(couldNotJudgeLine(cli.err())).toMatch(/same HTML page.*base path and port of --base-url/);
      expect(report().couldNotJudge?.code).toBe('html');
    },
    60_000,
  );

  it('a Plant Store that breaks the contract still exits 1, with one finding for the 201', async () => {
    const target = await started(created201);
    const { code, cli, report } = await plantstoreTest(target, ['--reporter', 'console,json']);
    expect(code, cli.err()).toBe(1);
    expect(cli.err()).not.toContain('could not judge');
    const { findings = [], verdict } = report();
    expect(verdict).toBe('not-conformant');
    expect(findings.map((finding) => finding.title)).toEqual(['status 201 for a valid NewPlant']);
    expect(findings[0]?.checks).toEqual(['positive-acceptance', 'documented-status']);
    // Skipped checks say which finding left them nothing to judge.
    const echo = report().checks.find((check) => check.id === 'echo');
    expect(echo?.status).toBe('skip');
    expect(echo?.skipReason).toContain(`finding ${findings[0]?.fingerprint ?? '?'}`);
    expect(echo?.skipReason).toMatch(/answered 201 ×\d+/);
    expect(cli.out().indexOf('Findings (1')).toBeLessThan(cli.out().indexOf('FAIL positive-acceptance: Valid'));
  }, 60_000);
});

describe('plantstore test: --write-baseline and --baseline', () => {
  it('gates on new findings only: the known 201 passes with another seed, a new defect fails', async () => {
    const target = await started(created201);
    const first = await plantstoreTest(target, [
      '--seed',
      '1',
      '--write-baseline',
      'baseline.json',
      '--reporter',
      'json',
    ]);
    expect(first.code).toBe(1);
    expect(first.cli.err()).toContain('plantstore test: wrote 1 finding to baseline.json.\n');
    const file = join(first.cli.cwd, 'baseline.json');
    const written = JSON.parse(readFileSync(file, 'utf8')) as { findings: { fingerprint: string; title: string }[] };
    expect(written.findings).toEqual([
      {
        fingerprint: expect.stringMatching(/^[0-9a-f]{16}$/) as unknown,
        title: 'status 201 for a valid NewPlant',
        checks: ['positive-acceptance', 'documented-status'],
      },
    ]);

    const again = await plantstoreTest(target, ['--seed', '777', '--baseline', file, '--reporter', 'console,json']);
    expect(again.code, again.cli.out()).toBe(0);
    expect(again.report().baseline).toMatchObject({ new: [], known: [written.findings[0]?.fingerprint], fixed: [] });
    expect(again.cli.out()).toContain('[known]');

    const other = await started(invalidAs422);
    const under = await plantstoreTest(other, ['--seed', '3', '--baseline', file, '--reporter', 'json']);
    expect(under.code).toBe(1);
    const baseline = under.report().baseline;
    expect(baseline?.new.length).toBeGreaterThan(0);
    // The 201 does not occur against this target: the baseline's finding is listed as no longer seen.
    expect(baseline?.fixed.map((entry) => entry.title)).toEqual(['status 201 for a valid NewPlant']);
  }, 120_000);

  it('a missing or foreign baseline file is a usage error before anything is sent', async () => {
    const target = await started(created201);
    const missing = await plantstoreTest(target, ['--baseline', 'nope.json']);
    expect(missing.code).toBe(2);
    expect(missing.cli.err()).toContain('--baseline nope.json: no such file');
  });
});

describe('plantstore test: a port that never answers', () => {
  it('could not judge it: exit 2, the reason names the port and the timeout', async () => {
    const server = createNetServer(() => undefined);
    const target = await started({ start: () => listenOnLoopback(server, randomToken()) });
    const cli = captureIo({ PLANTSTORE_TOKEN: target.token });
    const args = ['test', '--base-url', target.url, '--runs', '2', '--timeout', '300', '--budget', '5000'];
    const code = await runCli([...args, '--reporter', 'json'], cli);
    expect(code, cli.err()).toBe(2);
    expect(couldNotJudgeLine(cli.err())).toMatch(/answered no request within --timeout.*port of --base-url/);
  }, 30_000);
});
