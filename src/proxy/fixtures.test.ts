import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { CONFORMANT_TARGETS, FAULTY_TARGETS, type TargetFixture } from '../fixtures/index.js';
import { writeReports } from '../reports/index.js';
import { createProxyServer, PROXY_CHECK_IDS } from './index.js';

/** What a client might send in a few minutes: valid plants, and the usual mistakes. */
function traffic(token: string, id: () => number): { headers: Record<string, string>; body: string }[] {
  const json = 'application/json';
  const bearer = `Bearer ${token}`;
  return [
    { headers: { authorization: bearer, 'content-type': json }, body: `{"id":${id()},"name":" Fern ","tag":"fern"}` },
    { headers: { authorization: bearer, 'content-type': json }, body: `{"id":${id()},"name":"Ivy"}` },
    { headers: { 'content-type': json }, body: `{"id":${id()},"name":"no credential"}` },
    { headers: { authorization: `Basic ${token}`, 'content-type': json }, body: `{"id":${id()},"name":"basic"}` },
    { headers: { authorization: bearer, 'content-type': json }, body: '{"id":1.5,"name":"fractional"}' },
    { headers: { authorization: bearer, 'content-type': json }, body: '{"id":1,' },
    { headers: { authorization: bearer, 'content-type': 'text/plain' }, body: `{"id":${id()},"name":"plain"}` },
  ];
}

/** Faulty fixtures whose defect this traffic meets and a one-exchange check can see. */
const FAULTY = [
  'no-auth-required',
  'any-scheme-accepted',
  'created-201',
  'invalid-as-422',
  'text-plain-200',
  'wrapped-plant',
  'error-without-message',
  'trimmed-name',
  'dropped-tag',
  'fractional-id-accepted',
  'malformed-json-crash',
  'missing-auth-crash',
  'content-type-ignored',
  'error-without-content-type',
];

/** Runs the traffic through a proxy in front of the fixture; the report, the log and what was written. */
async function observe(fixture: TargetFixture) {
  const target = await fixture.start();
  const log: string[] = [];
  const proxy = await createProxyServer({ upstream: target.url, token: target.token, onLog: (line) => log.push(line) });
  const out = await mkdtemp(join(tmpdir(), 'plantstore-proxy-'));
  try {
    let next = 4_000_000 + Math.floor(Math.random() * 1e6);
    for (const { headers, body } of traffic(target.token, () => next++)) {
      const response = await request(`${proxy.url}/plants`, { method: 'POST', headers, body });
      await response.body.dump();
    }
    const report = proxy.report();
    await writeReports(report, { outDir: out, secrets: proxy.secrets });
    const files = await Promise.all((await readdir(out)).map((file) => readFile(join(out, file), 'utf8')));
    return { report, log, written: [...files, ...log].join('\n'), token: target.token };
  } finally {
    await proxy.close();
    await target.close();
    await rm(out, { recursive: true, force: true });
  }
}

const failing = (report: Awaited<ReturnType<typeof observe>>['report']) =>
  report.checks.filter((check) => check.status === 'fail').map((check) => check.id);

describe('the proxy in front of faulty implementations', () => {
  for (const name of FAULTY) {
    const fixture = FAULTY_TARGETS.find((candidate) => candidate.name === name);
    it(`reports exactly the defect of ${name}`, async () => {
      if (!fixture) throw new Error(`no faulty fixture ${name}`);
      const { report, written, token } = await observe(fixture);
      const judged = new Set<string>(PROXY_CHECK_IDS);
      expect(failing(report).sort()).toEqual(fixture.expectedFailures.filter((id) => judged.has(id)).sort());
      expect(report.verdict).toBe('not-conformant');
      const explained = new Set(report.findings?.flatMap((finding) => finding.checks));
      expect([...explained].sort()).toEqual(failing(report).sort());
      expect(written).not.toContain(token);
    });
  }
});

describe('the proxy in front of conformant implementations', () => {
  for (const fixture of CONFORMANT_TARGETS) {
    it(`reports nothing against ${fixture.name}, and blames the client for its mistakes`, async () => {
      const { report, log, written, token } = await observe(fixture);
      expect(failing(report)).toEqual([]);
      expect(report.verdict).toBe('conformant');
      expect(report.checks.filter((check) => check.status === 'warn').map((check) => check.id)).toEqual([
        'client-requests',
      ]);
      expect(log.filter((line) => line.includes('server broke'))).toEqual([]);
      expect(log.filter((line) => line.includes('client broke'))).toHaveLength(5);
      expect(written).not.toContain(token);
    });
  }
});
