import { REF_SIBLINGS, type ExactIntegers, type RefSiblings } from './document-reader.js';
import type { SchemaDialect } from './schema/index.js';
import { NUMBER_KEYWORDS } from './schema/keywords.js';
import { partRefusesNull, unionWithoutNull } from './schema/canonicalise.js';
import { objectView } from './object-view.js';
import type { JsonSchema } from './schemas.js';

/** A place in the document that reads two ways, and how plantstore reads it. */
export interface DocumentReading {
  /** JSON pointer of the schema, in the dereferenced document (`#/paths/~1plants/...` or where it was first met). */
  readonly pointer: string;
  /** What is written there and what test, serve, mock and proxy do with it. */
  readonly reading: string;
  /** True when `pointer` is already the place the document writes it (not one of the dereferenced document). */
  readonly written?: boolean;
}

// Members whose values are data, not schemas: nothing below them is read as a schema.
const DATA_MEMBERS = new Set(['enum', 'const', 'default', 'example', 'examples', 'required', 'discriminator']);
// Members whose values map names to schemas: the map itself is no schema (a property may be called `nullable`).
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);

const STRAY_NULLABLE =
  "`nullable: true` is no keyword of OpenAPI 3.1; read as null allowed, so null is neither sent nor faulted here (write `type: [..., 'null']` to allow null, or remove `nullable`)";
const OPEN_ENUM =
  '`nullable: true` beside an `enum` without null reads two ways in OpenAPI 3.0; null is neither sent nor faulted here (list null in the enum to allow it, or remove `nullable`)';

const OPEN_UNION =
  "`nullable: true` beside an `anyOf`/`oneOf` without `type` reads two ways in OpenAPI 3.0 (3.0.3 adds null only where `type` is written; converters add a null branch); null is neither sent nor faulted here (to allow null, add a branch `enum: [null]`, as drf-spectacular's NullEnum; to refuse it, remove `nullable`)";

const OPEN_PARTS =
  "`nullable: true` beside an `allOf` (or a `$ref`) whose schema refuses null reads two ways in OpenAPI 3.0 (3.0.3's `nullable` works within a single Schema Object, so openapi-core refuses null there; Swashbuckle's and TypeSpec's servers, kin-openapi, take it); null is neither sent nor faulted here (to allow null, write `oneOf: [{$ref: …}, {enum: [null]}]`, or `nullable: true` in the named schema; to refuse it, remove `nullable`)";

const SWAGGER_NULLABLE =
  "`x-nullable: true` is Swagger 2.0's extension (NSwag's and go-swagger's), no keyword of OpenAPI 3; read as null refused, so null is sent as an invalid value (write `nullable: true` in 3.0, `type: [..., 'null']` in 3.1, to allow null)";
const NULL_BODY =
  'null allowed at the root of the NewPlant: the body is read as the contract\'s "Required. A NewPlant object", so a null body is never sent as a valid NewPlant, and serve and mock refuse it (remove `nullable` there, as the request body\'s `required: true` says)';
const BASE64_CONTENT =
  '`contentEncoding: base64` is an annotation in JSON Schema 2020-12 and a rule to a server that decodes it: valid values are sent as base64, and text that is not base64 is neither sent nor faulted (add `pattern` to make it a rule)';
const NEITHER_WAY =
  '`readOnly` and `writeOnly` both true: the property travels neither way, never sent and not expected in answers (keep the one that says where it travels)';
const NEITHER_WAY_3_0 = NEITHER_WAY.replace(
  'both true:',
  'both true, which OpenAPI 3.0 forbids ("MUST NOT be marked as both"):',
);

/**
 * Where the tested schemas (NewPlant, Plant, Error) say something that reads two ways, which `test` then
 * neither sends nor faults: OpenAPI 3.0's `nullable` beside an enum without null, a stray `nullable`
 * in a 3.1 document, Swagger 2.0's `x-nullable` left in, a property both `readOnly` and `writeOnly`, a 3.0
 * `type: array` without `items`, and 3.1's `contentEncoding: base64`. Each schema object is reported once, at the first pointer it is met by.
 * `exact` gives the integers the document writes beyond 2^53, so a reading quotes them as written.
 */
export function documentReadings(
  schemas: readonly { readonly schema: unknown; readonly location: string }[],
  dialect: SchemaDialect,
  exact: ExactIntegers = new Map(),
): DocumentReading[] {
  const found: DocumentReading[] = [];
  const seen = new Set<object>();
  const visit = (node: unknown, pointer: string, schema: boolean): void => {
    if (typeof node !== 'object' || node === null || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      node.forEach((item, index) => visit(item, `${pointer}/${index}`, true));
      return;
    }
    const siblings = schema ? refSiblingsOf(node as Record<string, unknown>) : undefined;
    if (siblings !== undefined) found.push({ ...siblings, written: true });
    const reading = schema ? readingOf(node as Record<string, unknown>, dialect) : undefined;
    if (reading !== undefined) found.push({ pointer, reading });
    const mistyped = schema ? mistypedEnumValues(node as Record<string, unknown>, dialect) : undefined;
    if (mistyped !== undefined) found.push({ pointer: `${pointer}/enum`, reading: mistyped });
    const textBound = schema ? numberBoundsBesideText(node as Record<string, unknown>) : undefined;
    if (textBound !== undefined) found.push({ pointer, reading: textBound });
    const untyped = schema ? arrayWithoutItems(node as Record<string, unknown>, dialect) : undefined;
    if (untyped !== undefined) found.push({ pointer, reading: untyped });
    const pydantic = schema ? pydanticConstraintNames(node as Record<string, unknown>, exact.get(node)) : undefined;
    if (pydantic !== undefined) found.push({ pointer, reading: pydantic });
    const undeclared = schema && !/\/allOf\/\d+$/.test(pointer) ? undeclaredRequired(node) : undefined;
    if (undeclared !== undefined) found.push({ pointer: `${pointer}/required`, reading: undeclared });
    for (const [key, value] of Object.entries(node)) {
      if (DATA_MEMBERS.has(key) || key.startsWith('x-')) continue;
      visit(value, `${pointer}/${escapePointer(key)}`, schema ? !SCHEMA_MAPS.has(key) : true);
    }
  };
  for (const { schema, location } of schemas) visit(schema, location, true);
  return found;
}

/**
 * A `required` name its own object neither declares nor matches by `patternProperties` (`colour` beside a declared
 * `color`): JSON Schema requires the member with any value, which is rarely what was meant. An `allOf` part is
 * left out (its siblings may declare the name), and so is an object that composes or closes itself.
 */
function undeclaredRequired(node: object): string | undefined {
  const { required, properties, patternProperties, additionalProperties } = node as Record<string, unknown>;
  if (!Array.isArray(required) || properties === null || typeof properties !== 'object') return undefined;
  if (['allOf', 'anyOf', 'oneOf', '$ref', 'if', 'dependentSchemas'].some((key) => key in node)) return undefined;
  if (additionalProperties === false || (additionalProperties !== undefined && additionalProperties !== true)) {
    return undefined;
  }
  const patterns = Object.keys(
    patternProperties !== null && typeof patternProperties === 'object' ? patternProperties : {},
  ).flatMap((pattern) => {
    try {
      return [new RegExp(pattern, 'u')];
    } catch {
      return [];
    }
  });
  const names = required.filter(
    (name): name is string =>
      typeof name === 'string' && !Object.hasOwn(properties, name) && !patterns.some((regex) => regex.test(name)),
  );
  if (names.length === 0) return undefined;
  const listed = names.map((name) => `\`${name}\``).join(', ');
  return (
    `${listed} required but not declared in \`properties\`: read as JSON Schema reads it, a member that must be ` +
    'present with any JSON value, so valid NewPlants carry it with values of every type and any answer value passes ' +
    '(declare it in `properties` with its type, or correct the name)'
  );
}

/**
 * The `enum` values its own `type` refuses (`enum: [herb, 3]` under `type: string`, as a generator writes an
 * `int | str` choice): JSON Schema needs both, so those values are never valid, though a server built from the
 * enum alone takes them.
 */
function mistypedEnumValues(node: Record<string, unknown>, dialect: SchemaDialect): string | undefined {
  const { enum: values, type } = node;
  if (!Array.isArray(values) || (typeof type !== 'string' && !Array.isArray(type))) return undefined;
  const types = new Set<unknown>(Array.isArray(type) ? type : [type]);
  if (dialect === 'openapi-3.0' && node.nullable === true) types.add('null');
  const refused = values.filter(
    (value) => !types.has(jsonType(value)) && !(types.has('number') && jsonType(value) === 'integer'),
  );
  if (refused.length === 0) return undefined;
  const listed = refused.map((value) => JSON.stringify(value)).join(', ');
  return (
    `\`enum\` lists ${listed}, which its own \`type\` (${[...types].join(', ')}) refuses: JSON Schema needs both, so ` +
    `${refused.length === 1 ? 'it is' : 'they are'} never valid: never sent as valid, and refused wherever judged (add the type, or remove the value)`
  );
}

const ARRAY_WITHOUT_ITEMS =
  '`type: array` without `items`, which OpenAPI 3.0 requires ("MUST be present if the type is array"): read as JSON ' +
  'Schema reads it, items of any JSON value, so valid NewPlants carry items of every type and any answer item passes ' +
  '(write the item schema meant, or `items: {}` to say any value)';

/**
 * A 3.0 `type: array` without `items`: OpenAPI 3.0 requires them, its own schema does not check it (swagger-parser
 * and Redocly load such a document), and the compiler reads the items as any value, as JSON Schema does.
 */
function arrayWithoutItems(node: Record<string, unknown>, dialect: SchemaDialect): string | undefined {
  return dialect === 'openapi-3.0' && node.type === 'array' && node.items === undefined
    ? ARRAY_WITHOUT_ITEMS
    : undefined;
}

/**
 * Bounds beside a `type` that takes a number and a string, as .NET 10 writes a number with [Range] (`type: [integer,
 * string]`, a digits pattern, `minimum: 1`): JSON Schema's numeric keywords pass any string, so the digits `"5000"`
 * are valid there, though ASP.NET Core's [Range] refuses them. (A `format` alone, on every .NET number, is not named.)
 */
function numberBoundsBesideText(node: Record<string, unknown>): string | undefined {
  const types = Array.isArray(node.type) ? (node.type as unknown[]) : [];
  if (!types.includes('string') || !(types.includes('integer') || types.includes('number'))) return undefined;
  const written = NUMBER_KEYWORDS.filter(
    (keyword) => node[keyword] !== undefined && typeof node[keyword] !== 'boolean',
  );
  if (written.length === 0) return undefined;
  const listed = written.map((keyword) => `\`${keyword}\``).join(', ');
  const typed = `\`type: [${types.map(String).join(', ')}]\``;
  return (
    `${listed} beside ${typed} ${written.length === 1 ? 'bounds' : 'bound'} the number only (JSON Schema's numeric ` +
    'keywords pass any string): a string the rest allows is valid whatever number its digits write, so it is taken ' +
    'by serve and mock and not faulted in answers; valid values sent as text write numbers inside the bounds, as ' +
    "ASP.NET Core's [Range] (.NET writes numbers so) reads them (to bound the text too, give the string a `pattern` " +
    'or `maxLength` of its own, or remove `string` from `type`)'
  );
}

/** pydantic's constraint names and the JSON Schema keywords they stand for. */
const PYDANTIC_CONSTRAINTS: Readonly<Record<string, string>> = {
  ge: 'minimum',
  le: 'maximum',
  gt: 'exclusiveMinimum',
  lt: 'exclusiveMaximum',
  multiple_of: 'multipleOf',
};

/**
 * pydantic's own constraint names left in a schema (`ge: 1` where `minimum: 1` belongs), as pydantic 2 writes them
 * when a `BeforeValidator` stands before `Field(...)` in `Annotated`: JSON Schema ignores them, so the document
 * allows what the server refuses. A name whose keyword is also written, or whose value is no number, is left.
 */
function pydanticConstraintNames(
  node: Record<string, unknown>,
  exact: ReadonlyMap<string, bigint> | undefined,
): string | undefined {
  const names = Object.keys(PYDANTIC_CONSTRAINTS).filter(
    (name) => typeof node[name] === 'number' && node[PYDANTIC_CONSTRAINTS[name] ?? ''] === undefined,
  );
  if (names.length === 0) return undefined;
  // An int64 edge read as a double would print as 9223372036854776000, a number the document does not write.
  const written = names.map((name) => `\`${name}: ${String(exact?.get(name) ?? node[name])}\``).join(', ');
  const keywords = names.map((name) => `\`${PYDANTIC_CONSTRAINTS[name] ?? ''}\``).join(', ');
  const one = names.length === 1;
  return (
    `${written} ${one ? "is pydantic's name, no JSON Schema keyword" : "are pydantic's names, no JSON Schema keywords"} ` +
    '(pydantic writes them so when a validator stands before `Field(...)` in `Annotated`): read as annotations, ' +
    `no bound, so values beyond ${one ? 'it' : 'them'} are sent as valid and accepted in answers ` +
    `(write ${keywords}, or put \`Field(...)\` first in \`Annotated\`)`
  );
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/** Java's POSIX-named classes that ECMA-262 also reads, as Unicode properties: the same text, other letters. */
const JAVA_ASCII_CLASSES: Readonly<Record<string, string>> = { Alpha: '[A-Za-z]', Lower: '[a-z]', Upper: '[A-Z]' };

/**
 * A `pattern` using `\p{Alpha}`, `\p{Lower}` or `\p{Upper}`: ECMA-262 (JSON Schema's dialect) reads them as
 * Unicode's properties, Java's java.util.regex (Jakarta's `@Pattern`, carried into springdoc's documents) as
 * ASCII classes, so a Java server refuses `é` that the document allows.
 */
function javaAsciiClassReading(pattern: unknown): string | undefined {
  if (typeof pattern !== 'string') return undefined;
  const names = [...new Set([...pattern.matchAll(/\\[pP]\{(Alpha|Lower|Upper)\}/g)].map((match) => match[1] ?? ''))];
  if (names.length === 0) return undefined;
  const written = names.map((name) => `\`\\p{${name}}\``).join(', ');
  const ascii = names.map((name) => JAVA_ASCII_CLASSES[name] ?? '').join(', ');
  return (
    `${written} in a pattern: read as ECMA-262 (JSON Schema's dialect) reads it, Unicode's property, so valid values ` +
    `hold letters beyond ASCII (é, Ж); Java's java.util.regex (Jakarta's @Pattern) reads it as ASCII only ` +
    `(write ${ascii} to mean ASCII)`
  );
}

/**
 * OpenAPI 3.0's boolean `exclusiveMinimum`/`exclusiveMaximum` left in a 3.1 document (an upgrade that kept them):
 * JSON Schema 2020-12 wants the bound itself there; the schema compiler reads them as 3.0 does.
 */
function booleanExclusiveReading(node: Record<string, unknown>, dialect: SchemaDialect): string | undefined {
  if (dialect !== 'openapi-3.1') return undefined;
  const written = (['exclusiveMinimum', 'exclusiveMaximum'] as const).filter((key) => node[key] === true);
  if (written.length === 0) return undefined;
  const forms = written.map((key) => {
    const bound = node[key === 'exclusiveMinimum' ? 'minimum' : 'maximum'];
    return `\`${key}: ${typeof bound === 'number' ? bound : '<the bound>'}\``;
  });
  return (
    `${written.map((key) => `\`${key}: true\``).join(', ')} is OpenAPI 3.0's form, no JSON Schema 2020-12 keyword ` +
    'value (ajv refuses the schema; python-jsonschema compares with true as 1): read as OpenAPI 3.0 reads it, the ' +
    `bound beside it made exclusive (write ${forms.join(', ')} without the inclusive bound)`
  );
}

function readingOf(node: Record<string, unknown>, dialect: SchemaDialect): string | undefined {
  const javaClasses = javaAsciiClassReading(node.pattern);
  if (javaClasses !== undefined) return javaClasses;
  const exclusive = booleanExclusiveReading(node, dialect);
  if (exclusive !== undefined) return exclusive;
  if (node.readOnly === true && node.writeOnly === true)
    return dialect === 'openapi-3.0' ? NEITHER_WAY_3_0 : NEITHER_WAY;
  if (node['x-nullable'] === true && node.nullable !== true && !allowsNull(node)) return SWAGGER_NULLABLE;
  const encoding = node.contentEncoding;
  const base64 = dialect === 'openapi-3.1' && typeof encoding === 'string' && encoding.toLowerCase() === 'base64';
  if (base64 && node.format === undefined && node.nullable !== true) return BASE64_CONTENT;
  if (node.nullable !== true) return undefined;
  if (dialect === 'openapi-3.1') return STRAY_NULLABLE;
  if (Array.isArray(node.enum) && !node.enum.includes(null)) return OPEN_ENUM;
  if (partRefusesNull(node)) return OPEN_PARTS;
  return node.type === undefined && unionWithoutNull(node) ? OPEN_UNION : undefined;
}

/** The read-as line of a 3.0 `$ref` with constraining keywords beside it, at the place it is written. */
function refSiblingsOf(node: Record<string, unknown>): { pointer: string; reading: string } | undefined {
  const marked = node[REF_SIBLINGS] as RefSiblings | undefined;
  if (marked === undefined) return undefined;
  const written = marked.keywords.map((keyword) => `\`${keyword}\``).join(', ');
  const reading =
    `${written} beside a \`$ref\`, which OpenAPI 3.0 says to ignore: applied with the schema the \`$ref\` names, ` +
    'as one more `allOf` branch (as OpenAPI 3.1 reads it), so valid values meet both (write them in an `allOf` ' +
    'beside the `$ref` to say so in 3.0, or remove them)';
  return { pointer: marked.pointer, reading };
}

function allowsNull(node: Record<string, unknown>): boolean {
  return (Array.isArray(node.type) && node.type.includes('null')) || node.type === 'null';
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The reading of a NewPlant whose root lets null in (see `withoutNullAtRoot`), or `undefined`. */
export function nullRootReading(schema: unknown, dialect: SchemaDialect): string | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const node = schema as Record<string, unknown>;
  const nullable = dialect === 'openapi-3.0' ? node.nullable === true : allowsNull(node);
  return nullable ? NULL_BODY : undefined;
}

const SHAPELESS_NEW_PLANT =
  'the NewPlant schema declares no property (an object with an example only, as postman-to-openapi and other ' +
  'converters of recorded requests write a body): any JSON object is a valid NewPlant, `{}` included, so test sends ' +
  "such bodies as valid and serve and mock accept them (declare its properties and `required`, as the contract's " +
  '`id` and `name`, to have them judged)';

/** The reading of a NewPlant whose canonical schema declares, requires and closes nothing, or `undefined`. */
export function shapelessNewPlantReading(schema: JsonSchema): string | undefined {
  const view = objectView(schema);
  const open = view.names.length === 0 && view.alternatives.size === 0 && view.additionalProperties === true;
  return open && schema.patternProperties === undefined && schema.propertyNames === undefined
    ? SHAPELESS_NEW_PLANT
    : undefined;
}
