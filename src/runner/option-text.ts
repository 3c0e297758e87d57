import type { OptionName } from './options.js';
import type { Rerun } from './report.js';

/** Every option a runner message may name. */
export const OPTION_NAMES: readonly OptionName[] = [
  'baseUrl',
  'token',
  'seed',
  'runs',
  'concurrency',
  'timeoutMs',
  'budgetMs',
  'checks',
  'skipChecks',
  'spec',
  'replay',
  'maxBodyBytes',
];

const QUOTED_NAME = /`([A-Za-z]+)`/g;

/**
 * The runner's messages name options in backquotes (`` `budgetMs` ``): this shows each as `show`
 * says (a command line shows its flag). Backquoted words that are not options stay as they are.
 */
export function renderOptionNames(text: string, show: (option: OptionName) => string): string {
  return text.replace(QUOTED_NAME, (quoted, name: string) =>
    (OPTION_NAMES as readonly string[]).includes(name) ? show(name as OptionName) : quoted,
  );
}

/** The options a message names, in order of first mention. */
export function optionsNamedIn(text: string): OptionName[] {
  const names = [...text.matchAll(QUOTED_NAME)].map((match) => match[1] ?? '');
  return [...new Set(names.filter((name): name is OptionName => (OPTION_NAMES as readonly string[]).includes(name)))];
}

/** How code re-runs one case: the `runConformance` call with the options of `rerun`. */
export function rerunCall(rerun: Rerun): string {
  const fields = Object.entries(rerun).map(([key, value]) => `${key}: ${JSON.stringify(value)}`);
  return `runConformance({ ${fields.join(', ')} })`;
}
