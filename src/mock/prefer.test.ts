import { describe, expect, it } from 'vitest';
import { parsePrefer } from './prefer.js';

describe('parsePrefer', () => {
  it('reads code, example and dynamic, separated by commas or semicolons', () => {
    expect(parsePrefer('code=400, example="a plant", dynamic=true')).toEqual({
      ok: true,
      preferences: { code: 400, exampleKey: 'a plant', dynamic: true },
    });
    expect(parsePrefer('Code=200; dynamic=false')).toEqual({ ok: true, preferences: { code: 200, dynamic: false } });
  });

  it('ignores preferences it does not know, as RFC 7240 asks', () => {
    expect(parsePrefer('respond-async, wait=10, return=minimal')).toEqual({ ok: true, preferences: {} });
    expect(parsePrefer(undefined)).toEqual({ ok: true, preferences: {} });
  });

  it.each(['code=4000', 'code=', 'code=ok', 'dynamic=yes', 'example='])('refuses %s with a message', (header) => {
    const result = parsePrefer(header);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toMatch(/^Prefer: /);
  });
});
