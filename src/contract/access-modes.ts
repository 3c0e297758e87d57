/**
 * `readOnly` and `writeOnly`, read the way OpenAPI means them: a readOnly property is the server's to
 * set (OpenAPI 3.0: "SHOULD NOT be sent as part of the request", and when required, "the required will
 * take effect on the response only"; JSON Schema 2020-12, which 3.1 uses: a request that sets it is
 * "expected to be ignored or rejected"), a writeOnly property the client's (never expected back).
 */
export type Direction = 'request' | 'response';

type Node = Record<string, unknown>;

function isNode(value: unknown): value is Node {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The annotation that hides a property in one direction. */
const HIDDEN_BY: Record<Direction, 'readOnly' | 'writeOnly'> = { request: 'readOnly', response: 'writeOnly' };

/**
 * The schema as one direction sees it: in a request schema every readOnly property is dropped (never
 * generated, never required, never echoed); in a response schema every writeOnly one is never required
 * and may not be present (its schema is `false`), so an answer carrying it back breaks the schema. The schema is
 * copied only when it has such a property; shared and cyclic references stay shared and cyclic.
 */
export function forDirection(schema: Node, direction: Direction): Node {
  const annotation = HIDDEN_BY[direction];
  if (!hasAnnotation(schema, annotation, new Set())) return schema;
  return rewrite(schema, annotation, new Map()) as Node;
}

function hasAnnotation(value: unknown, annotation: string, seen: Set<object>): boolean {
  if (value === null || typeof value !== 'object' || seen.has(value)) return false;
  seen.add(value);
  if (isNode(value) && value[annotation] === true) return true;
  return Object.values(value).some((item) => hasAnnotation(item, annotation, seen));
}

function rewrite(value: unknown, annotation: string, copies: Map<object, unknown>): unknown {
  if (value === null || typeof value !== 'object') return value;
  const known = copies.get(value);
  if (known !== undefined) return known;
  if (Array.isArray(value)) {
    const list: unknown[] = [];
    copies.set(value, list);
    for (const item of value) list.push(rewrite(item, annotation, copies));
    return list;
  }
  const node: Node = {};
  copies.set(value, node);
  const hidden = hiddenNames(value as Node, annotation, new Set());
  for (const [key, item] of Object.entries(value)) {
    node[key] =
      hidden.size > 0 ? withoutHidden(key, item, hidden, annotation, copies) : rewrite(item, annotation, copies);
  }
  return node;
}

/** Names whose property schema carries the annotation, here or in an `allOf` part (which share one object). */
function hiddenNames(node: Node, annotation: string, seen: Set<object>): Set<string> {
  const names = new Set<string>();
  if (seen.has(node)) return names;
  seen.add(node);
  if (isNode(node.properties)) {
    for (const [name, property] of Object.entries(node.properties)) {
      if (isNode(property) && property[annotation] === true) names.add(name);
    }
  }
  if (Array.isArray(node.allOf)) {
    for (const part of node.allOf)
      if (isNode(part)) for (const name of hiddenNames(part, annotation, seen)) names.add(name);
  }
  return names;
}

function withoutHidden(
  key: string,
  item: unknown,
  hidden: ReadonlySet<string>,
  annotation: string,
  copies: Map<object, unknown>,
): unknown {
  if (key === 'required' && Array.isArray(item)) return item.filter((name) => !hidden.has(String(name)));
  if (key === 'properties' && isNode(item)) {
    const kept: Node = {};
    for (const [name, property] of Object.entries(item)) {
      if (!hidden.has(name) || !(isNode(property) && property[annotation] === true)) {
        kept[name] = rewrite(property, annotation, copies);
      } else if (annotation === 'writeOnly') {
        // JSON Schema 2020-12: a writeOnly value "is never present when the instance is retrieved";
        // OpenAPI 3.0: it "SHOULD NOT be sent as part of the response" (a password echoed back).
        kept[name] = false;
      }
    }
    return kept;
  }
  if (key === 'allOf' && Array.isArray(item)) {
    // A part that only lists `required` names hidden elsewhere in the same object loses them too.
    return (item as unknown[]).map((part) => (isNode(part) ? rewriteRequired(part, hidden, annotation, copies) : part));
  }
  return rewrite(item, annotation, copies);
}

function rewriteRequired(
  part: Node,
  hidden: ReadonlySet<string>,
  annotation: string,
  copies: Map<object, unknown>,
): Node {
  const copy = rewrite(part, annotation, copies) as Node;
  if (!Array.isArray(copy.required)) return copy;
  // The part may be shared with schemas where the name is not hidden: trim a copy of it, not the shared one.
  return { ...copy, required: copy.required.filter((name) => !hidden.has(String(name))) };
}
