import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { ContractError, type DocumentProblem } from './contract-error.js';
import { parserVersion } from './openapi-version.js';
import type { SchemaDialect } from './schema/compiled-schema.js';

type JsonObject = Record<string, unknown>;

/**
 * Reads a JSON or YAML file as written (no `$ref` resolved). A file that cannot be opened throws a
 * {@link ContractError}; one that is not JSON or YAML, or holds no object, is a problem of the document.
 */
export async function readDocument(source: string): Promise<{ document: JsonObject } | { problem: DocumentProblem }> {
  let text: string;
  try {
    text = await readFile(source, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'it is a directory'
          : firstLine(error) || 'unknown reason';
    throw new ContractError(`cannot read ${source}: ${reason}`);
  }
  let parsed: unknown;
  try {
    parsed = parseText(text);
  } catch (error) {
    return { problem: { pointer: '', message: `${source} is neither JSON nor YAML: ${firstLine(error)}` } };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    const held = Array.isArray(parsed) ? 'a list' : parsed === null || parsed === undefined ? 'nothing' : typeof parsed;
    return {
      problem: { pointer: '', message: `${source} is not an OpenAPI document: it holds ${held}, not an object.` },
    };
  }
  return { document: parsed as JsonObject };
}

function parseText(text: string): unknown {
  // JSON is YAML, but JSON.parse reads large JSON documents many times faster.
  if (/^\s*\{/.test(text)) {
    try {
      return JSON.parse(text);
    } catch {
      // Not strict JSON after all: let the YAML parser say where.
    }
  }
  return parseYaml(text);
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]?.trim() ?? '';
}

/**
 * Resolves every `$ref` of a parsed document (recursive schemas become cyclic objects) and, with
 * `metaValidate`, validates it against the OpenAPI schema of its version. Validation problems are
 * listed and the document is still dereferenced when it can be, so later problems are found too.
 */
export async function dereferenceDocument(
  source: string,
  raw: JsonObject,
  dialect: SchemaDialect,
  metaValidate: boolean,
): Promise<{ document?: JsonObject; problems: DocumentProblem[] }> {
  const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
  // swagger-parser mutates what it is given, and knows only the patch releases of its time.
  const copy = (): JsonObject => ({ ...structuredClone(raw), openapi: parserVersion(dialect) });
  const restore = (document: unknown): JsonObject => Object.assign(document as JsonObject, { openapi: raw.openapi });
  let problems: DocumentProblem[] = [];
  if (metaValidate) {
    try {
      return { document: restore(await SwaggerParser.validate(source, copy(), {})), problems };
    } catch (error) {
      problems = parserProblems(error);
      if (!hasDetails(error)) return { problems };
    }
  }
  try {
    return { document: restore(await SwaggerParser.dereference(source, copy(), {})), problems };
  } catch (error) {
    return { problems: [...problems, ...parserProblems(error)] };
  }
}

function hasDetails(error: unknown): boolean {
  const details = (error as { details?: unknown }).details;
  return Array.isArray(details) && details.length > 0;
}

/** swagger-parser's error as problems: one per schema violation, or its message. */
function parserProblems(error: unknown): DocumentProblem[] {
  if (!hasDetails(error)) {
    const text = error instanceof Error ? error.message : String(error);
    return [{ pointer: '', message: text.trim().replace(/\s*\n\s*/g, ' ') }];
  }
  const details = (error as { details: { instancePath?: string; message?: string }[] }).details;
  const seen = new Set<string>();
  const problems: DocumentProblem[] = [];
  for (const detail of details) {
    const pointer = detail.instancePath ?? '';
    const message = pointer === '' ? `the document ${detail.message ?? 'is invalid'}` : (detail.message ?? 'invalid');
    const key = `${pointer}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push({ pointer, message });
  }
  return problems;
}
