/** The schema compiler: one JSON Schema in, an exact check and valid, boundary and invalid values out. */
export { compileSchema } from './compile.js';
export {
  JsonPlaceholder,
  UnsupportedSchemaError,
  type CompiledSchema,
  type CompileOptions,
  type ExactJson,
  type IntegerBounds,
  type SchemaDialect,
  type ValueVariant,
} from './compiled-schema.js';
export { AWKWARD_TEXT, codePointArbitrary, codePointLength, LONG_TEXT_MAX, textArbitrary } from './text.js';
