import { summariseList } from '../contract/operations.js';
import { DEV_TOKEN } from '../mock/dev-token.js';
import type { RequestLogEntry } from '../http/server-kit.js';
import { batchedWriter } from './batched-writer.js';
import { EXIT, UsageError } from './cli-errors.js';
import type { CliCommand, IntegerRange } from './command.js';
import { integerOption, PORT_RANGE, portOption, stringOption, tokenOptions } from './cli-options.js';
import { formatLogLine, notServedLine } from './serve-command.js';

/** The whole-number options of `plantstore mock` and their bounds. */
const INTEGER_OPTIONS = {
  port: PORT_RANGE,
  seed: [0, Number.MAX_SAFE_INTEGER],
} as const satisfies Record<string, IntegerRange>;

/** `plantstore mock`: the Prism-driven mock of POST /plants for frontend work, until stopped. */
export const mockCommand: CliCommand = {
  name: 'mock',
  summary: 'Run a Prism-driven mock of POST /plants for frontend work (CORS, dev token)',
  help: `Usage: plantstore mock [options]

Runs a mock of the Plant Store for frontend work. Requests are judged by the document as the
reference judges them: a 200 is the Plant the document describes, echoing the plant you sent,
a 400 Error says what was wrong, ids are exact int64, authentication is real, and pages on other
origins may call it (CORS). Prism (@stoplight/prism-http) decides what only it decides: Prefer
statuses and examples, negotiation on Accept, generated plants. Logs one line per request to
stdout (never a token). Stops on Ctrl-C or SIGTERM.

Options:
  --port <n>         Port to listen on (default 4010; 0 picks a free port)
  --host <addr>      Interface to bind (default 127.0.0.1)
  --dynamic          Answer 200 with plants generated from the schema instead of an echo
  --seed <n>         Seed of the generated plants: same seed, same requests, same plants
  --token <t>        Accept this bearer token instead of the development token (repeatable).
                     Prefer --token-file or PLANTSTORE_TOKEN: command lines show up in process lists.
  --token-file <f>   Accept the tokens in this file, one per line
  --any-token        Accept any non-empty bearer token
  --spec <file>      OpenAPI document to mock (default: the package's openapi.yaml)
  --quiet            No request log
  -h, --help         Show this help

Environment:
  PLANTSTORE_TOKEN   A bearer token to accept, used when neither --token nor --token-file is given

With no token configured, the mock accepts the development token "${DEV_TOKEN}"
(not a secret). Send "Prefer: code=400" to get the documented Error, "Prefer: dynamic=true" for a
generated plant, "Prefer: example=<name>" for a named example of the document.

Exit codes: 0 stopped (Ctrl-C or SIGTERM), 2 could not start (usage, port in use, invalid --spec).`,
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    dynamic: { type: 'boolean' },
    seed: { type: 'string' },
    token: { type: 'string', multiple: true },
    'token-file': { type: 'string' },
    'any-token': { type: 'boolean' },
    spec: { type: 'string' },
    quiet: { type: 'boolean' },
  },
  allowPositionals: false,
  integerOptions: INTEGER_OPTIONS,
  async run(values, _positionals, io) {
    const anyToken = values['any-token'] === true;
    // PLANTSTORE_TOKEN is often exported for `plantstore test`: with --any-token it is beside the point.
    const tokens = tokenOptions(values, anyToken ? { ...io.env, PLANTSTORE_TOKEN: undefined } : io.env);
    if (anyToken && tokens.length > 0) {
      throw new UsageError('--any-token accepts every token: drop --token or --token-file.');
    }
    const seed = integerOption(values, 'seed', ...INTEGER_OPTIONS.seed);
    const dynamic = values.dynamic === true;
    const spec = stringOption(values, 'spec');
    const { createMockServer } = await import('../mock/mock-server.js');
    const log = batchedWriter(io.stdout);
    const server = await createMockServer({
      tokens,
      anyToken,
      dynamic,
      host: stringOption(values, 'host') ?? '127.0.0.1',
      port: portOption(values, 4010),
      ...(seed === undefined ? {} : { seed }),
      ...(spec === undefined ? {} : { spec }),
      ...(values.quiet === true ? {} : { onRequest: (entry: RequestLogEntry) => log.write(formatLogLine(entry)) }),
    });
    io.commandLoaded?.();
    // The seed also drives "Prefer: dynamic=true" in echo mode: shown either way, so those plants can be had again.
    const mode = dynamic
      ? `generated plants, seed ${server.seed}`
      : `echoing the plant sent; Prefer: dynamic=true uses seed ${server.seed}`;
    io.stdout.write(`plantstore mock listening on ${server.url} (POST /plants, ${mode}); ${server.accepting}\n`);
    io.stdout.write(notServedLine(server.notServed));
    if (server.otherOperations.length > 0) {
      io.stdout.write(
        `also answering, from the document's examples and schemas: ${summariseList(server.otherOperations, 12)}\n`,
      );
    }
    // Answered as written (the user wrote them), so a page sees what the document says; said once, here.
    for (const line of server.invalidExamples.slice(0, 5)) {
      io.stdout.write(`the document's example is invalid by its own schema, answered as written: ${line}\n`);
    }
    await io.waitForStop();
    await server.close();
    log.flush();
    return EXIT.ok;
  },
};
