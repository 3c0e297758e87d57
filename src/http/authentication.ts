import type { BearerCheck } from '../contract/index.js';
import type { ContractAuth } from '../contract/security.js';

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
