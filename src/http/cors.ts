import type { IncomingHttpHeaders } from 'node:http';

/**
 * CORS for a mock used from a page on another origin (a dev server on another port). Any origin may
 * call it: the mock holds no user data, and its token is a development token.
 */

/** How long a browser may reuse a preflight answer (Chromium caps this at two hours). */
const PREFLIGHT_MAX_AGE_SECONDS = 7200;

const ALWAYS_ALLOWED_HEADERS = ['Authorization', 'Content-Type'];
/**
 * Headers of an answer a script may read besides the safelisted ones: the 401's challenge, the 405's
 * methods, and the Location a document may require on its 201.
 */
const EXPOSED_HEADERS = 'WWW-Authenticate, Allow, Location';
const METHOD = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** A preflight is an OPTIONS request carrying `Origin` and `Access-Control-Request-Method`. */
export function isPreflight(method: string | undefined, headers: IncomingHttpHeaders): boolean {
  return method === 'OPTIONS' && headers.origin !== undefined && headers['access-control-request-method'] !== undefined;
}

/** The CORS headers of an answer to a request without `Origin`: the same every time. */
const ANY_ORIGIN: Readonly<Record<string, string>> = Object.freeze({
  'access-control-allow-origin': '*',
  'access-control-expose-headers': EXPOSED_HEADERS,
});

/** Headers of every actual response: who may read it, and which headers a script may see. */
export function corsHeaders(headers: IncomingHttpHeaders): Readonly<Record<string, string>> {
  const origin = headers.origin;
  return origin === undefined
    ? ANY_ORIGIN
    : {
        // The origin itself rather than '*', so pages sending credentials (cookies) can read answers too.
        'access-control-allow-origin': origin,
        'access-control-allow-credentials': 'true',
        'access-control-expose-headers': EXPOSED_HEADERS,
        vary: 'Origin',
      };
}

/**
 * Headers of the 204 answer to a preflight: the requested method (so a PUT reaches the mock and gets
 * its 405 Error, as from the real service), Authorization, Content-Type and any requested header.
 */
export function preflightHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const method = headers['access-control-request-method'] ?? 'POST';
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
    ...(headers.origin === undefined ? {} : { 'access-control-allow-credentials': 'true' }),
    'access-control-allow-methods': METHOD.test(method) ? method : 'POST',
    'access-control-allow-headers': [...allowed.values()].join(', '),
    'access-control-max-age': String(PREFLIGHT_MAX_AGE_SECONDS),
    vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
  };
}
