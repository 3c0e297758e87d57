import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { sampleReport } from '../fixtures/sample-reports.js';
import { findingsOf } from '../runner/findings.js';
import type { Report } from '../runner/report.js';
import { createConsoleReporter } from './console-reporter.js';
import { renderHtmlReport } from './html-reporter.js';
import { renderJunitReport } from './junit-reporter.js';

function withFindings(overrides: Partial<Report> = {}): Report {
  const report = sampleReport(overrides);
  return { ...report, verdict: 'not-conformant', findings: findingsOf(report.checks) };
}

function consoleText(report: Report): string {
  const stdout = new PassThrough();
  let text = '';
  stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  createConsoleReporter({ stdout, env: { CI: 'true' } }).onRunEnd?.(report, []);
  return text;
}

describe('findings come first in every reporter, then the per-check detail', () => {
  const report = withFindings();
  const [first] = report.findings ?? [];

  it('console: a Findings block with fingerprints before the first check detail', () => {
    const text = consoleText(report);
    expect(first).toBeDefined();
    expect(text.indexOf(`F1 ${first?.fingerprint}`)).toBeGreaterThan(0);
    expect(text.indexOf(`F1 ${first?.fingerprint}`)).toBeLessThan(text.indexOf('FAIL positive-acceptance:'));
  });

  it('JUnit: a findings testsuite before the checks, one failed testcase per finding', () => {
    const xml = renderJunitReport(report);
    const count = report.findings?.length ?? 0;
    expect(xml.indexOf('name="plantstore findings"')).toBeLessThan(xml.indexOf('name="plantstore conformance"'));
    expect(xml.match(/classname="plantstore\.findings"/g)).toHaveLength(count);
    expect(xml).toContain(`name="${first?.fingerprint}: `);
  });

  it('JUnit: under a baseline, a known finding is skipped, not failed', () => {
    const known = first?.fingerprint ?? '';
    const xml = renderJunitReport({ ...report, baseline: { file: 'b.json', new: [], known: [known], fixed: [] } });
    expect(xml).toMatch(/known: listed in the baseline b\.json/);
  });

  it('JUnit: under a baseline listing every finding of a failed check, the check is skipped too, so the file agrees with exit 0', () => {
    const findings = report.findings ?? [];
    const ofAcceptance = findings.filter((finding) => finding.checks.includes('positive-acceptance'));
    const knownAll = findings.map((finding) => finding.fingerprint);
    const baseline = { file: 'b.json', new: [], known: knownAll, fixed: [] };
    const xml = renderJunitReport({ ...report, baseline });
    expect(xml).toMatch(/<testsuites name="plantstore" tests="\d+" failures="0"/);
    const acceptance = /<testcase classname="plantstore" name="positive-acceptance: [^"]*">([\s\S]*?)<\/testcase>/.exec(
      xml,
    );
    expect(acceptance?.[1]).toContain('<skipped message="failed only with findings the baseline b.json lists: ');
    expect(acceptance?.[1]).toContain(ofAcceptance[0]?.fingerprint ?? 'a finding');
    expect(acceptance?.[1]).toContain('Counterexample 1 of 2');
    expect(acceptance?.[1]).not.toContain('<failure');
  });

  it('JUnit: under a baseline missing one finding of a failed check, the check still fails', () => {
    const findings = report.findings ?? [];
    const ofAcceptance = findings.filter((finding) => finding.checks.includes('positive-acceptance'));
    expect(ofAcceptance.length).toBeGreaterThan(1);
    const known = findings.map((finding) => finding.fingerprint).filter((f) => f !== ofAcceptance[0]?.fingerprint);
    const xml = renderJunitReport({ ...report, baseline: { file: 'b.json', new: [], known, fixed: [] } });
    const acceptance = /<testcase classname="plantstore" name="positive-acceptance: [^"]*">([\s\S]*?)<\/testcase>/.exec(
      xml,
    );
    expect(acceptance?.[1]).toContain('<failure');
    expect(acceptance?.[1]).not.toContain('<skipped');
  });

  it('HTML: the findings section before the summary table', () => {
    const html = renderHtmlReport(report);
    expect(html.indexOf('Findings:')).toBeGreaterThan(0);
    expect(html.indexOf('Findings:')).toBeLessThan(html.indexOf('<h2>Summary</h2>'));
  });

  it('a run that could not judge shows the reason alone on the console, and says so in every file', () => {
    const couldNotJudge = {
      code: 'not-found',
      reason: 'Every valid NewPlant was answered 404.',
      options: [],
      setupsDoing: true,
    };
    const failed = { ...withFindings(), verdict: 'could-not-judge' as const, couldNotJudge };
    const text = consoleText(failed);
    expect(text).toContain('COULD NOT JUDGE: Every valid NewPlant was answered 404.');
    expect(text).not.toContain('Findings (');
    expect(text).not.toContain('NOT CONFORMANT');
    expect(renderHtmlReport(failed)).toContain('COULD NOT JUDGE');
    expect(renderJunitReport(failed)).toContain('type="could-not-judge"');
  });
});

describe('the findings of a run that could not judge the target', () => {
  const couldNotJudge = {
    code: 'credential-refused',
    reason: 'Every valid NewPlant was answered 401.',
    options: [],
    setupsDoing: true,
  };
  const report = { ...withFindings(), verdict: 'could-not-judge' as const, couldNotJudge };
  const caveat = /could not judge the target \(credential-refused\): what its answers showed below may be the setup/;

  it('report.html says, above them, that they may be the setup’s doing (the console shows the reason alone)', () => {
    expect(consoleText(report)).not.toContain('F1 ');
    const html = renderHtmlReport(report);
    expect(html).toMatch(caveat);
    expect(html.search(caveat)).toBeLessThan(html.indexOf('<h3>F1 '));
  });

  it('keeps a run whose ids were all taken, or that got no answer, without the caveat: its failures stand', () => {
    for (const code of ['ids-taken', 'no-answer']) {
      const standing = { ...report, couldNotJudge: { ...couldNotJudge, code, setupsDoing: false } };
      expect(renderHtmlReport(standing)).not.toMatch(/may be the setup/);
    }
  });
});
