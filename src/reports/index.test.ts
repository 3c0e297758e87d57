import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Report } from '../runner/report.js';
import { createReporters, isReporterName, REPORTER_NAMES, UnknownReporterError, writeReports } from './index.js';
import type { TextSink } from './reporter.js';
import { sampleReport } from '../fixtures/sample-reports.js';

const SENTINEL = 'SENTINEL-tok_9f8e7d';
const directories: string[] = [];

async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'plantstore-reports-'));
  directories.push(dir);
  return dir;
}

afterEach(async () => {
  await Promise.all(directories.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

function capture(): TextSink & { text: () => string } {
  let text = '';
  return { isTTY: false, write: (chunk: string) => (text += chunk), text: () => text };
}

/** The report with the sentinel spliced into every string and header name, raw and URL-encoded, and into base64 bodies. */
function withSentinelEverywhere<T>(value: T): T {
  const plant = (text: string): string => `${text}|${SENTINEL}|${encodeURIComponent(SENTINEL)}`;
  const walk = (item: unknown, key: string): unknown => {
    if (typeof item === 'string') {
      if (key === 'status') return item; // an enum, not free text
      return key === 'bodyBase64' ? Buffer.from(`Bearer ${SENTINEL}`).toString('base64') : plant(item);
    }
    if (Array.isArray(item)) return item.map((entry) => walk(entry, ''));
    if (item === null || typeof item !== 'object') return item;
    const rename = (name: string): string => (key === 'headers' ? plant(name) : name);
    return Object.fromEntries(Object.entries(item).map(([name, entry]) => [rename(name), walk(entry, name)]));
  };
  return walk(value, '') as T;
}

describe('the reporter registry', () => {
  it('knows console, json, junit and html', () => {
    expect(REPORTER_NAMES).toEqual(['console', 'json', 'junit', 'html']);
    expect(isReporterName('junit')).toBe(true);
    expect(isReporterName('tap')).toBe(false);
  });

  it('refuses an unknown reporter name, listing the known ones', () => {
    expect(() => createReporters(['json', 'tap'], { outDir: 'x' })).toThrow(UnknownReporterError);
    expect(() => createReporters(['tap'], { outDir: 'x' })).toThrow(
      /unknown reporter "tap"; the reporters are console, json, junit, html/,
    );
  });

  it('needs a stdout for the console reporter', () => {
    expect(() => createReporters(['console'], { outDir: 'x' })).toThrow(/needs a stdout/);
  });
});

describe('a reporter group', () => {
  it('takes the runner progress events in order and ends with the summary', async () => {
    const stdout = capture();
    const group = createReporters(['console'], { outDir: 'unused', stdout, env: { CI: 'true' } });
    const report = sampleReport();
    group.onProgress({ kind: 'run-start', target: report.target, seed: 42, plannedCases: 3 });
    group.onProgress({ kind: 'case', done: 1, planned: 3, failed: 0, phase: 'run' });
    for (const check of report.checks) group.onProgress({ kind: 'check', check });
    await group.onRunEnd(report);
    const lines = stdout.text().split('\n');
    expect(lines[0]).toBe('plantstore test: seed 42, target http://127.0.0.1:4010, 3 cases planned');
    expect(lines.slice(1, 6)).toEqual([
      'FAIL positive-acceptance: 300 cases',
      'PASS response-schema: 900 cases',
      'WARN echo: 300 cases',
      'SKIP repeated-id: 0 cases (skipped with --skip-check repeated-id <b>)',
      'FAIL no-server-error: 1200 cases',
    ]);
  });

  it('passes the path of every file written to the console, which runs last', async () => {
    const outDir = await freshDir();
    const stdout = capture();
    const group = createReporters(['console', 'html', 'json'], { outDir, stdout });
    const outcome = await group.onRunEnd(sampleReport());
    expect(outcome.files).toEqual([join(outDir, 'report.html'), join(outDir, 'report.json')]);
    expect(stdout.text()).toContain(`Reports: ${join(outDir, 'report.html')}, ${join(outDir, 'report.json')}\n`);
  });
});

describe('writeReports', () => {
  it('writes report.json, junit.xml and report.html, and report.json is exactly the report', async () => {
    const outDir = join(await freshDir(), 'nested', 'reports');
    const report = sampleReport();
    const outcome = await writeReports(report, { outDir });
    expect(outcome.errors).toEqual([]);
    expect(outcome.files).toEqual(['report.json', 'junit.xml', 'report.html'].map((name) => join(outDir, name)));
    expect((await readdir(outDir)).sort()).toEqual(['junit.xml', 'report.html', 'report.json']);
    const json = await readFile(join(outDir, 'report.json'), 'utf8');
    expect(JSON.parse(json)).toEqual(report);
    expect(json).toBe(`${JSON.stringify(report, null, 2)}\n`);
  });

  it('keeps going when one report cannot be written, and says which on stderr', async () => {
    const dir = await freshDir();
    const outDir = join(dir, 'blocked');
    await writeFile(outDir, 'a file where the directory should be');
    const stderr = capture();
    const stdout = capture();
    const outcome = await writeReports(sampleReport(), { outDir, reporters: ['json', 'console'], stdout, stderr });
    expect(outcome.errors.map((error) => error.reporter)).toEqual(['json']);
    expect(stderr.text()).toMatch(/^plantstore: the json reporter failed: .*\n$/);
    expect(stdout.text()).toContain('NOT CONFORMANT');
  });
});

describe('secrets', () => {
  it('appear in no report file and nowhere in the console output, whatever field carried them', async () => {
    const outDir = await freshDir();
    const report: Report = withSentinelEverywhere(sampleReport());
    expect(JSON.stringify(report)).toContain(SENTINEL);
    const stdout = capture();
    const stderr = capture();
    const group = createReporters(REPORTER_NAMES, { outDir, stdout, stderr, env: { CI: 'true' }, secrets: [SENTINEL] });
    group.onRunStart({ target: report.target, seed: report.seed, plannedCases: 10 });
    for (const check of report.checks) group.onCheckDone(check);
    const outcome = await group.onRunEnd(report);
    expect(outcome.files).toHaveLength(3);
    for (const file of outcome.files) {
      const bytes = await readFile(file);
      expect(bytes.includes(Buffer.from(SENTINEL)), file).toBe(false);
      expect(bytes.includes(Buffer.from(encodeURIComponent(SENTINEL))), file).toBe(false);
    }
    const json = JSON.parse(await readFile(join(outDir, 'report.json'), 'utf8')) as Report;
    const base64 = json.checks.flatMap((check) => check.failures.map((failure) => failure.request.bodyBase64 ?? ''));
    expect(base64.some((text) => Buffer.from(text, 'base64').includes(Buffer.from(SENTINEL)))).toBe(false);
    expect(stdout.text()).toContain('NOT CONFORMANT');
    expect(stdout.text()).not.toContain(SENTINEL);
    expect(stderr.text()).not.toContain(SENTINEL);
  });

  it('are redacted in what the console prints even when a reporter is fed directly', () => {
    const stdout = capture();
    const group = createReporters(['console'], { outDir: 'unused', stdout, secrets: [SENTINEL] });
    group.onRunStart({
      target: { baseUrl: `http://${SENTINEL}@example.test`, embedded: false },
      seed: 1,
      plannedCases: 1,
    });
    expect(stdout.text()).toBe(
      'plantstore test: seed 1, target http://$PLANTSTORE_TOKEN@example.test, 1 case planned\n',
    );
  });
});
