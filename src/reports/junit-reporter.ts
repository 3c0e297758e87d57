import type { CheckResult, Report } from '../runner/report.js';
import { failureText, oneLine, printable } from './exchange-text.js';
import { incompleteReason, isIncomplete } from './outcome.js';
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
  const unjudged = unjudgedMessage(report);
  const skippedWhy = (check: CheckResult): string | undefined =>
    check.status !== 'fail'
      ? undefined
      : (unjudged ?? (known.has(check.id) ? knownMessage(known.get(check.id) ?? [], report) : undefined));
  const statusOf = (check: CheckResult): CheckResult['status'] =>
    skippedWhy(check) === undefined ? check.status : 'skip';
  const count = (status: CheckResult['status']): number => report.checks.filter((c) => statusOf(c) === status).length;
  const totals = {
    tests: report.checks.length,
    failures: count('fail'),
    errors: 0,
    skipped: count('skip'),
    time: (report.summary.durationMs / 1000).toFixed(3),
  };
  const cases = report.checks.map((check) => testcase(check, skippedWhy(check)));
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
  const incomplete = incompleteCase(report);
  if (findings.length === 0 && !report.couldNotJudge && incomplete === undefined) return undefined;
  const known = new Set(report.baseline?.known ?? []);
  const unjudged = unjudgedMessage(report);
  const skipped = (fingerprint: string): boolean => unjudged !== undefined || known.has(fingerprint);
  const cases = findings.map((finding) => {
    const attributes = { classname: 'plantstore.findings', name: `${finding.fingerprint}: ${finding.title}` };
    const detail = `Explains: ${finding.checks.join(', ')}\n\n${failureText(finding.counterexample, LIMITS)}`;
    const inner = !skipped(finding.fingerprint)
      ? xmlElement('failure', { message: oneLine(finding.title, 1000), type: 'finding' }, escapeXmlText(detail))
      : `${xmlElement('skipped', {
          message: oneLine(unjudged ?? `known: listed in the baseline ${report.baseline?.file ?? ''}`, 1000),
        })}${unjudged === undefined ? '' : `\n      ${xmlElement('system-out', {}, escapeXmlText(detail))}`}`;
    return `    ${xmlElement('testcase', attributes, `\n      ${inner}\n    `)}\n`;
  });
  if (report.couldNotJudge) {
    const attributes = { classname: 'plantstore.findings', name: `could not judge: ${report.couldNotJudge.code}` };
    // The reason as text too: GitLab shows a failure's text as its output, Jenkins as its trace.
    const text = [report.couldNotJudge.reason, ...report.notes.map((note) => `note: ${note}`)].join('\n\n');
    const error = xmlElement(
      'failure',
      { message: oneLine(report.couldNotJudge.reason, 1000), type: 'could-not-judge' },
      escapeXmlText(printable(text, { keepLines: true })),
    );
    cases.unshift(`    ${xmlElement('testcase', attributes, `\n      ${error}\n    `)}\n`);
  }
  if (incomplete !== undefined) cases.unshift(incomplete);
  const tests = cases.length;
  const skippedCount = findings.filter((finding) => skipped(finding.fingerprint)).length;
  const counts = { tests, failures: tests - skippedCount, errors: 0, skipped: skippedCount };
  const xml = xmlElement('testsuite', { name: 'plantstore findings', ...counts }, `\n${cases.join('')}  `);
  return { xml, tests, failures: tests - skippedCount, skipped: skippedCount };
}

/**
 * A run that ended with no verdict and nothing failed (exit 2): one failed testcase that says so, so a
 * JUnit view is not green where the job is red. Not the target's failure: the run's, named as such.
 */
function incompleteCase(report: Report): string | undefined {
  const failed = report.checks.some((check) => check.status === 'fail');
  if (failed || report.couldNotJudge || !isIncomplete(report)) return undefined;
  const text = report.notes.map((note) => `note: ${note}`).join('\n\n');
  const failure = xmlElement(
    'failure',
    { message: incompleteReason(report), type: 'incomplete' },
    escapeXmlText(printable(text, { keepLines: true })),
  );
  const attributes = { classname: 'plantstore.findings', name: 'incomplete: no verdict' };
  return `    ${xmlElement('testcase', attributes, `\n      ${failure}\n    `)}\n`;
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

/**
 * Why the failures of a run that could not judge the target are skipped rather than failed: its premise
 * was wrong (a refused token, a wrong base path, not a Plant Store), so what its checks saw is the
 * setup's doing, and a CI view would otherwise blame the target for it; the could-not-judge testcase
 * fails instead: `setupsDoing`, as the runner decided it. Not for `ids-taken` or `no-answer`, whose failures stand.
 */
function unjudgedMessage(report: Report): string | undefined {
  const unjudged = report.couldNotJudge;
  if (unjudged?.setupsDoing !== true) return undefined;
  return `not judged: the run could not judge the target (${unjudged.code}), so this failure may be the setup's, not the target's; see the could-not-judge testcase`;
}

function knownMessage(fingerprints: readonly string[], report: Report): string {
  return `failed only with findings the baseline ${report.baseline?.file ?? ''} lists: ${fingerprints.join(', ')}`;
}

function testcase(check: CheckResult, skippedBecause: string | undefined): string {
  const attributes = { classname: 'plantstore', name: `${check.id}: ${check.title}` };
  const inner = skippedBecause === undefined ? caseContent(check) : skippedContent(check, skippedBecause);
  return `    ${xmlElement('testcase', attributes, inner === '' ? undefined : `\n${inner}    `)}\n`;
}

function skippedContent(check: CheckResult, message: string): string {
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
