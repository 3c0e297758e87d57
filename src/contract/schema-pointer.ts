import { pointerSegments } from './document-pointer.js';
import { escapePointer } from './operations.js';

function child(node: unknown, key: string): unknown {
  return node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
}

/**
 * The path of `keys` in a schema as given, where a key missing beside an `allOf` is looked for in its
 * branches (the compiler may name a place in the merged schema); `undefined` if it is not there.
 */
function resolve(node: unknown, keys: readonly string[], depth = 0): string[] | undefined {
  const [key, ...rest] = keys;
  if (key === undefined) return [];
  const next = child(node, key);
  if (next !== undefined) {
    const tail = resolve(next, rest, depth);
    if (tail) return [key, ...tail];
  }
  const branches = child(node, 'allOf');
  if (!Array.isArray(branches) || depth > 8) return undefined;
  for (const [index, branch] of branches.entries()) {
    const tail = resolve(branch, keys, depth + 1);
    if (tail) return ['allOf', String(index), ...tail];
  }
  return undefined;
}

/** Every object of a (possibly cyclic) schema with its path from the root, nearest first. */
function* breadthFirst(root: unknown): Generator<[unknown, string[]]> {
  const seen = new Set<unknown>();
  const queue: [unknown, string[]][] = [[root, []]];
  for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
    const [node, path] = item;
    if (node === null || typeof node !== 'object' || seen.has(node)) continue;
    seen.add(node);
    yield item;
    for (const [key, value] of Object.entries(node)) queue.push([value, [...path, key]]);
  }
}

/**
 * Turns a pointer the compiler gives (into the schema as it reads it: `allOf` merged, a recursive
 * part moved under `/$defs/Name`) into a pointer into the schema as given, or `undefined`.
 */
export function givenPointer(schema: unknown, pointer: string): string | undefined {
  const keys = pointerSegments(pointer);
  let path = resolve(schema, keys);
  if (!path && keys[0] === '$defs' && keys.length > 2) {
    // The compiler's definitions are the targets of cycles: the nearest object holding the rest.
    const rest = keys.slice(2);
    for (const [node, at] of breadthFirst(schema)) {
      const tail = resolve(node, rest);
      if (tail) {
        path = [...at, ...tail];
        break;
      }
    }
  }
  return path?.map((key) => `/${escapePointer(key)}`).join('');
}
