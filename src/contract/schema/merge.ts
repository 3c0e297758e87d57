import { compareDecimal, isMultiple, toDecimal } from './decimal.js';
import { jsonEqual, setOwnMember } from './json.js';

type Node = Record<string, unknown>;

/** What a merge gives: the merged schema, `undefined` when it cannot be merged exactly, or a conflict. */
export type MergeResult = Node | undefined | 'conflict';

const LOWER = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties', 'minContains'];
const UPPER = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties', 'maxContains'];
/** Keywords that must be the same object or value on both sides to merge. */
const SAME = ['contains', 'prefixItems', '$ref'];
/** Keywords that stand alone: when both sides have one, the other side's goes to an `allOf` residue. */
const ALONE = ['pattern', 'format', 'anyOf', 'oneOf', 'not'];
/** Keywords whose meaning depends on the sibling `properties`/`patternProperties`. */
const OBJECT_SHAPE = ['properties', 'patternProperties', 'additionalProperties'];

/**
 * The schema both `a` and `b` describe, as one schema, when that is exact (hypothesis-jsonschema's
 * `merged`). `undefined` when the pair cannot be written as one schema without changing its meaning.
 * `nullOpen` (canonicalise's objects where OpenAPI 3.0 leaves null open beside an enum) gains each
 * merged object, at any depth, made from a marked one that still allows null by its type.
 */
export function mergeSchemas(a: Node, b: Node | boolean, nullOpen?: Set<object>): MergeResult {
  if (b === true) return a;
  if (b === false) return 'conflict';
  if (!shapesMergeable(a, b)) return undefined;
  const merged = mergeObjects(a, b, nullOpen);
  if (nullOpen !== undefined && isObject(merged) && (nullOpen.has(a) || nullOpen.has(b)) && leavesNullOpen(merged)) {
    nullOpen.add(merged);
  }
  return merged;
}

/** Whether null is still open on a merged object: its type allows null, its enum does not list it. */
function leavesNullOpen(node: Node): boolean {
  const types = node.type === undefined ? ['null'] : Array.isArray(node.type) ? (node.type as unknown[]) : [node.type];
  return types.includes('null') && Array.isArray(node.enum) && !node.enum.includes(null);
}

function isObject(result: MergeResult): result is Node {
  return result !== undefined && result !== 'conflict';
}

function mergeObjects(a: Node, b: Node, nullOpen: Set<object> | undefined): MergeResult {
  const out: Node = { ...a };
  const residue: Node[] = [];
  for (const [keyword, value] of Object.entries(b)) {
    const mine = out[keyword];
    if (mine === undefined) {
      out[keyword] = value;
      continue;
    }
    if (ALONE.includes(keyword) && !jsonEqual(mine, value)) {
      residue.push({ [keyword]: value });
      continue;
    }
    const merged = mergeKeyword(keyword, mine, value, nullOpen);
    if (merged === undefined || merged === 'conflict') return merged;
    out[keyword] = merged.value;
  }
  if (residue.length > 0) out.allOf = [...((out.allOf as Node[] | undefined) ?? []), ...residue];
  return out;
}

function mergeKeyword(
  keyword: string,
  mine: unknown,
  theirs: unknown,
  nullOpen: Set<object> | undefined,
): { value: unknown } | undefined | 'conflict' {
  if (LOWER.includes(keyword)) return { value: pick(mine, theirs, 1) };
  if (UPPER.includes(keyword)) return { value: pick(mine, theirs, -1) };
  if (SAME.includes(keyword)) return mine === theirs || jsonEqual(mine, theirs) ? { value: mine } : undefined;
  switch (keyword) {
    case 'type':
      return mergeTypes(mine, theirs);
    case 'required':
      return { value: [...new Set([...(mine as string[]), ...(theirs as string[])])] };
    case 'enum': {
      const common = (mine as unknown[]).filter((item) =>
        (theirs as unknown[]).some((other) => jsonEqual(item, other)),
      );
      return common.length === 0 ? 'conflict' : { value: common };
    }
    case 'const':
      return jsonEqual(mine, theirs) ? { value: mine } : 'conflict';
    case 'uniqueItems':
      return { value: mine === true || theirs === true };
    case 'multipleOf':
      return mergeMultipleOf(mine, theirs);
    case 'allOf':
      return { value: [...(mine as unknown[]), ...(theirs as unknown[])] };
    case 'properties':
    case 'patternProperties':
      return mergeMaps(mine as Node, theirs as Node, nullOpen);
    case 'items':
    case 'propertyNames':
    case 'additionalProperties':
      return mergeChild(mine, theirs, nullOpen);
    case 'dependentRequired':
      return { value: mergeDependent(mine as Record<string, string[]>, theirs as Record<string, string[]>) };
    default:
      return undefined;
  }
}

/** `additionalProperties` is relative to its own schema's declared names: merge only when those agree. */
function shapesMergeable(a: Node, b: Node): boolean {
  if (a.additionalProperties === undefined && b.additionalProperties === undefined) return true;
  const names = (node: Node, keyword: string): string =>
    JSON.stringify(Object.keys((node[keyword] as Node | undefined) ?? {}).sort());
  const bothShape = OBJECT_SHAPE.every(
    (keyword) => keyword === 'additionalProperties' || names(a, keyword) === names(b, keyword),
  );
  if (bothShape) return true;
  // One side says nothing about objects at all: nothing to reinterpret.
  const silent = (node: Node): boolean => OBJECT_SHAPE.every((keyword) => node[keyword] === undefined);
  return silent(a) || silent(b);
}

function pick(mine: unknown, theirs: unknown, sign: 1 | -1): unknown {
  const a = toDecimal(mine);
  const b = toDecimal(theirs);
  if (a === undefined || b === undefined) return mine;
  return compareDecimal(a, b) * sign >= 0 ? mine : theirs;
}

function mergeTypes(mine: unknown, theirs: unknown): { value: unknown } | 'conflict' {
  const list = (value: unknown): string[] => (Array.isArray(value) ? (value as string[]) : [value as string]);
  const a = list(mine);
  const b = list(theirs);
  const allows = (types: string[], type: string): boolean =>
    types.includes(type) || (type === 'integer' && types.includes('number'));
  const common = [
    ...a.filter((type) => allows(b, type)),
    ...b.filter((type) => type === 'integer' && a.includes('number')),
  ];
  const unique = [...new Set(common)];
  if (unique.length === 0) return 'conflict';
  return { value: unique.length === 1 ? unique[0] : unique };
}

function mergeMultipleOf(mine: unknown, theirs: unknown): { value: unknown } | undefined {
  const a = toDecimal(mine);
  const b = toDecimal(theirs);
  if (a === undefined || b === undefined) return undefined;
  if (isMultiple(a, b)) return { value: mine };
  if (isMultiple(b, a)) return { value: theirs };
  return undefined;
}

function mergeMaps(
  mine: Node,
  theirs: Node,
  nullOpen: Set<object> | undefined,
): { value: unknown } | undefined | 'conflict' {
  const out: Node = Object.create(null) as Node;
  for (const [name, schema] of Object.entries(mine)) setOwnMember(out, name, schema);
  for (const [name, schema] of Object.entries(theirs)) {
    if (!Object.hasOwn(out, name)) {
      setOwnMember(out, name, schema);
      continue;
    }
    const merged = mergeChild(out[name], schema, nullOpen);
    if (merged === undefined || merged === 'conflict') return merged;
    setOwnMember(out, name, merged.value);
  }
  return { value: { ...out } };
}

function mergeChild(
  mine: unknown,
  theirs: unknown,
  nullOpen: Set<object> | undefined,
): { value: unknown } | undefined | 'conflict' {
  if (mine === theirs || theirs === true) return { value: mine };
  if (mine === true) return { value: theirs };
  if (mine === false || theirs === false) return { value: false };
  const merged = mergeSchemas(mine as Node, theirs as Node, nullOpen);
  if (merged === 'conflict') return { value: false };
  return { value: merged ?? { allOf: [mine, theirs] } };
}

function mergeDependent(mine: Record<string, string[]>, theirs: Record<string, string[]>): Record<string, string[]> {
  const out: Record<string, string[]> = { ...mine };
  for (const [name, list] of Object.entries(theirs)) out[name] = [...new Set([...(out[name] ?? []), ...list])];
  return out;
}
