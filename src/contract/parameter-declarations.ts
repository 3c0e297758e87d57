import { escapePointer, isObject } from './operations.js';

type JsonObject = Record<string, unknown>;

/**
 * Where a parameter travels. `path` only where asked for (`declaredParameters(…, true)`): POST /plants has no
 * template; the proxy reads the path parameters of the document's other operations.
 */
export type ParameterPlace = 'header' | 'query' | 'cookie' | 'path';

/** A header, query or cookie (or path) Parameter Object of an operation, as the document writes it. */
export interface DeclaredParameter {
  readonly name: string;
  readonly in: ParameterPlace;
  readonly required: boolean;
  /** JSON pointer of the Parameter Object in the document. */
  readonly pointer: string;
  /** The Parameter Object itself (dereferenced). */
  readonly declaration: JsonObject;
}

/** OpenAPI: header parameters named Accept, Content-Type or Authorization are ignored. */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

/**
 * The header, query and cookie parameters of `paths[path][method]` in a dereferenced document: the path
 * item's, overridden by the operation's of the same name and place (header names in any letter case), in
 * declaration order. Reads the document only (no schema is compiled), so `validate`'s summary can list them.
 */
export function declaredParameters(
  document: JsonObject,
  path: string,
  method: string,
  withPath = false,
): DeclaredParameter[] {
  const paths = document.paths;
  const pathItem = isObject(paths) ? paths[path] : undefined;
  if (!isObject(pathItem)) return [];
  const operation = pathItem[method];
  const base = `/paths/${escapePointer(path)}`;
  const byKey = new Map<string, DeclaredParameter>();
  const lists: [unknown, string][] = [
    [pathItem.parameters, `${base}/parameters`],
    [isObject(operation) ? operation.parameters : undefined, `${base}/${method}/parameters`],
  ];
  for (const [list, pointer] of lists) {
    if (!Array.isArray(list)) continue;
    list.forEach((declaration: unknown, index) => {
      const read = readDeclaration(declaration, `${pointer}/${index}`, withPath);
      if (read) byKey.set(`${read.in}\u0000${read.in === 'header' ? read.name.toLowerCase() : read.name}`, read);
    });
  }
  return [...byKey.values()];
}

function readDeclaration(declaration: unknown, pointer: string, withPath: boolean): DeclaredParameter | undefined {
  if (!isObject(declaration) || typeof declaration.name !== 'string') return undefined;
  const place = declaration.in;
  if (place === 'path' && withPath)
    // OpenAPI: a path parameter is always required.
    return { name: declaration.name, in: place, required: true, pointer, declaration };
  if (place !== 'header' && place !== 'query' && place !== 'cookie') return undefined;
  if (place === 'header' && IGNORED_HEADERS.has(declaration.name.toLowerCase())) return undefined;
  return { name: declaration.name, in: place, required: declaration.required === true, pointer, declaration };
}
