/**
 * The proxy's one link to the project's redaction: everything it logs or reports passes through
 * here, hiding PLANTSTORE_TOKEN and the credential of the exchange at hand.
 */
import { authorizationSecrets, redact, redactValue, secretSet, type SecretSet } from '../contract/secrets.js';

export { REDACTED } from '../contract/secrets.js';

/** Hides a fixed set of secrets, and on demand one exchange's own credential besides. */
export interface Redactor {
  /** The secrets every output hides (PLANTSTORE_TOKEN), for the reporters. */
  readonly secrets: readonly string[];
  text(text: string, credential?: string): string;
  value<T>(value: T, credential?: string): T;
}

/** Credentials whose secret sets are kept, most recent last. */
const RECENT_CREDENTIALS = 32;

/** A redactor for these fixed secrets (empty strings ignored). */
export function createRedactor(secrets: readonly (string | undefined)[]): Redactor {
  const fixed = secrets.filter((secret): secret is string => secret !== undefined && secret !== '');
  const base = secretSet(fixed);
  // Clients send the same credential again and again: its secret set is built once.
  const recent = new Map<string, SecretSet>();
  const setFor = (credential: string | undefined): SecretSet => {
    if (credential === undefined) return base;
    let set = recent.get(credential);
    if (!set) {
      if (recent.size >= RECENT_CREDENTIALS) recent.delete(recent.keys().next().value ?? '');
      set = secretSet([...fixed, ...authorizationSecrets(credential)]);
      recent.set(credential, set);
    }
    return set;
  };
  return {
    secrets: fixed,
    text: (text, credential) => redact(text, setFor(credential)),
    value: (value, credential) => redactValue(value, setFor(credential)),
  };
}
