/** The environment variable every recorded request and curl line names instead of the token. */
export const TOKEN_VARIABLE = 'PLANTSTORE_TOKEN';

/** Shorter tokens are redacted only exactly: hiding every near-match of 3 letters would hide noise. */
const MIN_VARIANT_LENGTH = 8;

/** Shorter tokens than this are redacted only where they stand alone, between non-word characters. */
const MIN_SUBSTRING_LENGTH = 6;

/**
 * Replaces the token (a target may echo it back) with `$PLANTSTORE_TOKEN`: exactly, in any letter
 * case, and with its last character cut, as the auth probes send it. Each of those reveals the
 * token, or all of it but one character.
 */
export function redact(text: string, token: string): string {
  if (token === '') return text;
  const variants = token.length >= MIN_VARIANT_LENGTH ? [token, token.slice(0, -1)] : [token];
  let source = variants.map(escapeRegExp).join('|');
  // A token of a few characters is hidden only as a word of its own: "T" must not eat every capital T.
  if (token.length < MIN_SUBSTRING_LENGTH) source = `(?<![\\p{L}\\p{N}_])(?:${source})(?![\\p{L}\\p{N}_])`;
  const pattern = new RegExp(source, token.length >= MIN_VARIANT_LENGTH ? 'giu' : 'gu');
  return text.replace(pattern, () => `$${TOKEN_VARIABLE}`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
