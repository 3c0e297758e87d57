import type { Report } from '../runner/report.js';

/**
 * The exit code a report means: 2 when the URL is not a Plant Store (`could-not-judge`) or there is
 * no verdict to stand behind (nothing judged, planned cases unsent); 1 when a check failed (under a
 * baseline: only when a finding is new); 0 conformant, or nothing new against the baseline.
 */
export function reportExitCode(report: Report): 0 | 1 | 2 {
  if (report.verdict === 'could-not-judge') return 2;
  if (report.checks.some((check) => check.status === 'fail')) {
    return report.baseline && report.baseline.new.length === 0 ? 0 : 1;
  }
  if (isIncomplete(report)) return 2;
  return 0;
}

/**
 * No failure, but no verdict either: nothing was judged, the run ended before every case was sent, or too many
 * answers were throttled (the runner's verdict `incomplete`; a report without a verdict is read from its counts).
 */
export function isIncomplete(report: Report): boolean {
  if (report.verdict !== undefined) return report.verdict === 'incomplete';
  const judged = report.checks.some((check) => check.status !== 'skip');
  return !judged || (report.summary.unsent ?? 0) > 0;
}

/** Why an incomplete run has no verdict, in one sentence for a report's reader. */
export function incompleteReason(report: Report): string {
  const { unsent = 0, throttled = 0 } = report.summary;
  const judged = report.checks.some((check) => check.status !== 'skip');
  if (unsent > 0)
    return `No verdict: nothing failed, but ${unsent} planned cases were not sent or not judged (exit 2); the notes say why.`;
  if (judged && throttled > 0)
    return `No verdict: nothing failed, but ${throttled} answers were still 429 or 503 after the waits, more than a tenth of the cases (exit 2); the notes say why.`;
  return 'No verdict: no check judged anything (exit 2); the notes say why.';
}

/**
 * Above the findings of a run that could not judge the target: they may be the setup's doing (a refused
 * token's 401s, a wrong base path's 404s): `setupsDoing`, as the runner decided it. Not for `ids-taken` or
 * `no-answer`, whose failures stand.
 */
export function unjudgedCaveat(report: Report): string | undefined {
  const unjudged = report.couldNotJudge;
  if (unjudged?.setupsDoing !== true) return undefined;
  return `The run could not judge the target (${unjudged.code}): what its answers showed below may be the setup's doing, not the target's; fix the cause named above and run again.`;
}
