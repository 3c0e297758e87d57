import { parseArgs } from 'node:util';
import { PACKAGE_VERSION } from '../contract/package-files.js';
import { describeFailure, EXIT, UsageError } from './cli-errors.js';
import type { CliCommand, CliIo } from './command.js';
import { mockCommand } from './mock-command.js';
import { proxyCommand } from './proxy-command.js';
import { serveCommand } from './serve-command.js';
import { testCommand } from './test-command.js';
import { validateCommand } from './validate-command.js';

/** Every sub-command, in the order `plantstore --help` lists them. */
export const COMMANDS: readonly CliCommand[] = [testCommand, serveCommand, validateCommand, mockCommand, proxyCommand];

function overview(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  const lines = COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return `plantstore ${PACKAGE_VERSION}: mock and conformance-testing harness for the Plant Store API

Usage: plantstore <command> [options]

Commands:
${lines.join('\n')}

Options:
  -h, --help      Show help (also after a command: plantstore serve --help)
  -v, --version   Show the version

Exit codes: 0 success, 1 a check failed, 2 usage or configuration error, or the target could not be judged.`;
}

/**
 * Runs the CLI with the given arguments (without `node` and the script) and resolves to the
 * process exit code. Every error is reported here, on one line, and mapped to an exit code.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '-h' || name === '--help' || name === 'help') {
    io.stdout.write(`${overview()}\n`);
    return name === undefined ? EXIT.cannotRun : EXIT.ok;
  }
  if (name === '-v' || name === '--version') {
    io.stdout.write(`${PACKAGE_VERSION}\n`);
    return EXIT.ok;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    io.stderr.write(
      `plantstore: unknown command "${name}"; the commands are ${COMMANDS.map((c) => c.name).join(', ')} (see plantstore --help).\n`,
    );
    return EXIT.cannotRun;
  }
  try {
    if (rest.includes('-h') || rest.includes('--help')) {
      io.stdout.write(`${command.help}\n`);
      return EXIT.ok;
    }
    const parsed = parseCommandLine(command, rest);
    return await command.run(parsed.values, parsed.positionals, io);
  } catch (error) {
    const { message, exitCode } = describeFailure(error);
    io.stderr.write(`plantstore ${command.name}: ${message}\n`);
    return exitCode;
  }
}

function parseCommandLine(command: CliCommand, args: string[]): ReturnType<typeof parseArgs> {
  try {
    return parseArgs({ args, options: command.options, allowPositionals: command.allowPositionals, strict: true });
  } catch (error) {
    const reason =
      dashValueProblem(command, args, error) ??
      (error instanceof Error ? error.message.split('\n')[0] : String(error)) ??
      'invalid arguments';
    throw new UsageError(`${reason} (see plantstore ${command.name} --help)`);
  }
}

/** Options whose values are secrets: never repeated in a message. */
const SECRET_OPTIONS = new Set(['--token']);

/**
 * parseArgs calls `--seed -5` "ambiguous": a value after a space may not start with '-'. Says how
 * to write it (`--seed=-5`), and that it is out of range anyway when the option takes a whole
 * number; when an option of the command follows instead, the value was forgotten.
 */
function dashValueProblem(command: CliCommand, args: readonly string[], error: unknown): string | undefined {
  const option = /^Option '(-[^' ]+)' argument is ambiguous/.exec(error instanceof Error ? error.message : '')?.[1];
  if (option === undefined) return undefined;
  const index = args.findIndex((arg, i) => arg === option && args[i + 1]?.startsWith('-'));
  const value = args[index + 1];
  if (index < 0 || value === undefined) return undefined;
  const next = value.split('=')[0] ?? value;
  if (next === '-h' || (next.startsWith('--') && Object.hasOwn(command.options, next.slice(2)))) {
    return `${option} needs a value, but ${next} follows it (a value that starts with '-' is written ${option}=-…)`;
  }
  if (SECRET_OPTIONS.has(option)) {
    return `the ${option} value starts with '-', so it must be written ${option}=<value>, with no space`;
  }
  const written = `${option} ${value}: a value that starts with '-' must be written ${option}=${value}`;
  const range = command.integerOptions?.[option.slice(2)];
  if (range === undefined) return written;
  const takes = `${option} takes a whole number from ${range[0]} to ${range[1]}`;
  return /^-\d+$/.test(value) ? `${written}, and ${takes}, so ${value} is out of range anyway` : `${written}; ${takes}`;
}
