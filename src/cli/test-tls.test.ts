import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it, onTestFinished } from 'vitest';
import { captureIo } from '../fixtures/cli-io.js';
import { listenOnLoopback, randomToken } from '../fixtures/target-fixture.js';
import type { Report } from '../runner/report.js';
import { runCli } from './main.js';

const run = promisify(execFile);

/** A key and a self-signed certificate for 127.0.0.1, made by openssl in a folder removed afterwards. */
async function selfSignedCertificate(): Promise<{ key: Buffer; cert: Buffer }> {
  const dir = mkdtempSync(join(tmpdir(), 'plantstore-tls-'));
  try {
    const [key, cert] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
    const subject = ['-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'];
    await run(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-keyout', key, '-out', cert, ...subject],
      {
        timeout: 30_000,
      },
    );
    return { key: readFileSync(key), cert: readFileSync(cert) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Answers every request 200 with a Plant: only the transport can be wrong. */
function answerPlants(server: Server): Server {
  return server.on('request', (request, response) => {
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"name":"x"}');
  });
}

/** `plantstore test` against `url` with small bounded settings, reports written to a fresh folder. */
async function plantstoreTest(url: string, token: string) {
  const cli = captureIo({ PLANTSTORE_TOKEN: token });
  const args = [
    'test',
    '--base-url',
    url,
    '--runs',
    '5',
    '--concurrency',
    '4',
    '--timeout',
    '3000',
    '--budget',
    '20000',
  ];
  const code = await runCli(args, cli);
  const file = (name: string): string => join(cli.cwd, 'reports', name);
  return { code, cli, file };
}

function expectCouldNotJudgeTls(result: Awaited<ReturnType<typeof plantstoreTest>>, fix: RegExp): void {
  const { code, cli, file } = result;
  expect(code, cli.err()).toBe(2);
  const lines = cli
    .err()
    .split('\n')
    .filter((line) => line.includes('could not judge'));
  expect(lines, cli.err()).toHaveLength(1);
  expect(lines[0]).toMatch(/TLS failed/);
  expect(lines[0]).toMatch(fix);
  for (const name of ['report.json', 'junit.xml', 'report.html']) expect(existsSync(file(name)), name).toBe(true);
  const report = JSON.parse(readFileSync(file('report.json'), 'utf8')) as Report;
  expect(report.verdict).toBe('could-not-judge');
  expect(report.couldNotJudge?.code).toBe('tls');
  expect(readFileSync(file('junit.xml'), 'utf8')).toContain('TLS failed');
}

const HAS_OPENSSL = await run('openssl', ['version']).then(
  () => true,
  () => false,
);

describe('plantstore test: a TLS failure on the very first request is a could-not-judge run, with its reports', () => {
  it('https:// to a server speaking plain HTTP: exit 2, the reason says use http://', async () => {
    const token = randomToken();
    const target = await listenOnLoopback(answerPlants(createHttpServer()), token);
    onTestFinished(() => target.close());
    const result = await plantstoreTest(target.url.replace('http:', 'https:'), token);
    expectCouldNotJudgeTls(result, /use http:\/\/ in --base-url/);
  }, 60_000);

  it.runIf(HAS_OPENSSL)(
    'https:// to a server with a self-signed certificate: exit 2, the reason names NODE_EXTRA_CA_CERTS (needs openssl)',
    async () => {
      const token = randomToken();
      const server = answerPlants(createHttpsServer(await selfSignedCertificate()));
      const target = await listenOnLoopback(server, token);
      onTestFinished(() => target.close());
      const result = await plantstoreTest(target.url.replace('http:', 'https:'), token);
      expectCouldNotJudgeTls(result, /NODE_EXTRA_CA_CERTS/);
    },
    60_000,
  );
});
