import { compileSchemaCheck, type SchemaCheck } from '../schemas.js';
import { bothReadings, canonicalise, isObject, subschemas, withNullJoined, type Canonical } from './canonicalise.js';
import { childPointer, keywordValueProblem } from './keywords.js';
import { UnsupportedSchemaError, type CompiledSchema, type CompileOptions } from './compiled-schema.js';
import { Context } from './context.js';
import { validArbitrary } from './valid.js';
import { variantsOf } from './variants.js';

/**
 * Compiles a JSON Schema (as swagger-parser's `dereference` gives it: references replaced, so a
 * recursive schema is a cyclic object graph) once into an exact check and generators of valid,
 * boundary and invalid values. Throws {@link UnsupportedSchemaError} for what it cannot honour.
 */
export function compileSchema(schema: object, options: CompileOptions): CompiledSchema {
  refuseIllTypedKeywords(schema);
  const canonical = canonicalise(schema, options.dialect);
  const context = new Context(canonical, options);
  const root = { ...canonical.schema };
  delete root.$defs;
  canonical.origin.set(root, '');
  const valid = validArbitrary(root, { schemaPointer: '', pointer: '', refs: [] }, context);
  if (valid === null) {
    throw new UnsupportedSchemaError(
      '$ref',
      '',
      `${options.subject} nests itself without end: every value would be infinitely deep`,
    );
  }
  let check;
  try {
    check = compileSchemaCheck(withNullJoined(canonical), options.subject);
  } catch (error) {
    throw new UnsupportedSchemaError('$schema', '', `the schema is not valid JSON Schema: ${(error as Error).message}`);
  }
  // Variants cost a sample of each candidate: made on first use, so a server that only checks never pays.
  let variants: ReturnType<typeof variantsOf> | undefined;
  const ambiguities = ambiguitiesCheck(canonical, check, options.subject);
  // A value only one reading takes is sent neither as valid nor as invalid: no variant's keyword is `ambiguous`.
  const unambiguous: SchemaCheck = (value) => {
    const violations = check(value);
    if (violations.length > 0) return violations;
    return ambiguities(value).map((violation) => ({ ...violation, keyword: 'ambiguous' }));
  };
  const made = (): ReturnType<typeof variantsOf> => (variants ??= variantsOf(root, valid, context, unambiguous));
  return {
    schema: canonical.schema,
    check,
    ambiguities,
    valid,
    get boundaries() {
      return made().boundaries;
    },
    get invalid() {
      return made().invalid;
    },
  };
}

/** The check of the stricter reading, asked only of values the (lenient) check accepts; compiled on first use. */
function ambiguitiesCheck(canonical: Canonical, check: SchemaCheck, subject: string): SchemaCheck {
  if (canonical.nullOpen.size === 0 && canonical.lenientBranches.size === 0) return () => [];
  let strict: SchemaCheck | undefined;
  return (value) => {
    if (check(value).length > 0) return [];
    strict ??= compileSchemaCheck(bothReadings(canonical), subject);
    return strict(value);
  };
}

/**
 * Refuses a keyword whose value is not what JSON Schema asks (`maximum: "10"`), at its own pointer and with how to
 * write it: read leniently, a quoted bound would be a guess; left to ajv, only "not valid JSON Schema" at the root.
 */
function refuseIllTypedKeywords(root: object): void {
  const seen = new Set<object>();
  const visit = (node: unknown, pointer: string): void => {
    if (!isObject(node) || seen.has(node)) return;
    seen.add(node);
    for (const [keyword, value] of Object.entries(node)) {
      const problem = keywordValueProblem(keyword, value);
      if (problem !== undefined) throw new UnsupportedSchemaError(keyword, childPointer(pointer, keyword), problem);
    }
    for (const [child, at] of subschemas(node, pointer)) visit(child, at);
  };
  visit(root, '');
}
