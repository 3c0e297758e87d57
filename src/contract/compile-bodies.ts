import { forDirection } from './access-modes.js';
import type { DocumentProblem } from './contract-error.js';
import { pointerSegments } from './document-pointer.js';
import { givenPointer } from './schema-pointer.js';
import type { CompiledSchema, SchemaDialect } from './schema/compiled-schema.js';
import { UnsupportedSchemaError } from './schema/compiled-schema.js';
import { compileSchema } from './schema/index.js';

/** At most this many unsupported constructs are reported per schema. */
const MAX_REFUSALS = 20;

/** How to compile one schema of the operation and say where its keywords are in the document. */
export interface BodyToCompile {
  readonly schema: Record<string, unknown>;
  readonly dialect: SchemaDialect;
  /** `a NewPlant`, for the compiler's messages. */
  readonly subject: string;
  /** `NewPlant`, for ours. */
  readonly name: string;
  /** Maps a pointer inside the schema to its place in the document; `undefined` if it is not written there. */
  readonly locate: (schemaPointer: string) => string | undefined;
}

/**
 * Compiles a schema, or lists every construct in it the compiler cannot honour: after each refusal the
 * keyword is removed from a copy and the copy compiled again, so one run of `validate` names them all.
 */
export function compileBody(body: BodyToCompile): { compiled?: CompiledSchema; problems: DocumentProblem[] } {
  const problems: DocumentProblem[] = [];
  const directed = forDirection(body.schema, body.name === 'NewPlant' ? 'request' : 'response');
  let schema = body.name === 'NewPlant' ? withoutNullAtRoot(directed, body.dialect) : directed;
  for (;;) {
    try {
      const compiled = compileSchema(schema, { dialect: body.dialect, subject: body.subject });
      return problems.length === 0 ? { compiled, problems } : { problems };
    } catch (error) {
      if (!(error instanceof UnsupportedSchemaError)) {
        // A copy without a refused keyword may be one the compiler was never meant to see: stop there.
        if (problems.length > 0) return { problems };
        throw error;
      }
      const pointer = givenPointer(schema, error.schemaPointer);
      problems.push(refusal(error, pointer, body));
      const next =
        pointer !== undefined && problems.length < MAX_REFUSALS ? withoutKeyword(schema, pointer) : undefined;
      if (next === undefined) return { problems };
      schema = next;
    }
  }
}

/**
 * The NewPlant without null at its root (3.0's `nullable: true`, 3.1's `"null"` among its types): the contract's
 * body is "Required. A NewPlant object", and a null body creates no Plant, as an empty one does not (NSwag writes
 * `nullable: true` on every body of a reference type). Null inside the NewPlant is left as written.
 */
export function withoutNullAtRoot(schema: Record<string, unknown>, dialect: SchemaDialect): Record<string, unknown> {
  if (dialect === 'openapi-3.0' && schema.nullable === true) {
    const copy = { ...schema };
    delete copy.nullable;
    return copy;
  }
  if (Array.isArray(schema.type) && schema.type.includes('null')) {
    const types = (schema.type as unknown[]).filter((type) => type !== 'null');
    return { ...schema, type: types.length === 1 ? types[0] : types };
  }
  return schema;
}

function refusal(error: UnsupportedSchemaError, pointer: string | undefined, body: BodyToCompile): DocumentProblem {
  const reason = error.reason.replace(/[.\s]+$/, '');
  const advice =
    'plantstore refuses the document rather than ignore the keyword; rewrite or remove it to test against this document.';
  const written = pointer === undefined ? undefined : body.locate(pointer);
  if (written !== undefined) {
    return {
      pointer: written,
      message: `the ${body.name} schema's "${error.keyword}" cannot be honoured: ${reason}. ${advice}`,
    };
  }
  // Not a place written in the document: say where it is in the schema as the compiler reads it.
  const inside = error.schemaPointer || '/';
  return {
    pointer: body.locate('') ?? '',
    message: `the ${body.name} schema's "${error.keyword}" (at ${inside} of the schema as plantstore reads it) cannot be honoured: ${reason}. ${advice}`,
  };
}

/** A copy of a (possibly cyclic) schema without the keyword at `pointer`; `undefined` if it is not there. */
export function withoutKeyword(schema: Record<string, unknown>, pointer: string): Record<string, unknown> | undefined {
  const segments = pointerSegments(pointer);
  const keyword = segments.pop();
  if (keyword === undefined) return undefined;
  const copy = cloneGraph(schema) as Record<string, unknown>;
  const parent = segments.reduce<unknown>(
    (node, key) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined),
    copy,
  );
  if (parent === null || typeof parent !== 'object' || !(keyword in parent)) return undefined;
  if (Array.isArray(parent)) return undefined;
  delete (parent as Record<string, unknown>)[keyword];
  return copy;
}

/**
 * The schema with every integer written beyond 2^53 as a `bigint` again (JSON and YAML parsers round
 * them to doubles), so bounds like `maximum: 9007199254740993` are honoured exactly.
 */
export function withExactIntegers(
  schema: Record<string, unknown>,
  exact: ReadonlyMap<object, ReadonlyMap<string, bigint>>,
): Record<string, unknown> {
  return exact.size === 0 ? schema : (cloneGraph(schema, new Map(), exact) as Record<string, unknown>);
}

/**
 * `holder[key]` with every integer written beyond 2^53 as a `bigint` again ({@link withExactIntegers}): an
 * annotation's value (`example: 9007199254740993`, or an object or list holding such integers).
 */
export function exactMember(
  holder: object,
  key: string,
  exact: ReadonlyMap<object, ReadonlyMap<string, bigint>>,
): unknown {
  const value: unknown = (holder as Record<string, unknown>)[key];
  return exact.get(holder)?.get(key) ?? (exact.size === 0 ? value : cloneGraph(value, new Map(), exact));
}

/** A deep copy that keeps shared and cyclic references shared and cyclic (as `$ref`s dereference to). */
function cloneGraph(
  value: unknown,
  copies = new Map<object, unknown>(),
  exact?: ReadonlyMap<object, ReadonlyMap<string, bigint>>,
): unknown {
  if (value === null || typeof value !== 'object') return value;
  const known = copies.get(value);
  if (known !== undefined) return known;
  const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? [] : {};
  copies.set(value, copy);
  const exactHere = exact?.get(value);
  for (const [key, item] of Object.entries(value)) {
    (copy as Record<string, unknown>)[key] = exactHere?.get(key) ?? cloneGraph(item, copies, exact);
  }
  return copy;
}
