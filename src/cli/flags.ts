import { shellWord } from '../contract/openapi-version.js';
import type { Reporter } from '../runner/events.js';
import { renderOptionNames } from '../runner/option-text.js';
import type { OptionName } from '../runner/options.js';
import type { CheckResult, Failure, Report } from '../runner/report.js';

/** How `plantstore test` spells each option the runner's messages name. */
const FLAGS: Readonly<Record<OptionName, string>> = {
  baseUrl: '--base-url',
  token: 'PLANTSTORE_TOKEN, --token-file or --token',
  seed: '--seed',
  runs: '--runs',
  concurrency: '--concurrency',
  timeoutMs: '--timeout',
  budgetMs: '--budget',
  checks: '--check',
  skipChecks: '--skip-check',
  spec: '--spec',
  replay: '--replay',
  maxBodyBytes: 'maxBodyBytes',
};

/** A runner message (notes, skip reasons, errors) with each option it names shown as its flag. */
export function withFlags(text: string): string {
  return renderOptionNames(text, (option) => FLAGS[option]);
}

/**
 * A reporter that hands `reporter` the run in flags: options named as flags, replays as commands;
 * `complete` adds what the CLI knows to the final report (e.g. the baseline comparison).
 */
export function flagSpeaking(reporter: Reporter, complete: (report: Report) => Report = (report) => report): Reporter {
  return {
    name: reporter.name,
    ...(reporter.file === undefined ? {} : { file: reporter.file }),
    onRunStart: (run) => reporter.onRunStart?.(run),
    onCaseDone: (progress) => reporter.onCaseDone?.(progress),
    onCheckDone: (check) => reporter.onCheckDone?.(checkInFlags(check)),
    onRunEnd: (report, written) => reporter.onRunEnd?.(reportInFlags(complete(report)), written),
  };
}

/** The report as `plantstore test` writes it. */
export function reportInFlags(report: Report): Report {
  return {
    ...report,
    checks: report.checks.map(checkInFlags),
    notes: report.notes.map(withFlags),
    ...(report.noteDetails && {
      noteDetails: report.noteDetails.map((note) => ({ ...note, message: withFlags(note.message) })),
    }),
    ...(report.couldNotJudge && {
      couldNotJudge: { ...report.couldNotJudge, reason: withFlags(report.couldNotJudge.reason) },
    }),
    ...(report.findings && {
      findings: report.findings.map((finding) => ({
        ...finding,
        counterexample: failureInFlags(finding.counterexample),
      })),
    }),
  };
}

function checkInFlags(check: CheckResult): CheckResult {
  return {
    ...check,
    failures: check.failures.map(failureInFlags),
    ...(check.skipReason === undefined ? {} : { skipReason: withFlags(check.skipReason) }),
  };
}

function failureInFlags(failure: Failure): Failure {
  const { rerun } = failure;
  if (!rerun) return failure;
  const where = rerun.baseUrl === undefined ? '' : ` --base-url ${rerun.baseUrl}`;
  const document = rerun.spec === undefined ? '' : ` --spec ${shellWord(rerun.spec)}`;
  return {
    ...failure,
    replay: `plantstore test --seed ${rerun.seed} --runs ${rerun.runs}${where}${document} --replay ${rerun.replay}`,
  };
}
