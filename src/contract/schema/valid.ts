import fc from 'fast-check';
import { LosslessNumber } from 'lossless-json';
import type { Schema } from './canonicalise.js';
import type { ExactJson } from './compiled-schema.js';
import type { Context, Place } from './context.js';
import { anyJsonArbitrary, toExact } from './json.js';
import { childPointer, JSON_TYPES, NUMBER_KEYWORDS, type JsonType } from './keywords.js';
import { mergeSchemas } from './merge.js';
import { arrayArbitrary } from './arrays.js';
import { integerLeaf, numberLeaf } from './number-leaf.js';
import { objectArbitrary } from './objects.js';
import { stringArbitrary } from './strings.js';

/** Generated values, or `null` where only deeper recursion than allowed could produce one. */
export type Generated = fc.Arbitrary<ExactJson> | null;

type Node = Record<string, unknown>;

/** Valid values of a canonical schema at a place: the whole space it allows, recursion bounded. */
export function validArbitrary(schema: Schema, place: Place, context: Context): Generated {
  if (schema === true) return anyJsonArbitrary();
  if (schema === false) throw context.refuse('false', place.schemaPointer, 'the schema allows no value here');
  if (typeof schema.$ref === 'string') return referenced(schema, place, context);
  if (Array.isArray(schema.enum) || schema.const !== undefined) return enumerated(schema, place, context);
  const { oneOf, anyOf, allOf, not, ...base } = schema;
  context.canonical.origin.set(base, context.originOf(schema, place.schemaPointer));
  let arbitrary: Generated;
  if (Array.isArray(oneOf)) arbitrary = branches(oneOf as Schema[], 'oneOf', { anyOf, ...base }, place, context);
  else if (Array.isArray(anyOf)) arbitrary = branches(anyOf as Schema[], 'anyOf', base, place, context);
  else arbitrary = typed(base, place, context);
  if (arbitrary === null) return null;
  for (const [index, extra] of ((allOf as Schema[] | undefined) ?? []).entries()) {
    const keyword = childPointer(childPointer(place.schemaPointer, 'allOf'), index);
    const shut = shutOut(base, extra);
    if (shut !== undefined) {
      throw context.refuse(
        'allOf',
        keyword,
        `"${shut}" is required by one part of this allOf and shut out by another's additionalProperties: false, which does not list it, so no value satisfies both (list "${shut}" in the closed part, or drop its additionalProperties: false and close the composed schema instead: unevaluatedProperties: false in OpenAPI 3.1, one object with all the properties and additionalProperties: false in 3.0)`,
      );
    }
    arbitrary = context.filtered(arbitrary, (value) => context.accepts(extra, value), {
      keyword: 'allOf',
      schemaPointer: keyword,
      reason: `values of the other branches rarely satisfy this branch, so valid values cannot be generated${judgedByAdditional(base, extra)}`,
    });
  }
  if (not !== undefined) {
    const negated = not as Schema;
    arbitrary = context.filtered(arbitrary, (value) => !context.accepts(negated, value), {
      keyword: 'not',
      schemaPointer: childPointer(place.schemaPointer, 'not'),
      reason: 'values of the rest of the schema rarely avoid the `not` schema, so valid values cannot be generated',
    });
  }
  return arbitrary;
}

/**
 * A name one side requires that the other, closed by `additionalProperties: false`, shuts out (neither among
 * its properties nor matched by its patternProperties): the usual mistake of composing a closed Plant into a
 * NewPlant that adds `id`. The sides are the schema merged so far and one `allOf` part it could not merge.
 */
function shutOut(base: Node, part: Schema): string | undefined {
  // Without `type: object` a value of another type satisfies both sides (their keywords judge only objects).
  if (typeof part === 'boolean' || (base.type !== 'object' && part.type !== 'object')) return undefined;
  return shutOutBy(base, part) ?? shutOutBy(part, base);
}

/**
 * The likely cause of an `allOf` no generated value satisfies, when one side's `additionalProperties` schema
 * judges a name the other requires (a Plant of `additionalProperties: {type: string}` and a NewPlant adding an
 * integer `id`), as words to add to the refusal; else ''.
 */
function judgedByAdditional(base: Node, part: Schema): string {
  if (typeof part === 'boolean') return '';
  for (const [open, requiring] of [
    [base, part],
    [part, base],
  ] as const) {
    const name = unlisted(open, requiring);
    const judge = open.additionalProperties;
    if (name !== undefined && typeof judge === 'object' && judge !== null && open.patternProperties === undefined) {
      return `: "${name}" is required by one part and not among the properties of another, whose additionalProperties ${JSON.stringify(judge)} judges it (list "${name}" in that part's properties)`;
    }
  }
  return '';
}

function shutOutBy(closed: Node, requiring: Node): string | undefined {
  if (closed.additionalProperties !== false || closed.patternProperties !== undefined) return undefined;
  return unlisted(closed, requiring);
}

/** A name `requiring` requires that is not among the properties of `other`. */
function unlisted(other: Node, requiring: Node): string | undefined {
  const listed = typeof other.properties === 'object' && other.properties !== null ? other.properties : {};
  const required: unknown[] = Array.isArray(requiring.required) ? requiring.required : [];
  return required.find((name): name is string => typeof name === 'string' && !Object.hasOwn(listed, name));
}

/** A `$ref` to a recursive part: expanded up to the recursion limit, then only what can stop. */
function referenced(schema: Node, place: Place, context: Context): Generated {
  const { name, target } = context.definition(String(schema.$ref));
  if (target === undefined)
    throw context.refuse('$ref', place.schemaPointer, `unknown reference ${String(schema.$ref)}`);
  if (place.refs.length > context.maxRecursion) return null;
  const siblings = { ...schema };
  delete siblings.$ref;
  const inner: Place = { schemaPointer: `/$defs/${name}`, pointer: place.pointer, refs: [...place.refs, name] };
  if (Object.keys(siblings).length > 0) {
    const merged = typeof target === 'boolean' ? undefined : mergeSchemas(siblings, target);
    if (merged !== undefined && merged !== 'conflict') return validArbitrary(merged, inner, context);
    const arbitrary = validArbitrary(target, inner, context);
    return (
      arbitrary &&
      context.filtered(arbitrary, (value) => context.accepts(siblings, value), {
        keyword: '$ref',
        schemaPointer: place.schemaPointer,
        reason: 'the referenced schema and its sibling keywords rarely agree',
      })
    );
  }
  const key = `${name}@${place.refs.length}`;
  if (context.memo.has(key)) return context.memo.get(key) ?? null;
  // A placeholder breaks cycles within one depth; fc.constant is never used because depth grows.
  context.memo.set(key, null);
  const arbitrary = validArbitrary(target, inner, context);
  context.memo.set(key, arbitrary);
  return arbitrary;
}

/** `enum`/`const`: the listed values that satisfy every other keyword of the schema. */
function enumerated(schema: Node, place: Place, context: Context): Generated {
  const listed = schema.const !== undefined ? [schema.const] : (schema.enum as unknown[]);
  const keyword = schema.const !== undefined ? 'const' : 'enum';
  const values = listed.map(toExact).filter((value) => context.accepts(schema, value));
  if (values.length === 0) {
    throw context.refuse(
      keyword,
      childPointer(context.originOf(schema, place.schemaPointer), keyword),
      'no listed value satisfies the other keywords',
    );
  }
  return fc.constantFrom(...values);
}

/** `anyOf`/`oneOf`: each branch merged with the rest of the schema; `oneOf` values match one branch only. */
function branches(list: Schema[], keyword: 'anyOf' | 'oneOf', base: Node, place: Place, context: Context): Generated {
  const at = childPointer(place.schemaPointer, keyword);
  const options: fc.Arbitrary<ExactJson>[] = [];
  let refusal: Error | undefined;
  for (const [index, branch] of list.entries()) {
    const branchPlace: Place = { ...place, schemaPointer: childPointer(at, index) };
    try {
      let arbitrary = branchArbitrary(branch, keyword, base, branchPlace, context);
      if (arbitrary === null) continue;
      if (keyword === 'oneOf') arbitrary = matchingOneBranch(arbitrary, list, index, branchPlace, context);
      options.push(arbitrary);
    } catch (error) {
      refusal ??= error as Error;
    }
  }
  if (options.length > 0) return fc.oneof(...options);
  if (keyword === 'oneOf' && context.canonical.exclusive.has(list))
    return discriminatedOnly(list, base, place, context);
  if (refusal !== undefined) throw refusal;
  return null;
}

/**
 * A `oneOf` branch's values that match no other branch. Under a `discriminator` the other branches are read as
 * JSON Schema alone reads them (`lenientBranches`): a value valid by the discriminator that also matches a second
 * branch is refused by a server validating plain JSON Schema, so it is valid under one reading only, never sent.
 */
function matchingOneBranch(
  arbitrary: fc.Arbitrary<ExactJson>,
  list: Schema[],
  index: number,
  place: Place,
  context: Context,
): fc.Arbitrary<ExactJson> {
  const written = context.canonical.exclusive.has(list);
  const others = list
    .filter((_, other) => other !== index)
    .map((other) =>
      written && typeof other === 'object' ? (context.canonical.lenientBranches.get(other) ?? other) : other,
    );
  return context.filtered(arbitrary, (value) => others.every((other) => !context.accepts(other, value)), {
    keyword: 'oneOf',
    schemaPointer: place.schemaPointer,
    reason: 'values of this branch nearly always match another branch too',
  });
}

/**
 * A discriminated `oneOf` whose every branch's values also match another branch as JSON Schema alone reads it
 * (springdoc's open subtypes with only optional members of their own): no value is valid under both readings,
 * so the discriminator's reading, the document's evident intent, is the one values are drawn from.
 */
function discriminatedOnly(list: Schema[], base: Node, place: Place, context: Context): Generated {
  const at = childPointer(place.schemaPointer, 'oneOf');
  const options = list
    .map((branch, index) =>
      branchArbitrary(branch, 'oneOf', base, { ...place, schemaPointer: childPointer(at, index) }, context),
    )
    .filter((arbitrary): arbitrary is fc.Arbitrary<ExactJson> => arbitrary !== null);
  return options.length > 0 ? fc.oneof(...options) : null;
}

function branchArbitrary(branch: Schema, keyword: string, base: Node, place: Place, context: Context): Generated {
  const merged = typeof branch === 'boolean' ? (branch ? base : 'conflict') : mergeSchemas(base, branch);
  if (merged === 'conflict')
    throw context.refuse(keyword, place.schemaPointer, 'this branch contradicts the rest of the schema');
  if (merged !== undefined) {
    context.canonical.origin.set(merged, context.originOf(branch as object, place.schemaPointer));
    return validArbitrary(merged, place, context);
  }
  const arbitrary = validArbitrary(branch, place, context);
  return (
    arbitrary &&
    context.filtered(arbitrary, (value) => context.accepts(base, value), {
      keyword,
      schemaPointer: place.schemaPointer,
      reason: 'values of this branch rarely satisfy the rest of the schema',
    })
  );
}

/** The schema's types (all seven when it names none), each generated by its own keywords. */
function typed(schema: Node, place: Place, context: Context): Generated {
  const declared =
    schema.type === undefined ? undefined : ((Array.isArray(schema.type) ? schema.type : [schema.type]) as JsonType[]);
  let types = declared ?? JSON_TYPES;
  if (types.includes('number')) types = types.filter((type) => type !== 'integer');
  const options: fc.Arbitrary<ExactJson>[] = [];
  let refusal: Error | undefined;
  let recursive = false;
  for (const type of types) {
    try {
      let arbitrary = typeArbitrary(type, schema, place, context);
      if (type === 'string' && arbitrary !== null)
        arbitrary = numberTextsInRange(arbitrary, schema, types, place, context);
      if (arbitrary === null) recursive = true;
      else options.push(arbitrary);
    } catch (error) {
      refusal ??= error as Error;
      // A schema that names its types must be able to produce each of them.
      if (declared !== undefined && declared.length === 1) throw error;
    }
  }
  if (options.length > 0) return options.length === 1 ? (options[0] ?? null) : fc.oneof(...options);
  if (recursive) return null;
  throw refusal ?? context.refuse('type', place.schemaPointer, 'no type can be generated');
}

function typeArbitrary(type: JsonType, schema: Node, place: Place, context: Context): Generated {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return integerLeaf(schema, place, context);
    case 'number':
      return numberLeaf(schema, place, context);
    case 'string':
      return stringArbitrary(schema, place, context);
    case 'array':
      return arrayArbitrary(schema, place, context);
    case 'object':
      return objectArbitrary(schema, place, context);
    default:
      throw context.refuse('type', childPointer(place.schemaPointer, 'type'), `unknown type ${String(type)}`);
  }
}

/** A number written as text: JSON's grammar, leading zeros and a plus sign allowed (.NET, Jackson read them). */
const NUMBER_TEXT = /^([-+]?)0*(\d+)(\.\d+)?([eE][-+]?\d+)?$/;

/**
 * Valid strings of a schema that also takes numbers and bounds them (.NET 10 writes every number as `type: [integer,
 * string]` with a digits pattern, `format: int32` and its [Range] as `minimum`/`maximum`): JSON Schema's numeric
 * keywords pass any string, so `"5000"` is valid under `maximum: 100`, but a server reading the digits as the number
 * refuses it (ASP.NET Core's [Range], an int overflow). A drawn string that writes a number the numeric keywords
 * refuse is sent as a number they take instead: valid under either reading. Judging stays JSON Schema's.
 */
function numberTextsInRange(
  strings: fc.Arbitrary<ExactJson>,
  schema: Node,
  types: readonly JsonType[],
  place: Place,
  context: Context,
): fc.Arbitrary<ExactJson> {
  const numberType = types.includes('number') ? 'number' : types.includes('integer') ? 'integer' : undefined;
  const integerFormat = schema.format === 'int32' || schema.format === 'int64';
  const bounded = NUMBER_KEYWORDS.some((keyword) => schema[keyword] !== undefined);
  if (numberType === undefined || (!bounded && !integerFormat)) return strings;
  const numbers = typeArbitrary(numberType, schema, place, context);
  if (numbers === null) return strings;
  const numeric: Node = { type: numberType };
  for (const keyword of [...NUMBER_KEYWORDS, 'format'])
    if (schema[keyword] !== undefined) numeric[keyword] = schema[keyword];
  const refused = (text: ExactJson): boolean => {
    const written = typeof text === 'string' ? numberOfText(text) : undefined;
    return written !== undefined && !context.accepts(numeric, written);
  };
  return fc.tuple(strings, numbers).map(([text, number]) => (refused(text) ? number : text));
}

/** The number a text writes (`"0042"` is 42, `"-1.50"` is -1.50), as generation writes numbers; else `undefined`. */
function numberOfText(text: string): ExactJson | undefined {
  const match = NUMBER_TEXT.exec(text);
  if (match === null) return undefined;
  const [, sign, digits, fraction, exponent] = match;
  const plain = `${sign === '-' ? '-' : ''}${digits ?? '0'}${fraction ?? ''}${exponent ?? ''}`;
  return fraction === undefined && exponent === undefined ? BigInt(plain) : new LosslessNumber(plain);
}
