import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { authorizationSecrets, MIN_SUBSTRING_SECRET, redact, REDACTED, redactValue, secretSet } from './secrets.js';

const SECRET = 's3cr3t-T0KEN/with+odd"chars';

describe('redact', () => {
  it('replaces the raw, URL-encoded and JSON-escaped spellings of a secret', () => {
    const text = `a ${SECRET} b ${encodeURIComponent(SECRET)} c ${JSON.stringify(SECRET)}`;
    const result = redact(text, [SECRET]);
    expect(result).not.toContain(SECRET);
    expect(result).not.toContain(encodeURIComponent(SECRET));
    expect(result).not.toContain(JSON.stringify(SECRET).slice(1, -1));
    expect(result).toBe(`a ${REDACTED} b ${REDACTED} c "${REDACTED}"`);
  });

  it('leaves text alone when there are no secrets, and ignores empty ones', () => {
    expect(redact('Bearer abc', [])).toBe('Bearer abc');
    expect(redact('Bearer abc', [''])).toBe('Bearer abc');
  });

  it('picks another placeholder when the usual one would spell the secret', () => {
    const result = redact('token=TOKEN', ['TOKEN']);
    expect(result).not.toContain('TOKEN');
    expect(result).toBe('token=[redacted]');
  });

  it('never leaves a secret behind, whatever the text and the secret', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 60 }),
        fc.string({ minLength: MIN_SUBSTRING_SECRET, maxLength: 12 }),
        (text, secret) => {
          const mixed = `${text}${secret}${text.slice(0, 3)}${secret}`;
          expect(redact(mixed, [secret])).not.toContain(secret);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('hides a short secret wherever it stands as a word, and leaves words that merely contain it', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 40 }),
        fc.stringMatching(/^[A-Za-z0-9]{1,5}$/),
        fc.constantFrom(' ', '"', ':', '\n', '/'),
        (text, secret, separator) => {
          const mixed = `${text}${separator}${secret}${separator}${text}`;
          const words = redact(mixed, [secret]).split(/[^\p{L}\p{N}_]+/u);
          expect(words).not.toContain(secret);
        },
      ),
      { numRuns: 300 },
    );
    expect(redact('NOT CONFORMANT: {"tag":"T"}', ['T'])).toBe('NOT CONFORMANT: {"tag":"[redacted]"}');
  });
});

describe('redactValue', () => {
  it('redacts every string and key of a nested value without changing the original', () => {
    const value = { [`k-${SECRET}`]: [`v ${SECRET}`, 3, null, { deep: SECRET, flag: true }] };
    const result = redactValue(value, [SECRET]);
    expect(JSON.stringify(result)).not.toContain('s3cr3t');
    expect(result).toEqual({ [`k-${REDACTED}`]: [`v ${REDACTED}`, 3, null, { deep: REDACTED, flag: true }] });
    expect(JSON.stringify(value)).toContain('s3cr3t');
  });

  it('looks inside base64 bodies', () => {
    const bodyBase64 = Buffer.concat([Buffer.from([0xff, 0x00]), Buffer.from(`Bearer ${SECRET}`)]).toString('base64');
    const result = redactValue({ bodyBase64 }, [SECRET]);
    const decoded = Buffer.from(result.bodyBase64, 'base64');
    expect(decoded.includes(Buffer.from(SECRET))).toBe(false);
    expect(decoded.subarray(0, 2)).toEqual(Buffer.from([0xff, 0x00]));
    expect(decoded.subarray(2).toString()).toBe(`Bearer ${REDACTED}`);
  });
});

describe('redact, the forms a token takes', () => {
  const TOKEN = 'Secret-Token.42+/x';

  it('hides the token, its letter-case variants and its truncation', () => {
    const text = `a ${TOKEN} b ${TOKEN.toUpperCase()} c ${TOKEN.slice(0, -1)}! d ${TOKEN.toLowerCase()}`;
    const hidden = redact(text, TOKEN);
    for (const variant of [TOKEN, TOKEN.toUpperCase(), TOKEN.toLowerCase(), TOKEN.slice(0, -1)]) {
      expect(hidden).not.toContain(variant);
    }
    expect(hidden).toContain(REDACTED);
  });

  it('treats regular-expression characters in the token literally', () => {
    expect(redact('x.y', 'a.b.c.d.e')).toBe('x.y');
    expect(redact('a.b.c.d.e', 'a.b.c.d.e')).toBe(REDACTED);
  });

  it('leaves text without the token alone', () => {
    expect(redact('nothing to see', TOKEN)).toBe('nothing to see');
  });

  it('hides a token of a few characters only where it stands alone', () => {
    expect(redact('NOT CONFORMANT {"tag":"x"}', 'x')).toBe(`NOT CONFORMANT {"tag":"${REDACTED}"}`);
  });

  it('hides the token inside base64 and base64url text, wherever it starts an encoded run', () => {
    fc.assert(
      fc.property(fc.string({ minLength: MIN_SUBSTRING_SECRET, maxLength: 24 }), fc.string(), (token, after) => {
        for (const encoding of ['base64', 'base64url'] as const) {
          const encoded = Buffer.from(token + after).toString(encoding);
          const stable = Buffer.from(token)
            .toString(encoding)
            .slice(0, Math.floor(Buffer.byteLength(token) / 3) * 4);
          if (stable.length >= MIN_SUBSTRING_SECRET) expect(redact(encoded, token)).not.toContain(stable);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('hides the token inside base64 text whatever comes before it (Basic user:token, an encoded Bearer line)', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 12, maxLength: 24 }),
        fc.string({ maxLength: 8 }),
        fc.string(),
        (token, before, after) => {
          for (const encoding of ['base64', 'base64url'] as const) {
            const encoded = Buffer.from(before + token + after).toString(encoding);
            const shown = redact(encoded, token).split(REDACTED).join('');
            expect(Buffer.from(shown, encoding).includes(Buffer.from(token))).toBe(false);
          }
        },
      ),
      { numRuns: 300 },
    );
    const token = 's3cr3t+tok/en=Zq9';
    for (const before of ['Bearer ', 'user:', 'x', 'xx'])
      expect(redact(Buffer.from(before + token).toString('base64'), token)).toContain(REDACTED);
  });

  it('keeps the scheme of a `Bearer <token>` header and hides the credential', () => {
    expect(redact(`Authorization: Bearer ${TOKEN}`, TOKEN)).toBe(`Authorization: Bearer ${REDACTED}`);
    expect(authorizationSecrets(`Bearer ${TOKEN}`)).toEqual([TOKEN, `Bearer ${TOKEN}`]);
    expect(authorizationSecrets('  bare-credential ')).toEqual(['bare-credential', 'bare-credential']);
    expect(authorizationSecrets(undefined)).toEqual([]);
  });

  it('accepts a prepared set, a list or one secret alike', () => {
    const text = `x ${TOKEN} y`;
    expect(redact(text, secretSet([TOKEN]))).toBe(redact(text, [TOKEN]));
    expect(redact(text, TOKEN)).toBe(`x ${REDACTED} y`);
  });
});
