/** The HTTP methods a Path Item Object may declare, in the order the OpenAPI specification lists them. */
export const PATH_ITEM_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

type JsonObject = Record<string, unknown>;

/** A JSON object (not null, not an array), as the document's readers take one. */
export function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The operations a Path Item Object declares, as `METHOD` names in upper case. */
function methodsOf(pathItem: unknown): string[] {
  if (!isObject(pathItem)) return [];
  const methods = PATH_ITEM_METHODS.filter((method) => isObject(pathItem[method])).map((method) =>
    method.toUpperCase(),
  );
  // OpenAPI 3.2's `query` and `additionalOperations`, kept there by openapi-3-2.ts.
  const extra = pathItem['x-plantstore-operations'];
  return isObject(extra) ? [...methods, ...Object.keys(extra).map((method) => method.toUpperCase())] : methods;
}

/**
 * Every operation, webhook and callback a document declares, except the one given (`POST /plants`):
 * e.g. `GET /plants`, `DELETE /plants/{id}`, `webhook newPlant (POST)`, `callback onAdded (POST)`.
 * Operations come first, by path then by method in the specification's order; webhooks follow, by
 * name, then callbacks by name. The order is stable.
 */
export function listOperations(document: JsonObject, except?: { path: string; method: string }): string[] {
  const skip = except ? `${except.method.toUpperCase()} ${except.path}` : undefined;
  const paths = isObject(document.paths) ? document.paths : {};
  const operations = Object.keys(paths)
    .sort(compareText)
    .flatMap((path) => methodsOf(paths[path]).map((method) => `${method} ${path}`))
    .filter((name) => name !== skip);
  const hooks = isObject(document.webhooks) ? document.webhooks : {};
  const webhooks = Object.keys(hooks)
    .sort(compareText)
    .flatMap((name) => methodsOf(hooks[name]).map((method) => `webhook ${name} (${method})`));
  return [...operations, ...webhooks, ...callbacksOf(paths)];
}

/** The callbacks declared by any operation, as `callback NAME (METHOD)`, without repeats. */
function callbacksOf(paths: JsonObject): string[] {
  const names = new Set<string>();
  for (const pathItem of Object.values(paths)) {
    if (!isObject(pathItem)) continue;
    for (const method of PATH_ITEM_METHODS) {
      const operation = pathItem[method];
      const callbacks = isObject(operation) ? operation.callbacks : undefined;
      if (!isObject(callbacks)) continue;
      for (const [name, callback] of Object.entries(callbacks)) {
        const items = isObject(callback) ? Object.values(callback) : [];
        for (const item of items) for (const verb of methodsOf(item)) names.add(`callback ${name} (${verb})`);
      }
    }
  }
  return [...names].sort(compareText);
}

/** Code-unit order, independent of the locale the process runs in. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** What is wrong on the way to an operation, or the operation itself. */
export type Located<T> = { readonly found: T; readonly pointer: string } | { readonly missing: string };

/**
 * A path as the document writes it (`/plants/{id}`) as a pattern of request paths: each template part one segment,
 * captured in the order the parts stand.
 */
export function pathTemplatePattern(written: string): RegExp {
  const parts = written.split(/\{[^}]*\}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('([^/]+)')}/?$`);
}

/** A request path as the document's paths write it: below the first server's path `base` (`/api/v1`), else as it is. */
export function pathBelowBase(path: string, base: string): string {
  return base !== '' && path.startsWith(`${base}/`) ? path.slice(base.length) : path;
}

/** Escapes one JSON pointer segment (RFC 6901). */
export function escapePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * The document's key for POST /plants: `/plants`, else `/plants/` when only it declares POST (Django REST
 * framework, a FastAPI router's `""` route), else the one path that puts `/plants` (or `/plants/`) below a
 * fixed prefix and declares POST (`/api/v1/plants`, as FastAPI's router prefix and springdoc write the
 * server's path into every path), else `/plants`.
 */
export function plantsPathOf(document: JsonObject): string {
  const paths = isObject(document.paths) ? document.paths : {};
  const posts = (key: string): boolean => isObject(paths[key]) && isObject(paths[key].post);
  if (isObject(paths['/plants']) && (posts('/plants') || !posts('/plants/'))) return '/plants';
  // Django REST framework's and FastAPI routers' `/plants/`: the document's URL, which plantstore then calls.
  if (posts('/plants/')) return '/plants/';
  for (const shape of [/^(\/[^{}/]+)+\/plants$/, /^(\/[^{}/]+)+\/plants\/$/]) {
    const prefixed = Object.keys(paths).filter((key) => shape.test(key) && posts(key));
    if (prefixed.length === 1 && prefixed[0] !== undefined) return prefixed[0];
  }
  return '/plants';
}

/**
 * The path plantstore calls below a base URL for the document's operation path: `/plants`, or
 * `/plants/` when the document writes it with its trailing slash (`/plants/`, `/api/v1/plants/`).
 */
export function calledPlantsPath(operationPath: string): '/plants' | '/plants/' {
  return operationPath.endsWith('/') ? '/plants/' : '/plants';
}

/** Finds `paths[path][method]`, or says in a sentence what is missing and what the document has instead. */
export function findOperation(document: JsonObject, path: string, method: string): Located<JsonObject> {
  const name = `${method.toUpperCase()} ${path}`;
  const paths = isObject(document.paths) ? document.paths : {};
  const pathItem = paths[path];
  const pointer = `/paths/${escapePointer(path)}/${method}`;
  if (isObject(pathItem) && isObject(pathItem[method])) return { found: pathItem[method], pointer };
  const declared = listOperations(document).filter((other) => !other.startsWith('webhook '));
  const instead =
    declared.length === 0 ? 'it declares no operation at all' : `it declares ${summariseList(declared, 6)}`;
  const where = isObject(pathItem) ? `paths → ${path} has no ${method}` : `paths has no ${path}`;
  return {
    missing: `The document has no ${name} operation, the one plantstore tests (${where}; ${instead}).`,
  };
}

/**
 * Whether a Responses Object key is the range of `status` (`4XX` for 404). OpenAPI writes ranges upper-case only
 * (`1XX` to `5XX`), and its schema refuses any other key, so a document with a `4xx` is refused when it is loaded and
 * never reaches this reading.
 */
export function isStatusRange(key: string, status: number): boolean {
  return key === `${String(status)[0] ?? ''}XX`;
}

/**
 * Of an operation's response keys, the one that answers `status`: the status, else its range (`4XX`), else
 * `default`, as OpenAPI picks the response.
 */
export function responseKeyFor(keys: readonly string[], status: number): string | undefined {
  const code = String(status);
  return (
    keys.find((key) => key === code) ??
    keys.find((key) => isStatusRange(key, status)) ??
    keys.find((key) => key === 'default')
  );
}

/** The response object an operation answers `status` with ({@link responseKeyFor}); `undefined` when none. */
export function documentedResponse(operation: unknown, status: number): JsonObject | undefined {
  const responses = isObject(operation) && isObject(operation.responses) ? operation.responses : {};
  const keys = Object.keys(responses).filter((key) => isObject(responses[key]));
  const key = responseKeyFor(keys, status);
  return key === undefined ? undefined : (responses[key] as JsonObject);
}

/** `a, b and c`, or `a, b, c and 4 more`. */
export function summariseList(items: readonly string[], limit: number): string {
  const shown = items.slice(0, limit);
  const rest = items.length - shown.length;
  if (rest > 0) return `${shown.join(', ')} and ${rest} more`;
  if (shown.length <= 1) return shown.join('');
  return `${shown.slice(0, -1).join(', ')} and ${shown.at(-1) ?? ''}`;
}
