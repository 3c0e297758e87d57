import { forDirection, type Direction } from './access-modes.js';
import { withExactIntegers } from './compile-bodies.js';
import type { ExactIntegers } from './document-reader.js';
import { isObject } from './operations.js';
import type { CompiledSchema, SchemaDialect } from './schema/compiled-schema.js';
import { compileSchema } from './schema/index.js';

/**
 * A Schema Object the document gives a body or header of any operation (`true`: any value), compiled as the contract
 * judges it going in `direction` (a `readOnly` property is no request's, a `writeOnly` one no answer's), its integers
 * past 2^53 exact. `undefined` where it is no schema, or one plantstore cannot honour: what it describes then goes
 * unjudged (it is the target's to write), never the document refused. One reader for the mock and the proxy.
 */
export function compileDescribedSchema(
  schema: unknown,
  direction: Direction,
  contract: { readonly dialect: SchemaDialect; readonly exactIntegers: ExactIntegers },
  subject: string,
): CompiledSchema | undefined {
  if (!isObject(schema) && schema !== true) return undefined;
  const written = schema === true ? {} : withExactIntegers(schema, contract.exactIntegers);
  try {
    return compileSchema(forDirection(written, direction), { dialect: contract.dialect, subject });
  } catch {
    return undefined;
  }
}
