import type { IncomingHttpHeaders } from 'node:http';

/**
 * CORS for a mock used from a page on another origin (a dev server on another port). Any origin may
 * call it: the mock holds no user data, and its token is a development token.
 */

/** How long a browser may reuse a preflight answer (Chromium caps this at two hours). */
const PREFLIGHT_MAX_AGE_SECONDS = 7200;

const ALWAYS_ALLOWED_HEADERS = ['Authorization', 'Content-Type'];
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** A preflight is an OPTIONS request carrying `Origin` and `Access-Control-Request-Method`. */
export function isPreflight(method: string | undefined, headers: IncomingHttpHeaders): boolean {
  return method === 'OPTIONS' && headers.origin !== undefined && headers['access-control-request-method'] !== undefined;
}

/** Headers of every actual response: who may read it, and which headers a script may see. */
export function corsHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const origin = headers.origin;
  return origin === undefined
    ? { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'WWW-Authenticate' }
    : {
        'access-control-allow-origin': origin,
        'access-control-expose-headers': 'WWW-Authenticate',
        vary: 'Origin',
      };
}

/** Headers of the 204 answer to a preflight: POST with Authorization and Content-Type is allowed. */
export function preflightHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const requested = (headers['access-control-request-headers'] ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => HEADER_NAME.test(name));
  const allowed = new Map<string, string>();
  for (const name of [...ALWAYS_ALLOWED_HEADERS, ...requested]) {
    if (!allowed.has(name.toLowerCase())) allowed.set(name.toLowerCase(), name);
  }
  return {
    'access-control-allow-origin': headers.origin ?? '*',
    'access-control-allow-methods': 'POST',
    'access-control-allow-headers': [...allowed.values()].join(', '),
    'access-control-max-age': String(PREFLIGHT_MAX_AGE_SECONDS),
    vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
  };
}
