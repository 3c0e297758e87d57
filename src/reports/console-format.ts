/** The console reporter's text: opening and closing lines, the summary table, failure details. */
import type { CheckResult, CheckStatus, Failure, Report } from '../runner/report.js';
import { isIncomplete } from './outcome.js';
import { counted, oneLine, printable, requestText, responseText, truncate } from './exchange-text.js';
import type { RunStart } from './reporter.js';
import { paint, type Style, type TerminalMode } from './terminal.js';

const STATUS_STYLE: Record<CheckStatus, Style> = { pass: 'green', fail: 'red', warn: 'yellow', skip: 'dim' };
const BODY_LIMIT = { maxBody: 400 };
const MAX_LINES_PER_BLOCK = 30;
const MAX_CURL_LENGTH = 4_000;
/** Counterexamples printed per check; the rest are in the report files. */
export const MAX_FAILURES_SHOWN = 3;

/** The first line of a run: the seed, then what is tested. */
export function openingLine(run: RunStart): string {
  const target = `${printable(run.target.baseUrl)}${run.target.embedded ? ' (embedded reference)' : ''}`;
  return `plantstore test: seed ${run.seed}, target ${target}, ${counted(run.plannedCases, 'case')} planned\n`;
}

/** One line as a check's verdict becomes final (plain mode's running log). */
export function checkLine(check: CheckResult, mode: TerminalMode): string {
  const note = check.status === 'skip' ? ` (${oneLine(check.skipReason ?? 'no reason given', 80)})` : '';
  return `${statusLabel(check.status, mode)} ${printable(String(check.id))}: ${counted(check.cases, 'case')}${note}\n`;
}

/** The summary table: check, cases, status, first counterexample (or skip reason) on one line. */
export function summaryTable(report: Report, mode: TerminalMode): string {
  const idWidth = Math.max(5, ...report.checks.map((check) => printable(String(check.id)).length));
  const casesWidth = Math.max(5, ...report.checks.map((check) => String(check.cases).length));
  // check, two spaces, cases, two spaces, status (4) and four spaces, then the counterexample.
  const lastWidth = Math.max(30, mode.width - idWidth - casesWidth - 12 - 1);
  const header = `${'check'.padEnd(idWidth)}  ${'cases'.padStart(casesWidth)}  status  first counterexample`;
  const rows = report.checks.map((check) => {
    const first = check.failures[0]?.reason ?? check.skipReason ?? '';
    const id = printable(String(check.id)).padEnd(idWidth);
    return `${id}  ${String(check.cases).padStart(casesWidth)}  ${statusLabel(check.status, mode)}    ${oneLine(first, lastWidth)}`.trimEnd();
  });
  return [paint(mode, 'bold', header), ...rows].join('\n') + '\n';
}

/** The findings, one per root cause: fingerprint, title, the checks it explains, its smallest counterexample. */
export function findingsSection(report: Report, mode: TerminalMode): string {
  const findings = report.findings ?? [];
  if (findings.length === 0) return '';
  const fresh = new Set(report.baseline?.new ?? []);
  const lines = ['', paint(mode, 'bold', `Findings (${findings.length}, one per root cause):`)];
  findings.forEach((finding, index) => {
    const mark = report.baseline ? (fresh.has(finding.fingerprint) ? ' [NEW]' : ' [known]') : '';
    lines.push(
      `${paint(mode, 'red', `F${index + 1}`)} ${printable(finding.fingerprint)}${mark}: ${oneLine(finding.title, 200)}`,
      `  explains: ${finding.checks.map((id) => printable(id)).join(', ')}`,
      ...failureLines(finding.counterexample, 1).slice(1),
    );
  });
  return lines.join('\n') + '\n';
}

/** With `--baseline`: the findings it knows that still occur, and those this run did not see. */
export function baselineSection(report: Report, mode: TerminalMode): string {
  const { baseline } = report;
  if (!baseline) return '';
  const unjudged = baseline.unjudged ?? [];
  const lines = [
    '',
    paint(mode, 'bold', `Baseline ${printable(baseline.file)}:`),
    `  new: ${baseline.new.length}, known and still seen: ${baseline.known.length}, no longer seen: ${baseline.fixed.length}${unjudged.length > 0 ? `, not judged: ${unjudged.length}` : ''}`,
    ...baseline.fixed.map((entry) => `  no longer seen: ${printable(entry.fingerprint)} ${oneLine(entry.title, 200)}`),
    ...unjudged.map(
      (entry) =>
        `  not judged (its checks judged nothing in this run; keep it): ${printable(entry.fingerprint)} ${oneLine(entry.title, 200)}`,
    ),
    ...(baseline.renamed ?? []).map(
      (entry) =>
        `  known under a fingerprint an older plantstore wrote: ${printable(entry.fingerprint)}, now ${entry.current.map((print) => printable(print)).join(', ')} (--write-baseline records it)`,
    ),
  ];
  return lines.join('\n') + '\n';
}

/** Why the run could not judge the target, and the probable fix: the one thing to read. */
export function couldNotJudgeSection(report: Report, mode: TerminalMode): string {
  if (!report.couldNotJudge) return '';
  return `\n${paint(mode, 'yellow', 'COULD NOT JUDGE')}: ${oneLine(report.couldNotJudge.reason, 600)}\n`;
}

/** Every failed or warned check with its counterexamples: reason, request, response, curl, replay. */
export function failureDetails(report: Report, mode: TerminalMode): string {
  const shown = report.checks.filter(
    (check) => check.status === 'fail' || (check.status === 'warn' && check.failures.length > 0),
  );
  return shown.map((check) => checkDetails(check, mode)).join('');
}

function checkDetails(check: CheckResult, mode: TerminalMode): string {
  const heading = `${statusLabel(check.status, mode)} ${paint(mode, 'bold', printable(String(check.id)))}: ${oneLine(check.title, 100)}`;
  const lines = ['', heading, `  rule: ${oneLine(check.rule, 600)}`];
  check.failures
    .slice(0, MAX_FAILURES_SHOWN)
    .forEach((failure, index) => lines.push(...failureLines(failure, index + 1)));
  const hidden = check.failures.length - MAX_FAILURES_SHOWN;
  if (hidden > 0)
    lines.push(`  (${hidden} more counterexample${hidden === 1 ? '' : 's'} in report.json and report.html)`);
  return lines.join('\n') + '\n';
}

// Continuation lines start with "|" so no text from a target can begin a line of a CI log
// (GitHub Actions reads "::command::" at the start of a line).
function failureLines(failure: Failure, index: number): string[] {
  // A failure folded into another's root cause is that finding's counterexample: its id is the one the findings,
  // report.json and a baseline list.
  const owner = failure.foldedInto ?? failure.fingerprint;
  const finding = owner === undefined ? '' : ` [finding ${owner}]`;
  return [
    `  ${index}) ${oneLine(failure.reason, 400)}${finding}`,
    ...block('request ', requestText(failure.request, BODY_LIMIT)),
    ...block('response', responseText(failure.response, BODY_LIMIT)),
    ...block('curl    ', printable(failure.curl.split('\n').map(shortCurl).join('\n'), { keepLines: true })),
    ...block('replay  ', printable(failure.replay)),
    ...candidateLines(failure),
  ];
}

/** The requests a target that went away had in flight, each a curl line and a replay: any may be the cause. */
function candidateLines(failure: Failure): string[] {
  return (failure.candidates ?? []).flatMap((candidate, index) => [
    ...block(
      `curl ${index + 1}  `,
      printable(candidate.curl.split('\n').map(shortCurl).join('\n'), { keepLines: true }),
    ),
    ...block(`replay ${index + 1}`, printable(candidate.replay)),
  ]);
}

/** A command too long for a log line (e.g. a deeply nested body) is cut; the report files have it whole. */
function shortCurl(command: string): string {
  if (command.length <= MAX_CURL_LENGTH) return command;
  return `${truncate(command, 200)} — ${command.length.toLocaleString('en')} characters in all: copy it from report.json or report.html`;
}

function block(label: string, text: string): string[] {
  const lines = text.split('\n');
  const kept = lines.slice(0, MAX_LINES_PER_BLOCK);
  if (lines.length > kept.length) kept.push(`… (${lines.length - kept.length} more lines in report.html)`);
  return kept.map((line, index) => `     ${index === 0 ? label : ' '.repeat(label.length)} | ${line}`.trimEnd());
}

/** The closing line: the verdict, the counts and the seed to replay the run. */
export function closingLine(report: Report, mode: TerminalMode): string {
  const counts = tally(report.checks);
  const failed = counts.fail > 0;
  const incomplete = !failed && isIncomplete(report);
  const fresh = report.baseline?.new.length;
  const verdict =
    report.verdict === 'could-not-judge'
      ? paint(mode, 'yellow', `COULD NOT JUDGE (${report.couldNotJudge?.code ?? 'see above'})`)
      : failed
        ? paint(
            mode,
            'red',
            fresh === undefined ? 'NOT CONFORMANT' : `NOT CONFORMANT, ${fresh} new finding${fresh === 1 ? '' : 's'}`,
          )
        : incomplete
          ? paint(mode, 'yellow', 'INCOMPLETE (no verdict, see the notes)')
          : paint(mode, 'green', 'CONFORMANT');
  const seconds = (report.summary.durationMs / 1000).toFixed(1);
  const parts = `${counts.fail} failed, ${counts.warn} warned, ${counts.pass} passed, ${counts.skip} skipped`;
  return `${verdict}: ${parts} of ${counted(report.checks.length, 'check')}; ${counted(report.summary.cases, 'case')} in ${seconds} s; seed ${report.seed} (replay with --seed ${report.seed})\n`;
}

function tally(checks: readonly CheckResult[]): Record<CheckStatus, number> {
  const counts: Record<CheckStatus, number> = { pass: 0, fail: 0, warn: 0, skip: 0 };
  for (const check of checks) counts[check.status] += 1;
  return counts;
}

function statusLabel(status: CheckStatus, mode: TerminalMode): string {
  return paint(mode, STATUS_STYLE[status], status.toUpperCase());
}
