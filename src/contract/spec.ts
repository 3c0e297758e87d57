import { join } from 'node:path';
import { PACKAGE_ROOT } from './package-files.js';
import { compileSchemaCheck, type JsonSchema, type SchemaCheck } from './schemas.js';

/** The `openapi.yaml` shipped with this package: the contract every part of plantstore follows. */
export const DEFAULT_SPEC_PATH = join(PACKAGE_ROOT, 'openapi.yaml');

/** The path and method of the contract's one operation. */
export const OPERATION = { path: '/plants', method: 'post' } as const;

/** Raised when an OpenAPI document cannot be read, is invalid, or lacks what plantstore needs. */
export class ContractError extends Error {
  override readonly name = 'ContractError';
}

/** The contract, loaded once: the dereferenced document, its schemas and their compiled checks. */
export interface Contract {
  /** Where the document was read from. */
  readonly source: string;
  /** The validated, fully dereferenced OpenAPI document. */
  readonly document: Record<string, unknown>;
  /** The operationId of POST /plants. */
  readonly operationId: string;
  readonly schemas: { readonly newPlant: JsonSchema; readonly plant: JsonSchema; readonly error: JsonSchema };
  /** Checks of parsed JSON values (see `parseExactJson`) against the request and response schemas. */
  readonly check: { readonly newPlant: SchemaCheck; readonly plant: SchemaCheck; readonly error: SchemaCheck };
}

const loaded = new Map<string, Promise<Contract>>();

/** Loads, validates and dereferences an OpenAPI document once per path, and compiles its schemas. */
export function loadContract(source: string = DEFAULT_SPEC_PATH): Promise<Contract> {
  let contract = loaded.get(source);
  if (!contract) {
    contract = buildContract(source);
    loaded.set(source, contract);
    contract.catch(() => loaded.delete(source));
  }
  return contract;
}

async function buildContract(source: string): Promise<Contract> {
  // The bundled openapi.yaml is validated by `npm test` (swagger-parser and Redocly); validating it
  // again at every start would cost half a second of meta-schema compilation for nothing.
  const document = source === DEFAULT_SPEC_PATH ? await dereferenceDocument(source) : await validateDocument(source);
  const operation = lookup(document, ['paths', OPERATION.path, OPERATION.method], 'the POST /plants operation');
  const newPlant = lookup(
    operation,
    ['requestBody', 'content', 'application/json', 'schema'],
    'the request body schema',
  );
  const plant = lookup(
    operation,
    ['responses', '200', 'content', 'application/json', 'schema'],
    'the 200 response schema',
  );
  const error = lookup(
    operation,
    ['responses', '400', 'content', 'application/json', 'schema'],
    'the 400 response schema',
  );
  const schemas = { newPlant, plant, error };
  return {
    source,
    document,
    operationId: typeof operation.operationId === 'string' ? operation.operationId : 'addPlant',
    schemas,
    check: {
      newPlant: compileSchemaCheck(newPlant, 'a NewPlant'),
      plant: compileSchemaCheck(plant, 'a Plant'),
      error: compileSchemaCheck(error, 'an Error'),
    },
  };
}

/**
 * Validates any OpenAPI document (2.0, 3.0 or 3.1) and returns it dereferenced. Throws a
 * {@link ContractError} whose message lists each problem with its location.
 */
export async function validateDocument(source: string): Promise<Record<string, unknown>> {
  const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
  try {
    const document: unknown = await SwaggerParser.validate(source);
    return document as Record<string, unknown>;
  } catch (error) {
    throw new ContractError(`${source} is not a valid OpenAPI document:\n${describeParserError(error)}`);
  }
}

async function dereferenceDocument(source: string): Promise<Record<string, unknown>> {
  const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
  try {
    const document: unknown = await SwaggerParser.dereference(source);
    return document as Record<string, unknown>;
  } catch (error) {
    throw new ContractError(`${source} cannot be read:\n${describeParserError(error)}`);
  }
}

function describeParserError(error: unknown): string {
  if (!(error instanceof Error)) return `  ${String(error)}`;
  const details = (error as { details?: unknown }).details;
  if (Array.isArray(details) && details.length > 0) {
    return details
      .map((detail: { instancePath?: string; path?: string[]; message?: string }) => {
        const where = detail.instancePath ?? (detail.path ? `/${detail.path.join('/')}` : '');
        return `  at ${where || '/'}: ${detail.message ?? 'invalid'}`;
      })
      .join('\n');
  }
  return error.message
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}

function lookup(root: Record<string, unknown>, keys: readonly string[], what: string): JsonSchema {
  let node: unknown = root;
  for (const key of keys) {
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  }
  if (node === null || typeof node !== 'object') {
    throw new ContractError(`The OpenAPI document has no ${what} (expected at ${keys.join(' → ')}).`);
  }
  return node as JsonSchema;
}
