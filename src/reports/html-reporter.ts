import type { CheckResult, Failure, Report } from '../runner/report.js';
import { counted, oneLine, printable, requestText, responseText } from './exchange-text.js';
import { HTML_STYLE } from './html-style.js';
import { incompleteReason, isIncomplete, unjudgedCaveat } from './outcome.js';
import type { Reporter } from './reporter.js';
import { writeReportFile } from './report-file.js';

/** The file name the HTML reporter writes. */
export const HTML_REPORT_FILE = 'report.html';

const LIMITS = { maxBody: 64 * 1024 };
/** Counterexamples shown per check; report.json keeps them all. */
const MAX_FAILURES_PER_CHECK = 20;

const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** `text` escaped for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ENTITIES[char] ?? char);
}

/** Text from the report, made visible (control characters spelled out) and escaped. */
function h(text: string): string {
  return escapeHtml(printable(text));
}

function pre(text: string): string {
  return `<pre>${escapeHtml(text)}</pre>`;
}

/**
 * `report.html`: one self-contained page (inline CSS, no script, a CSP that forbids loading
 * anything) with the verdict, a summary table, and a section per check with its counterexamples.
 */
export function renderHtmlReport(report: Report): string {
  const { verdict, tone, incomplete } = verdictOf(report);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>plantstore ${report.source === 'proxy' ? 'proxy' : 'test'}: ${verdict}: ${h(report.target.baseUrl)}</title>
<style>${HTML_STYLE}</style>
</head>
<body>
<header>
<h1>plantstore ${report.source === 'proxy' ? 'proxy' : 'conformance'} report</h1>
<p class="verdict ${tone}">${verdict}</p>
${report.couldNotJudge ? `<p class="reason">${h(report.couldNotJudge.reason)}</p>` : ''}
${incomplete ? `<p class="reason">${h(incompleteReason(report))}</p>` : ''}
${runFacts(report)}
</header>
${findingsSection(report)}
${baselineSection(report)}
${summarySection(report)}
${notesSection(report)}
${report.checks.map(checkSection).join('\n')}
</body>
</html>
`;
}

/**
 * The banner: under a baseline it counts the new findings as the console's closing line does, and a run failed only
 * with known ones (exit 0, a green JUnit view) is not shown in the colour of a failed job.
 */
function verdictOf(report: Report): { verdict: string; tone: 'fail' | 'warn' | 'pass'; incomplete: boolean } {
  const failed = report.checks.some((check) => check.status === 'fail');
  const unjudged = report.verdict === 'could-not-judge';
  // Nothing failed, but nothing to stand behind either (exit 2): never the green CONFORMANT.
  const incomplete = !failed && !unjudged && isIncomplete(report);
  const fresh = report.baseline?.new.length;
  const notConformant =
    fresh === undefined ? 'NOT CONFORMANT' : `NOT CONFORMANT, ${fresh} new finding${fresh === 1 ? '' : 's'}`;
  const verdict = unjudged ? 'COULD NOT JUDGE' : failed ? notConformant : incomplete ? 'INCOMPLETE' : 'CONFORMANT';
  const tone = unjudged || (failed && fresh !== 0) ? 'fail' : failed || incomplete ? 'warn' : 'pass';
  return { verdict, tone, incomplete };
}

function runFacts(report: Report): string {
  const { summary } = report;
  // The proxy judged the traffic it saw: no seed makes it again, each failure's curl line repeats its exchange.
  const origin: [string, string][] =
    report.source === 'proxy'
      ? [
          ['Upstream', report.target.baseUrl],
          ['Traffic', "observed through plantstore proxy (each failure's curl line repeats its exchange)"],
        ]
      : [
          ['Target', `${report.target.baseUrl}${report.target.embedded ? ' (embedded reference)' : ''}`],
          ['Seed', `${report.seed} (replay: plantstore test --seed ${report.seed})`],
        ];
  const facts: [string, string][] = [
    ...origin,
    ['Started', report.startedAt],
    ['Duration', `${(summary.durationMs / 1000).toFixed(1)} s`],
    [report.source === 'proxy' ? 'Exchanges' : 'Cases', String(summary.cases)],
    ['Checks', checkCounts(report.checks)],
    ['Tool', `${report.tool.name} ${report.tool.version}`],
  ];
  return `<dl class="run">${facts.map(([term, value]) => `<dt>${term}</dt><dd>${h(value)}</dd>`).join('')}</dl>`;
}

function checkCounts(checks: readonly CheckResult[]): string {
  const count = (status: CheckResult['status']): number => checks.filter((check) => check.status === status).length;
  return `${count('fail')} failed, ${count('warn')} warned, ${count('pass')} passed, ${count('skip')} skipped`;
}

function summarySection(report: Report): string {
  const rows = report.checks.map((check, index) => {
    const first = check.failures[0]?.reason ?? check.skipReason ?? '';
    return `<tr class="${check.status}"><td><a href="#check-${index + 1}">${h(String(check.id))}</a></td><td>${h(check.title)}</td><td class="num">${check.cases}</td><td class="status">${check.status.toUpperCase()}</td><td class="first">${h(oneLine(first, 300))}</td></tr>`;
  });
  return `<section>
<h2>Summary</h2>
<div class="wide">
<table>
<thead><tr><th>Check</th><th>Title</th><th>Cases</th><th>Status</th><th>First counterexample</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>
</div>
</section>`;
}

/** One section per root cause, before the checks: title, fingerprint, checks explained, smallest counterexample. */
function findingsSection(report: Report): string {
  const findings = report.findings ?? [];
  if (findings.length === 0) return '';
  const fresh = new Set(report.baseline?.new ?? []);
  const articles = findings.map((finding, index) => {
    const mark = report.baseline ? (fresh.has(finding.fingerprint) ? ' <strong>new</strong>' : ' (known)') : '';
    return `<section class="finding fail" id="finding-${index + 1}">
<h3>F${index + 1} ${h(finding.title)}${mark}</h3>
<p>Fingerprint <code>${h(finding.fingerprint)}</code>; explains ${finding.checks.map((id) => h(id)).join(', ')}.</p>
${failureArticle(finding.counterexample, 1, 1)}
</section>`;
  });
  const caveat = unjudgedCaveat(report);
  const note = caveat === undefined ? '' : `<p class="reason">${h(caveat)}</p>\n`;
  return `<section>\n<h2>Findings: ${findings.length}, one per root cause</h2>\n${note}${articles.join('\n')}\n</section>`;
}

/** With `--baseline`: which findings are new, known, and no longer seen. */
function baselineSection(report: Report): string {
  const { baseline } = report;
  if (!baseline) return '';
  const fixed = baseline.fixed.map((entry) => `<li><code>${h(entry.fingerprint)}</code> ${h(entry.title)}</li>`);
  const unjudged = (baseline.unjudged ?? []).map(
    (entry) => `<li><code>${h(entry.fingerprint)}</code> ${h(entry.title)}</li>`,
  );
  const notJudged = unjudged.length
    ? `<p>${unjudged.length} not judged: the checks that found them judged nothing in this run, so keep them.</p><ul>${unjudged.join('')}</ul>`
    : '';
  const renamed = (baseline.renamed ?? []).map(
    (entry) =>
      `<li><code>${h(entry.fingerprint)}</code>, now <code>${entry.current.map((print) => h(print)).join('</code>, <code>')}</code></li>`,
  );
  const older = renamed.length
    ? `<p>${renamed.length} known under a fingerprint an older plantstore wrote (the same defect, worded otherwise): writing the baseline again records the current one.</p><ul>${renamed.join('')}</ul>`
    : '';
  return `<section><h2>Baseline ${h(baseline.file)}</h2>
<p>${baseline.new.length} new, ${baseline.known.length} known and still seen, ${baseline.fixed.length} no longer seen.</p>
${fixed.length ? `<ul>${fixed.join('')}</ul>` : ''}${notJudged}${older}
</section>`;
}

function notesSection(report: Report): string {
  if (report.notes.length === 0) return '';
  return `<section><h2>Notes on the run</h2><ul>${report.notes.map((note) => `<li>${h(note)}</li>`).join('')}</ul></section>`;
}

function checkSection(check: CheckResult, index: number): string {
  const shown = check.failures.slice(0, MAX_FAILURES_PER_CHECK);
  const hidden = check.failures.length - shown.length;
  const lines = [
    `<section class="check ${check.status}" id="check-${index + 1}">`,
    `<h2><span class="status">${check.status.toUpperCase()}</span> ${h(String(check.id))}: ${h(check.title)}</h2>`,
    `<p class="rule">${h(check.rule)}</p>`,
    `<p>${counted(check.cases, 'case')} judged.</p>`,
  ];
  if (check.skipReason !== undefined) lines.push(`<p>Skipped: ${h(check.skipReason)}</p>`);
  shown.forEach((failure, i) => lines.push(failureArticle(failure, i + 1, check.failures.length)));
  if (hidden > 0) lines.push(`<p>${hidden} more counterexamples are in report.json.</p>`);
  lines.push('</section>');
  return lines.join('\n');
}

function failureArticle(failure: Failure, number: number, total: number): string {
  const steps = failure.shrinkSteps === 1 ? '1 shrink step' : `${failure.shrinkSteps} shrink steps`;
  return `<article class="failure">
<h3>Counterexample ${number} of ${total} <small>(after ${steps})</small></h3>
<p class="reason">${escapeHtml(printable(failure.reason, { keepLines: true }))}</p>
<h4>Request</h4>
${pre(requestText(failure.request, LIMITS))}
<h4>Response</h4>
${pre(responseText(failure.response, LIMITS))}
<h4>curl</h4>
${pre(printable(failure.curl, { keepLines: true }))}
<h4>Replay</h4>
${pre(printable(failure.replay))}${candidatesHtml(failure)}
</article>`;
}

/** The requests a target that went away had in flight: any may be the cause, each a curl line and a replay. */
function candidatesHtml(failure: Failure): string {
  return (failure.candidates ?? [])
    .map(
      (candidate, index) => `
<h4>Candidate ${index + 1}</h4>
${pre(printable(candidate.curl, { keepLines: true }))}
${pre(printable(candidate.replay))}`,
    )
    .join('');
}

/** The HTML reporter: writes `report.html` into `outDir` when the run ends. */
export function createHtmlReporter(options: { readonly outDir: string }): Reporter {
  return {
    name: 'html',
    file: HTML_REPORT_FILE,
    onRunEnd: (report) => writeReportFile(options.outDir, HTML_REPORT_FILE, renderHtmlReport(report)),
  };
}
