import { readFile, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { redact } from '../contract/secrets.js';
import { ConformanceOptionsError, TargetUnreachableError } from '../runner/errors.js';
import { WHOLE_NUMBER_OPTIONS, type ConformanceOptions } from '../runner/options.js';
import type { Report } from '../runner/report.js';
import type { Baseline } from '../reports/baseline.js';
import { reportExitCode } from '../reports/outcome.js';
import { makeDirectory } from '../reports/report-file.js';
import { EXIT, UsageError } from './cli-errors.js';
import { ensureWritableDirectory, removeEarlierReports, whyNotWritable } from './out-directory.js';
import type { CliCommand, CliIo, IntegerRange, OptionValues } from './command.js';
import { integerOption, listOption, stringOption, tokenOptions } from './cli-options.js';
import { flagSpeaking, withFlags } from './flags.js';

/** The whole-number options of `plantstore test` and their bounds: those `runConformance` takes. */
const INTEGER_OPTIONS = {
  seed: WHOLE_NUMBER_OPTIONS.seed,
  runs: WHOLE_NUMBER_OPTIONS.runs,
  concurrency: WHOLE_NUMBER_OPTIONS.concurrency,
  timeout: WHOLE_NUMBER_OPTIONS.timeoutMs,
  budget: WHOLE_NUMBER_OPTIONS.budgetMs,
} as const satisfies Record<string, IntegerRange>;

/** `plantstore test`: the conformance suites against a target (the embedded reference by default). */
export const testCommand: CliCommand = {
  name: 'test',
  summary: 'Judge a Plant Store implementation against the contract (property-based)',
  help: `Usage: plantstore test [options]

Runs the conformance suites against a Plant Store implementation and writes reports. Without
--base-url it starts the reference implementation in-process and tests that.

Options:
  --base-url <url>     The implementation to test, e.g. https://staging.example.com/api
  --token <t>          Its bearer token. Prefer PLANTSTORE_TOKEN or --token-file: command
                       lines show up in process lists and CI logs.
  --token-file <f>     Read the token from this file (first line)
  --seed <n>           Seed of the generated cases (printed on every run; same seed, same cases)
  --runs <n>           Cases per probe (default 100)
  --concurrency <n>    Requests in flight (default 16)
  --timeout <ms>       Per-request timeout (default 10000)
  --budget <ms>        Deadline of the whole run, shrinking included (default 60000 or 6 timeouts)
  --out <dir>          Where reports go (default reports/)
  --reporter <name>    console, json, junit or html (repeatable; default all four)
  --check <id>         Run only this check (repeatable)
  --skip-check <id>    Skip this check (repeatable)
  --replay <r>         Run one recorded case again (the replay string printed with a failure)
  --spec <file>        OpenAPI document of the contract (default: the package's openapi.yaml)
  --write-baseline <f> Write this run's findings (fingerprints and titles) to a baseline file
  --baseline <f>       Fail only on findings this baseline file does not list; the reports
                       list the known findings still seen and those no longer seen
  -h, --help           Show this help

Environment:
  PLANTSTORE_TOKEN     The bearer token, when neither --token nor --token-file is given

Exit codes: 0 conformant, 1 a check failed, 2 could not judge (usage, invalid spec, unreachable
target, a URL that does not answer like a Plant Store: the one-line reason names the fix, such as
the base path, port or scheme; or an incomplete run). With --baseline: 0 no new finding, 1 a
finding the baseline does not list.`,
  options: {
    'base-url': { type: 'string' },
    token: { type: 'string', multiple: true },
    'token-file': { type: 'string' },
    seed: { type: 'string' },
    runs: { type: 'string' },
    concurrency: { type: 'string' },
    timeout: { type: 'string' },
    budget: { type: 'string' },
    out: { type: 'string' },
    reporter: { type: 'string', multiple: true },
    check: { type: 'string', multiple: true },
    'skip-check': { type: 'string', multiple: true },
    replay: { type: 'string' },
    spec: { type: 'string' },
    baseline: { type: 'string' },
    'write-baseline': { type: 'string' },
  },
  allowPositionals: false,
  integerOptions: INTEGER_OPTIONS,
  async run(values, _positionals, io) {
    // Loaded only when the command runs, so --help and the other commands start fast.
    const { createReporters, isReporterName, REPORTER_NAMES } = await import('../reports/index.js');
    const { runConformance } = await import('../runner/run.js');
    const { BUILT_IN_SUITES } = await import('../../suites/index.js');
    io.commandLoaded?.();
    const options = conformanceOptions(values, io);
    const reporterNames = reporterSelection(values, isReporterName, REPORTER_NAMES);
    const outDir = resolve(io.cwd, stringOption(values, 'out') ?? 'reports');
    const reporters = createReporters(reporterNames, {
      outDir,
      stdout: io.stdout,
      stderr: io.stderr,
      env: io.env,
      secrets: options.token === undefined ? [] : [options.token],
    });
    // Found out now, not after a whole run whose reports then have nowhere to go.
    const reportFiles = reporters.reporters.flatMap((reporter) => reporter.file ?? []);
    if (reportFiles.length > 0) ensureWritableDirectory(outDir);
    if (options.baseUrl !== undefined) warnAboutPlainHttp(options.baseUrl, io);
    removeEarlierReports(outDir, reportFiles);
    const complete = await baselineStep(values, io);
    try {
      const report = complete(
        await runConformance({ ...options, suites: BUILT_IN_SUITES, reporters: [flagSpeaking(reporters, complete)] }),
      );
      if (!reporterNames.includes('console')) io.stdout.write(`plantstore test: seed ${report.seed}\n`);
      if (report.couldNotJudge) {
        // The reason may quote the target (a sign-in gateway's Location can echo the credential sent).
        const reason = redact(withFlags(report.couldNotJudge.reason), options.token ?? []);
        io.stderr.write(`plantstore test: could not judge: ${reason}\n`);
      }
      await writeBaseline(values, report, io);
      // Each failed reporter has said why on stderr; a run whose reports are missing could not finish.
      return reporters.outcome().errors.length > 0 ? EXIT.cannotRun : reportExitCode(report);
    } catch (error) {
      if (error instanceof TargetUnreachableError) {
        throw new UsageError(`${withFlags(error.message)}${proxyHint(error.transportError, io.env)}`);
      }
      if (error instanceof ConformanceOptionsError) throw new UsageError(withFlags(error.message));
      throw error;
    }
  },
};

const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'ALL_PROXY', 'all_proxy'];

/**
 * A target that could not be resolved or connected to, in an environment that names a proxy (a CI runner
 * behind a corporate proxy): say that plantstore connects directly, so the user looks there first.
 */
function proxyHint(transportError: string, env: CliIo['env']): string {
  const variable = PROXY_VARIABLES.find((name) => (env[name] ?? '') !== '');
  if (variable === undefined || !['host-not-found', 'connect-timeout', 'connection-refused'].includes(transportError))
    return '';
  return ` ${variable} is set: plantstore connects to the target directly, never through a proxy of the environment (it judges the target's own answers, and a proxy may rewrite them), so run it where the target can be reached directly.`;
}

/** Reads `--baseline` before the run (a bad file is a usage error at once): what it adds to the report. */
async function baselineStep(values: OptionValues, io: CliIo): Promise<(report: Report) => Report> {
  const file = stringOption(values, 'baseline');
  if (file === undefined) return (report) => report;
  const { compareWithBaseline, parseBaseline } = await import('../reports/baseline.js');
  let baseline: Baseline;
  try {
    baseline = parseBaseline(await readFile(resolve(io.cwd, file), 'utf8'), file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      code === 'ENOENT'
        ? `--baseline ${file}: no such file (write one with --write-baseline ${file}).`
        : `--baseline ${file}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return (report) => ({ ...report, baseline: compareWithBaseline(report, baseline, file) });
}

/** `--write-baseline FILE`: the run's findings, unless the run could not judge the target (nothing to record). */
async function writeBaseline(values: OptionValues, report: Report, io: CliIo): Promise<void> {
  const file = stringOption(values, 'write-baseline');
  if (file === undefined) return;
  if (report.verdict === 'could-not-judge') {
    io.stderr.write(`plantstore test: --write-baseline ${file}: not written, the run could not judge the target.\n`);
    return;
  }
  const { baselineText } = await import('../reports/baseline.js');
  const path = resolve(io.cwd, file);
  try {
    makeDirectory(dirname(path)); // a CI job's first run writes `baselines/plantstore.json` into a folder not made yet
    await writeFile(path, baselineText(report));
  } catch (error) {
    throw new UsageError(`--write-baseline ${file}: ${whyNotWritable(error)}.`);
  }
  const count = report.findings?.length ?? 0;
  io.stderr.write(`plantstore test: wrote ${count} ${count === 1 ? 'finding' : 'findings'} to ${file}.\n`);
}

function conformanceOptions(values: OptionValues, io: CliIo): ConformanceOptions {
  const baseUrl = stringOption(values, 'base-url');
  if (baseUrl !== undefined) {
    checkBaseUrlHasScheme(baseUrl);
  }
  const [token] = tokenOptions(values, io.env);
  if (baseUrl !== undefined && token === undefined && io.env.PLANTSTORE_TOKEN !== undefined) {
    throw new UsageError(
      "PLANTSTORE_TOKEN is set but empty: --base-url needs the target's bearer token; put it in PLANTSTORE_TOKEN, or pass --token-file (or --token).",
    );
  }
  // Whether --base-url needs a token is the document's call (security: [] needs none): the runner says.
  const optional = <K extends keyof ConformanceOptions>(key: K, value: ConformanceOptions[K] | undefined) =>
    value === undefined ? {} : { [key]: value };
  const checks = listOption(values, 'check');
  const skipChecks = listOption(values, 'skip-check');
  return {
    ...optional('baseUrl', baseUrl),
    ...optional('token', baseUrl === undefined ? undefined : token),
    ...optional('seed', integerOption(values, 'seed', ...INTEGER_OPTIONS.seed)),
    ...optional('runs', integerOption(values, 'runs', ...INTEGER_OPTIONS.runs)),
    ...optional('concurrency', integerOption(values, 'concurrency', ...INTEGER_OPTIONS.concurrency)),
    ...optional('timeoutMs', integerOption(values, 'timeout', ...INTEGER_OPTIONS.timeout)),
    ...optional('budgetMs', integerOption(values, 'budget', ...INTEGER_OPTIONS.budget)),
    ...optional('replay', stringOption(values, 'replay')),
    ...optional('spec', stringOption(values, 'spec')),
    ...(checks.length ? { checks } : {}),
    ...(skipChecks.length ? { skipChecks } : {}),
  };
}

/**
 * `localhost:8080` parses as a URL whose scheme is `localhost:`, so the runner's check would blame
 * the scheme; a value without `//` is a host and port (or path) that lacks its `http://`.
 */
function checkBaseUrlHasScheme(baseUrl: string): void {
  if (baseUrl.includes('//')) return;
  const example = /^[\w.-]+(:\d*)?(\/.*)?$|^\[[\da-f:.]+\](:\d*)?(\/.*)?$/i.test(baseUrl)
    ? `http://${baseUrl}`
    : 'http://127.0.0.1:8080';
  throw new UsageError(`"${baseUrl}" is not a URL: pass e.g. --base-url ${example}.`);
}

function reporterSelection(
  values: OptionValues,
  isReporterName: (name: string) => boolean,
  REPORTER_NAMES: readonly string[],
): string[] {
  const names = listOption(values, 'reporter').flatMap((name) => name.split(','));
  const unknown = names.filter((name) => !isReporterName(name));
  if (unknown.length) {
    throw new UsageError(`unknown reporter "${unknown.join('", "')}"; the reporters are ${REPORTER_NAMES.join(', ')}.`);
  }
  return names.length ? names : [...REPORTER_NAMES];
}

/** A bearer token over plain http to another machine can be read on the way. */
function warnAboutPlainHttp(baseUrl: string, io: CliIo): void {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return;
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const loopback = host === 'localhost' || host === '::1' || /^127\./.test(host);
  if (url.protocol === 'http:' && !loopback) {
    io.stderr.write(
      `plantstore test: warning: the bearer token will be sent over plain http to ${url.host}; use https for anything but a local target.\n`,
    );
  }
}
