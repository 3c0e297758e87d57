import type fc from 'fast-check';
import { LosslessNumber } from 'lossless-json';
import type { Conditional, Schema } from './canonicalise.js';
import type { ExactJson } from './compiled-schema.js';
import type { Context } from './context.js';
import { at, type Candidate } from './leaf-variants.js';
import { mergeSchemas } from './merge.js';
import { validArbitrary } from './valid.js';
import type { Site } from './variants.js';

type Node = Record<string, unknown>;

/**
 * Values that break an `if`/`then`/`else` the way a server ignoring it would accept: one that meets the
 * `if` and breaks the `then` (trees without their height), and one that fails the `if` and breaks the
 * `else`. The check judges them as the `anyOf` the conditional is read as; they are named by the
 * keyword the document wrote.
 */
export function conditionalCandidates(site: Site, conditional: Conditional, context: Context): Candidate[] {
  const base: Node = { ...site.schema };
  delete base.anyOf;
  const candidates: Candidate[] = [];
  if (conditional.then !== undefined) {
    const meetsIf = withAll(base, conditional.if);
    const leaf = meetsIf && breaking(meetsIf, conditional.then, site, context);
    const { dependent } = conditional;
    if (leaf && dependent !== undefined) {
      const label = `with ${JSON.stringify(dependent)} present but not matching its dependentSchemas ${shown(conditional.then)}`;
      candidates.push(judgedAsAnyOf(at(site, 'dependentSchemas', false, label, leaf, false)));
    } else if (leaf) {
      const label = `matching if ${shown(conditional.if)} but not then ${shown(conditional.then)}`;
      candidates.push(judgedAsAnyOf(at(site, 'then', false, label, leaf, false)));
    }
  }
  if (conditional.else !== undefined) {
    const leaf = breaking(base, { anyOf: [conditional.if, conditional.else] }, site, context);
    if (leaf) {
      const label = `matching neither if ${shown(conditional.if)} nor else ${shown(conditional.else)}`;
      candidates.push(judgedAsAnyOf(at(site, 'else', false, label, leaf, false)));
    }
  }
  return candidates;
}

/** The check reports a broken conditional as its `anyOf`. */
function judgedAsAnyOf(candidate: Candidate): Candidate {
  return { ...candidate, judgedAs: 'anyOf' };
}

/** `base` and `extra` as one schema: merged when exact, else `extra` as an `allOf` part. */
function withAll(base: Node, extra: Schema): Node | undefined {
  const merged = mergeSchemas(base, extra);
  if (merged === 'conflict') return undefined;
  if (merged !== undefined) return merged;
  return { ...base, allOf: [...((base.allOf as Schema[] | undefined) ?? []), extra] };
}

/** Values of `schema` that `broken` refuses, or `undefined` when none can be made. */
function breaking(schema: Node, broken: Schema, site: Site, context: Context): fc.Arbitrary<ExactJson> | undefined {
  const { not, ...rest } = schema;
  const parts = [...((rest.allOf as Schema[] | undefined) ?? []), ...(not === undefined ? [] : [{ not }])];
  const negated: Node = { ...rest, ...(parts.length > 0 ? { allOf: parts } : {}), not: broken };
  try {
    return validArbitrary(negated, site.place, context) ?? undefined;
  } catch {
    return undefined;
  }
}

/** A subschema for a label: its JSON when short, else its keywords. */
function shown(schema: Schema): string {
  const text = JSON.stringify(schema, (_key, value: unknown) =>
    typeof value === 'bigint' || value instanceof LosslessNumber ? Number(String(value)) : value,
  );
  if (text.length <= 80) return text;
  return typeof schema === 'object' ? `{${Object.keys(schema).join(', ')}}` : String(schema);
}
