import type { ParseArgsConfig } from 'node:util';

/** Where a command writes and what it may read of its environment; tests pass their own. */
export interface CliIo {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  /** Resolves when the user asks the process to stop (Ctrl-C, SIGTERM); listens only once called. */
  waitForStop(): Promise<void>;
  /**
   * Called by a command once it has loaded what it runs with (a server once it listens), before its
   * work. The bin caps V8's heap growth here, not at its start: setting a V8 flag changes V8's flag
   * hash, and Node then compiles every built-in module loaded after it without the code cache built
   * into Node (node:http, node:net, streams, crypto: about 30 ms of CPU in a default run's start).
   */
  readonly commandLoaded?: () => void;
}

/** The smallest and largest value a whole-number option accepts. */
export type IntegerRange = readonly [min: number, max: number];

/** Parsed option values: strings and booleans, exactly as typed. */
export type OptionValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

/** A plantstore sub-command: its flags, its help text, and what it does. */
export interface CliCommand {
  readonly name: string;
  /** One line for the command list. */
  readonly summary: string;
  /** The full `--help` text. */
  readonly help: string;
  readonly options: NonNullable<ParseArgsConfig['options']>;
  readonly allowPositionals: boolean;
  /**
   * The whole-number options and their bounds (what `integerOption` enforces), so that a usage
   * error raised before the command runs can say a value is out of range.
   */
  readonly integerOptions?: Readonly<Record<string, IntegerRange>>;
  /**
   * Runs the command and resolves to its exit code. Import heavy modules (servers, Prism, the
   * runner) inside `run`, so that `--help`, `--version` and the other commands start fast.
   */
  run(values: OptionValues, positionals: string[], io: CliIo): Promise<number>;
}
