import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { alwaysFreshIds, createFreshIds } from './fresh-ids.js';
import { int64IdArbitrary, materializeId, type IdAnchor, type IdShape } from './int64-id.js';

const FIRST_ANCHORS: IdAnchor[] = ['max', 'min', 'zero', 'minus-one', 'above-2^53', 'below-minus-2^53'];

/** The arbitrary as it was drawn with `fc.constantFrom` (the values a seed gave must not move). */
function constantFromArbitrary(): fc.Arbitrary<IdShape> {
  const anchor = fc.constantFrom<IdAnchor>(...FIRST_ANCHORS, 'int32-max', 'int32-min');
  const freshness = fc.oneof({ arbitrary: fc.constant(true), weight: 9 }, { arbitrary: fc.constant(false), weight: 1 });
  const offset = fc.oneof(
    { arbitrary: fc.bigInt({ min: 0n, max: 2n }), weight: 4 },
    { arbitrary: fc.bigInt({ min: 0n, max: 2n ** 20n }), weight: 1 },
  );
  const nearEdge = fc.record({ anchor, offset, fresh: freshness, position: fc.constant(0n) });
  const anywhere = fc.record({
    anchor: fc.constant<IdAnchor>('anywhere'),
    offset: fc.constant(0n),
    fresh: fc.constant(true),
    position: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
  });
  return fc.oneof({ arbitrary: nearEdge, weight: 3 }, { arbitrary: anywhere, weight: 1 });
}

describe('int64IdArbitrary', () => {
  it('draws the same id shapes for a seed as a constantFrom of its anchors did', () => {
    for (const seed of [1, 42, 1312698176]) {
      expect(fc.sample(int64IdArbitrary(), { seed, numRuns: 300 })).toEqual(
        fc.sample(constantFromArbitrary(), { seed, numRuns: 300 }),
      );
    }
  });

  it('shrinks an id past int32 to one of its fresh bits, not to 2^63-1 (a server keeping ids in an int)', () => {
    // Fresh bits as a shrink candidate gets them (1 to 2^40: past int32 but for one chance in 500).
    const fresh = alwaysFreshIds(createFreshIds('0123456789abcdef'));
    const id = (shape: IdShape): bigint => materializeId(shape, fresh, 'case:0').id;
    const int32 = (shape: IdShape): boolean => id(shape) >= -(2n ** 31n) && id(shape) < 2n ** 31n;
    const beforeEnds: boolean[] = [];
    for (const seed of [1, 2, 3, 42]) {
      const shape = fc.check(fc.property(int64IdArbitrary(), int32), { seed, numRuns: 200 }).counterexample?.[0];
      const value = id(shape!);
      expect(value < 0n ? -value : value, `seed ${seed}: ${value}`).toBeLessThan(2n ** 42n);
      // The same property over the constantFrom draw shrank to an int64 end (or an id drawn anywhere).
      const before = fc.check(fc.property(constantFromArbitrary(), int32), { seed, numRuns: 200 }).counterexample?.[0];
      if (before?.anchor !== 'anywhere') beforeEnds.push(id(before!) > 2n ** 62n || id(before!) < -(2n ** 62n));
    }
    expect(beforeEnds).toContain(true);
    expect(beforeEnds).not.toContain(false);
  });
});
