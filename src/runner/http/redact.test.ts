import { describe, expect, it } from 'vitest';
import { redact } from './redact.js';

const TOKEN = 'Secret-Token.42+/x';

describe('redact', () => {
  it('hides the token, its letter-case variants and its truncation', () => {
    const text = `a ${TOKEN} b ${TOKEN.toUpperCase()} c ${TOKEN.slice(0, -1)}! d ${TOKEN.toLowerCase()}`;
    const hidden = redact(text, TOKEN);
    for (const variant of [TOKEN, TOKEN.toUpperCase(), TOKEN.toLowerCase(), TOKEN.slice(0, -1)]) {
      expect(hidden).not.toContain(variant);
    }
    expect(hidden).toContain('$PLANTSTORE_TOKEN');
  });

  it('treats regular-expression characters in the token literally', () => {
    expect(redact('x.y', 'a.b.c.d.e')).toBe('x.y');
    expect(redact('a.b.c.d.e', 'a.b.c.d.e')).toBe('$PLANTSTORE_TOKEN');
  });

  it('leaves text without the token alone', () => {
    expect(redact('nothing to see', TOKEN)).toBe('nothing to see');
  });

  it('hides a token of a few characters only where it stands alone', () => {
    expect(redact('NOT CONFORMANT {"tag":"T"}', 'T')).toBe('NOT CONFORMANT {"tag":"$PLANTSTORE_TOKEN"}');
  });
});
