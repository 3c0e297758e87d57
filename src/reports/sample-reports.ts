/**
 * Hand-made reports for the reporters' tests: every status, transport failures, truncated bodies,
 * and strings a target could send back (control characters, lone surrogates, markup, CI log commands).
 */
import type { CheckResult, Failure, Report } from '../runner/report.js';

/** Characters that break naive XML, HTML, JSON and terminal output, in one string. */
export const NASTY =
  'NUL\u0000 SOH\u0001 ESC\u001b[31mred\u001b[0m BEL\u0007 CR\r VT\u000b FFFE\ufffe FFFF\uffff ' +
  'lone-high\ud800 lone-low\udc00 pair😀 RTL\u202eevil zero\u200bwidth <script>alert(1)</script> ' +
  ']]> &amp; "quoted" \'single\' C1\u0085 \n::error::injected';

function failure(reason: string, overrides: Partial<Failure> = {}): Failure {
  return {
    reason,
    request: {
      method: 'POST',
      url: 'http://127.0.0.1:4010/plants',
      headers: { authorization: 'Bearer $PLANTSTORE_TOKEN', 'content-type': 'application/json' },
      body: `{"id":9223372036854775807,"name":${JSON.stringify(NASTY)}}`,
    },
    response: {
      status: 500,
      headers: { 'content-type': 'text/html', 'x-echo': 'a\u0000b' },
      body: `<html><script>alert("x")</script>${NASTY}</html>`,
      durationMs: 12.4,
    },
    curl: "curl -sS -X POST 'http://127.0.0.1:4010/plants' -H 'Authorization: Bearer $PLANTSTORE_TOKEN' --data-binary @-",
    replay: 'plantstore test --seed 42 --replay positive-acceptance:17:0.3',
    shrinkSteps: 7,
    ...overrides,
  };
}

const CHECKS: readonly CheckResult[] = [
  {
    id: 'positive-acceptance',
    title: 'Valid plants are accepted',
    rule: 'A valid NewPlant with a valid token is answered 200 with a Plant.',
    status: 'fail',
    cases: 300,
    failures: [
      failure(`Expected 200, got 500 for name ${JSON.stringify(NASTY)}`),
      failure('Expected 200, got 400', { shrinkSteps: 1 }),
    ],
  },
  {
    id: 'response-schema',
    title: 'Responses match their schema',
    rule: 'A 200 carries a Plant; a 400 carries an Error.',
    status: 'pass',
    cases: 900,
    failures: [],
  },
  {
    id: 'echo',
    title: 'The Plant echoes name and tag',
    rule: 'The 200 Plant carries the name and tag sent.',
    status: 'warn',
    cases: 300,
    failures: [failure('The tag came back with trailing whitespace trimmed (a warning, not a failure)')],
  },
  {
    id: 'repeated-id',
    title: 'A repeated id gets a documented answer',
    rule: 'Behaviour for a repeated id is not shown; no 5xx.',
    status: 'skip',
    cases: 0,
    failures: [],
    skipReason: 'skipped with --skip-check repeated-id <b>',
  },
  {
    id: 'no-server-error',
    title: 'No server errors',
    rule: 'No 5xx, no dropped connection, no timeout.',
    status: 'fail',
    cases: 1200,
    failures: [
      failure('The target did not answer within 5000 ms', {
        response: { status: 0, headers: {}, body: null, transportError: 'timeout', durationMs: 5000 },
      }),
      failure('The body was cut short', {
        request: { method: 'POST', url: 'http://127.0.0.1:4010/plants', headers: {}, body: '\ud800', bodyBase64: '7aCA' },
        response: { status: 200, headers: {}, body: 'x'.repeat(100_000), truncated: true, durationMs: 3 },
      }),
    ],
  },
];

/** A run with a failing, a passing, a warned and a skipped check, and notes. */
export function sampleReport(overrides: Partial<Report> = {}): Report {
  return {
    tool: { name: 'plantstore', version: '0.1.0' },
    target: { baseUrl: 'http://127.0.0.1:4010', embedded: false },
    seed: 42,
    startedAt: '2026-01-01T00:00:00.000Z',
    summary: { cases: 2700, passed: 1, failed: 2, warnings: 1, skipped: 1, durationMs: 3210 },
    checks: CHECKS,
    notes: [`The overall budget ran out ${NASTY}`],
    ...overrides,
  };
}

/** A run where every check passed. */
export function passingReport(): Report {
  const checks = CHECKS.filter((check) => check.status === 'pass');
  return sampleReport({
    checks,
    notes: [],
    summary: { cases: 900, passed: 1, failed: 0, warnings: 0, skipped: 0, durationMs: 1000 },
  });
}
