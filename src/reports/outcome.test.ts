import { describe, expect, it } from 'vitest';
import { passingReport, sampleReport } from '../fixtures/sample-reports.js';
import type { Report } from '../runner/report.js';
import { isIncomplete, reportExitCode } from './outcome.js';

const allSkipped = (report: Report): Report => ({
  ...report,
  checks: report.checks.map((check) => ({ ...check, status: 'skip' as const, failures: [] })),
});

describe('reportExitCode', () => {
  it('is 1 when a check failed, 0 when all judged checks passed', () => {
    expect(reportExitCode(sampleReport())).toBe(1);
    expect(reportExitCode(passingReport())).toBe(0);
  });

  it('is 2 when nothing was judged (a target answering only 429/503), never "conformant"', () => {
    const report = allSkipped(passingReport());
    expect(isIncomplete(report)).toBe(true);
    expect(reportExitCode(report)).toBe(2);
  });

  it('is 2 when cases were left unsent and nothing failed, 1 when something failed anyway', () => {
    const passing = passingReport();
    const unsent = { ...passing, summary: { ...passing.summary, unsent: 275 } };
    expect(reportExitCode(unsent)).toBe(2);
    const failing = sampleReport();
    expect(reportExitCode({ ...failing, summary: { ...failing.summary, unsent: 3 } })).toBe(1);
  });
});
