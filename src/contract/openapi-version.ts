import type { SchemaDialect } from './schema/compiled-schema.js';

/** The OpenAPI versions swagger-parser validates, newest first, one per minor version we read. */
const PARSER_VERSION: Record<SchemaDialect, string> = { 'openapi-3.0': '3.0.4', 'openapi-3.1': '3.1.2' };

/** What a document's version field says: a dialect plantstore reads, or why it cannot. */
export type DocumentVersion =
  | { readonly dialect: SchemaDialect; readonly version: string }
  | { readonly refused: string; readonly version: string | undefined };

/**
 * Reads the `openapi` (or `swagger`) field of a parsed document. OpenAPI 3.0.x, 3.1.x and 3.2.x (as 3.1) are read;
 * Swagger 2.0 and anything else are refused with a sentence saying what the document is and what to do.
 */
export function documentVersion(document: Record<string, unknown>, shown: string): DocumentVersion {
  const { openapi, swagger } = document;
  if (swagger !== undefined && openapi === undefined) {
    const version = typeof swagger === 'string' || typeof swagger === 'number' ? String(swagger) : 'of unknown version';
    return { version, refused: swaggerRefusal(version, shown) };
  }
  if (typeof openapi === 'number') {
    const version = String(openapi);
    return {
      version,
      refused: `${shown} gives its OpenAPI version as the number ${version}; write it as a string with three parts, e.g. openapi: "${version}.0".`,
    };
  }
  if (typeof openapi !== 'string') {
    return {
      version: undefined,
      refused: `${shown} is not an OpenAPI document: it has no "openapi" field (e.g. openapi: 3.1.0) at its top level.`,
    };
  }
  if (/^3\.0\.\d+$/.test(openapi)) return { dialect: 'openapi-3.0', version: openapi };
  // 3.2 keeps 3.1's Schema Object (JSON Schema 2020-12); what it adds is read or refused by openapi-3-2.ts.
  if (/^3\.[12]\.\d+$/.test(openapi)) return { dialect: 'openapi-3.1', version: openapi };
  if (/^3\.[012]$/.test(openapi)) {
    return {
      version: openapi,
      refused: `${shown} gives its OpenAPI version as "${openapi}"; write it with three parts, e.g. openapi: ${openapi}.0.`,
    };
  }
  return {
    version: openapi,
    refused: `${shown} is an OpenAPI ${openapi} document; plantstore reads OpenAPI 3.0.x, 3.1.x and 3.2.x documents. Write it as OpenAPI 3.2 (openapi: 3.2.0) if it uses nothing newer.`,
  };
}

function swaggerRefusal(version: string, shown: string): string {
  const what = version === '2.0' ? 'a Swagger 2.0 (OpenAPI 2.0) document' : `a Swagger ${version} document`;
  return (
    `${shown} is ${what}; plantstore reads OpenAPI 3.0, 3.1 and 3.2 only. Convert it first, e.g. ` +
    `\`npx swagger2openapi ${shellWord(shown)} -o openapi.yaml\` or the Swagger Editor's "Edit > Convert to OpenAPI 3", ` +
    `then give plantstore the converted file.`
  );
}

/** A path as one shell word: quoted when it holds anything a shell would split or expand. */
export function shellWord(path: string): string {
  return /^[\w./@%+=:,-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}

/**
 * The version to hand swagger-parser for a dialect: it knows only the patch releases that existed when
 * it was published, and a later 3.0.x or 3.1.x changes nothing it checks.
 */
export function parserVersion(dialect: SchemaDialect): string {
  return PARSER_VERSION[dialect];
}

/** The JSON Schema dialects a 3.1 or 3.2 document may declare that the compiler reads (2020-12 and OpenAPI's own). */
function isReadDialect(uri: string): boolean {
  const bare = uri.replace(/#$/, '');
  return (
    bare === 'https://json-schema.org/draft/2020-12/schema' ||
    bare.startsWith('https://spec.openapis.org/oas/3.1/dialect/') ||
    bare.startsWith('https://spec.openapis.org/oas/3.2/dialect/')
  );
}

/**
 * Says why a document's declared JSON Schema dialect (3.1's `jsonSchemaDialect`, or `$schema` on a
 * schema) cannot be read: another draft changes what keywords mean (`items` as a list in draft-07).
 */
export function dialectProblem(declared: unknown, where: string): string | undefined {
  if (declared === undefined) return undefined;
  if (typeof declared === 'string' && isReadDialect(declared)) return undefined;
  return (
    `${where} declares the JSON Schema dialect ${JSON.stringify(declared)}; plantstore reads schemas as JSON Schema ` +
    '2020-12 (the OpenAPI 3.1 default) or the OpenAPI 3.0 Schema Object, and other drafts give keywords other meanings. ' +
    'Remove it or write the schemas in 2020-12.'
  );
}
