import { describe, expect, it } from 'vitest';
import { sampleReport } from '../fixtures/sample-reports.js';
import { findingsOf } from '../runner/findings.js';
import type { Report } from '../runner/report.js';
import { baselineOf, baselineText, compareWithBaseline, parseBaseline } from './baseline.js';
import { baselineSection } from './console-format.js';
import { renderHtmlReport } from './html-reporter.js';
import { currentFingerprints, RETIRED_FINGERPRINTS } from './retired-fingerprints.js';
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
    const reason = { code: 'not-found', reason: 'r', options: ['baseUrl'], setupsDoing: true };
    expect(reportExitCode({ ...report, baseline, verdict: 'could-not-judge', couldNotJudge: reason })).toBe(2);
    const unjudged = { ...report, findings: [], verdict: 'could-not-judge' as const, couldNotJudge: reason };
    expect(compareWithBaseline(unjudged, baselineOf(report), 'b.json').fixed).toEqual([]);
  });

  it('refuse a file that is not a baseline, saying how to write one', () => {
    expect(() => parseBaseline('{"findings": 3}', 'b.json')).toThrow(/--write-baseline/);
    expect(() => parseBaseline('not json', 'b.json')).toThrow(/not JSON/);
  });
});

describe('a baseline edited by hand or written by another plantstore', () => {
  const file = (findings: unknown, extra: Record<string, unknown> = {}): string =>
    JSON.stringify({ tool: 'plantstore', baselineVersion: 1, findings, ...extra });

  it('reads a fingerprint in capitals or with spaces around it as the one report.json writes', () => {
    const parsed = parseBaseline(file([{ fingerprint: ' 2982A21FFCE4CF83 ', title: 't' }]), 'b.json');
    expect(parsed.findings).toEqual([{ fingerprint: '2982a21ffce4cf83', title: 't' }]);
  });

  it('takes an entry without a title', () => {
    expect(parseBaseline(file([{ fingerprint: '2982a21ffce4cf83' }]), 'b.json').findings).toEqual([
      { fingerprint: '2982a21ffce4cf83', title: '' },
    ]);
  });

  it('refuses a fingerprint that can never match, naming the entry, rather than fail the run on a typo', () => {
    expect(() => parseBaseline(file([{ fingerprint: '2982a21ffce4cf8', title: 't' }]), 'b.json')).toThrow(
      /b\.json: finding 1 has the fingerprint "2982a21ffce4cf8", not 16 hexadecimal digits/,
    );
  });

  it('refuses a format version it does not read', () => {
    expect(() => parseBaseline(file([], { baselineVersion: 2 }), 'b.json')).toThrow(
      /b\.json is a baseline of format version 2; this plantstore reads version 1/,
    );
  });
});

describe('a finding the baseline lists whose checks judged nothing in this run', () => {
  it('is not judged, not fixed: another defect left its checks nothing, so it is kept', () => {
    const report = withFindings(sampleReport());
    const [first, ...rest] = report.findings ?? [];
    const baseline = parseBaseline(baselineText(report), 'b.json');
    expect(baseline.findings.find((entry) => entry.fingerprint === first?.fingerprint)?.checks).toEqual(first?.checks);
    const skipped = new Set(first?.checks);
    const later: Report = {
      ...report,
      findings: rest.filter((finding) => !finding.checks.some((id) => skipped.has(id))),
      checks: report.checks.map((check) =>
        skipped.has(check.id)
          ? { ...check, status: 'skip', cases: 0, failures: [], skipReason: 'Nothing to judge' }
          : check,
      ),
    };
    const compared = compareWithBaseline(later, baseline, 'b.json');
    expect(compared.unjudged).toContainEqual({ fingerprint: first?.fingerprint, title: first?.title });
    expect(compared.fixed.map((entry) => entry.fingerprint)).not.toContain(first?.fingerprint);
    expect(reportExitCode({ ...later, baseline: compared })).toBe(0);
    const shown = { ...later, baseline: compared };
    expect(baselineSection(shown, { live: false, color: false, width: 100 })).toContain(
      `  not judged (its checks judged nothing in this run; keep it): ${first?.fingerprint}`,
    );
    expect(renderHtmlReport(shown)).toContain('not judged: the checks that found them judged nothing in this run');
  });

  it('stays no longer seen in a file written before the checks were recorded', () => {
    const report = withFindings(sampleReport());
    const [first, ...rest] = report.findings ?? [];
    const old = parseBaseline(
      JSON.stringify({
        tool: 'plantstore',
        baselineVersion: 1,
        findings: [{ fingerprint: first?.fingerprint, title: 't' }],
      }),
      'b.json',
    );
    const skipped = new Set(first?.checks);
    const later: Report = {
      ...report,
      findings: rest,
      checks: report.checks.map((check) =>
        skipped.has(check.id) ? { ...check, status: 'skip', failures: [] } : check,
      ),
    };
    expect(compareWithBaseline(later, old, 'b.json')).toMatchObject({ fixed: [{ fingerprint: first?.fingerprint }] });
    expect(compareWithBaseline(later, old, 'b.json').unjudged).toBeUndefined();
  });
});

describe('a baseline written by an older plantstore that worded a finding otherwise', () => {
  const mode = { live: false, color: false, width: 100 };

  it('knows the finding under its current fingerprint through the retired-fingerprint table (exit 0)', () => {
    const report = withFindings(sampleReport());
    const [first, ...rest] = report.findings ?? [];
    const older = '00000000000000aa';
    const text = baselineText({
      ...report,
      findings: [{ ...first!, fingerprint: older, title: 'older words' }, ...rest],
    });
    const baseline = parseBaseline(text, 'b.json');
    // Without the table: the defect is new and its old entry no longer seen, as before.
    const unaliased = compareWithBaseline(report, baseline, 'b.json', {});
    expect(unaliased.new).toEqual([first?.fingerprint]);
    expect(reportExitCode({ ...report, baseline: unaliased })).toBe(1);
    const compared = compareWithBaseline(report, baseline, 'b.json', { [older]: first!.fingerprint });
    expect(compared).toMatchObject({
      new: [],
      fixed: [],
      renamed: [{ fingerprint: older, current: [first?.fingerprint] }],
    });
    expect(reportExitCode({ ...report, baseline: compared })).toBe(0);
    expect(baselineSection({ ...report, baseline: compared }, mode)).toContain(
      `  known under a fingerprint an older plantstore wrote: ${older}, now ${first?.fingerprint} (--write-baseline records it)`,
    );
    expect(renderHtmlReport({ ...report, baseline: compared })).toContain(`<code>${older}</code>, now`);
  });

  it('follows a chain of rewordings and a split, and reads a current fingerprint as itself', () => {
    const retired = { a: 'b', b: ['c', 'd'], d: 'a' };
    expect([...currentFingerprints('a', retired)].sort()).toEqual(['a', 'b', 'c', 'd']);
    expect(currentFingerprints('e', retired)).toEqual(['e']);
    expect(currentFingerprints('toString', retired)).toEqual(['toString']);
  });

  it('lists retired fingerprints as 16 lower-case hex digits, never one retired for itself', () => {
    for (const [old, current] of Object.entries(RETIRED_FINGERPRINTS)) {
      const successors = typeof current === 'string' ? [current] : current;
      expect(old).toMatch(/^[0-9a-f]{16}$/);
      expect(successors.length).toBeGreaterThan(0);
      for (const print of successors) expect(print, old).toMatch(/^[0-9a-f]{16}$/);
      expect(successors, old).not.toContain(old);
    }
  });
});
