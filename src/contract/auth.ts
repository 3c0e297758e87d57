import { hash, timingSafeEqual } from 'node:crypto';
import { problem, type Problem } from './problems.js';

/** Judges an `Authorization` header; `undefined` means the request may proceed. */
export type BearerCheck = (authorization: string | undefined) => Problem | undefined;

/**
 * A bearer check for a fixed set of tokens (RFC 6750). The scheme name is case-insensitive
 * (RFC 9110); tokens are compared by SHA-256 digest in constant time, against every configured
 * token, so neither the match nor its position leaks through timing. With `anyToken`, any
 * non-empty token is accepted.
 */
export function createBearerCheck(tokens: readonly string[], options: { anyToken?: boolean } = {}): BearerCheck {
  const digests = tokens.map(digest);
  return (authorization) => {
    if (authorization === undefined || authorization.trim() === '') {
      return problem('missingCredentials', 'Authentication required: send the header "Authorization: Bearer <token>".');
    }
    const match = /^\s*(\S+)(?:[ \t]+(.*?))?\s*$/s.exec(authorization);
    const scheme = match?.[1] ?? '';
    const token = match?.[2] ?? '';
    if (scheme.toLowerCase() !== 'bearer') {
      return problem(
        'malformedCredentials',
        'The Authorization header must use the Bearer scheme: "Authorization: Bearer <token>".',
      );
    }
    if (token === '') {
      return problem('malformedCredentials', 'The Authorization header has the Bearer scheme but no token after it.');
    }
    if (options.anyToken) return undefined;
    const candidate = digest(token);
    let accepted = false;
    for (const known of digests) accepted = timingSafeEqual(candidate, known) || accepted;
    return accepted
      ? undefined
      : problem('unknownToken', 'The bearer token is not valid for this server; check the token you were given.');
  };
}

function digest(token: string): Buffer {
  // The one-shot hash skips building a Hash object per request.
  return hash('sha256', token, 'buffer');
}
