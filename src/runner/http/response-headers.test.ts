import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { responseHeaders } from './response-headers.js';
import { parseHeaders } from './undici.js';

/** What the client did before: undici's `parseHeaders`, then each name lower-cased and repeats joined. */
function parsedThenJoined(rawHeaders: Buffer[]): Record<string, string> {
  const joined: Record<string, string> = {};
  for (const [name, value] of Object.entries(parseHeaders(rawHeaders))) {
    if (value !== undefined) joined[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return joined;
}

const NAMES = [
  'Content-Type',
  'content-length',
  'SET-COOKIE',
  'x-Custom',
  '__proto__',
  'constructor',
  'toString',
  '0',
  '17',
  'À-latin',
  'Date',
];

const rawHeaderLists = fc.array(
  fc.tuple(
    fc.oneof(fc.constantFrom(...NAMES), fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 8 })),
    fc.uint8Array({ maxLength: 12 }),
  ),
  { maxLength: 12 },
);

describe('responseHeaders', () => {
  it('reads raw header lists as parseHeaders then the join did: names, values, repeats, key order', () => {
    fc.assert(
      fc.property(rawHeaderLists, (pairs) => {
        const raw = pairs.flatMap(([name, value]) => [Buffer.from(name, 'latin1'), Buffer.from(value)]);
        const headers = responseHeaders(raw);
        const expected = parsedThenJoined(raw);
        expect(headers).toEqual(expected);
        expect(Object.keys(headers)).toEqual(Object.keys(expected));
      }),
      { numRuns: 2000, seed: 13 },
    );
  });

  it('joins a repeated header with a comma and a space, and never sets a prototype', () => {
    const raw = ['Set-Cookie', 'a=1', 'set-cookie', 'b=2', '__proto__', 'x', 'Content-Type', 'application/json'].map(
      (text) => Buffer.from(text, 'latin1'),
    );
    const headers = responseHeaders(raw);
    expect(headers).toEqual({ 'set-cookie': 'a=1, b=2', 'content-type': 'application/json' });
    expect(Object.getPrototypeOf(headers)).toBe(Object.prototype);
  });
});
