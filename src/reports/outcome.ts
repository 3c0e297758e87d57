import type { Report } from '../runner/report.js';

/**
 * The exit code a report means: 1 at least one check failed; 2 no verdict to stand behind (no check
 * judged anything, e.g. every answer was 429/503, or planned cases were left unsent); 0 conformant.
 */
export function reportExitCode(report: Report): 0 | 1 | 2 {
  if (report.checks.some((check) => check.status === 'fail')) return 1;
  if (isIncomplete(report)) return 2;
  return 0;
}

/** No failure, but no verdict either: nothing was judged, or the run ended before every case was sent. */
export function isIncomplete(report: Report): boolean {
  const judged = report.checks.some((check) => check.status !== 'skip');
  return !judged || (report.summary.unsent ?? 0) > 0;
}
