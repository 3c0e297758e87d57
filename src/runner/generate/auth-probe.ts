import fc from 'fast-check';

/**
 * The Authorization header of a request, described without the token itself: the runner fills
 * the token in when sending and writes `$PLANTSTORE_TOKEN` in every record of the request.
 */
export type AuthHeader =
  /** `<scheme> <token>`: the right token; with a scheme other than bearer it must still be refused. */
  | { readonly kind: 'token'; readonly scheme: string }
  | { readonly kind: 'none' }
  /** A header value that never contains the token. */
  | { readonly kind: 'literal'; readonly value: string }
  /** The right token, damaged or bare: a target comparing prefixes or ignoring the scheme accepts these. */
  | { readonly kind: 'token-variant'; readonly variant: 'suffix' | 'prefix' | 'truncated' | 'bare' | 'case-flipped' };

/** A credential that must not be accepted, and what is wrong with it. */
export interface AuthProbe {
  readonly header: AuthHeader;
  readonly what: string;
}

const token = fc.stringMatching(/^[A-Za-z0-9._~+/-]{1,64}$/);

const literal = (value: string, what: string): AuthProbe => ({ header: { kind: 'literal', value }, what });
const variant = (kind: 'suffix' | 'prefix' | 'truncated' | 'bare' | 'case-flipped', what: string): AuthProbe => ({
  header: { kind: 'token-variant', variant: kind },
  what,
});

/** Every kind of bad credential; `authProbeArbitrary(variant)` draws from one kind. */
export const AUTH_PROBE_KINDS: readonly fc.Arbitrary<AuthProbe>[] = [
  fc.constant<AuthProbe>({ header: { kind: 'none' }, what: 'no Authorization header' }),
  token.map((t) => literal(`Bearer ${t}`, 'a random wrong bearer token')),
  fc.constant(literal('Bearer', 'an empty bearer token')),
  fc.constantFrom('Basic', 'Token', 'Digest').map((scheme): AuthProbe => ({
    header: { kind: 'token', scheme },
    what: `the right token under another scheme (${scheme})`,
  })),
  fc.constant(literal('Basic dXNlcjpwYXNzd29yZA==', 'another scheme (Basic) with a password')),
  token.map((t) => literal(`Bearer ${t} ${t}`, 'a malformed bearer header (two tokens)')),
  fc.constant(variant('bare', 'the right token without the "Bearer" scheme')),
  fc.constant(variant('suffix', 'the right token with a character appended')),
  fc.constant(variant('prefix', 'the right token with a character prepended')),
  fc.constant(variant('truncated', 'the right token with its last character removed')),
  fc.constant(variant('case-flipped', 'the right token with every letter in the other case')),
];

/** No credential, another scheme, an empty or malformed bearer, a wrong or damaged token. */
export function authProbeArbitrary(kind: number): fc.Arbitrary<AuthProbe> {
  const arbitrary = AUTH_PROBE_KINDS[kind % AUTH_PROBE_KINDS.length];
  if (!arbitrary) throw new Error('no auth probe kind');
  return arbitrary;
}

/**
 * The bearer scheme name in other letter cases. RFC 9110 makes scheme names case-insensitive, but the
 * contract writes `Bearer`, and many servers compare the whole header: refusing these is worth a
 * warning, never a failure.
 */
export const OTHER_SCHEME_SPELLINGS: readonly string[] = ['bearer', 'BEARER', 'bEaReR'];
