/**
 * The one secret set: every form a bearer token can take in text, and how to hide it. The runner
 * hides the token in what it records, every reporter hides it again in what it writes, and the proxy
 * in what it logs; all three use this module, so a form covered once is covered everywhere.
 */

/** The environment variable every recorded request and curl line names instead of the token. */
export const TOKEN_VARIABLE = 'PLANTSTORE_TOKEN';

/** What a redacted secret reads as: the variable a user exports, so curl lines still work. */
export const REDACTED = `$${TOKEN_VARIABLE}`;

const FALLBACK_PLACEHOLDERS = [REDACTED, '[redacted]', '***', '#'];

/**
 * Below this length a secret is hidden only where it stands as a word of its own: a one-letter
 * token would otherwise turn every capital T of a report into a placeholder, and a token that
 * short keeps nothing secret anyway.
 */
export const MIN_SUBSTRING_SECRET = 6;

/**
 * From this length on a secret is also hidden in any letter case and with its last character cut
 * (as the auth probes send it): each reveals the token, or all of it but one character. Shorter
 * near-matches would hide noise.
 */
export const MIN_VARIANT_SECRET = 8;

/** The secrets a text must not show, prepared once: build with {@link secretSet}. */
export interface SecretSet {
  /** Exact spellings (JSON-escaped, URL-encoded, base64, base64url), longest first. */
  readonly forms: readonly string[];
  /** Long secrets and their truncations, matched in any letter case. */
  readonly variants?: RegExp;
  /** Spellings of short secrets, matched only between characters that cannot belong to a word. */
  readonly shortForms?: RegExp;
  readonly placeholder: string;
  /** Raw bytes, to look inside base64 bodies. */
  readonly bytes: readonly Buffer[];
}

/** What {@link redact} and {@link redactValue} accept: a prepared set, a list of secrets, or one. */
export type Secrets = SecretSet | readonly string[] | string;

/** Prepares secrets for {@link redact}; empty strings are ignored. */
export function secretSet(secrets: readonly string[]): SecretSet {
  const raw = [...new Set(secrets.filter((secret) => secret.length > 0))];
  const long = raw.filter((secret) => secret.length >= MIN_VARIANT_SECRET);
  const variantForms = long.flatMap((secret) => [secret, secret.slice(0, -1)]);
  const all = [...new Set(raw.flatMap(spellings))].sort((a, b) => b.length - a.length);
  const forms = all.filter((form) => form.length >= MIN_SUBSTRING_SECRET);
  const short = all.filter((form) => form.length < MIN_SUBSTRING_SECRET);
  const placeholder =
    FALLBACK_PLACEHOLDERS.find(
      (p) => !all.some((form) => p.includes(form)) && !variantForms.some((form) => includesIgnoringCase(p, form)),
    ) ?? '';
  const variants = variantForms.length === 0 ? undefined : new RegExp(alternation(variantForms), 'giu');
  const shortForms =
    short.length === 0
      ? undefined
      : new RegExp(`(?<![\\p{L}\\p{N}_])(?:${alternation(short)})(?![\\p{L}\\p{N}_])`, 'gu');
  const bytes = raw.map((secret) => Buffer.from(secret, 'utf8'));
  return { forms, placeholder, bytes, ...(variants && { variants }), ...(shortForms && { shortForms }) };
}

/**
 * The secrets of an `Authorization` value: the credential after the scheme (`Bearer <token>`), or
 * the bare word when there is no scheme, and the whole value.
 */
export function authorizationSecrets(authorization: string | undefined): string[] {
  if (authorization === undefined) return [];
  const match = /^\s*(\S+)(?:[ \t]+(.*?))?\s*$/s.exec(authorization);
  const token = match?.[2] ?? '';
  return [token === '' ? (match?.[1] ?? '') : token, authorization.trim()].filter((part) => part !== '');
}

/** `text` with every form of every secret replaced by the placeholder (`$PLANTSTORE_TOKEN`). */
export function redact(text: string, secrets: Secrets): string {
  const set = toSet(secrets);
  if (isEmpty(set)) return text;
  let result = set.shortForms ? text.replace(set.shortForms, set.placeholder) : text;
  // A replacement can meet its neighbours and spell a secret again: repeat, then fall back to deleting,
  // which always ends because each pass makes the text shorter.
  for (let pass = 0; pass < 3 && containsAny(result, set); pass++) result = replaceAll(result, set, set.placeholder);
  while (containsAny(result, set)) result = replaceAll(result, set, '');
  return result;
}

/** A copy of any JSON-like value (a Report, a CheckResult) with every string and key redacted. */
export function redactValue<T>(value: T, secrets: Secrets): T {
  const set = toSet(secrets);
  return isEmpty(set) ? value : (walk(value, set, '') as T);
}

/** Raw, JSON-escaped, URL-encoded and base64 / base64url spellings of one secret. */
function spellings(secret: string): string[] {
  const forms = [secret, JSON.stringify(secret).slice(1, -1)];
  try {
    forms.push(encodeURIComponent(secret));
  } catch {
    // A lone surrogate cannot be URL-encoded, so it cannot appear URL-encoded either.
  }
  if (secret.length >= MIN_SUBSTRING_SECRET) forms.push(...base64Spellings(secret));
  return forms;
}

/**
 * The base64 characters a secret always encodes to, whichever of the three byte offsets it starts at in
 * an encoded run (`user:token` of HTTP Basic, an encoded `Bearer token` line): the characters of a group
 * that also holds bytes before or after it depend on those bytes, so they are left out, at most two bytes
 * of the secret on each side. Past offset 0 only a run of 8 characters or more is kept, so that a short
 * one does not hide unrelated base64 text.
 */
function base64Spellings(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const forms: string[] = [];
  for (const encoding of ['base64', 'base64url'] as const) {
    for (const offset of [0, 1, 2]) {
      const length = offset + bytes.length;
      const text = Buffer.concat([Buffer.alloc(offset), bytes])
        .toString(encoding)
        .replace(/=+$/, '');
      const whole = Math.floor(length / 3) * 4;
      const end = length % 3 === 0 ? text.length : Math.max(whole, text.length - 1);
      const stable = text.slice(offset === 0 ? 0 : 4, end);
      if (offset === 0 || stable.length >= MIN_VARIANT_SECRET) forms.push(stable);
    }
  }
  return forms;
}

function walk(value: unknown, set: SecretSet, key: string): unknown {
  if (typeof value === 'string') return key === 'bodyBase64' ? redactBase64(value, set) : redact(value, set);
  if (Array.isArray(value)) return value.map((item) => walk(item, set, ''));
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value)) copy[redact(name, set)] = walk(item, set, name);
  return copy;
}

function redactBase64(encoded: string, set: SecretSet): string {
  const bytes = Buffer.from(encoded, 'base64');
  if (!set.bytes.some((secret) => bytes.includes(secret))) return redact(encoded, set);
  let text = bytes.toString('latin1');
  for (const secret of set.bytes) text = text.split(secret.toString('latin1')).join(set.placeholder);
  return redact(Buffer.from(text, 'latin1').toString('base64'), set);
}

function containsAny(text: string, set: SecretSet): boolean {
  if (set.forms.some((form) => text.includes(form))) return true;
  if (!set.variants) return false;
  set.variants.lastIndex = 0;
  return set.variants.test(text);
}

function replaceAll(text: string, set: SecretSet, by: string): string {
  const exact = set.forms.reduce((result, form) => result.split(form).join(by), text);
  return set.variants ? exact.replace(set.variants, () => by) : exact;
}

function isEmpty(set: SecretSet): boolean {
  return set.forms.length === 0 && !set.shortForms && !set.variants;
}

function toSet(secrets: Secrets): SecretSet {
  if (typeof secrets === 'string') return secretSet([secrets]);
  return isSecretSet(secrets) ? secrets : secretSet(secrets);
}

function isSecretSet(value: SecretSet | readonly string[]): value is SecretSet {
  return !Array.isArray(value);
}

function alternation(forms: readonly string[]): string {
  return [...forms]
    .sort((a, b) => b.length - a.length)
    .map((form) => form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|');
}

function includesIgnoringCase(text: string, form: string): boolean {
  return text.toLowerCase().includes(form.toLowerCase());
}
