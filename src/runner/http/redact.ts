/** The environment variable every recorded request and curl line names instead of the token. */
export const TOKEN_VARIABLE = 'PLANTSTORE_TOKEN';

/** Replaces every occurrence of the token (a target may echo it back) with `$PLANTSTORE_TOKEN`. */
export function redact(text: string, token: string): string {
  if (token === '') return text;
  return text.split(token).join(`$${TOKEN_VARIABLE}`);
}
