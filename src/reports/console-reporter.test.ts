/* eslint-disable no-control-regex -- these tests look for control characters in the output */
import { describe, expect, it } from 'vitest';
import type { Report } from '../runner/report.js';
import { createConsoleReporter } from './console-reporter.js';
import type { Reporter, TextSink } from './reporter.js';
import { passingReport, sampleReport } from '../fixtures/sample-reports.js';

interface Capture extends TextSink {
  readonly text: () => string;
  readonly chunks: string[];
}

function capture(isTTY: boolean, columns = 100): Capture {
  const chunks: string[] = [];
  return { isTTY, columns, chunks, write: (text: string) => chunks.push(text), text: () => chunks.join('') };
}

async function runThrough(reporter: Reporter, report: Report): Promise<void> {
  reporter.onRunStart?.({ target: report.target, seed: report.seed, plannedCases: 2700 });
  for (const check of report.checks) reporter.onCheckDone?.(check);
  await reporter.onRunEnd?.(report, ['reports/report.json']);
}

const ESC = '\u001b';

describe('console reporter in CI', () => {
  it('names a folded failure by the finding it was folded into, the id report.json and a baseline list', async () => {
    // Before, zod's .trim() under a pattern showed "[finding d86df1c2f0fc036e]" on negative-rejection's case, a
    // fingerprint no finding has, beside the trimming finding ad8a417d195be1bb that it belongs to.
    const report = sampleReport();
    const [first, ...rest] = report.checks;
    if (first === undefined) throw new Error('a check expected');
    const folded = first.failures.map((failure) => ({
      ...failure,
      fingerprint: 'd86df1c2f0fc036e',
      foldedInto: 'ad8a417d195be1bb',
    }));
    const out = capture(false);
    await runThrough(createConsoleReporter({ stdout: out, env: { CI: 'true' } }), {
      ...report,
      checks: [{ ...first, failures: folded }, ...rest],
    });
    expect(out.text()).toContain('[finding ad8a417d195be1bb]');
    expect(out.text()).not.toContain('d86df1c2f0fc036e');
  });

  it('writes plain lines: no escape code, no carriage return, whatever the target sent', async () => {
    const out = capture(false);
    await runThrough(createConsoleReporter({ stdout: out, env: { CI: 'true' } }), sampleReport());
    expect(out.text()).not.toContain(ESC);
    expect(out.text()).not.toContain('\r');
    expect(out.text()).not.toMatch(/[\u0000-\u0008\u000b-\u001f\ud800-\udfff]/u);
  });

  it('treats a terminal with CI=true as a log', () => {
    const out = capture(true);
    const reporter = createConsoleReporter({ stdout: out, env: { CI: 'true', NO_COLOR: '1' } });
    reporter.onRunStart?.({ target: sampleReport().target, seed: 1, plannedCases: 10 });
    reporter.onCaseDone?.({ done: 10, planned: 10, failed: 0 });
    expect(out.text()).not.toContain('\r');
  });

  it('puts the seed on the first and the last line', async () => {
    const out = capture(false);
    await runThrough(createConsoleReporter({ stdout: out, env: { CI: 'true' } }), sampleReport());
    const lines = out.text().trimEnd().split('\n');
    expect(lines[0]).toBe('plantstore test: seed 42, target http://127.0.0.1:4010, 2700 cases planned');
    expect(lines.at(-1)).toBe(
      'NOT CONFORMANT: 2 failed, 1 warned, 1 passed, 1 skipped of 5 checks; 2700 cases in 3.2 s; seed 42 (replay with --seed 42)',
    );
  });

  it('prints a summary table with check, cases, status and the first counterexample on one line', async () => {
    const out = capture(false);
    await runThrough(createConsoleReporter({ stdout: out, env: { CI: 'true' } }), sampleReport());
    const lines = out.text().split('\n');
    const header = lines.findIndex((line) => line.startsWith('check '));
    expect(lines[header]).toMatch(/^check\s+cases\s+status\s+first counterexample$/);
    expect(lines[header + 2]).toMatch(/^response-schema\s+900\s+PASS$/);
    expect(lines[header + 3]).toMatch(/^echo\s+300\s+WARN\s+The tag came back with trailing whitespace trimmed/);
    expect(lines[header + 4]).toMatch(/^repeated-id\s+0\s+SKIP\s+skipped with --skip-check repeated-id <b>$/);
    expect(lines[header + 5]).toMatch(/^no-server-error\s+1200\s+FAIL\s+The target did not answer within 5000 ms$/);
  });

  it('keeps table rows within the width: 120 columns in a log, the terminal width on a TTY', async () => {
    const log = capture(false);
    await runThrough(createConsoleReporter({ stdout: log, env: { CI: 'true' } }), sampleReport());
    const logRows = log
      .text()
      .split('\n')
      .filter((line) => /^(positive-acceptance|no-server-error) /.test(line));
    expect(logRows.map((row) => row.length <= 120)).toEqual([true, true]);
    expect(logRows[0]!.length).toBe(119); // one column spare: terminals wrap at the last one

    const tty = capture(true, 80);
    await runThrough(createConsoleReporter({ stdout: tty, env: { NO_COLOR: '1' } }), sampleReport());
    const ttyRows = tty
      .text()
      .split('\n')
      .filter((line) => line.startsWith('positive-acceptance '));
    expect(ttyRows.map((row) => row.length)).toEqual([79]);
  });

  it('details each failure: reason, request, response, curl and replay', async () => {
    const out = capture(false);
    await runThrough(createConsoleReporter({ stdout: out, env: { CI: 'true' } }), sampleReport());
    const text = out.text();
    expect(text).toContain('FAIL positive-acceptance: Valid plants are accepted');
    expect(text).toContain('  1) Expected 200, got 500 for name');
    expect(text).toContain('     request  | POST http://127.0.0.1:4010/plants');
    expect(text).toContain('     response | HTTP 500 after 12 ms');
    expect(text).toContain("     curl     | curl -sS -X POST 'http://127.0.0.1:4010/plants'");
    expect(text).toContain('     replay   | plantstore test --seed 42 --replay positive-acceptance:17:0.3');
    expect(text).toContain('     response | no HTTP response (timeout) after 5000 ms');
    expect(text).toContain('(99600 more characters)');
    expect(text).toContain('Reports: reports/report.json');
  });

  it('prints each curl command of a case on its own line, and cuts one too long for a log', async () => {
    const report = sampleReport();
    const [first, ...rest] = report.checks;
    const [failure] = first?.failures ?? [];
    if (!first || !failure) throw new Error('the sample report has a failure');
    const two = `curl -sS 'http://127.0.0.1:4010/plants' --data-binary '{"id":1}'\ncurl -sS 'http://127.0.0.1:4010/plants' --data-binary '{"id":1}'`;
    const long = `curl -sS 'http://127.0.0.1:4010/plants' --data-binary '${'['.repeat(20_000)}'`;
    const withCurls = (curl: string): Report => ({
      ...report,
      checks: [{ ...first, failures: [{ ...failure, curl }] }, ...rest],
    });
    const out = capture(false);
    await runThrough(createConsoleReporter({ stdout: out, env: { CI: 'true' } }), withCurls(two));
    expect(out.text()).toContain(
      "     curl     | curl -sS 'http://127.0.0.1:4010/plants' --data-binary '{\"id\":1}'\n",
    );
    expect(out.text()).toContain(
      "              | curl -sS 'http://127.0.0.1:4010/plants' --data-binary '{\"id\":1}'\n",
    );
    expect(out.text()).not.toContain('<U+000A>');
    const cut = capture(false);
    await runThrough(createConsoleReporter({ stdout: cut, env: { CI: 'true' } }), withCurls(long));
    expect(cut.text()).toContain('20,056 characters in all: copy it from report.json or report.html');
    expect(cut.text()).not.toContain('['.repeat(1000));
  });

  it('never lets text from a target start a line, so it cannot issue CI log commands', async () => {
    const out = capture(false);
    await runThrough(createConsoleReporter({ stdout: out, env: { CI: 'true' } }), sampleReport());
    expect(out.text()).toContain('::error::injected');
    expect(
      out
        .text()
        .split('\n')
        .filter((line) => line.trimStart().startsWith('::')),
    ).toEqual([]);
  });

  it('prints a progress line at most every 10 seconds', () => {
    const out = capture(false);
    let clock = 0;
    const reporter = createConsoleReporter({ stdout: out, env: { CI: 'true' }, now: () => clock });
    reporter.onRunStart?.({ target: sampleReport().target, seed: 1, plannedCases: 1000 });
    for (let done = 1; done <= 1000; done++) {
      clock = done * 25;
      reporter.onCaseDone?.({ done, planned: 1000, failed: done > 500 ? 1 : 0 });
    }
    const progress = out.chunks.filter((chunk) => chunk.includes(' cases ('));
    expect(progress).toEqual(['  400/1000 cases (40%)\n', '  800/1000 cases (80%), 1 failing\n']);
  });

  it('works from the report alone when the run start was not seen', async () => {
    const out = capture(false);
    await createConsoleReporter({ stdout: out, env: {} }).onRunEnd?.(passingReport(), []);
    const lines = out.text().trimEnd().split('\n');
    expect(lines[0]).toBe('plantstore test: seed 42, target http://127.0.0.1:4010, 900 cases planned');
    expect(lines.at(-1)).toMatch(/^CONFORMANT: 0 failed, 0 warned, 1 passed, 0 skipped of 1 check; .* seed 42/);
  });
});

describe('console reporter on a terminal', () => {
  it('rewrites one progress line in place, at most every 100 ms', () => {
    const out = capture(true);
    let clock = 0;
    const reporter = createConsoleReporter({ stdout: out, env: {}, now: () => clock });
    reporter.onRunStart?.({ target: sampleReport().target, seed: 1, plannedCases: 100 });
    for (let done = 1; done <= 100; done++) {
      clock = done * 10;
      reporter.onCaseDone?.({ done, planned: 100, failed: 0, phase: done > 90 ? 'shrink' : 'run' });
    }
    const redraws = out.chunks.filter((chunk) => chunk.startsWith('\r\u001b[2K  '));
    expect(redraws).toHaveLength(10);
    expect(redraws.every((chunk) => !chunk.includes('\n'))).toBe(true);
    expect(redraws.at(-1)).toBe('\r\u001b[2K  100/100 cases (100%), shrinking a counterexample');
  });

  it('clears the progress line before printing a check and the summary', async () => {
    const out = capture(true);
    const reporter = createConsoleReporter({ stdout: out, env: {}, now: () => 0 });
    reporter.onRunStart?.({ target: sampleReport().target, seed: 1, plannedCases: 10 });
    reporter.onCaseDone?.({ done: 10, planned: 10, failed: 0 });
    const [check] = passingReport().checks;
    reporter.onCheckDone?.(check!);
    await reporter.onRunEnd?.(passingReport(), []);
    const text = out.text();
    expect(text).toContain('\r\u001b[2K\u001b[32mPASS\u001b[39m response-schema: 900 cases\n');
    expect(text.endsWith('seed 42 (replay with --seed 42)\n')).toBe(true);
  });

  it('colours statuses on a terminal and not with NO_COLOR, but still draws progress', async () => {
    const colored = capture(true);
    await runThrough(createConsoleReporter({ stdout: colored, env: {} }), sampleReport());
    expect(colored.text()).toContain('\u001b[31mFAIL\u001b[39m');

    const plain = capture(true);
    const reporter = createConsoleReporter({ stdout: plain, env: { NO_COLOR: '1' }, now: () => 0 });
    await runThrough(reporter, sampleReport());
    reporter.onCaseDone?.({ done: 1, planned: 1, failed: 1 });
    expect(plain.text()).not.toMatch(/\u001b\[\d+m/);
    expect(plain.text()).toContain('\r\u001b[2K  1/1 cases (100%), 1 failing');
  });

  it('never writes a raw escape character that came from the target', async () => {
    const out = capture(true);
    await runThrough(createConsoleReporter({ stdout: out, env: {} }), sampleReport());
    const ours = /\u001b\[(?:\d+m|2K)/g;
    expect(out.text().replace(ours, '')).not.toContain(ESC);
  });
});
