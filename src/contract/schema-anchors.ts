import { escapePointer, isObject } from './operations.js';

type JsonObject = Record<string, unknown>;

// Members whose values are data, not schemas or document parts: an `$id` or `$ref` there is a value.
const DATA_MEMBERS = new Set(['enum', 'const', 'example', 'examples', 'default']);

// The base of the document itself, for resolving relative `$id`s and `$ref`s: no real URL is this.
const DOCUMENT_BASE = 'https://plantstore.invalid/document';

/**
 * Rewrites each `$ref` of an OpenAPI 3.1 document that names a schema by its `$id` or `$anchor` (JSON Schema
 * 2020-12's `$ref: 'https://plants.example.com/schemas/plant#newPlant'`, `$ref: '#name'`, a relative
 * `$ref: 'tags#tag'` below an `$id`) as the JSON pointer of that schema in the document, in place, and removes
 * the `$id`s and `$anchor`s it resolved. swagger-parser reads every `$ref` as a file or URL and a JSON pointer,
 * so such a document was refused with `Invalid $ref pointer "newPlant"`. A `$ref` naming no `$id` or `$anchor`
 * of the document is left as it is.
 */
export function anchorRefsAsPointers(document: JsonObject): void {
  const targets = new Map<string, string>();
  collectTargets(document, DOCUMENT_BASE, '', targets);
  if (targets.size === 0) return;
  rewriteRefs(document, DOCUMENT_BASE, targets);
  removeIdentifiers(document);
}

/** The URI of each `$id` and `$anchor` (and of each `$id` with a JSON pointer below it), to its pointer. */
function collectTargets(node: unknown, base: string, pointer: string, targets: Map<string, string>): void {
  if (Array.isArray(node)) {
    node.forEach((item, index) => collectTargets(item, base, `${pointer}/${index}`, targets));
    return;
  }
  if (!isObject(node)) return;
  let here = base;
  if (typeof node.$id === 'string') {
    here = resolve(node.$id, base) ?? base;
    targets.set(withoutFragment(here), pointer);
  }
  if (typeof node.$anchor === 'string') targets.set(`${withoutFragment(here)}#${node.$anchor}`, pointer);
  for (const [key, value] of Object.entries(node)) {
    if (!DATA_MEMBERS.has(key) && !key.startsWith('x-')) {
      collectTargets(value, here, `${pointer}/${escapePointer(key)}`, targets);
    }
  }
}

function rewriteRefs(node: unknown, base: string, targets: ReadonlyMap<string, string>): void {
  if (Array.isArray(node)) {
    for (const item of node) rewriteRefs(item, base, targets);
    return;
  }
  if (!isObject(node)) return;
  const here = typeof node.$id === 'string' ? (resolve(node.$id, base) ?? base) : base;
  if (typeof node.$ref === 'string') {
    const target = pointerOf(node.$ref, here, targets);
    if (target !== undefined) node.$ref = `#${target}`;
  }
  for (const [key, value] of Object.entries(node)) {
    if (!DATA_MEMBERS.has(key) && !key.startsWith('x-')) rewriteRefs(value, here, targets);
  }
}

/** The document pointer a `$ref` names through an `$id` or `$anchor`, else `undefined`. */
function pointerOf(ref: string, base: string, targets: ReadonlyMap<string, string>): string | undefined {
  const uri = resolve(ref, base);
  if (uri === undefined) return undefined;
  const exact = targets.get(uri);
  if (exact !== undefined) return exact;
  const hash = uri.indexOf('#');
  const fragment = hash < 0 ? '' : uri.slice(hash + 1);
  if (fragment !== '' && !fragment.startsWith('/')) return undefined;
  const root = targets.get(withoutFragment(uri));
  // A pointer into the document itself is swagger-parser's to follow as written.
  if (root === undefined || (root === '' && withoutFragment(uri) === DOCUMENT_BASE)) return undefined;
  return `${root}${decodeURIComponent(fragment)}`;
}

function removeIdentifiers(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) removeIdentifiers(item);
    return;
  }
  if (!isObject(node)) return;
  delete node.$id;
  delete node.$anchor;
  for (const [key, value] of Object.entries(node)) {
    if (!DATA_MEMBERS.has(key) && !key.startsWith('x-')) removeIdentifiers(value);
  }
}

function resolve(reference: string, base: string): string | undefined {
  try {
    return new URL(reference, base).href;
  } catch {
    return undefined;
  }
}

function withoutFragment(uri: string): string {
  const hash = uri.indexOf('#');
  return hash < 0 ? uri : uri.slice(0, hash);
}
