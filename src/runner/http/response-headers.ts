import { headerNameToString } from './undici.js';

/**
 * Response headers by lower-case name, a repeated header's values joined by `, `, read from undici's
 * raw header list in one pass: what joining undici's `parseHeaders` (values as latin1 text, repeats as
 * arrays) gave, without the intermediate object and its arrays.
 */
export function responseHeaders(rawHeaders: readonly (Buffer | string)[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    const raw = rawHeaders[index] ?? '';
    const rawValue = rawHeaders[index + 1] ?? '';
    // Lower-cased once more as the join did: a no-op on undici's lower-case names, kept for the same key.
    const name = headerNameToString(raw).toLowerCase();
    const value = typeof rawValue === 'string' ? rawValue : rawValue.toString('latin1');
    // Plain assignment, as the join did: a `__proto__` name sets nothing.
    headers[name] = Object.hasOwn(headers, name) ? `${headers[name]}, ${value}` : value;
  }
  return headers;
}
