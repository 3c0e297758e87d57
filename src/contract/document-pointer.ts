import { dirname, join, relative } from 'node:path';
import { refSiblings } from './document-reader.js';
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

/** The other files of a document, for following `$ref`s into them. */
export interface DocumentFiles {
  /** The path or URL of the document itself. */
  readonly source: string;
  /** Another file of the document, parsed; `undefined` when it cannot be read. */
  readonly read: (file: string) => unknown;
}

/** Where a walk stands: the file, its parsed content, and the path in it. */
interface Place {
  readonly file: string;
  readonly root: unknown;
  readonly location: readonly string[];
}

/** The file a `$ref` names, resolved against the file it is written in. */
function refFile(from: string, target: string): string {
  if (/^https?:\/\//i.test(from) || /^https?:\/\//i.test(target)) return new URL(target, from).href;
  return join(dirname(from), target);
}

/** Follows a `$ref`: a place in the same file, another file's, or `undefined` if that file cannot be read. */
function follow(place: Place, ref: string, files: DocumentFiles | undefined): Place | undefined {
  const hash = ref.indexOf('#');
  const target = hash === -1 ? ref : ref.slice(0, hash);
  const location = pointerSegments(hash === -1 ? '' : ref.slice(hash));
  if (target === '') return { ...place, location };
  const file = refFile(place.file, target);
  const root = files?.read(file);
  return root === undefined ? undefined : { file, root, location };
}

/** A place as a pointer: `/a/b` in the document itself, `schemas.yaml#/a/b` in another file. */
function describePlace(place: Place, files: DocumentFiles | undefined): string {
  const pointer = joinPointer(place.location);
  if (!files || place.file === files.source) return pointer;
  const name = /^https?:\/\//i.test(place.file) ? place.file : relative(dirname(files.source), place.file);
  return `${name}#${pointer}`;
}

/**
 * Maps a pointer inside a dereferenced schema back to the place in the document where that keyword
 * is written, following `$ref`s of the document as written (not dereferenced): `/properties/tag/pattern`
 * under the request body schema becomes `/components/schemas/NewPlant/properties/tag/pattern`. A key
 * missing beside an `allOf` is looked for in its branches, since a compiler may name a place in the
 * merged schema. With `files`, a `$ref` into another file is followed there (`schemas.yaml#/Plant/...`).
 */
export function documentPointer(document: unknown, base: string, schemaPointer: string, files?: DocumentFiles): string {
  const start: Place = { file: files?.source ?? '', root: document, location: pointerSegments(base) };
  const end = walk(start, pointerSegments(schemaPointer), files, 0);
  return typeof end === 'string' ? end : describePlace(end, files);
}

/** The place `keys` lead to from `start`, or (when a file cannot be read) the pointer as far as known. */
function walk(
  start: Place,
  written: readonly string[],
  files: DocumentFiles | undefined,
  depth: number,
): Place | string {
  let place = start;
  let node = at(place.root, place.location);
  const keys = [...written];
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index] ?? '';
    const moved = movedRefStep(node, key, keys[index + 1]);
    if (moved === 'ref') {
      // `allOf/0` of a `$ref` read beside its keywords is the `$ref` itself: follow it below.
      keys.splice(index, 2);
      index -= 1;
      const next = follow(place, child(node, '$ref') as string, files);
      if (next === undefined) return `${String(child(node, '$ref'))}${joinPointer(keys.slice(index + 1))}`;
      place = next;
      node = at(place.root, place.location);
      continue;
    }
    if (moved !== undefined) keys[index + 1] = moved;
    for (let hops = 0; hops < 32; hops += 1) {
      const ref = refToFollow(node, key);
      if (ref === undefined) break;
      const next = follow(place, ref, files);
      if (next === undefined) return `${ref.includes('#') ? ref : `${ref}#`}${joinPointer(keys.slice(index))}`;
      place = next;
      node = at(place.root, place.location);
    }
    if (child(node, key) === undefined && depth < 8) {
      const merged = fromAllOf(place, keys.slice(index), files, depth);
      if (merged !== undefined) return merged;
    }
    place = { ...place, location: [...place.location, key] };
    node = child(node, key);
  }
  return place;
}

/**
 * How the dereferenced `allOf/<n>` maps onto a written schema holding a `$ref` beside keywords, which the
 * reader moved into `allOf` as its first branch (document-reader.ts): `ref` for branch 0 (the `$ref` itself),
 * the written branch's index for the others; `undefined` where nothing was moved.
 */
function movedRefStep(node: unknown, key: string, branch: string | undefined): string | undefined {
  if (key !== 'allOf' || branch === undefined || !/^\d+$/.test(branch)) return undefined;
  if (node === null || typeof node !== 'object' || refSiblings(node as Record<string, unknown>).length === 0) {
    return undefined;
  }
  return branch === '0' ? 'ref' : String(Number(branch) - 1);
}

function fromAllOf(place: Place, rest: readonly string[], files: DocumentFiles | undefined, depth: number) {
  const branches = child(at(place.root, place.location), 'allOf');
  if (!Array.isArray(branches)) return undefined;
  for (const index of branches.keys()) {
    const branch = { ...place, location: [...place.location, 'allOf', String(index)] };
    const found = walk(branch, rest, files, depth + 1);
    if (typeof found !== 'string' && at(found.root, found.location) !== undefined) return found;
  }
  return undefined;
}

/**
 * Whether a pointer from {@link documentPointer} names something written in the document or, with
 * `files`, in the other file it names (a file that cannot be read: assumed).
 */
export function isWritten(document: unknown, pointer: string, files?: DocumentFiles): boolean {
  const hash = pointer.indexOf('#');
  if (hash === -1) return at(document, pointerSegments(pointer)) !== undefined;
  if (!files) return true;
  const root = files.read(refFile(files.source, pointer.slice(0, hash)));
  return root === undefined || at(root, pointerSegments(pointer.slice(hash))) !== undefined;
}
