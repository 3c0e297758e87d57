/** How the console reporter may draw: live progress and colour depend on the sink and the environment. */
import type { TextSink } from './reporter.js';

type Env = Readonly<Record<string, string | undefined>>;

/** What the console can do on this sink in this environment. */
export interface TerminalMode {
  /** Rewrite a progress line in place (a TTY outside CI). */
  readonly live: boolean;
  /** Colour the output (a TTY, `NO_COLOR` unset or empty, `TERM` not `dumb`). */
  readonly color: boolean;
  /** Width to lay tables out for. */
  readonly width: number;
}

/** Decides live progress and colour: CI logs and pipes get plain lines and no escape codes. */
export function terminalMode(sink: TextSink, env: Env): TerminalMode {
  const tty = sink.isTTY === true;
  const noColor = (env.NO_COLOR ?? '') !== '' || env.TERM === 'dumb';
  const width = tty && sink.columns !== undefined && sink.columns >= 60 ? sink.columns : 120;
  return { live: tty && !isCi(env), color: tty && !noColor, width };
}

function isCi(env: Env): boolean {
  const value = (env.CI ?? '').toLowerCase();
  return value !== '' && value !== 'false' && value !== '0';
}

const STYLES = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
} as const;

/** A style name for `paint`. */
export type Style = keyof typeof STYLES;

/** Wraps `text` in an ANSI style when colour is on; plain text otherwise. */
export function paint(mode: TerminalMode, style: Style, text: string): string {
  if (!mode.color) return text;
  const [open, close] = STYLES[style];
  return `\u001b[${open}m${text}\u001b[${close}m`;
}

/** Erases the current line and returns the cursor to its start. */
export const CLEAR_LINE = '\r\u001b[2K';
