import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../contract/index.js';
import { createFreshIds } from '../generate/fresh-ids.js';
import { isValidNewPlant } from '../generate/new-plant.js';
import { positiveAcceptance } from '../../../suites/acceptance.js';
import { exactIds, prototypeKeyPlants, validPlants } from './valid-plants.js';

const contract = await loadContract();

/** The first `__proto__` or `constructor` key at any depth, as the probe found it with `Object.entries`. */
function firstPrototypeKey(value: unknown, depth: number): string | undefined {
  if (value === null || typeof value !== 'object' || depth > 32) return undefined;
  const entries = Array.isArray(value) ? value.map((item) => ['', item] as const) : Object.entries(value);
  for (const [name, inner] of entries) {
    if (name === '__proto__' || name === 'constructor') return name;
    const found = firstPrototypeKey(inner, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** JSON-like values whose objects (with and without a prototype) may hold the two keys at any depth. */
const nested = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.string({ maxLength: 3 }),
    fc.bigInt(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('a', 'b', '__proto__', 'constructor', 'toString'), tie('value'), { maxKeys: 3 }),
    fc.dictionary(fc.constantFrom('a', 'constructor'), tie('value'), { maxKeys: 2, noNullPrototype: true }),
  ),
})).value;

describe('validPlants', () => {
  it("notes the draft's first __proto__ or constructor key at any depth, as a search of its entries finds it", () => {
    let found = 0;
    fc.assert(
      fc.property(nested, (value) => {
        const draft = { value: value as never, ids: [], slots: [] };
        const [plan] = validPlants.plan(draft, { contract, fresh: createFreshIds('0a'), salt: 'proto' });
        const expected = firstPrototypeKey(value, 0);
        if (expected !== undefined) found++;
        expect(plan?.intent.kind === 'valid' ? plan.intent.prototypeKey : 'not valid').toBe(expected);
      }),
      { numRuns: 2000, seed: 9 },
    );
    expect(found).toBeGreaterThan(200);
  });
});

describe('prototypeKeyPlants', () => {
  it('sends, every run, a valid NewPlant whose extra member holds {"__proto__": 1}, one {"constructor": 1}, one {"\\u0000": 1}', () => {
    expect(positiveAcceptance.probes).toContain(prototypeKeyPlants);
    const variants = prototypeKeyPlants.variants?.(contract) ?? 1;
    const bodies = Array.from({ length: variants }, (_, variant) => {
      const [value] = fc.sample(prototypeKeyPlants.arbitrary(contract, variant), { seed: 5, numRuns: 1 });
      if (value === undefined) throw new Error('no value');
      const [plan] = prototypeKeyPlants.plan(value, { contract, fresh: createFreshIds('0b'), salt: `key-${variant}` });
      // A name starting with U+0000 is no prototype key: a refusal of it is told apart by its own hint.
      const prototypeKey = value.key === '\u0000' ? undefined : value.key;
      expect(plan?.intent.kind === 'valid' && plan.intent.prototypeKey).toBe(prototypeKey);
      expect(isValidNewPlant(contract, plan?.body ?? '')).toBe(true);
      return plan?.body ?? '';
    });
    expect(bodies.some((body) => body.includes('"plantstore":{"__proto__":1}'))).toBe(true);
    expect(bodies.some((body) => body.includes('"plantstore":{"constructor":1}'))).toBe(true);
    expect(bodies.some((body) => body.includes('"plantstore":{"\\u0000":1}'))).toBe(true);
  });
});

describe('exactIds', () => {
  it('sends the exact edge ids nearest zero first, so an int32 reader is shown by 2^31, not by 2^63-1', () => {
    const variants = exactIds.variants?.(contract) ?? 1;
    const fresh = createFreshIds('0c');
    const ids = Array.from({ length: variants }, (_, variant) => {
      const [value] = fc.sample(exactIds.arbitrary(contract, variant), { seed: 1, numRuns: 1 });
      if (value === undefined) throw new Error('no value');
      const [plan] = exactIds.plan(value, { contract, fresh, salt: `exact-id:${variant}:` });
      return /"id":(-?\d+)/.exec(plan?.body ?? '')?.[1];
    });
    const int32 = 2n ** 31n;
    expect(ids.slice(0, 6)).toEqual(['0', '-1', `${int32 - 1n}`, `${int32}`, `${-int32}`, `${-int32 - 1n}`]);
    expect(ids.slice(-2)).toEqual([`${2n ** 63n - 1n}`, `${-(2n ** 63n)}`]);
  });
});
