import { resolve } from 'node:path';
import { batchedWriter } from './batched-writer.js';
import { EXIT, UsageError } from './cli-errors.js';
import { ensureWritableDirectory } from './out-directory.js';
import type { CliCommand, CliIo, IntegerRange, OptionValues } from './command.js';
import type { Report } from '../runner/report.js';
import { integerOption, PORT_RANGE, portOption, stringOption } from './cli-options.js';

/** The whole-number options of `plantstore proxy` and their bounds. */
const INTEGER_OPTIONS = {
  port: PORT_RANGE,
  timeout: [1, 3_600_000],
  duration: [1, 31 * 86_400],
} as const satisfies Record<string, IntegerRange>;

/** `plantstore proxy`: a transparent, validating proxy in front of an implementation, until stopped. */
export const proxyCommand: CliCommand = {
  name: 'proxy',
  summary: 'Forward live traffic to an implementation and judge each exchange of the operations its document defines',
  help: `Usage: plantstore proxy --upstream <url> [options]

Listens for requests and forwards each one to the upstream byte for byte (bodies, ids, escapes
and headers as sent; hop-by-hop headers aside), and its answer back the same way. Every POST
/plants exchange is judged with the checks of plantstore test that apply to one exchange, and
each exchange of any other operation the --spec document defines against that document; each
log line says which side broke the contract, the client or the server, and why. Paths and
methods the document does not define are forwarded and logged as outside the contract. The Authorization header passes
through and is never logged or stored. On Ctrl-C, SIGTERM or --duration, writes report.json,
junit.xml and report.html of the traffic seen.

Options:
  --upstream <url>   The implementation to forward to (http or https), e.g. http://127.0.0.1:8080
  --port <n>         Port to listen on (default 4011; 0 picks a free port)
  --host <addr>      Interface to bind (default 127.0.0.1)
  --spec <file>      OpenAPI document of the contract (default: the package's openapi.yaml);
                     its other operations and the parameters it declares are judged too
  --out <dir>        Where reports go (default reports/)
  --timeout <ms>     No byte from the upstream for this long: answer 504 (default 30000)
  --duration <s>     Stop by itself after this many seconds (default: run until stopped)
  --annotate         Add a Plantstore-Violations header to each judged answer (holds
                     each answer until it is complete; off by default, so nothing is added)
  --quiet            No log line per exchange
  -h, --help         Show this help

Environment:
  PLANTSTORE_TOKEN   The token clients should send: hidden from every log and report, and a
                     bearer token other than it is judged a wrong credential. Optional.

When the upstream cannot be reached the proxy answers 502 with an Error body (error 5001);
when it sends nothing for --timeout ms, 504 (error 5002).

Exit codes: 0 stopped and the server broke no check, 1 the server broke a check, 2 could not
start (usage, port in use, invalid --spec) or no exchange was judged.`,
  options: {
    upstream: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string' },
    spec: { type: 'string' },
    out: { type: 'string' },
    timeout: { type: 'string' },
    duration: { type: 'string' },
    annotate: { type: 'boolean' },
    quiet: { type: 'boolean' },
  },
  allowPositionals: false,
  integerOptions: INTEGER_OPTIONS,
  async run(values, _positionals, io) {
    const upstream = upstreamOption(values);
    const outDir = resolve(io.cwd, stringOption(values, 'out') ?? 'reports');
    const duration = integerOption(values, 'duration', ...INTEGER_OPTIONS.duration);
    const timeoutMs = integerOption(values, 'timeout', ...INTEGER_OPTIONS.timeout);
    const spec = stringOption(values, 'spec');
    const token = io.env.PLANTSTORE_TOKEN?.trim() || undefined;
    ensureWritableDirectory(outDir);
    const { createProxyServer } = await import('../proxy/index.js');
    const { writeReports } = await import('../reports/index.js');
    const { reportExitCode } = await import('../reports/outcome.js');
    const log = batchedWriter(io.stdout);
    const proxy = await createProxyServer({
      upstream,
      host: stringOption(values, 'host') ?? '127.0.0.1',
      port: portOption(values, 4011),
      annotate: values.annotate === true,
      ...(spec === undefined ? {} : { spec }),
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
      ...(token === undefined ? {} : { token }),
      ...(values.quiet === true ? {} : { onLog: (line: string) => log.write(`${line}\n`) }),
    });
    io.commandLoaded?.();
    io.stdout.write(
      `plantstore proxy listening on ${proxy.url}, forwarding to ${shownUpstream(upstream)} (POST /plants and the document's other operations judged)\n`,
    );
    await stopSignal(io, duration);
    await proxy.close();
    log.flush();
    const report = proxy.report();
    const outcome = await writeReports(report, { outDir, stderr: io.stderr, secrets: proxy.secrets });
    io.stdout.write(`plantstore proxy: ${closingCounts(report)}; reports: ${outcome.files.join(', ')}\n`);
    if (outcome.errors.length > 0) return EXIT.cannotRun;
    if (report.summary.cases === 0) io.stderr.write(nothingJudged(report.notes));
    return reportExitCode(report);
  },
};

/**
 * The closing line's counts, each side apart: the checks the server failed (they set the exit code), whether the
 * client broke the contract (the `client-requests` check, a warning), and any other warning.
 */
function closingCounts(report: Report): string {
  const { cases } = report.summary;
  const ids = (status: string, except?: string): string[] =>
    report.checks.filter((check) => check.status === status && check.id !== except).map((check) => String(check.id));
  const failed = ids('fail');
  const clientBroke = report.checks.some((check) => check.id === 'client-requests' && check.status === 'warn');
  const client = clientBroke ? 'the client broke the contract (client-requests)' : 'the client kept the contract';
  const others = ids('warn', 'client-requests');
  const warned = others.length > 0 ? `; ${counted(others.length, 'other check')} warned (${others.join(', ')})` : '';
  const server =
    failed.length > 0
      ? `the server failed ${counted(failed.length, 'check')} (${failed.join(', ')})`
      : 'the server failed no check';
  return `${cases} exchanges judged; ${server}; ${client}${warned}`;
}

function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** Why a run that judged no POST /plants exits 2: the report's notes past the first (which only counts). */
function nothingJudged(notes: readonly string[]): string {
  const reasons = notes.slice(1).map((note) => `  ${note}\n`);
  return `plantstore proxy: no exchange was judged, so there is no verdict (exit 2).\n${reasons.join('')}`;
}

function upstreamOption(values: OptionValues): string {
  const upstream = stringOption(values, 'upstream');
  if (upstream === undefined) {
    throw new UsageError(
      '--upstream is required: the implementation to forward to, e.g. --upstream http://127.0.0.1:8080',
    );
  }
  let url: URL;
  try {
    url = new URL(upstream);
  } catch {
    throw new UsageError(
      `--upstream "${upstream.slice(0, 100)}" is not a URL: write it with its scheme, e.g. http://${upstream.slice(0, 100)}`,
    );
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !upstream.includes('//')) {
    throw new UsageError(`--upstream must be an http:// or https:// URL, got "${upstream.slice(0, 100)}"`);
  }
  return upstream;
}

/** The upstream as the startup line shows it: no user or password. */
function shownUpstream(upstream: string): string {
  const url = new URL(upstream);
  url.username = '';
  url.password = '';
  return url.toString().replace(/\/$/, '');
}

/** Resolves on Ctrl-C or SIGTERM, or after `duration` seconds when given. */
function stopSignal(io: CliIo, duration: number | undefined): Promise<void> {
  if (duration === undefined) return io.waitForStop();
  let timer: NodeJS.Timeout | undefined;
  const elapsed = new Promise<void>((done) => {
    timer = setTimeout(done, duration * 1000);
  });
  return Promise.race([io.waitForStop(), elapsed]).finally(() => clearTimeout(timer));
}
