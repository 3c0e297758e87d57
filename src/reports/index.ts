/**
 * Reporters for `plantstore test`: `console`, `json` (report.json), `junit` (junit.xml) and `html`
 * (report.html), behind one interface of optional hooks and a name→reporter registry. Everything a
 * reporter receives is redacted of the secrets it is given, and so is everything the console prints.
 */
import type { CheckResult, Report } from '../runner/report.js';
import { createConsoleReporter } from './console-reporter.js';
import { createHtmlReporter } from './html-reporter.js';
import { createJsonReporter } from './json-reporter.js';
import { createJunitReporter } from './junit-reporter.js';
import { redact, redactValue, secretSet, type SecretSet } from '../contract/secrets.js';
import type { CaseProgress, Reporter, RunEvent, RunStart, TextSink } from './reporter.js';

export type { CaseProgress, Reporter, RunEvent, RunStart, TextSink } from './reporter.js';
export { redact, redactValue, REDACTED } from '../contract/secrets.js';
export { renderJsonReport, JSON_REPORT_FILE } from './json-reporter.js';
export { renderJunitReport, JUNIT_REPORT_FILE } from './junit-reporter.js';
export { renderHtmlReport, HTML_REPORT_FILE } from './html-reporter.js';

/** What reporters are built from. */
export interface ReporterOptions {
  /** Directory the file reporters write into (created if missing). */
  readonly outDir: string;
  /** Where the console reporter writes; required when `console` is selected. */
  readonly stdout?: TextSink | undefined;
  /** Where a reporter that could not finish says so (a report file that could not be written). */
  readonly stderr?: TextSink | undefined;
  /** Decides colour and live progress (`CI`, `NO_COLOR`, `TERM`); defaults to no variables. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Strings that must never appear in any output (the bearer tokens of the run). */
  readonly secrets?: readonly string[] | undefined;
  /** Clock in ms for progress throttling; tests pass their own. */
  readonly now?: (() => number) | undefined;
}

type ReporterFactory = (options: ReporterOptions & { readonly stdout: TextSink }) => Reporter;

/** Every built-in reporter by name. */
export const REPORTERS = {
  console: (options) => createConsoleReporter({ ...options, env: options.env ?? {} }),
  json: createJsonReporter,
  junit: createJunitReporter,
  html: createHtmlReporter,
} satisfies Record<string, ReporterFactory>;

/** The name of a built-in reporter. */
export type ReporterName = keyof typeof REPORTERS;

/** Every reporter name, and the default selection of `plantstore test`. */
export const REPORTER_NAMES: readonly ReporterName[] = ['console', 'json', 'junit', 'html'];

/** True when `name` names a built-in reporter. */
export function isReporterName(name: string): name is ReporterName {
  return (REPORTER_NAMES as readonly string[]).includes(name);
}

/** Thrown by `createReporters` for a name that is not a reporter; the message lists the names. */
export class UnknownReporterError extends Error {
  override readonly name = 'UnknownReporterError';
}

/** What the run's end produced: the files written and the reporters that failed (already told to stderr). */
export interface ReportOutcome {
  readonly files: readonly string[];
  readonly errors: readonly { readonly reporter: string; readonly error: unknown }[];
}

/**
 * The selected reporters behind one reporter: pass it as `runConformance({ reporters: [group] })`.
 * Each hook redacts the secrets first, and no hook throws: a reporter that fails is recorded.
 */
export interface ReporterGroup extends Reporter {
  readonly reporters: readonly Reporter[];
  onRunStart(run: RunStart): void;
  onCaseDone(progress: CaseProgress): void;
  onCheckDone(check: CheckResult): void;
  /** The three hooks above as one listener, for `runConformance({ onProgress })`. */
  onProgress(event: RunEvent): void;
  /** Runs every reporter's `onRunEnd` (files first, console last); never rejects. */
  onRunEnd(report: Report): Promise<ReportOutcome>;
  /** The files written and the reporters that failed so far. */
  outcome(): ReportOutcome;
}

/**
 * Builds the named reporters (duplicates ignored). Throws `UnknownReporterError` for an unknown
 * name, or a plain Error when `console` is selected without `stdout`.
 */
export function createReporters(names: readonly string[], options: ReporterOptions): ReporterGroup {
  const unknown = names.filter((name) => !isReporterName(name));
  if (unknown.length > 0) {
    throw new UnknownReporterError(
      `unknown reporter "${unknown.join('", "')}"; the reporters are ${REPORTER_NAMES.join(', ')}`,
    );
  }
  const secrets = secretSet(options.secrets ?? []);
  const stdout = options.stdout === undefined ? undefined : redactingSink(options.stdout, secrets);
  const stderr = options.stderr === undefined ? undefined : redactingSink(options.stderr, secrets);
  const reporters = [...new Set(names as readonly ReporterName[])].map((name) => {
    if (name === 'console' && stdout === undefined) throw new Error('the console reporter needs a stdout to write to');
    return REPORTERS[name]({ ...options, stdout: stdout ?? { write: () => true } });
  });
  return groupOf(reporters, secrets, stderr);
}

function groupOf(reporters: readonly Reporter[], secrets: SecretSet, stderr: TextSink | undefined): ReporterGroup {
  const errors: { reporter: string; error: unknown }[] = [];
  const safely = (reporter: Reporter, call: () => unknown): void => {
    try {
      call();
    } catch (error) {
      errors.push({ reporter: reporter.name, error });
    }
  };
  const files: string[] = [];
  const group: ReporterGroup = {
    name: 'reporters',
    reporters,
    outcome: () => ({ files: [...files], errors: [...errors] }),
    onProgress: (event) => {
      if (event.kind === 'run-start') group.onRunStart(event);
      else if (event.kind === 'case') group.onCaseDone(event);
      else group.onCheckDone(event.check);
    },
    onRunStart: (run) => {
      const clean = redactValue(run, secrets);
      for (const r of reporters) safely(r, () => r.onRunStart?.(clean));
    },
    onCaseDone: (progress) => {
      for (const r of reporters) safely(r, () => r.onCaseDone?.(progress));
    },
    onCheckDone: (check) => {
      const clean = redactValue(check, secrets);
      for (const r of reporters) safely(r, () => r.onCheckDone?.(clean));
    },
    onRunEnd: async (report) => {
      const clean = redactValue(report, secrets);
      const ordered = [
        ...reporters.filter((r) => r.file !== undefined),
        ...reporters.filter((r) => r.file === undefined),
      ];
      for (const reporter of ordered) {
        try {
          const written = await reporter.onRunEnd?.(clean, files);
          if (typeof written === 'string') files.push(written);
        } catch (error) {
          errors.push({ reporter: reporter.name, error });
        }
      }
      for (const { reporter, error } of errors)
        stderr?.write(`plantstore: the ${reporter} reporter failed: ${describe(error)}\n`);
      return { files, errors: [...errors] };
    },
  };
  return group;
}

function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}

/** A sink whose every write is redacted; it keeps the TTY facts of the one it wraps. */
function redactingSink(sink: TextSink, secrets: SecretSet): TextSink {
  return {
    write: (text: string) => sink.write(redact(text, secrets)),
    get isTTY() {
      return sink.isTTY;
    },
    get columns() {
      return sink.columns;
    },
  };
}

/** Options of `writeReports`. */
export interface WriteReportsOptions extends ReporterOptions {
  /** Which reporters render the report (default: json, junit and html, the files). */
  readonly reporters?: readonly string[] | undefined;
}

/**
 * Renders a finished report in one go (for code that called `runConformance` itself), redacting
 * `secrets` first. Resolves to the files written and any reporter that failed.
 */
export async function writeReports(report: Report, options: WriteReportsOptions): Promise<ReportOutcome> {
  const group = createReporters(options.reporters ?? ['json', 'junit', 'html'], options);
  return group.onRunEnd(report);
}
