import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { originForm } from './forward.js';
import { endToEnd, upstreamRequestHeaders } from './headers.js';

const HOP_BY_HOP = ['Connection', 'Keep-Alive', 'Transfer-Encoding', 'TE', 'Trailer', 'Upgrade', 'Proxy-Authorization'];
const name = fc.oneof(
  fc.constantFrom(...HOP_BY_HOP, 'Content-Type', 'authorization', 'X-Trace'),
  fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,12}$/),
);
const rawHeaders = fc.array(fc.tuple(name, fc.stringMatching(/^[ -~]{0,20}$/)), { maxLength: 12 });

describe('headers through the proxy', () => {
  it('keeps every end-to-end header as sent, in order and letter case, and drops every hop-by-hop one', () => {
    fc.assert(
      fc.property(rawHeaders, (pairs) => {
        const raw = pairs.flat();
        const named = new Set(
          pairs
            .filter(([n]) => n.toLowerCase() === 'connection')
            .flatMap(([, v]) => v.split(',').map((t) => t.trim().toLowerCase())),
        );
        const hop = new Set(HOP_BY_HOP.map((h) => h.toLowerCase()));
        const expected = pairs.filter(([n]) => !hop.has(n.toLowerCase()) && !named.has(n.toLowerCase())).flat();
        expect(endToEnd(raw)).toEqual(expected);
      }),
    );
  });

  it('names the upstream in Host and drops Expect, which the proxy answered itself', () => {
    const raw = [
      'Host',
      'proxy:4011',
      'Expect',
      '100-continue',
      'Authorization',
      'bearer t',
      'Connection',
      'X-Drop',
      'X-Drop',
      '1',
    ];
    expect(upstreamRequestHeaders(raw, 'staging.test:8443')).toEqual([
      'Host',
      'staging.test:8443',
      'Authorization',
      'bearer t',
    ]);
  });

  it('forwards an absolute-form target in origin form', () => {
    expect(originForm('http://proxy:4011/plants?x=1')).toBe('/plants?x=1');
    expect(originForm('/plants')).toBe('/plants');
    expect(originForm('http://proxy:4011')).toBe('/');
  });
});
