import fc from 'fast-check';
import { LosslessNumber } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { INT32, INT64 } from '../../contract/index.js';
import { createFreshIds } from './fresh-ids.js';
import { exactShape, idSlots, inSlot, materializeInSlot, slotEdges, type IdSlot } from './id-slots.js';
import { int64IdArbitrary } from './int64-id.js';

describe('id slots', () => {
  it('finds the top-level integers of a schema, allOf parts included, with their folded bounds', () => {
    const slots = idSlots({
      allOf: [
        { type: 'object', properties: { name: { type: 'string' } } },
        {
          type: 'object',
          properties: {
            id: { type: 'integer', format: 'int64', minimum: 1, exclusiveMaximum: 1000, multipleOf: 3 },
            count: { type: ['integer', 'null'], format: 'int32' },
            ratio: { type: 'number' },
          },
        },
      ],
    });
    expect(slots.map((slot) => slot.key)).toEqual(['id', 'count']);
    expect(slots[0]).toMatchObject({ min: 3n, max: 999n, step: 3n, count: 333n, wide: false });
    expect(slots[1]).toMatchObject({ min: INT32.min, max: INT32.max, wide: true });
  });

  it('takes a number property as an id when it is named id or has an integer format, not other numbers', () => {
    const slots = idSlots({
      properties: {
        price: { type: 'number', minimum: 0 },
        size: { type: 'number', format: 'int32' },
        id: { type: 'number', minimum: 0.5, maximum: 10.5 },
      },
    });
    expect(slots.map((slot) => slot.key)).toEqual(['size', 'id']);
    expect(slots[1]).toMatchObject({ min: 1n, max: 10n, ofNumber: true });
  });

  it('takes no integer with an enum or a const as a slot: its values are the listed ones', () => {
    const slots = idSlots({
      properties: {
        id: { type: 'integer', format: 'int64' },
        potSize: { type: 'integer', enum: [10, 12, 14] },
        version: { type: 'integer', const: 3 },
      },
    });
    expect(slots.map((slot) => slot.key)).toEqual(['id']);
  });

  it("never gives an id the property's not, allOf, anyOf or oneOf refuses (not: {const: 0})", () => {
    // Before, `id: {type: integer, format: int64, not: {const: 0}}` got the exact edge 0, sent as a valid
    // NewPlant, and serve --spec refused it (NOT CONFORMANT against its own document).
    const [id] = idSlots({ properties: { id: { type: 'integer', format: 'int64', not: { const: 0 } } } });
    if (!id) throw new Error('slot expected');
    expect(slotEdges(id)).not.toContain(0n);
    const narrow = idSlots({
      properties: { id: { type: 'integer', minimum: 0, maximum: 3, not: { enum: [1, 2] } } },
    })[0];
    const ranges = { type: 'integer', allOf: [{ minimum: 1 }], anyOf: [{ maximum: 1000 }, { minimum: 2000 }] };
    const split = idSlots({ properties: { id: { ...ranges, maximum: 3000 } } })[0];
    if (!narrow || !split) throw new Error('slots expected');
    const fresh = createFreshIds('not');
    const sent = (slot: IdSlot) =>
      [0n, 1n, 2n, 3n, 1500n, 2500n].map((position) => {
        const shape = { anchor: 'anywhere', offset: 0n, fresh: true, position } as const;
        return materializeInSlot(slot, shape, fresh, `case ${position}`).id;
      });
    expect(sent(narrow).filter((value) => value === 1n || value === 2n)).toEqual([]);
    expect(sent(split).filter((value) => value < 1n || (value > 1000n && value < 2000n))).toEqual([]);
    expect(slotEdges(split).filter((value) => value < 1n || (value > 1000n && value < 2000n))).toEqual([]);
    // A narrowing it cannot read (a pattern has no meaning for integers here, but is no bound either): no slot.
    expect(idSlots({ properties: { id: { type: 'integer', not: { minLength: 1, $ref: '#/x' } } } })).toEqual([]);
  });

  it('keeps every materialized id inside its slot, whatever the shape', () => {
    const narrow = idSlots({ properties: { id: { type: 'integer', minimum: -5, maximum: 40, multipleOf: 5 } } })[0];
    const wide = idSlots({ properties: { id: { type: 'integer', minimum: 1 } } })[0];
    if (!narrow || !wide) throw new Error('slots expected');
    const fresh = createFreshIds('slots');
    fc.assert(
      fc.property(int64IdArbitrary(), fc.string(), (shape, salt) => {
        expect(inSlot(narrow, materializeInSlot(narrow, shape, fresh, salt).id)).toBe(true);
        expect(inSlot(wide, materializeInSlot(wide, shape, fresh, salt).id)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('gives a narrow slot distinct values within a run, and marks them as possibly repeated', () => {
    const [slot] = idSlots({ properties: { id: { type: 'integer', minimum: 1, maximum: 50 } } });
    if (!slot) throw new Error('slot expected');
    const fresh = createFreshIds('narrow');
    const seen = new Set<bigint>();
    for (let index = 0; index < 50; index++) {
      const { id, mayRepeat } = materializeInSlot(
        slot,
        { anchor: 'zero', offset: 0n, fresh: true, position: 0n },
        fresh,
        `${index}`,
      );
      expect(mayRepeat).toBe(true);
      seen.add(id);
    }
    expect(seen.size).toBe(50);
  });

  it('treats ids drawn from the nonce in a range of a positive int32 or 10^9 values as fresh, not as possible repeats', () => {
    for (const maximum of [2 ** 31 - 1, 1_000_000_000]) {
      const [slot] = idSlots({ properties: { id: { type: 'integer', minimum: 1, maximum } } });
      if (!slot) throw new Error('slot expected');
      const drawn = materializeInSlot(
        slot,
        { anchor: 'zero', offset: 0n, fresh: true, position: 0n },
        createFreshIds('int32'),
        'a',
      );
      expect(drawn.mayRepeat).toBe(false);
    }
  });

  it('finds the slots of a recursive schema through its root reference', () => {
    const slots = idSlots({
      $ref: '#/$defs/Schema',
      $defs: {
        Schema: {
          type: 'object',
          properties: { id: { type: 'integer', exclusiveMinimum: 0 }, parent: { $ref: '#/$defs/Schema' } },
        },
      },
    });
    expect(slots.map((slot) => [slot.key, slot.min])).toEqual([['id', 1n]]);
  });

  it('never folds an exact value from outside the slot onto an edge: it sends a fresh one instead', () => {
    const [slot] = idSlots({ properties: { id: { type: 'integer', format: 'int64', minimum: 1 } } });
    if (!slot) throw new Error('slot expected');
    const fresh = createFreshIds('fold');
    for (const offset of [0n, 1n, 2n]) {
      const drawn = materializeInSlot(
        slot,
        { anchor: 'minus-one', offset, fresh: false, position: 0n },
        fresh,
        `${offset}`,
      );
      expect(drawn.mayRepeat).toBe(false);
      expect(slotEdges(slot)).not.toContain(drawn.id);
    }
  });

  it('keeps an id without a format within ±(2^53-1) where the document sets no bound, and follows a bound beyond it', () => {
    const slotOf = (id: object) => idSlots({ properties: { id } })[0];
    const interoperable = 2n ** 53n - 1n;
    expect(slotOf({ type: 'integer', minimum: 1 })).toMatchObject({ min: 1n, max: interoperable });
    expect(slotOf({ type: 'integer' })).toMatchObject({ min: -interoperable, max: interoperable });
    expect(slotOf({ type: 'integer', maximum: 2n ** 60n })).toMatchObject({ min: -interoperable, max: 2n ** 60n });
    expect(slotOf({ type: 'integer', minimum: 2n ** 60n })).toMatchObject({ min: 2n ** 60n, max: INT64.max });
    expect(slotOf({ type: 'integer', format: 'int64', minimum: 1 })).toMatchObject({ min: 1n, max: INT64.max });
    const unformatted = slotOf({ type: 'integer', minimum: 1 });
    if (!unformatted) throw new Error('slot expected');
    expect(slotEdges(unformatted).filter((edge) => edge > interoperable)).toEqual([]);
  });

  it('lists the exact edges inside the slot: the int64 ends for an unbounded id, the own ends otherwise', () => {
    const [unbounded] = idSlots({ properties: { id: { type: 'integer', format: 'int64' } } });
    const [ranged] = idSlots({ properties: { id: { type: 'integer', minimum: 1, maximum: 9999 } } });
    if (!unbounded || !ranged) throw new Error('slots expected');
    expect(slotEdges(unbounded)).toEqual(expect.arrayContaining([INT64.max, INT64.min, 0n, -1n, 2n ** 53n + 1n]));
    expect(slotEdges(ranged).sort((a, b) => (a < b ? -1 : 1))).toEqual([1n, 2n, 9998n, 9999n]);
    const fresh = createFreshIds('edges');
    expect(materializeInSlot(ranged, exactShape(9999n), fresh, 'a')).toEqual({ id: 9999n, mayRepeat: true });
  });
});

describe('id slots of bounds kept exact', () => {
  it('reads lossless bounds beyond 2^53 (minimum: 9007199254740993), so fresh values stay inside them', () => {
    // The canonical schema keeps such bounds as lossless numbers; before, they were not read, the slot
    // took ±(2^53-1), and `batch: -44188600970` went out as a valid NewPlant (serve --spec refused it).
    const exact = (text: string) => new LosslessNumber(text);
    const [batch, lot] = idSlots({
      properties: {
        batch: { type: 'integer', minimum: exact('9007199254740993'), maximum: exact('9007199254741093') },
        lot: { type: 'integer', exclusiveMinimum: exact('9007199254740992.5'), multipleOf: exact('9007199254740993') },
      },
    });
    expect(batch).toMatchObject({ min: 9007199254740993n, max: 9007199254741093n, count: 101n, wide: false });
    expect(lot).toMatchObject({ min: 9007199254740993n, step: 9007199254740993n });
    if (!batch) throw new Error('slot expected');
    const fresh = createFreshIds('lossless');
    const ids = fc.sample(int64IdArbitrary(), { numRuns: 50, seed: 1 }).map((shape, index) => {
      return materializeInSlot(batch, shape, fresh, `case-${index}`).id;
    });
    expect(ids.filter((id) => !inSlot(batch, id))).toEqual([]);
  });
});
