import { describe, expect, it } from 'vitest';
import { requestKind, shapeOf } from './defects.js';
import type { PlannedRequest } from './probe.js';

describe('shapeOf', () => {
  it('keeps a nested field path, so a finding names the field it is about', () => {
    expect(shapeOf('"care.water" holds null: care.water not of type integer')).toBe(
      '"care.water" holds null: care.water not of type integer',
    );
  });

  it('keeps a path through array items, its index as #', () => {
    expect(shapeOf('"photos[0].width" holds true: photos[0].width not of type integer')).toBe(
      '"photos[#].width" holds true: photos[#].width not of type integer',
    );
  });

  it('keeps the labels 2^53 and 2^63 and replaces the values beside them', () => {
    expect(shapeOf('"id" set to 2^53+N.5')).toBe('"id" set to 2^53+N.5');
    expect(shapeOf('"id" holds 9223372036854775808: id 2^63, just outside maximum')).toBe(
      '"id" holds #: id 2^63, just outside maximum',
    );
  });

  it('still replaces quoted values that are not names', () => {
    expect(shapeOf('"name" holds "a b\\n"')).toBe('"name" holds "…"');
  });
});

describe('requestKind', () => {
  const variant = (aspect: 'integer-spelling' | 'scheme' | 'media-type'): PlannedRequest =>
    ({ intent: { kind: 'valid-variant', writtenAs: { aspect, written: 'x' } } }) as unknown as PlannedRequest;

  it('names what a valid variant writes another way in plain words', () => {
    expect(requestKind(variant('integer-spelling'))).toBe('a valid NewPlant with its id written as 1.0, 1e2 or -0');
    expect(requestKind(variant('scheme'))).toBe('a valid NewPlant with its auth scheme in another letter case');
    expect(requestKind(variant('media-type'))).toBe('a valid NewPlant with its media type written another way');
  });
});
