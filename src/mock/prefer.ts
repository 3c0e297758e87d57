/** The preferences a client may send in a `Prefer` header, as Prism's own server reads them. */
export interface MockPreferences {
  /** `code=400`: answer with this documented status. */
  readonly code?: number;
  /** `example=name`: answer with this named example of the spec. */
  readonly exampleKey?: string;
  /** `dynamic=true|false`: generate the body from the schema, or not, for this request. */
  readonly dynamic?: boolean;
}

/** A `Prefer` header read: the preferences, or why they cannot be honoured. */
export type PreferResult =
  { readonly ok: true; readonly preferences: MockPreferences } | { readonly ok: false; readonly message: string };

/** A request without `Prefer`: the same value every time. */
const NO_PREFERENCES: PreferResult = Object.freeze({ ok: true, preferences: Object.freeze({}) });

const PREFERENCE = /^([A-Za-z][\w-]*)\s*(?:=\s*("(?:[^"\\]|\\.)*"|[^\s"]*))?$/;

/**
 * Reads the `code=`, `example=` and `dynamic=` preferences of a `Prefer` header (RFC 7240).
 * Preferences are separated by commas or semicolons; other preferences are ignored, as the RFC asks.
 */
export function parsePrefer(header: string | undefined): PreferResult {
  if (header === undefined) return NO_PREFERENCES;
  const preferences: { code?: number; exampleKey?: string; dynamic?: boolean } = {};
  for (const part of header.split(/[,;]/)) {
    const text = part.trim();
    if (text === '') continue;
    const match = PREFERENCE.exec(text);
    if (!match) continue;
    const name = (match[1] ?? '').toLowerCase();
    const value = unquote(match[2] ?? '');
    if (name === 'code') {
      if (!/^\d{3}$/.test(value))
        return invalid(`Prefer: code=${preview(value)} is not an HTTP status (e.g. code=400)`);
      preferences.code = Number(value);
    } else if (name === 'example') {
      if (value === '') return invalid('Prefer: example= needs the name of an example, e.g. example=fern');
      preferences.exampleKey = value;
    } else if (name === 'dynamic') {
      if (value !== 'true' && value !== 'false') {
        return invalid(`Prefer: dynamic=${preview(value)} must be dynamic=true or dynamic=false`);
      }
      preferences.dynamic = value === 'true';
    }
  }
  return { ok: true, preferences };
}

function unquote(value: string): string {
  return value.startsWith('"') ? value.slice(1, -1).replace(/\\(.)/g, '$1') : value;
}

function preview(value: string): string {
  return value.length > 40 ? `${value.slice(0, 37)}...` : value;
}

function invalid(message: string): PreferResult {
  return { ok: false, message: `${message}.` };
}
