import type { CheckResult, Report } from '../runner/report.js';
import {
  baselineSection,
  checkLine,
  closingLine,
  couldNotJudgeSection,
  failureDetails,
  findingsSection,
  openingLine,
  summaryTable,
} from './console-format.js';
import { oneLine, printable } from './exchange-text.js';
import type { CaseProgress, Reporter, RunStart, TextSink } from './reporter.js';
import { CLEAR_LINE, paint, terminalMode, type TerminalMode } from './terminal.js';

/** Options of the console reporter. */
export interface ConsoleReporterOptions {
  readonly stdout: TextSink;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Clock in ms, for throttling the progress line; tests pass their own. */
  readonly now?: () => number;
}

/** Redraws of the live line are at least this far apart. */
const LIVE_INTERVAL_MS = 100;
/** In CI logs, a progress line at most this often, so a long run shows it is alive without flooding. */
const PLAIN_INTERVAL_MS = 10_000;

/**
 * The console reporter: the seed first, a live progress line on a terminal (plain lines in CI or a
 * pipe), then a summary table, every failure with its request, response, curl and replay, and the
 * verdict with the seed last.
 */
export function createConsoleReporter(options: ConsoleReporterOptions): Reporter {
  const mode = terminalMode(options.stdout, options.env);
  const now = options.now ?? Date.now;
  const out = options.stdout;
  let started = false;
  let lastProgressAt = Number.NEGATIVE_INFINITY;
  let progressShown = false;
  let lastProgress: CaseProgress | undefined;

  const clearProgress = (): void => {
    if (progressShown) out.write(CLEAR_LINE);
    progressShown = false;
  };
  const drawProgress = (progress: CaseProgress): void => {
    out.write(`${CLEAR_LINE}${progressText(progress, mode)}`);
    progressShown = true;
  };

  return {
    name: 'console',
    onRunStart(run: RunStart) {
      started = true;
      lastProgressAt = now();
      out.write(openingLine(run));
    },
    onCaseDone(progress: CaseProgress) {
      lastProgress = progress;
      const interval = mode.live ? LIVE_INTERVAL_MS : PLAIN_INTERVAL_MS;
      const finished = progress.done >= progress.planned;
      if (now() - lastProgressAt < interval && !(mode.live && finished)) return;
      lastProgressAt = now();
      if (mode.live) drawProgress(progress);
      else out.write(`${progressText(progress, mode)}\n`);
    },
    onCheckDone(check: CheckResult) {
      if (!mode.live) return void out.write(checkLine(check, mode));
      clearProgress();
      out.write(checkLine(check, mode));
      if (lastProgress) drawProgress(lastProgress);
    },
    onRunEnd(report: Report, written: readonly string[]) {
      clearProgress();
      if (!started)
        out.write(openingLine({ target: report.target, seed: report.seed, plannedCases: report.summary.cases }));
      if (report.couldNotJudge) {
        // Nothing the checks say about this URL is about the contract: the reason alone.
        out.write(couldNotJudgeSection(report, mode));
      } else {
        out.write(`\n${summaryTable(report, mode)}`);
        out.write(findingsSection(report, mode));
        out.write(baselineSection(report, mode));
        out.write(failureDetails(report, mode));
      }
      for (const note of report.notes) out.write(`${paint(mode, 'yellow', 'note')}: ${oneLine(note, 400)}\n`);
      if (written.length > 0) out.write(`\nReports: ${written.map((file) => printable(file)).join(', ')}\n`);
      out.write(`\n${closingLine(report, mode)}`);
    },
  };
}

function progressText(progress: CaseProgress, mode: TerminalMode): string {
  const percent =
    progress.planned > 0 ? Math.floor((100 * Math.min(progress.done, progress.planned)) / progress.planned) : 100;
  const failed = progress.failed > 0 ? paint(mode, 'red', `, ${progress.failed} failing`) : '';
  const phase = progress.phase === 'shrink' ? ', shrinking a counterexample' : '';
  return `  ${progress.done}/${progress.planned} cases (${percent}%)${failed}${phase}`;
}
