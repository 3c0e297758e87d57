import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { idKeyOf } from '../contract/id-key.js';
import { readNewPlantBody } from '../contract/new-plant-request.js';
import { idMemory, idMemoryKey, IntegerSet, isShortIntegerId, type IdKey } from './id-memory.js';

/** The memory as a Set in insertion order, forgetting its first entry when full: what idMemory must answer. */
function setMemory(limit: number): (id: string) => boolean {
  const ids = new Set<string>();
  return (id) => {
    if (ids.has(id)) return true;
    if (ids.size >= limit) ids.delete(ids.values().next().value ?? '');
    ids.add(id);
    return false;
  };
}

/** Keys as idMemoryKey makes them: safe integers as numbers, any other text as text. */
const idKey: fc.Arbitrary<IdKey> = fc.oneof(
  fc.integer({ min: -9, max: 9 }),
  fc.constantFrom(Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, 2 ** 32, -(2 ** 32), 2 ** 32 + 1, 1e15),
  // Integers that share their low 32 bits, or their high ones: the same or near homes in the table.
  fc.integer({ min: -3, max: 3 }).map((high) => high * 2 ** 32 + 7),
  fc.constantFrom('9007199254740993', '-9223372036854775808', '1.5', 'x', '-0.5'),
);

describe('the ids a proxy remembers', () => {
  it('answers as a Set of the keys as text, in insertion order, forgetting its oldest id when full (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.array(idKey, { maxLength: 80 }), (limit, ids) => {
        const memory = idMemory(limit);
        const reference = setMemory(limit);
        for (const id of ids) expect(memory(id)).toBe(reference(String(id)));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps 100,000 ids and forgets the oldest past them, as a Set does', () => {
    const memory = idMemory(100_000);
    const reference = setMemory(100_000);
    // Ids drawn from 150,000 (a fixed linear congruential sequence): repeats both within and past 100,000 others.
    let state = 7;
    const answers = { same: 0, seen: 0, differ: 0 };
    for (let i = 0; i < 250_000; i++) {
      state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
      const id = 1_000_000_000_000 + (state % 150_000);
      const seen = reference(String(id));
      answers[memory(id) === seen ? 'same' : 'differ']++;
      if (seen) answers.seen++;
    }
    expect(answers.differ).toBe(0);
    expect(answers.seen).toBeGreaterThan(50_000);
    expect(answers.seen).toBeLessThan(200_000);
  });
});

describe('an integer set in a typed array', () => {
  it('holds what a Set holds after any adds and deletes (property)', () => {
    const operation = fc.tuple(fc.boolean(), fc.integer({ min: -2, max: 2 }), fc.integer({ min: 0, max: 4 }));
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 200 }), (operations) => {
        const set = new IntegerSet(8);
        const reference = new Set<number>();
        for (const [add, high, low] of operations) {
          // 25 values in a table of 16 slots, up to 8 at once: homes shared, probe runs that wrap around.
          const value = high * 2 ** 32 + low * 32;
          if (add && !reference.has(value) && reference.size < 8) {
            set.add(value);
            reference.add(value);
          } else if (!add) {
            set.delete(value);
            reference.delete(value);
          }
          const values = [-2, -1, 0, 1, 2].flatMap((probe) =>
            Array.from({ length: 5 }, (_, l) => probe * 2 ** 32 + l * 32),
          );
          const differing = values.filter((value) => set.has(value) !== reference.has(value));
          expect(differing).toEqual([]);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe('the key an accepted NewPlant is remembered by', () => {
  it('is the text of idKeyOf, however the id is written (property)', () => {
    const spellings = ['', '', '', '.0', 'e0', '0e-1', '.50', 'e2', 'E+1', '.000e3'];
    const integer = fc.oneof(
      fc.bigInt({ min: -(10n ** 16n), max: 10n ** 16n }),
      fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
      fc.constantFrom(2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, -(2n ** 53n) + 1n, 10n ** 15n - 1n, 10n ** 15n),
    );
    const idText = fc
      .tuple(integer, fc.constantFrom(...spellings))
      .map(([value, spelling]) => `${value}${spelling}`)
      .filter((text) => !/^-?0\d/.test(text));
    const id = fc.oneof(
      idText,
      fc.constantFrom('-0', '0', '-0.0', '"12"', '"-0"', '"x"', 'null', '[1]', '1e400', '1.0000000000000001'),
    );
    fc.assert(
      fc.property(id, (text) => {
        const read = readNewPlantBody(() => [], Buffer.from(`{"id":${text},"name":"x"}`));
        if (!read.ok) throw new Error(read.problem.message);
        const key = idMemoryKey(read);
        expect(String(key)).toBe(String(idKeyOf(read)));
        // A key kept as text is never the text of a safe integer: the two kinds never name one id twice.
        if (typeof key === 'string')
          expect(Number.isSafeInteger(Number(key)) && String(Number(key)) === key).toBe(false);
        else expect(Number.isSafeInteger(key) && !Object.is(key, -0)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it("reads a number id without kept digits as String's text of it would, without writing that text (property)", () => {
    const SHORT_INTEGER = /^-?(?:0|[1-9][0-9]{0,14})$/;
    const number = fc.oneof(
      fc.double(),
      fc.integer(),
      fc.integer({ min: -(2 ** 53), max: 2 ** 53 }).map((value) => value * 1024),
      fc.constantFrom(-0, 0, 1e15, 1e15 - 1, -1e15, -(1e15 - 1), 1e21, 0.5, NaN, Infinity, -Infinity),
    );
    fc.assert(
      fc.property(number, (id) => {
        expect(isShortIntegerId(id, undefined)).toBe(SHORT_INTEGER.test(String(id)));
      }),
      { numRuns: 5_000 },
    );
    expect(isShortIntegerId(100, '1e2')).toBe(false);
    expect(isShortIntegerId(0, '-0')).toBe(true);
  });
});
