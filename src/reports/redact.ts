/**
 * The last line of defence for secrets: the runner already writes `$PLANTSTORE_TOKEN` where a token
 * went, but every text a reporter emits passes through here too, so a token echoed by a target, or
 * one that slipped into a header, never reaches a terminal, a CI log or a report file.
 */

/** What a redacted secret reads as: the variable a user exports, so curl lines still work. */
export const REDACTED = '$PLANTSTORE_TOKEN';

const FALLBACK_PLACEHOLDERS = [REDACTED, '[redacted]', '***', '#'];

/**
 * Below this length a secret is hidden only where it stands as a word of its own: a one-letter
 * token would otherwise turn every capital T of a report into a placeholder, and a token that
 * short keeps nothing secret anyway.
 */
export const MIN_SUBSTRING_SECRET = 6;

/** The secrets a reporter must hide, in every form they take in text. */
export interface SecretSet {
  /** Raw, URL-encoded and JSON-escaped spellings, longest first. */
  readonly forms: readonly string[];
  /** Spellings of short secrets, matched only between characters that cannot belong to a word. */
  readonly shortForms?: RegExp;
  readonly placeholder: string;
  /** Raw bytes, to look inside base64 bodies. */
  readonly bytes: readonly Buffer[];
}

/** Prepares secrets for `redact`; empty strings are ignored. */
export function secretSet(secrets: readonly string[]): SecretSet {
  const raw = [...new Set(secrets.filter((secret) => secret.length > 0))];
  const all = [...new Set(raw.flatMap((secret) => spellings(secret)))].sort((a, b) => b.length - a.length);
  const forms = all.filter((form) => form.length >= MIN_SUBSTRING_SECRET);
  const short = all.filter((form) => form.length < MIN_SUBSTRING_SECRET);
  const placeholder = FALLBACK_PLACEHOLDERS.find((p) => !all.some((form) => p.includes(form))) ?? '';
  const bytes = raw.map((secret) => Buffer.from(secret, 'utf8'));
  if (short.length === 0) return { forms, placeholder, bytes };
  const alternatives = short.map((form) => form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  const shortForms = new RegExp(`(?<![\\p{L}\\p{N}_])(?:${alternatives})(?![\\p{L}\\p{N}_])`, 'gu');
  return { forms, shortForms, placeholder, bytes };
}

function spellings(secret: string): string[] {
  const forms = [secret, JSON.stringify(secret).slice(1, -1)];
  try {
    forms.push(encodeURIComponent(secret));
  } catch {
    // A lone surrogate cannot be URL-encoded, so it cannot appear URL-encoded either.
  }
  return forms;
}

/** `text` with every occurrence of every secret (raw, URL-encoded or JSON-escaped) replaced. */
export function redact(text: string, secrets: SecretSet | readonly string[]): string {
  const set = isSecretSet(secrets) ? secrets : secretSet(secrets);
  if (set.forms.length === 0 && !set.shortForms) return text;
  let result = set.shortForms ? text.replace(set.shortForms, set.placeholder) : text;
  // A replacement can meet its neighbours and spell a secret again: repeat, then fall back to deleting,
  // which always ends because each pass makes the text shorter.
  for (let pass = 0; pass < 3 && containsAny(result, set.forms); pass++) {
    result = replaceAll(result, set.forms, set.placeholder);
  }
  while (containsAny(result, set.forms)) result = replaceAll(result, set.forms, '');
  return result;
}

/** A copy of any JSON-like value (a Report, a CheckResult) with every string and key redacted. */
export function redactValue<T>(value: T, secrets: SecretSet | readonly string[]): T {
  const set = isSecretSet(secrets) ? secrets : secretSet(secrets);
  return set.forms.length === 0 && !set.shortForms ? value : (walk(value, set, '') as T);
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

function containsAny(text: string, forms: readonly string[]): boolean {
  return forms.some((form) => text.includes(form));
}

function replaceAll(text: string, forms: readonly string[], by: string): string {
  return forms.reduce((result, form) => result.split(form).join(by), text);
}

function isSecretSet(value: SecretSet | readonly string[]): value is SecretSet {
  return !Array.isArray(value);
}
