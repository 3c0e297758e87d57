import type { IncomingMessage } from 'node:http';
import { problem, type BearerCheck, type Contract, type Problem } from '../contract/index.js';
import { cookiesOf } from '../contract/parameters.js';
import { operationAuth, securityAlternatives, type ContractAuth, type OperationAuth } from '../contract/security.js';

/**
 * The authentication step for what the document declares: no check when POST /plants declares no
 * security requirement; with an anonymous alternative (`{}`), a request without `Authorization`
 * passes and one with it is checked; otherwise the bearer check (OAuth 2 and OpenID Connect tokens
 * are bearer tokens too, and the servers speak no other scheme).
 */
export function authenticationFor(auth: ContractAuth, checkBearer: BearerCheck): BearerCheck {
  if (auth === 'none') return () => undefined;
  if (auth === 'optional')
    return (authorization) => (authorization === undefined ? undefined : checkBearer(authorization));
  return checkBearer;
}

/** Judges a whole request's credentials; `undefined` means the request may proceed. */
export type RequestAuthentication = (req: IncomingMessage) => Problem | undefined;

/** Where an `apiKey` security scheme carries its key. */
export interface ApiKeyPlace {
  readonly in: 'header' | 'query' | 'cookie';
  readonly name: string;
}

/**
 * The request's authentication: an `apiKey` scheme's key where the document puts it (a header, a
 * query parameter or a cookie), checked against the same keys as bearer tokens; else `Authorization`
 * as {@link authenticationFor} says.
 */
export function requestAuthentication(contract: Contract, checkBearer: BearerCheck): RequestAuthentication {
  const chosen = authenticationOf(
    contract.document,
    { auth: contract.auth, schemes: contract.authSchemes },
    checkBearer,
  );
  const paths = contract.document.paths as Record<string, Record<string, unknown> | undefined> | undefined;
  const operation = paths?.[contract.operationPath]?.post;
  if (!isRecord(operation)) return chosen;
  return withKeyAlternatives(contract.document, operation, chosen, checkBearer);
}

/**
 * {@link authenticationOf} for an operation, with each API key alternative (OR) of its security accepted too:
 * `[{bearerAuth: []}, {apiKeyAuth: []}]` lets a client send either. A request meeting none is answered
 * as the chosen alternative (the bearer one) refuses it.
 */
export function operationAuthentication(
  document: Record<string, unknown>,
  operation: Record<string, unknown>,
  checkBearer: BearerCheck,
): RequestAuthentication {
  const chosen = authenticationOf(document, operationAuth(document, operation), checkBearer);
  return withKeyAlternatives(document, operation, chosen, checkBearer);
}

function withKeyAlternatives(
  document: Record<string, unknown>,
  operation: Record<string, unknown>,
  chosen: RequestAuthentication,
  checkBearer: BearerCheck,
): RequestAuthentication {
  const keys = securityAlternatives(document, operation)
    .filter((alternative) => alternative.auth === 'apiKey' && apiKeyPlaceOf(document, alternative.schemes))
    .map((alternative) => authenticationOf(document, alternative, checkBearer));
  if (keys.length === 0) return chosen;
  return (req) => {
    const refused = chosen(req);
    return refused === undefined || keys.some((key) => key(req) === undefined) ? undefined : refused;
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** {@link requestAuthentication} for any operation of the document, from what it requires. */
export function authenticationOf(
  document: Record<string, unknown>,
  required: OperationAuth,
  checkBearer: BearerCheck,
): RequestAuthentication {
  const place = required.auth === 'apiKey' ? apiKeyPlaceOf(document, required.schemes) : undefined;
  if (place !== undefined) {
    const keyCheck = apiKeyCheck(place, checkBearer);
    if (!namesBearerScheme(document, required.schemes)) return keyCheck;
    // One requirement naming both (AND): the key and the bearer token are each needed.
    return (req) => keyCheck(req) ?? checkBearer(req.headers.authorization);
  }
  const check = authenticationFor(required.auth, checkBearer);
  return (req) => check(req.headers.authorization);
}

/** The place of the key of the operation's first `apiKey` scheme, when the document says it. */
export function apiKeyPlace(contract: Contract): ApiKeyPlace | undefined {
  return apiKeyPlaceOf(contract.document, contract.authSchemes);
}

function schemeOf(document: Record<string, unknown>, name: string): Record<string, unknown> | undefined {
  const components = document.components as { securitySchemes?: Record<string, unknown> } | undefined;
  const scheme = components?.securitySchemes?.[name];
  return scheme !== null && typeof scheme === 'object' ? (scheme as Record<string, unknown>) : undefined;
}

function namesBearerScheme(document: Record<string, unknown>, schemes: readonly string[]): boolean {
  return schemes.some((name) => {
    const scheme = schemeOf(document, name);
    if (scheme?.type === 'oauth2' || scheme?.type === 'openIdConnect' || isAuthorizationKey(scheme)) return true;
    return scheme?.type === 'http' && typeof scheme.scheme === 'string' && scheme.scheme.toLowerCase() === 'bearer';
  });
}

/** Swagger 2.0's way to write a bearer token (see `operationAuth`): its value is `Bearer <token>`. */
function isAuthorizationKey(scheme: Record<string, unknown> | undefined): boolean {
  return (
    scheme?.type === 'apiKey' &&
    scheme.in === 'header' &&
    typeof scheme.name === 'string' &&
    scheme.name.toLowerCase() === 'authorization'
  );
}

function apiKeyPlaceOf(document: Record<string, unknown>, schemes: readonly string[]): ApiKeyPlace | undefined {
  for (const name of schemes) {
    const scheme = schemeOf(document, name);
    if (scheme?.type !== 'apiKey' || typeof scheme.name !== 'string' || scheme.name === '') continue;
    if (isAuthorizationKey(scheme)) continue;
    if (scheme.in === 'header' || scheme.in === 'query' || scheme.in === 'cookie')
      return { in: scheme.in, name: scheme.name };
  }
  return undefined;
}

/**
 * Checks the key at its place. The comparison is the bearer check's (constant time, against every
 * configured token, or any non-empty one with `anyToken`), asked about the key as a bearer token;
 * the answers say where the key goes and carry no `WWW-Authenticate: Bearer`, which would send a
 * client to the wrong header.
 */
export function apiKeyCheck(place: ApiKeyPlace, checkBearer: BearerCheck): RequestAuthentication {
  const where =
    place.in === 'header'
      ? `the header "${place.name}"`
      : place.in === 'query'
        ? `the query parameter "${place.name}"`
        : `the cookie "${place.name}"`;
  const header = place.name.toLowerCase();
  const keyOf = (req: IncomingMessage): string | undefined => {
    if (place.in === 'header') {
      const value = req.headers[header];
      return Array.isArray(value) ? value.join(', ') : value;
    }
    if (place.in === 'cookie') return cookiesOf(req.headers.cookie).get(place.name);
    const query = req.url?.includes('?') ? new URL(req.url, 'http://host.invalid').searchParams : undefined;
    return query?.get(place.name) ?? undefined;
  };
  const noBearerHeader = { headers: {} };
  return (req) => {
    const key = keyOf(req)?.trim();
    if (key === undefined || key === '') {
      const missing = problem('missingCredentials', `Authentication required: send your API key in ${where}.`);
      return { ...missing, ...noBearerHeader };
    }
    if (/\s/.test(key) || checkBearer(`Bearer ${key}`) !== undefined) {
      const unknown = problem(
        'unknownToken',
        `The API key in ${where} is not valid for this server; check the key you were given.`,
      );
      return { ...unknown, ...noBearerHeader };
    }
    return undefined;
  };
}
