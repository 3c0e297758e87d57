import { accessSync, constants, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ContractError, DEFAULT_SPEC_PATH } from '../contract/index.js';
import { EXIT, UsageError } from './cli-errors.js';
import type { CliCommand } from './command.js';

/** `plantstore validate [file]`: is this a valid OpenAPI document, and if not, where is it wrong. */
export const validateCommand: CliCommand = {
  name: 'validate',
  summary: 'Validate an OpenAPI document (default: the contract, openapi.yaml)',
  help: `Usage: plantstore validate [file]

Validates an OpenAPI 2.0, 3.0 or 3.1 document (YAML or JSON) against its specification and
resolves every $ref. Prints each problem with its location.

Arguments:
  file         The document to validate (default: the package's openapi.yaml)

Options:
  -h, --help   Show this help

Exit codes: 0 valid, 1 invalid, 2 the file cannot be read.`,
  options: {},
  allowPositionals: true,
  async run(_values, positionals, io) {
    if (positionals.length > 1) {
      io.stderr.write('plantstore validate: give one file at a time (see plantstore validate --help).\n');
      return EXIT.cannotRun;
    }
    const file = positionals[0] === undefined ? DEFAULT_SPEC_PATH : resolve(io.cwd, positionals[0]);
    // A file that is not there is not an invalid document: say so before the parser calls it one.
    checkReadable(file, positionals[0] ?? file);
    const { validateDocument } = await import('../contract/spec.js');
    try {
      const document = await validateDocument(file);
      const version = JSON.stringify(document.openapi ?? document.swagger ?? '?').replace(/"/g, '');
      const paths = Object.values((document.paths ?? {}) as Record<string, Record<string, unknown>>);
      const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
      const operations = paths.reduce((sum, item) => sum + methods.filter((m) => m in item).length, 0);
      io.stdout.write(
        `${file}: valid OpenAPI ${version} document, ${operations} operation${operations === 1 ? '' : 's'}\n`,
      );
      return EXIT.ok;
    } catch (error) {
      if (!(error instanceof ContractError)) throw error;
      const unreadable = /ENOENT|EACCES|EISDIR|Error opening file/.test(error.message);
      io.stderr.write(`${error.message}\n`);
      return unreadable ? EXIT.cannotRun : EXIT.failed;
    }
  },
};

function checkReadable(file: string, shown: string): void {
  let directory: boolean;
  try {
    directory = statSync(file).isDirectory();
    accessSync(file, constants.R_OK);
  } catch (error) {
    throw new UsageError(`cannot read ${shown}: ${whyUnreadable(error)}`);
  }
  if (directory) throw new UsageError(`cannot read ${shown}: it is a directory`);
}

function whyUnreadable(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'unknown reason';
}
