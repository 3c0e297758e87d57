import { readFileSync } from 'node:fs';
import { UsageError } from './cli-errors.js';
import type { IntegerRange, OptionValues } from './command.js';

/** A string option's value, or `undefined` when it was not given. */
export function stringOption(values: OptionValues, name: string): string | undefined {
  const value = values[name];
  if (Array.isArray(value)) return value.length ? String(value[value.length - 1]) : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** All values of a repeatable string option. */
export function listOption(values: OptionValues, name: string): string[] {
  const value = values[name];
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map(String);
}

/** A whole-number option within bounds; a clear usage error otherwise. */
export function integerOption(values: OptionValues, name: string, min: number, max: number): number | undefined {
  const text = stringOption(values, name);
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got "${text}".`);
  }
  return Number(text);
}

/** The bounds of `--port` (0 picks a free port). */
export const PORT_RANGE: IntegerRange = [0, 65535];

/** A TCP port option (0 picks a free port). */
export function portOption(values: OptionValues, fallback: number): number {
  return integerOption(values, 'port', ...PORT_RANGE) ?? fallback;
}

/**
 * Bearer tokens from, in order of precedence, `--token` (repeatable), `--token-file` (one token per
 * line) and the `PLANTSTORE_TOKEN` environment variable. The token file and the environment keep
 * tokens out of process lists and CI logs.
 */
export function tokenOptions(values: OptionValues, env: Readonly<Record<string, string | undefined>>): string[] {
  const fromFlags = listOption(values, 'token');
  for (const token of fromFlags) {
    if (token.trim() === '')
      throw new UsageError('--token was given an empty value: pass the token, or drop the flag.');
  }
  const file = stringOption(values, 'token-file');
  const fromFile = file === undefined ? [] : readTokenFile(file);
  const fromEnv = env.PLANTSTORE_TOKEN?.trim() ? [env.PLANTSTORE_TOKEN.trim()] : [];
  if (fromFlags.length) return fromFlags.map((t) => t.trim());
  if (fromFile.length) return fromFile;
  return fromEnv;
}

function readTokenFile(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new UsageError(`--token-file ${path} cannot be read: check the path and its permissions.`);
  }
  const tokens = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  if (tokens.length === 0) throw new UsageError(`--token-file ${path} holds no token: put one token per line.`);
  return tokens;
}
