import { accessSync, constants, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ContractError } from '../contract/contract-error.js';
import type { Contract, DocumentProblem } from '../contract/index.js';
import type { DocumentedAnswer } from '../contract/documented-answers.js';
import { mediaTypeEssence } from '../contract/media-types.js';
import { calledPlantsPath, findOperation, summariseList } from '../contract/operations.js';
import { declaredParameters } from '../contract/parameter-declarations.js';
import { DEFAULT_SPEC_PATH } from '../contract/package-files.js';
import { EXIT, UsageError } from './cli-errors.js';
import { stringOption } from './cli-options.js';
import type { CliCommand } from './command.js';

/** `plantstore validate [file]`: can plantstore test against this document, and if not, every reason why. */
export const validateCommand: CliCommand = {
  name: 'validate',
  summary: 'Validate an OpenAPI document (default: the contract, openapi.yaml)',
  help: `Usage: plantstore validate [file | --spec <file>]

Validates an OpenAPI 3.0, 3.1 or 3.2 document (YAML or JSON) against its specification, resolves every
$ref, and checks everything test, serve and mock need from it: POST /plants with a JSON request
body, a success response (200, else 201, another 2xx or 2XX) and an Error response (400, else 4XX
or default) with JSON schemas, and no schema keyword plantstore cannot honour. Prints every
problem with its location; a document it calls valid is one test, serve and mock accept.
Swagger 2.0 is refused with how to convert it.

Arguments:
  file         The document to validate, a path or an http(s) URL (default: the package's openapi.yaml)

Options:
  --spec <file>  The same as the file argument, as test, serve, mock and proxy spell it
  -h, --help     Show this help

Exit codes: 0 valid, 1 invalid, 2 the file cannot be read.`,
  options: { spec: { type: 'string' } },
  allowPositionals: true,
  async run(values, positionals, io) {
    const spec = stringOption(values, 'spec');
    const files = spec === undefined ? positionals : [spec, ...positionals];
    if (files.length > 1) {
      io.stderr.write('plantstore validate: give one file at a time (see plantstore validate --help).\n');
      return EXIT.cannotRun;
    }
    const given = files[0];
    const url = given !== undefined && /^https?:\/\//i.test(given);
    const file = given === undefined ? DEFAULT_SPEC_PATH : url ? given : resolve(io.cwd, given);
    // A file that is not there is not an invalid document: say so before the parser calls it one.
    if (!url) checkReadable(file, given ?? file);
    const { inspectDocument, unusable } = await import('../contract/spec.js');
    io.commandLoaded?.();
    const inspection = await inspectDocument(file);
    const problems = inspection.contract ? await serverProblems(inspection.contract) : inspection.problems;
    if (!inspection.contract || problems.length > 0) {
      io.stderr.write(`${unusable(file, problems).message}\n`);
      return EXIT.failed;
    }
    const readings = (inspection.readings ?? []).map(({ pointer, reading }) => `  read as: ${pointer}: ${reading}`);
    io.stdout.write(`${[...summarise(file, inspection.contract), ...readings].join('\n')}\n`);
    return EXIT.ok;
  },
};

/** What test, serve and mock refuse when they start (an authentication test cannot send, a required answer property they cannot fill), found now. */
async function serverProblems(contract: Contract): Promise<DocumentProblem[]> {
  const { serveContract } = await import('../http/served-contract.js');
  const { validSamples } = await import('../http/valid-samples.js');
  const { foreignAuthentication } = await import('../runner/run-settings.js');
  const authentication = foreignAuthentication(contract);
  // `test` refuses this document before any case; say so now.
  if (authentication !== undefined) return [{ pointer: '', message: authentication }];
  try {
    serveContract(contract, validSamples(contract));
    return [];
  } catch (error) {
    if (error instanceof ContractError) return [{ pointer: '', message: error.message }];
    throw error;
  }
}

/** The lines printed for a valid document: what plantstore tests, how, and what it leaves untested. */
export function summarise(file: string, contract: Contract): string[] {
  const operations = contract.otherOperations.filter((name) => !name.startsWith('webhook ')).length + 1;
  const { mediaTypes, errorStatus, success } = contract;
  const bodies =
    new Set(Object.values(mediaTypes)).size === 1
      ? `NewPlant, Plant (${success.documented}) and Error (${errorStatus}) as ${mediaTypes.plant}`
      : `NewPlant as ${mediaTypes.newPlant}, Plant (${success.documented}) as ${mediaTypes.plant} and Error (${errorStatus}) as ${mediaTypes.error}`;
  const lines = [
    `${file}: valid OpenAPI ${contract.version} document, ${operations} operation${operations === 1 ? '' : 's'}`,
    `  tested: POST ${contract.operationPath}${operationIdShown(contract)}: ${bodies}; ${describeAuth(contract)}`,
  ];
  if (contract.basePath !== '') {
    lines.push(
      `  ${basePathSource(contract)}: include that path in --base-url (requests go to <base-url>${calledPlantsPath(contract.operationPath)})`,
    );
  }
  // Read as written: the contract's `operationParameters` compiles their schemas, more than a summary needs to load.
  const declared = declaredParameters(contract.document, contract.operationPath, 'post');
  const parameters = declared.map(
    (parameter) => `${parameter.name} (${parameter.in}${parameter.required ? ', required' : ''})`,
  );
  if (parameters.length > 0) {
    const sent = declared.some((parameter) => parameter.required)
      ? 'test sends the required ones'
      : 'none is required: test sends them only with values their schemas refuse';
    lines.push(`  parameters: ${parameters.join(', ')}; ${sent}, serve and mock check them`);
  }
  lines.push(...answerLines(contract));
  if (contract.otherOperations.length > 0) lines.push(`  not tested: ${summariseList(contract.otherOperations, 12)}`);
  return lines;
}

/**
 * The refusals judged by bodies of their own (a 401 schema, FastAPI's 422), those whose schema is the Error's (a
 * `default` response written with the Error, as zod and tsoa generators do), and those that cannot be judged.
 */
function answerLines(contract: Contract): string[] {
  const { answers, errorStatus } = contract;
  const lines: string[] = [];
  const listed = (keys: readonly DocumentedAnswer[]) =>
    keys.map(({ key, mediaType }) => `${key} (${RANGES[key.toUpperCase()] ?? ''}${mediaType})`).join(', ');
  const asError = answers.judged.filter((answer) => isErrorSchema(contract, answer));
  const own = answers.judged.filter((answer) => !asError.includes(answer));
  if (own.length > 0) lines.push(`  other refusals, judged by their own schemas: ${listed(own)}`);
  if (asError.length > 0)
    lines.push(`  other refusals, judged by the Error schema as ${errorStatus} is: ${listed(asError)}`);
  for (const { key, reason } of answers.unchecked) lines.push(`  not judged: the bodies of ${key} answers: ${reason}`);
  return lines;
}

/** What a range key stands for among refusals, before its media type. */
const RANGES: Readonly<Record<string, string>> = { '4XX': 'any other 4xx, ', DEFAULT: 'any other 4xx, ' };

/** Whether a documented answer's schema is the Error's: the same schema ($ref to it), or a copy of it, same media type. */
function isErrorSchema(contract: Contract, answer: DocumentedAnswer): boolean {
  if (mediaTypeEssence(answer.mediaType) !== mediaTypeEssence(contract.mediaTypes.error)) return false;
  // Segments unescaped here: document-pointer.js would load the document reader with the CLI (entry-loading test).
  const segments = answer.pointer.split('/').slice(1);
  const schema = segments
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>(
      (node, segment) =>
        node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[segment] : undefined,
      contract.document,
    );
  if (schema === contract.schemas.error) return true;
  try {
    return JSON.stringify(schema) === JSON.stringify(contract.schemas.error);
  } catch {
    // A recursive schema written twice: not worth telling apart here.
    return false;
  }
}

/** ` (createPlant)` when the document names the operation; `contract.operationId` falls back to a name of its own. */
function operationIdShown(contract: Contract): string {
  // Not spec.js's OPERATION: spec.js loads only when a document is read (the line above names POST /plants too).
  const operation = findOperation(contract.document, contract.operationPath, 'post');
  const written = 'found' in operation ? operation.found.operationId : undefined;
  return typeof written === 'string' ? ` (${written})` : '';
}

/** What puts POST /plants below a path: the first server's URL, the document's path (`/api/plants`), or both. */
function basePathSource(contract: Contract): string {
  const { basePath, operationPath } = contract;
  const unslashed = operationPath.replace(/\/$/, '');
  if (unslashed === '/plants') return `its first server is at ${basePath}`;
  if (basePath === unslashed.slice(0, -'/plants'.length)) return `its path is ${operationPath}, below ${basePath}`;
  return `its first server and its path ${operationPath} put POST /plants below ${basePath}`;
}

function describeAuth(contract: Contract): string {
  const schemes = contract.authSchemes.length > 0 ? ` (${contract.authSchemes.join(', ')})` : '';
  if (contract.auth === 'none') return 'no authentication';
  if (contract.auth === 'optional') return 'authentication optional';
  return `${contract.auth} authentication${schemes}`;
}

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
