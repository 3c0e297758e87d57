import type fc from 'fast-check';
import type { LosslessNumber } from 'lossless-json';
import type { SchemaCheck } from '../schemas.js';

/**
 * A JSON value with exact numbers, as generation produces it: integers are `bigint` (every digit
 * kept, beyond 2^53 too), other numbers are lossless-json `LosslessNumber`s holding their decimal
 * text. Objects are created without a prototype, so `__proto__` is an ordinary key.
 * `stringifyExactJson` writes both number kinds exactly. {@link JsonPlaceholder}s come only from a
 * caller's {@link CompileOptions.integer} hook and must be replaced by the caller before writing.
 */
export type ExactJson =
  null | boolean | string | bigint | LosslessNumber | JsonPlaceholder | ExactJson[] | { [key: string]: ExactJson };

/** A value a caller fills in later (e.g. an id made fresh per run); the compiler never makes one. */
export abstract class JsonPlaceholder {
  /** What the placeholder stands for, for messages. */
  abstract describe(): string;
}

/** Which dialect a schema is written in: OpenAPI 3.0's Schema Object or JSON Schema 2020-12 (3.1). */
export type SchemaDialect = 'openapi-3.0' | 'openapi-3.1';

/** What an integer leaf allows, handed to {@link CompileOptions.integer}. */
export interface IntegerBounds {
  /** JSON pointer of the value in the instance, e.g. `/id` or `/tags/0`. */
  readonly pointer: string;
  /** Inclusive bounds after folding `format`, exclusive bounds and `multipleOf`; `undefined`: none. */
  readonly min: bigint | undefined;
  readonly max: bigint | undefined;
  readonly multipleOf: bigint | undefined;
  readonly format: string | undefined;
}

export interface CompileOptions {
  readonly dialect: SchemaDialect;
  /** Says what the schema is, for messages: `a NewPlant`. */
  readonly subject: string;
  /** Depth at which recursive `$ref`s stop expanding (only what the schema allows to stop). Default 3. */
  readonly maxRecursion?: number;
  /**
   * Replaces the arbitrary of an integer leaf of *valid* values (e.g. to make ids fresh per run).
   * Return `undefined` to keep the compiler's own. Boundary and invalid variants never use it.
   */
  readonly integer?: (bounds: IntegerBounds) => fc.Arbitrary<ExactJson> | undefined;
}

/**
 * A named set of values that all break (or, for boundaries, sit on) one keyword at one place, and
 * satisfy every other keyword: e.g. `tag` one code point longer than `maxLength`.
 */
export interface ValueVariant {
  /** The keyword judged, as the document writes it: `maxLength`, `enum`, `required`, `then`, ... */
  readonly keyword: string;
  /** The keyword the check reports, when not `keyword`: `anyOf` for a broken `then` or `else` (read as one). */
  readonly judgedAs?: string;
  /** JSON pointer of the instance location it applies to (`/tag`, `` for the whole value). */
  readonly pointer: string;
  /**
   * Where the check reports it, when not `pointer`: a keyword broken inside a branch of `anyOf`/`oneOf` is
   * reported as that combinator (`judgedAs`) at the place of the value the branches are alternatives for.
   */
  readonly judgedAt?: string;
  /** JSON pointer of the keyword in the (canonical) schema, e.g. `/properties/tag/maxLength`. */
  readonly schemaPointer: string;
  /** True for a value the schema accepts (a boundary just inside), false for one it refuses. */
  readonly valid: boolean;
  /** For people: `"tag" one code point longer than maxLength 20`. */
  readonly label: string;
  /** Whole values (of the compiled schema, not just the leaf), with this one property. */
  readonly arbitrary: fc.Arbitrary<ExactJson>;
}

/** A schema compiled once: an exact validator and generators of valid, boundary and invalid values. */
export interface CompiledSchema {
  /** The schema in canonical JSON Schema 2020-12 form (OpenAPI 3.0 keywords translated). */
  readonly schema: Record<string, unknown>;
  /** Checks a value parsed by `parseExactJson`; integers are judged on their JSON text. */
  readonly check: SchemaCheck;
  /**
   * Where a value the check accepts means something else under another reading of the document (OpenAPI 3.0
   * `nullable: true` beside an `enum` without null; a `discriminator` honoured or not): what that reading refuses.
   * Usually empty; no boundary or invalid value generated is ever ambiguous, nor a valid one, but where no value of a
   * discriminated `oneOf` is valid under both readings (then valid values follow the discriminator).
   */
  readonly ambiguities: SchemaCheck;
  /** Valid values over the whole space the schema allows; shrinking keeps them valid. */
  readonly valid: fc.Arbitrary<ExactJson>;
  /** The edges of every constraint, just inside (`valid: true`) and just outside (`valid: false`). */
  readonly boundaries: readonly ValueVariant[];
  /** Values that break exactly one keyword each (`valid: false`), one variant per keyword and place. */
  readonly invalid: readonly ValueVariant[];
}

/**
 * Thrown when a schema uses a construct the compiler cannot honour (or cannot satisfy): the run is
 * refused before any case, naming the keyword and where it is, never silently dropped.
 */
export class UnsupportedSchemaError extends Error {
  override readonly name = 'UnsupportedSchemaError';
  constructor(
    /** The keyword that cannot be honoured, e.g. `$dynamicRef` or `pattern`. */
    readonly keyword: string,
    /** JSON pointer of the keyword in the schema given to the compiler. */
    readonly schemaPointer: string,
    /** Why, in words a person can act on. */
    readonly reason: string,
  ) {
    super(`${keyword} at ${schemaPointer || '/'}: ${reason}`);
  }
}
