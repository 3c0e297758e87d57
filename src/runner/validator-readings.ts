import { forDirection } from '../contract/access-modes.js';
import { parseExactJson } from '../contract/exact-json.js';
import { DISCRIMINATOR_VALUES } from '../contract/discriminator-values.js';
import { REF_SIBLINGS } from '../contract/document-reader.js';
import { compileSchema } from '../contract/schema/index.js';
import { graphCopier, setOwnMember } from '../contract/schema/json.js';
import type { SchemaDialect } from '../contract/schema/compiled-schema.js';
import type { SchemaCheck } from '../contract/schemas.js';

/**
 * How a common validator of an older JSON Schema draft reads the document's NewPlant: a Draft 7 (or older) validator
 * ignores every keyword beside a `$ref` (the document's `maxLength: 12` beside `$ref: Name`), a Draft 4 one knows no
 * `const` (and no validator knows OpenAPI's `discriminator`). A target validating so fails several rules for one
 * choice of validator: {@link withValidatorReadingsFolded} makes those failures one finding.
 */
export interface ValidatorReading {
  /** What the reading drops, for the finding's title: `keywords beside a $ref`. */
  readonly drops: string;
  /** Whether a request body is valid under the reading; undefined when it is no JSON or the reading cannot be compiled. */
  readonly accepts: (body: string) => boolean | undefined;
}

/** The readings that differ from the document's for its NewPlant (none: an empty list). Each compiled on first use. */
export function validatorReadings(
  schema: Record<string, unknown>,
  document: Record<string, unknown>,
  dialect: SchemaDialect,
): ValidatorReading[] {
  const named = namedSchemas(document);
  const readings: ValidatorReading[] = [];
  const siblings = rewritten(schema, { standIn: (node) => refTarget(node, named) });
  if (siblings.changed) readings.push(reading('keywords beside a $ref', siblings.schema, dialect));
  const constFree = rewritten(schema, { drop: draft4Unknowns });
  if (constFree.changed) readings.push(reading('const', constFree.schema, dialect));
  return readings;
}

function reading(drops: string, schema: Record<string, unknown>, dialect: SchemaDialect): ValidatorReading {
  let check: SchemaCheck | null | undefined;
  return {
    drops,
    accepts: (body) => {
      if (check === undefined) {
        try {
          check = compileSchema(forDirection(schema, 'request'), { dialect, subject: 'a NewPlant' }).check;
        } catch {
          check = null;
        }
      }
      if (check === null) return undefined;
      let value: unknown;
      try {
        value = parseExactJson(body);
      } catch {
        return undefined;
      }
      return check(value).length === 0;
    },
  };
}

/** The document's named schemas (`components/schemas`, 3.1's `$defs` there too), as objects: what a `$ref` names. */
function namedSchemas(document: Record<string, unknown>): ReadonlySet<object> {
  const components = document.components as Record<string, unknown> | undefined;
  const schemas = components?.schemas;
  if (schemas === null || typeof schemas !== 'object') return new Set();
  return new Set(
    Object.values(schemas).filter((value): value is object => value !== null && typeof value === 'object'),
  );
}

/**
 * A schema that was a `$ref` with keywords beside it, read as its target alone: the document reader moves such a
 * `$ref` first into `allOf` (3.1's reading, and 3.0's, marked {@link REF_SIBLINGS}), and dereferencing puts the named
 * schema there. Undefined for any other schema.
 */
function refTarget(node: Record<string, unknown>, named: ReadonlySet<object>): object | undefined {
  const first = Array.isArray(node.allOf) ? (node.allOf as unknown[])[0] : undefined;
  if (first === null || typeof first !== 'object' || !named.has(first)) return undefined;
  const besides = Object.keys(node).filter((key) => key !== 'allOf' && !ANNOTATIONS.has(key));
  return besides.length > 0 || REF_SIBLINGS in node ? first : undefined;
}

/** Keywords that constrain nothing: a `$ref` beside only these was never moved. */
const ANNOTATIONS = new Set([
  'description',
  'title',
  'default',
  'examples',
  'example',
  'deprecated',
  'readOnly',
  'writeOnly',
]);

/** The keywords a Draft 4 validator knows nothing of: `const`, and OpenAPI's `discriminator` (with what plantstore read of it). */
function draft4Unknowns(node: Record<string, unknown>): readonly string[] {
  return ['const', 'discriminator', DISCRIMINATOR_VALUES].filter((key) => key in node);
}

/** How a reading rewrites each schema object: another object of the graph in its place, or keywords dropped. */
interface Rewrite {
  readonly standIn?: (node: Record<string, unknown>) => object | undefined;
  readonly drop?: (node: Record<string, unknown>) => readonly string[];
}

/**
 * A copy of a (possibly cyclic) schema graph with `rewrite` applied to every object, each copied once. `changed` says
 * whether any object was rewritten.
 */
function rewritten(
  schema: Record<string, unknown>,
  rewrite: Rewrite,
): { schema: Record<string, unknown>; changed: boolean } {
  let changed = false;
  const copy = graphCopier(
    (node, out) => {
      const drop = rewrite.drop?.(node) ?? [];
      changed ||= drop.length > 0;
      for (const [key, value] of Object.entries(node)) if (!drop.includes(key)) setOwnMember(out, key, copy(value));
    },
    (node) => {
      const standIn = rewrite.standIn?.(node);
      changed ||= standIn !== undefined;
      return standIn;
    },
  );
  return { schema: copy(schema) as Record<string, unknown>, changed };
}
