import type { CheckResult, Report } from '../runner/report.js';
import { failureText, oneLine, printable } from './exchange-text.js';
import type { Reporter } from './reporter.js';
import { writeReportFile } from './report-file.js';
import { escapeXmlText, xmlElement } from './xml.js';

/** The file name the JUnit reporter writes. */
export const JUNIT_REPORT_FILE = 'junit.xml';

const LIMITS = { maxBody: 4000 };
/** Counterexamples written into one testcase; report.json keeps them all. */
const MAX_FAILURES_PER_CASE = 10;

/**
 * `junit.xml`: one testsuite, one testcase per check (classname `plantstore`, name `id: title`).
 * A failed check carries its minimal counterexamples in `<failure>` (skipped instead, with them in
 * `<system-out>`, when a baseline lists every finding it shows), a skipped one its reason in
 * `<skipped>`, and a warned one passes with the warning in `<system-out>`.
 */
export function renderJunitReport(report: Report): string {
  const known = knownOnly(report);
  const statusOf = (check: CheckResult): CheckResult['status'] => (known.has(check.id) ? 'skip' : check.status);
  const count = (status: CheckResult['status']): number => report.checks.filter((c) => statusOf(c) === status).length;
  const totals = {
    tests: report.checks.length,
    failures: count('fail'),
    errors: 0,
    skipped: count('skip'),
    time: (report.summary.durationMs / 1000).toFixed(3),
  };
  const cases = report.checks.map((check) => testcase(check, known.get(check.id), report.baseline?.file));
  const suite = xmlElement(
    'testsuite',
    { name: 'plantstore conformance', ...totals, timestamp: report.startedAt },
    `\n${properties(report)}${cases.join('')}${suiteOutput(report)}  `,
  );
  const findings = findingsSuite(report);
  const all = findings
    ? {
        tests: totals.tests + findings.tests,
        failures: totals.failures + findings.failures,
        errors: 0,
        skipped: totals.skipped + findings.skipped,
        time: totals.time,
      }
    : totals;
  const inner = `\n${findings ? `  ${findings.xml}\n` : ''}  ${suite}\n`;
  const suites = xmlElement('testsuites', { name: 'plantstore', ...all }, inner);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${suites}\n`;
}

/**
 * The findings first, as a testsuite of their own: one testcase per root cause, failed (or, under a
 * baseline, skipped as known), so a CI view counts defects before it lists the checks they fail.
 */
function findingsSuite(report: Report): { xml: string; tests: number; failures: number; skipped: number } | undefined {
  const findings = report.findings ?? [];
  if (findings.length === 0 && !report.couldNotJudge) return undefined;
  const known = new Set(report.baseline?.known ?? []);
  const cases = findings.map((finding) => {
    const attributes = { classname: 'plantstore.findings', name: `${finding.fingerprint}: ${finding.title}` };
    const detail = `Explains: ${finding.checks.join(', ')}\n\n${failureText(finding.counterexample, LIMITS)}`;
    const inner = known.has(finding.fingerprint)
      ? xmlElement('skipped', { message: `known: listed in the baseline ${report.baseline?.file ?? ''}` })
      : xmlElement('failure', { message: oneLine(finding.title, 1000), type: 'finding' }, escapeXmlText(detail));
    return `    ${xmlElement('testcase', attributes, `\n      ${inner}\n    `)}\n`;
  });
  if (report.couldNotJudge) {
    const attributes = { classname: 'plantstore.findings', name: `could not judge: ${report.couldNotJudge.code}` };
    const error = xmlElement('failure', {
      message: oneLine(report.couldNotJudge.reason, 1000),
      type: 'could-not-judge',
    });
    cases.unshift(`    ${xmlElement('testcase', attributes, `\n      ${error}\n    `)}\n`);
  }
  const tests = cases.length;
  const skipped = findings.filter((finding) => known.has(finding.fingerprint)).length;
  const counts = { tests, failures: tests - skipped, errors: 0, skipped };
  const xml = xmlElement('testsuite', { name: 'plantstore findings', ...counts }, `\n${cases.join('')}  `);
  return { xml, tests, failures: tests - skipped, skipped };
}

function properties(report: Report): string {
  const entries = {
    target: report.target.baseUrl,
    embedded: String(report.target.embedded),
    seed: String(report.seed),
    tool: `${report.tool.name} ${report.tool.version}`,
  };
  const items = Object.entries(entries).map(([name, value]) => `      ${xmlElement('property', { name, value })}\n`);
  return `    ${xmlElement('properties', {}, `\n${items.join('')}    `)}\n`;
}

/**
 * Under a baseline, the failed checks whose every finding the baseline lists, with those fingerprints: the run
 * exits 0 for them, so JUnit skips them rather than fail them (a CI view would otherwise go red on exit 0).
 */
function knownOnly(report: Report): Map<CheckResult['id'], readonly string[]> {
  const result = new Map<CheckResult['id'], readonly string[]>();
  if (report.baseline === undefined) return result;
  const known = new Set(report.baseline.known);
  for (const check of report.checks) {
    if (check.status !== 'fail') continue;
    const findings = (report.findings ?? []).filter((finding) => finding.checks.includes(String(check.id)));
    if (findings.length > 0 && findings.every((finding) => known.has(finding.fingerprint)))
      result.set(
        check.id,
        findings.map((finding) => finding.fingerprint),
      );
  }
  return result;
}

function testcase(check: CheckResult, knownFindings: readonly string[] | undefined, baselineFile = ''): string {
  const attributes = { classname: 'plantstore', name: `${check.id}: ${check.title}` };
  const inner = knownFindings === undefined ? caseContent(check) : knownContent(check, knownFindings, baselineFile);
  return `    ${xmlElement('testcase', attributes, inner === '' ? undefined : `\n${inner}    `)}\n`;
}

function knownContent(check: CheckResult, fingerprints: readonly string[], baselineFile: string): string {
  const message = `failed only with findings the baseline ${baselineFile} lists: ${fingerprints.join(', ')}`;
  const skipped = `      ${xmlElement('skipped', { message: oneLine(message, 1000) })}\n`;
  return `${skipped}      ${xmlElement('system-out', {}, escapeXmlText(counterexamples(check)))}\n`;
}

function caseContent(check: CheckResult): string {
  if (check.status === 'skip') {
    return `      ${xmlElement('skipped', { message: oneLine(check.skipReason ?? 'skipped', 1000) })}\n`;
  }
  if (check.status === 'fail') {
    const message = oneLine(check.failures[0]?.reason ?? 'the check failed', 1000);
    return `      ${xmlElement('failure', { message, type: String(check.id) }, escapeXmlText(counterexamples(check)))}\n`;
  }
  if (check.status === 'warn') {
    const text = `WARNING (not a failure of the contract)\n${counterexamples(check)}`;
    return `      ${xmlElement('system-out', {}, escapeXmlText(text))}\n`;
  }
  return '';
}

function counterexamples(check: CheckResult): string {
  const shown = check.failures.slice(0, MAX_FAILURES_PER_CASE);
  const blocks = shown.map(
    (failure, index) => `Counterexample ${index + 1} of ${check.failures.length}\n${failureText(failure, LIMITS)}`,
  );
  return [`Rule: ${printable(check.rule, { keepLines: true })}`, ...blocks].join('\n\n') + '\n';
}

function suiteOutput(report: Report): string {
  if (report.notes.length === 0) return '';
  const text = report.notes.map((note) => `note: ${printable(note, { keepLines: true })}`).join('\n');
  return `    ${xmlElement('system-out', {}, escapeXmlText(text))}\n`;
}

/** The JUnit reporter: writes `junit.xml` into `outDir` when the run ends. */
export function createJunitReporter(options: { readonly outDir: string }): Reporter {
  return {
    name: 'junit',
    file: JUNIT_REPORT_FILE,
    onRunEnd: (report) => writeReportFile(options.outDir, JUNIT_REPORT_FILE, renderJunitReport(report)),
  };
}
