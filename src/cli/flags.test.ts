import { describe, expect, it } from 'vitest';
import type { Report } from '../runner/report.js';
import { reportInFlags, withFlags } from './flags.js';

const report: Report = {
  tool: { name: 'plantstore', version: '0.0.0' },
  target: { baseUrl: 'http://127.0.0.1:9/api', embedded: false },
  seed: 42,
  startedAt: '2026-01-01T00:00:00.000Z',
  summary: { cases: 1, passed: 0, failed: 1, warnings: 0, skipped: 1, durationMs: 5 },
  checks: [
    {
      id: 'echo',
      title: 'Echo',
      rule: 'r',
      status: 'fail',
      cases: 1,
      failures: [
        {
          reason: 'changed',
          request: { method: 'POST', url: 'http://127.0.0.1:9/api/plants', headers: {}, body: null },
          response: { status: 200, headers: {}, body: null, durationMs: 1 },
          curl: 'curl',
          replay: 'runConformance({ … })',
          rerun: { seed: 42, runs: 100, baseUrl: 'http://127.0.0.1:9/api', replay: 'valid-plant:3:0.1:ab' },
          shrinkSteps: 2,
        },
      ],
    },
    {
      id: 'repeated-id',
      title: 'R',
      rule: 'r',
      status: 'skip',
      cases: 0,
      failures: [],
      skipReason: 'skipped with `skipChecks`',
    },
  ],
  notes: ['ran out (raise `budgetMs`).'],
  noteDetails: [{ code: 'budget', message: 'ran out (raise `budgetMs`).', options: ['budgetMs'] }],
};

describe('the CLI speaks flags where the runner speaks options', () => {
  it('shows each option a message names as its flag, and leaves other backquoted words alone', () => {
    expect(withFlags('raise `budgetMs`; `baseUrl` x; `checks`, `skipChecks`, `timeoutMs`')).toBe(
      'raise --budget; --base-url x; --check, --skip-check, --timeout',
    );
    expect(withFlags('check the token first (`token`)')).toBe(
      'check the token first (PLANTSTORE_TOKEN, --token-file or --token)',
    );
    expect(withFlags('`notAnOption` stays')).toBe('`notAnOption` stays');
  });

  it('renders notes, skip reasons and replay commands of a report, keeping the data as it was', () => {
    const shown = reportInFlags(report);
    expect(shown.notes).toEqual(['ran out (raise --budget).']);
    expect(shown.noteDetails).toEqual([
      { code: 'budget', message: 'ran out (raise --budget).', options: ['budgetMs'] },
    ]);
    expect(shown.checks[1]?.skipReason).toBe('skipped with --skip-check');
    expect(shown.checks[0]?.failures[0]?.replay).toBe(
      'plantstore test --seed 42 --runs 100 --base-url http://127.0.0.1:9/api --replay valid-plant:3:0.1:ab',
    );
    expect(shown.checks[0]?.failures[0]?.rerun).toEqual(report.checks[0]?.failures[0]?.rerun);
  });

  it('names no base URL in the replay command of the embedded reference', () => {
    const embedded = { ...report.checks[0]!.failures[0]!, rerun: { seed: 1, runs: 5, replay: 'p:1:-:ab' } };
    const shown = reportInFlags({ ...report, checks: [{ ...report.checks[0]!, failures: [embedded] }] });
    expect(shown.checks[0]?.failures[0]?.replay).toBe('plantstore test --seed 1 --runs 5 --replay p:1:-:ab');
  });

  it('names the document of the run in the replay command, quoted for the shell when it must be', () => {
    const rerun = { seed: 1, runs: 5, spec: "vendor docs/it's.yaml", replay: 'p:1:-:ab' };
    const failure = { ...report.checks[0]!.failures[0]!, rerun };
    const shown = reportInFlags({ ...report, checks: [{ ...report.checks[0]!, failures: [failure] }] });
    expect(shown.checks[0]?.failures[0]?.replay).toBe(
      `plantstore test --seed 1 --runs 5 --spec 'vendor docs/it'\\''s.yaml' --replay p:1:-:ab`,
    );
  });
});
