import { escapePointer } from './operations.js';

/** Splits a JSON pointer (`/a/b~1c`, with or without a leading `#`) into its unescaped segments. */
export function pointerSegments(pointer: string): string[] {
  const fragment = pointer.startsWith('#');
  const bare = fragment ? pointer.slice(1) : pointer;
  if (bare === '') return [];
  return bare
    .slice(1)
    .split('/')
    .map((part) => (fragment ? safeDecode(part) : part).replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** A `#` fragment is URI-encoded (`%7Bid%7D`); a malformed escape is kept as written. */
function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

function joinPointer(segments: readonly string[]): string {
  return segments.map((segment) => `/${escapePointer(segment)}`).join('');
}

function child(node: unknown, key: string): unknown {
  return node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
}

function at(root: unknown, segments: readonly string[]): unknown {
  return segments.reduce(child, root);
}

/** The `$ref` to follow before stepping into `key`: none when the key sits beside the `$ref` (OpenAPI 3.1). */
function refToFollow(node: unknown, key: string): string | undefined {
  const ref = child(node, '$ref');
  if (typeof ref !== 'string') return undefined;
  return child(node, key) === undefined ? ref : undefined;
}

/**
 * Maps a pointer inside a dereferenced schema back to the place in the document where that keyword
 * is written, following `$ref`s of the document as written (not dereferenced): `/properties/tag/pattern`
 * under the request body schema becomes `/components/schemas/NewPlant/properties/tag/pattern`. A key
 * missing beside an `allOf` is looked for in its branches, since a compiler may name a place in the
 * merged schema. A `$ref` into another file gives `other.yaml#/...`.
 */
export function documentPointer(document: unknown, base: string, schemaPointer: string): string {
  return walk(document, pointerSegments(base), pointerSegments(schemaPointer), 0);
}

function walk(document: unknown, start: readonly string[], keys: readonly string[], depth: number): string {
  let location = start;
  let node = at(document, location);
  for (const [index, key] of keys.entries()) {
    for (let hops = 0; hops < 32; hops += 1) {
      const ref = refToFollow(node, key);
      if (ref === undefined) break;
      if (!ref.startsWith('#')) return `${ref.includes('#') ? ref : `${ref}#`}${joinPointer(keys.slice(index))}`;
      location = pointerSegments(ref);
      node = at(document, location);
    }
    if (child(node, key) === undefined && depth < 8) {
      const merged = fromAllOf(document, location, keys.slice(index), depth);
      if (merged !== undefined) return merged;
    }
    location = [...location, key];
    node = child(node, key);
  }
  return joinPointer(location);
}

function fromAllOf(document: unknown, location: readonly string[], rest: readonly string[], depth: number) {
  const branches = child(at(document, location), 'allOf');
  if (!Array.isArray(branches)) return undefined;
  for (const index of branches.keys()) {
    const found = walk(document, [...location, 'allOf', String(index)], rest, depth + 1);
    if (isWritten(document, found)) return found;
  }
  return undefined;
}

/** Whether a pointer from {@link documentPointer} names something written in the document (another file: assumed). */
export function isWritten(document: unknown, pointer: string): boolean {
  return pointer.includes('#') || at(document, pointerSegments(pointer)) !== undefined;
}
