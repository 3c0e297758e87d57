import fc from 'fast-check';
import { INT64 } from '../../contract/index.js';
import type { FreshIds } from './fresh-ids.js';

/** The places of the int64 range where implementations break, and a uniform draw over all of it. */
export type IdAnchor =
  'max' | 'min' | 'zero' | 'minus-one' | 'above-2^53' | 'below-minus-2^53' | 'int32-max' | 'int32-min' | 'anywhere';

/**
 * The reproducible structure of an id: an anchor, an offset from it (toward the inside of the range),
 * and whether fresh bits from the run's nonce are added so the value is new to the target.
 */
export interface IdShape {
  readonly anchor: IdAnchor;
  readonly offset: bigint;
  /** False: the exact value (e.g. 2^63-1), which an earlier run may already have stored. */
  readonly fresh: boolean;
  /** The position within the full range, for the `anywhere` anchor. */
  readonly position: bigint;
}

const ANCHORS: Record<IdAnchor, { readonly base: bigint; readonly direction: 1n | -1n }> = {
  max: { base: INT64.max, direction: -1n },
  min: { base: INT64.min, direction: 1n },
  zero: { base: 0n, direction: 1n },
  'minus-one': { base: -1n, direction: -1n },
  'above-2^53': { base: 2n ** 53n, direction: 1n },
  'below-minus-2^53': { base: -(2n ** 53n), direction: -1n },
  'int32-max': { base: 2n ** 31n - 1n, direction: 1n },
  'int32-min': { base: -(2n ** 31n), direction: -1n },
  anywhere: { base: 0n, direction: 1n },
};

/** The edge anchors in the order they are drawn (as `fc.constantFrom` would: the same values for a seed). */
const EDGE_ANCHORS: readonly IdAnchor[] = [
  'max',
  'min',
  'zero',
  'minus-one',
  'above-2^53',
  'below-minus-2^53',
  'int32-max',
  'int32-min',
];

/**
 * An edge anchor, drawn as `fc.constantFrom(...EDGE_ANCHORS)` draws it, shrinking to the anchors nearer zero, nearest
 * first: `constantFrom` shrinks to its first value, 2^63-1, so an id past int32 (a server keeping ids in an `int`)
 * shrank to the largest id there is instead of the first that fails, just past 2^31-1.
 */
class EdgeAnchorArbitrary extends fc.Arbitrary<IdAnchor> {
  generate(mrng: fc.Random): fc.Value<IdAnchor> {
    const index = mrng.nextInt(0, EDGE_ANCHORS.length - 1);
    return new fc.Value(EDGE_ANCHORS[index]!, index);
  }
  canShrinkWithoutContext(value: unknown): value is IdAnchor {
    return EDGE_ANCHORS.includes(value as IdAnchor);
  }
  shrink(value: IdAnchor): fc.Stream<fc.Value<IdAnchor>> {
    const nearer = [...EDGE_ANCHORS]
      .filter((anchor) => magnitude(anchor) < magnitude(value))
      .sort((a, b) => (magnitude(a) < magnitude(b) ? -1 : magnitude(a) > magnitude(b) ? 1 : 0));
    return fc.Stream.of(...nearer.map((anchor) => new fc.Value(anchor, EDGE_ANCHORS.indexOf(anchor))));
  }
}

/** How far from zero an anchor's ids are (its base's absolute value; `minus-one` just past `zero`). */
function magnitude(anchor: IdAnchor): bigint {
  const { base } = ANCHORS[anchor];
  return base < 0n ? -base : base === 0n ? 0n : base;
}

const edgeAnchor = new EdgeAnchorArbitrary();

/** Mostly fresh ids; shrinking moves toward fresh (first alternative), which replays reproducibly. */
const freshness = fc.oneof({ arbitrary: fc.constant(true), weight: 9 }, { arbitrary: fc.constant(false), weight: 1 });

const offset = fc.oneof(
  { arbitrary: fc.bigInt({ min: 0n, max: 2n }), weight: 4 },
  { arbitrary: fc.bigInt({ min: 0n, max: 2n ** 20n }), weight: 1 },
);

const exact = (anchor: IdAnchor, offset: bigint): IdShape => ({ anchor, offset, fresh: false, position: 0n });

/**
 * The exact values where implementations break, each sent once per run by the `exact-id` probe:
 * the int64 ends, 0 and -1, the first integers doubles cannot hold, and the int32 ends.
 */
export const EXACT_EDGE_IDS: readonly IdShape[] = [
  exact('max', 0n),
  exact('min', 0n),
  exact('zero', 0n),
  exact('minus-one', 0n),
  exact('above-2^53', 1n),
  exact('below-minus-2^53', 1n),
  exact('int32-max', 0n),
  exact('int32-max', 1n),
  exact('int32-min', 0n),
  exact('int32-min', 1n),
];

/** Ids over the whole int64 range, weighted to the edges where parsers and storage lose precision. */
export function int64IdArbitrary(): fc.Arbitrary<IdShape> {
  const nearEdge = fc.record({ anchor: edgeAnchor, offset, fresh: freshness, position: fc.constant(0n) });
  const anywhere = fc.record({
    anchor: fc.constant<IdAnchor>('anywhere'),
    offset: fc.constant(0n),
    fresh: fc.constant(true),
    position: fc.bigInt({ min: INT64.min, max: INT64.max }),
  });
  return fc.oneof({ arbitrary: nearEdge, weight: 3 }, { arbitrary: anywhere, weight: 1 });
}

/** The value a shape stands for without fresh bits (its anchor moved by its offset). */
export function exactValue(shape: IdShape): bigint {
  const { base, direction } = ANCHORS[shape.anchor];
  return base + direction * shape.offset;
}

/** The id a shape stands for in this run; `salt` names the case and slot so each gets its own bits. */
export function materializeId(shape: IdShape, fresh: FreshIds, salt: string): { id: bigint; mayRepeat: boolean } {
  const { base, direction } = ANCHORS[shape.anchor];
  if (shape.anchor === 'anywhere') {
    const lowMask = (1n << 40n) - 1n;
    const id = clampInt64((shape.position & ~lowMask) | (fresh.bits(salt) & lowMask));
    return { id, mayRepeat: false };
  }
  if (!shape.fresh) {
    const id = clampInt64(base + direction * shape.offset);
    // An exact value sent once per run; a second draw of it in the same run gets fresh bits instead.
    if (fresh.claim(id)) return { id, mayRepeat: true };
  }
  return { id: clampInt64(base + direction * (shape.offset + fresh.bits(salt))), mayRepeat: false };
}

function clampInt64(value: bigint): bigint {
  if (value > INT64.max) return INT64.max;
  if (value < INT64.min) return INT64.min;
  return value;
}
