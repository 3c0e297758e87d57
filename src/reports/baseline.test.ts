import { describe, expect, it } from 'vitest';
import { sampleReport } from '../fixtures/sample-reports.js';
import { findingsOf } from '../runner/findings.js';
import type { Report } from '../runner/report.js';
import { baselineOf, baselineText, compareWithBaseline, parseBaseline } from './baseline.js';
import { reportExitCode } from './outcome.js';

function withFindings(report: Report): Report {
  return { ...report, findings: findingsOf(report.checks) };
}

describe('baselines', () => {
  it('are written in fingerprint order with a title each, and read back', () => {
    const report = withFindings(sampleReport());
    const baseline = baselineOf(report);
    const fingerprints = baseline.findings.map((entry) => entry.fingerprint);
    expect(fingerprints.length).toBeGreaterThan(1);
    expect(fingerprints).toEqual([...fingerprints].sort());
    expect(baseline.findings.every((entry) => entry.title.length > 0)).toBe(true);
    expect(parseBaseline(baselineText(report), 'b.json').findings).toEqual(baseline.findings);
  });

  it('excuse the known findings (exit 0), fail on a new one (exit 1), and list the ones no longer seen', () => {
    const report = withFindings(sampleReport());
    const [first, ...rest] = report.findings ?? [];
    const known = compareWithBaseline(report, baselineOf(report), 'b.json');
    expect(known).toMatchObject({ new: [], fixed: [] });
    expect(reportExitCode({ ...report, baseline: known })).toBe(0);

    const older = baselineOf({ ...report, findings: rest });
    const partial = compareWithBaseline(report, older, 'b.json');
    expect(partial.new).toEqual([first?.fingerprint]);
    expect(reportExitCode({ ...report, baseline: partial })).toBe(1);

    const gone = compareWithBaseline({ ...report, findings: rest }, baselineOf(report), 'b.json');
    expect(gone.fixed).toEqual([{ fingerprint: first?.fingerprint, title: first?.title }]);
  });

  it('never excuse a run that could not judge the target', () => {
    const report = withFindings(sampleReport());
    const baseline = compareWithBaseline(report, baselineOf(report), 'b.json');
    const reason = { code: 'not-found', reason: 'r', options: ['baseUrl'] };
    expect(reportExitCode({ ...report, baseline, verdict: 'could-not-judge', couldNotJudge: reason })).toBe(2);
    const unjudged = { ...report, findings: [], verdict: 'could-not-judge' as const, couldNotJudge: reason };
    expect(compareWithBaseline(unjudged, baselineOf(report), 'b.json').fixed).toEqual([]);
  });

  it('refuse a file that is not a baseline, saying how to write one', () => {
    expect(() => parseBaseline('{"findings": 3}', 'b.json')).toThrow(/--write-baseline/);
    expect(() => parseBaseline('not json', 'b.json')).toThrow(/not JSON/);
  });
});
