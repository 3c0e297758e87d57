import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isJsonEssence, mediaTypeEssence as contractEssence } from '../contract/media-types.js';
import { hasSeveralValues, isMediaType, mediaTypeEssence, saysJson } from './judge.js';

/** The readings as worked out before they were kept per value. */
const several = (type: string): boolean => type.replace(/"(?:[^"\\]|\\.)*"/g, '""').includes(',');

const contentTypes = fc.oneof(
  fc.constantFrom(
    'application/json',
    'Application/JSON; charset=utf-8',
    'application/problem+json',
    'text/plain, application/json',
    'application/json; note="a,b"',
    'application/json; note="a\\"b,c"',
    ' application/vnd.api+json ',
    '',
  ),
  fc.string({ unit: fc.constantFrom('a', 'J', '/', '+', ';', ',', '"', '\\', ' ', '=', 'json') }),
);

describe('content-type readings', () => {
  it('answer as worked out anew for each value, however many distinct values come', () => {
    fc.assert(
      fc.property(contentTypes, fc.constantFrom('application/json', 'application/problem+json'), (type, essence) => {
        for (let repeat = 0; repeat < 2; repeat++) {
          expect(hasSeveralValues(type)).toBe(several(type));
          expect(mediaTypeEssence(type)).toBe(contractEssence(type));
          expect(isMediaType(type, essence)).toBe(!several(type) && contractEssence(type) === essence);
          expect(saysJson(type)).toBe(!several(type) && isJsonEssence(contractEssence(type)));
        }
      }),
      { numRuns: 1000, seed: 5 },
    );
    expect(isMediaType(undefined, 'application/json')).toBe(false);
    expect(saysJson(undefined)).toBe(false);
  });

  it('answer for each value as worked out anew, in any sequence of values (the last two are kept beside the map)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(contentTypes, fc.constantFrom('a/b', 'a/json', 'A/JSON')), { maxLength: 12 }),
        (types) => {
          for (const type of types) {
            expect(mediaTypeEssence(type)).toBe(contractEssence(type));
            expect(saysJson(type)).toBe(!several(type) && isJsonEssence(contractEssence(type)));
            expect(isMediaType(type, 'application/json')).toBe(
              !several(type) && contractEssence(type) === 'application/json',
            );
          }
        },
      ),
      { numRuns: 1000, seed: 7 },
    );
  });
});
