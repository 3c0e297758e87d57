import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { RequestLogEntry } from '../reference/server.js';
import { batchedWriter } from './batched-writer.js';
import { EXIT } from './cli-errors.js';
import type { CliCommand, CliIo, IntegerRange, OptionValues } from './command.js';
import { integerOption, listOption, PORT_RANGE, portOption, stringOption, tokenOptions } from './cli-options.js';

/** The whole-number options of `plantstore serve` and their bounds. */
const INTEGER_OPTIONS = {
  port: PORT_RANGE,
  'body-limit': [64, 1024 * 1024 * 1024],
} as const satisfies Record<string, IntegerRange>;

/** `plantstore serve`: the reference implementation on a port, until stopped. */
export const serveCommand: CliCommand = {
  name: 'serve',
  summary: 'Run the reference implementation of POST /plants',
  help: `Usage: plantstore serve [options]

Runs the reference implementation of the Plant Store contract: POST /plants with bearer
authentication, every answer as docs/behaviour.md says. Logs one line per request
to stdout (never a token). Stops on Ctrl-C or SIGTERM.

Options:
  --port <n>         Port to listen on (default 8080; 0 picks a free port)
  --host <addr>      Interface to bind (default 127.0.0.1; 0.0.0.0 exposes it to the network)
  --token <t>        Accept this bearer token (repeatable). Prefer --token-file or PLANTSTORE_TOKEN:
                     command lines show up in process lists and CI logs.
  --token-file <f>   Accept the tokens in this file, one per line
  --body-limit <n>   Largest request body in bytes (default 1048576)
  --spec <file>      OpenAPI document to serve (default: the package's openapi.yaml)
  --quiet            No request log
  -h, --help         Show this help

Environment:
  PLANTSTORE_TOKEN   A bearer token to accept, used when neither --token nor --token-file is given

With no token configured, serve generates one and writes it to a file readable only by you;
the startup line says where (read it with: export PLANTSTORE_TOKEN=$(cat <file>)). The file is
deleted when serve stops.

Exit codes: 0 stopped (Ctrl-C or SIGTERM), 2 could not start (usage, port in use, invalid --spec).`,
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    token: { type: 'string', multiple: true },
    'token-file': { type: 'string' },
    'body-limit': { type: 'string' },
    spec: { type: 'string' },
    quiet: { type: 'boolean' },
  },
  allowPositionals: false,
  integerOptions: INTEGER_OPTIONS,
  async run(values, _positionals, io) {
    const tokens = tokenOptions(values, io.env);
    const quiet = values.quiet === true;
    const spec = stringOption(values, 'spec');
    const bodyLimit = integerOption(values, 'body-limit', ...INTEGER_OPTIONS['body-limit']);
    const { createReferenceServer } = await import('../reference/server.js');
    const log = batchedWriter(io.stdout);
    const server = await createReferenceServer({
      tokens,
      host: stringOption(values, 'host') ?? '127.0.0.1',
      port: portOption(values, 8080),
      ...(bodyLimit === undefined ? {} : { bodyLimit }),
      ...(spec === undefined ? {} : { spec }),
      ...(quiet ? {} : { onRequest: (entry: RequestLogEntry) => log.write(formatLogLine(entry)) }),
    });
    const generated =
      server.generatedToken === undefined ? undefined : writeGeneratedToken(server.generatedToken, server.port);
    const tokenNote = server.asksCredential
      ? (generated?.note ?? describeTokenSource(values, io))
      : 'no authentication (the document declares none)';
    io.commandLoaded?.();
    io.stdout.write(`plantstore reference listening on ${server.url} (POST /plants); ${tokenNote}\n`);
    io.stdout.write(notServedLine(server.notServed));
    try {
      await io.waitForStop();
      await server.close();
      log.flush();
    } finally {
      // The token dies with the server: leave no secret file behind in the temporary directory.
      if (generated !== undefined) rmSync(generated.file, { force: true });
    }
    return EXIT.ok;
  },
};

function describeTokenSource(values: OptionValues, io: CliIo): string {
  const count = listOption(values, 'token').length;
  if (count) return `accepting the ${count === 1 ? 'token' : `${count} tokens`} given with --token`;
  const file = stringOption(values, 'token-file');
  if (file !== undefined) return `accepting the tokens in ${file}`;
  return io.env.PLANTSTORE_TOKEN ? 'accepting the token in PLANTSTORE_TOKEN' : 'accepting no token';
}

/**
 * A generated token goes to a private file, never to stdout, which CI systems keep. The file is
 * deleted when serve stops.
 */
function writeGeneratedToken(token: string, port: number): { file: string; note: string } {
  const file = join(tmpdir(), `plantstore-serve-${port}-${randomBytes(4).toString('hex')}.token`);
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { file, note: `generated a token: export PLANTSTORE_TOKEN=$(cat ${file})` };
}

/**
 * The startup line naming the operations the document declares that a server of plantstore does
 * not serve (they answer 404 or 405); empty when there are none.
 */
export function notServedLine(notServed: readonly string[]): string {
  if (notServed.length === 0) return '';
  const shown = notServed.slice(0, 10).join(', ');
  const more = notServed.length > 10 ? ` and ${notServed.length - 10} more` : '';
  return `not served (only POST /plants is): ${shown}${more}\n`;
}

/** One request log line: method, path, status, time and what was wrong. */
export function formatLogLine(entry: RequestLogEntry): string {
  const path = entry.path.replace(/[^\x20-\x7e]/g, '?');
  const problem = entry.problem === undefined ? '' : `  ${entry.problem.replace(/[\r\n]+/g, ' ')}`;
  return `${entry.method.slice(0, 16)} ${path} ${entry.status} ${entry.ms.toFixed(1)}ms${problem}\n`;
}
