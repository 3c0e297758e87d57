/**
 * The proxy's one link to the project's redaction: everything it logs or reports passes through
 * here, hiding PLANTSTORE_TOKEN and the credential of the exchange at hand.
 */
import { redact, redactValue, secretSet, type SecretSet } from '../contract/secrets.js';

export { REDACTED } from '../contract/secrets.js';

/** Hides a fixed set of secrets, and on demand one exchange's own credential besides. */
export interface Redactor {
  /** The secrets every output hides (PLANTSTORE_TOKEN), for the reporters. */
  readonly secrets: readonly string[];
  text(text: string, credential?: string): string;
  value<T>(value: T, credential?: string): T;
}

const CREDENTIAL = /^\s*(\S+)(?:[ \t]+(.*?))?\s*$/s;

/** The secret parts of an Authorization value: the token after the scheme, or the bare word. */
export function credentialSecrets(authorization: string | undefined): string[] {
  if (authorization === undefined) return [];
  const match = CREDENTIAL.exec(authorization);
  const token = match?.[2] ?? '';
  return [token === '' ? (match?.[1] ?? '') : token, authorization.trim()].filter((part) => part !== '');
}

/** A redactor for these fixed secrets (empty strings ignored). */
export function createRedactor(secrets: readonly (string | undefined)[]): Redactor {
  const fixed = secrets.filter((secret): secret is string => secret !== undefined && secret !== '');
  const base = secretSet(fixed);
  const setFor = (credential: string | undefined): SecretSet =>
    credential === undefined ? base : secretSet([...fixed, ...credentialSecrets(credential)]);
  return {
    secrets: fixed,
    text: (text, credential) => redact(text, setFor(credential)),
    value: (value, credential) => redactValue(value, setFor(credential)),
  };
}
