import { OPERATION } from './spec.js';
import { problem, type Problem } from './problems.js';

/** The path of a request target, without query or fragment (the contract has no query parameters). */
export function requestPath(url: string | undefined): string {
  let target = url ?? '/';
  // The absolute form (`POST http://host/plants`), which RFC 9112 (3.2.2) says servers must accept.
  const absolute = /^https?:\/\/[^/?#]*/i.exec(target);
  if (absolute) target = target.slice(absolute[0].length) || '/';
  return target.split(/[?#]/, 1)[0] || '/';
}

/**
 * The path as the document's `paths` name it: without the path of the document's first server
 * (`/v1/plants` → `/plants` when the server is `https://api.example.com/v1`), so a client built
 * from the document reaches the operation as well as one that calls `/plants`.
 */
export function operationPath(path: string, basePath: string): string {
  return basePath !== '' && path.startsWith(`${basePath}/`) ? path.slice(basePath.length) : path;
}

/**
 * Whether a request reaches the contract's one operation: 404 for any other path, 405 (with
 * `Allow: POST`) for any other method on `/plants`, `undefined` for `POST /plants`.
 */
export function routeProblem(method: string | undefined, path: string): Problem | undefined {
  if (path !== OPERATION.path) {
    return problem('notFound', `There is no ${path.slice(0, 100)} here: the only operation is POST /plants.`);
  }
  if (method !== 'POST') return problem('methodNotAllowed', `${method ?? '?'} is not allowed on /plants: use POST.`);
  return undefined;
}
