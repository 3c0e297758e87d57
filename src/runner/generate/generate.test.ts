import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exactInteger, INT64, loadContract, numberText, parseExactJson, readNewPlant } from '../../contract/index.js';
import { BUILT_IN_SUITES } from '../../../suites/index.js';
import { createArbitraryCache, generateCases } from '../cases.js';
import { selectChecks } from '../selection.js';
import { caseBias, caseRandom } from './case-random.js';
import { createFreshIds } from './fresh-ids.js';
import { describeInvalidBody, invalidBodyArbitrary, mutationsOf, renderInvalidBody } from './invalid-body.js';
import { shapeOf } from '../defects.js';
import { int64IdArbitrary, materializeId } from './int64-id.js';
import { SPELLINGS, spell } from './integer-spelling.js';
import { newPlantArbitrary, renderPlant } from './new-plant.js';

const contract = await loadContract();
const utf8 = new TextEncoder();
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function allCases(seed: number, runs: number, nonce: string) {
  const { allProbes } = selectChecks(BUILT_IN_SUITES);
  const inputs = { contract, seed, runs, fresh: createFreshIds(nonce), arbitraries: createArbitraryCache(contract) };
  return generateCases(allProbes, inputs).map((entry) => ({
    probe: entry.probe.name,
    index: entry.index,
    plans: entry.plans,
  }));
}

describe('generation', () => {
  it('generates the same cases for the same seed and nonce', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (seed) => {
        expect(allCases(seed, 3, 'abc')).toEqual(allCases(seed, 3, 'abc'));
      }),
      { numRuns: 5 },
    );
  });

  it('gives case i the same value whatever the number of runs', () => {
    const short = allCases(11, 2, 'n').filter((entry) => entry.probe === 'valid-plant');
    const long = allCases(11, 6, 'n').filter((entry) => entry.probe === 'valid-plant');
    expect(long.slice(0, short.length)).toEqual(short);
  });

  it('fills fresh ids from the nonce: another run gets other ids for the same shapes', () => {
    const first = allCases(5, 3, 'aaaa').filter((entry) => entry.probe === 'valid-plant');
    const second = allCases(5, 3, 'bbbb').filter((entry) => entry.probe === 'valid-plant');
    expect(first.map((entry) => entry.plans[0]?.body)).not.toEqual(second.map((entry) => entry.plans[0]?.body));
  });

  it('only ever generates valid NewPlants, well-formed, under 32 KiB, for the valid probe', () => {
    const arbitrary = newPlantArbitrary(contract);
    const fresh = createFreshIds('law');
    for (let index = 0; index < 300; index++) {
      const draft = arbitrary.generate(caseRandom(1, 'law', index), caseBias(index)).value;
      const rendered = renderPlant(draft, fresh, `law:${index}`);
      expect(contract.check.newPlant(parseExactJson(rendered.text)), rendered.text).toEqual([]);
      expect(utf8.encode(rendered.text).length).toBeLessThan(32 * 1024);
      expect(LONE_SURROGATE.test(rendered.text)).toBe(false);
      const read = readNewPlant(contract, 'application/json', utf8.encode(rendered.text));
      expect(read.ok && read.plant.id).toBe(rendered.ids[0]);
      expect(rendered.ids).toHaveLength(1);
    }
  });

  it('never generates a body the contract accepts for the invalid probe', () => {
    const fresh = createFreshIds('invalid');
    const variants = mutationsOf(contract).length;
    for (let index = 0; index < variants * 2; index++) {
      const body = invalidBodyArbitrary(contract, index).generate(caseRandom(2, 'invalid', index), 2);
      const text = renderInvalidBody(body.value, fresh, `invalid:${index}`);
      const read = readNewPlant(contract, 'application/json', utf8.encode(text));
      expect(read.ok, `${body.value.mutation.what}: ${text.slice(0, 200)}`).toBe(false);
    }
  });

  it("describes each invalid variant with one shape whatever the value drawn, so its finding's fingerprint holds across seeds", async () => {
    const documented = await loadContract(
      fileURLToPath(new URL('../../../src/fixtures/documents/17-full-store.yaml', import.meta.url)),
    );
    const fresh = createFreshIds('shapes');
    const mutations = mutationsOf(documented);
    for (const [index, mutation] of mutations.entries()) {
      if (mutation.kind !== 'variant') continue;
      const shapes = new Set<string>();
      for (let seed = 1; seed <= 12; seed++) {
        const body = invalidBodyArbitrary(documented, index).generate(caseRandom(seed, 'invalid', index), 30);
        shapes.add(shapeOf(describeInvalidBody(body.value, renderInvalidBody(body.value, fresh, `shape:${seed}`))));
      }
      expect([...shapes], mutation.what).toHaveLength(1);
    }
  });

  it("sends a valid NewPlant with text after its closing brace, which a decoder that stops after one value takes (Go's json.Decoder)", () => {
    const index = mutationsOf(contract).findIndex((mutation) => mutation.kind === 'followed-by');
    expect(index).toBeGreaterThanOrEqual(0);
    const fresh = createFreshIds('followed');
    const body = invalidBodyArbitrary(contract, index).generate(caseRandom(3, 'invalid', index), 5);
    const text = renderInvalidBody(body.value, fresh, 'followed');
    expect(text.endsWith('} x')).toBe(true);
    expect(readNewPlant(contract, 'application/json', utf8.encode(text.slice(0, -2))).ok).toBe(true);
    expect(readNewPlant(contract, 'application/json', utf8.encode(text)).ok).toBe(false);
  });

  it('names the deep nesting mutation with its depth grouped in thousands, as reports and baselines know it', () => {
    const whats = mutationsOf(contract).map((mutation) => mutation.what);
    expect(whats).toContain('arrays nested 20,000 deep instead of an object');
  });

  it('reaches every edge of the int64 range exactly, and stays inside it', () => {
    const seen = new Set<bigint>();
    const arbitrary = int64IdArbitrary();
    const fresh = createFreshIds('edges');
    for (let index = 0; index < 2000; index++) {
      const shape = arbitrary.generate(caseRandom(3, 'edges', index), caseBias(index)).value;
      const { id } = materializeId(shape, createFreshIds('unclaimed'), `edges:${index}`);
      expect(id >= INT64.min && id <= INT64.max).toBe(true);
      seen.add(materializeId(shape, fresh, `edges:${index}`).id);
    }
    for (const edge of [INT64.max, INT64.min, 0n, -1n, 2n ** 53n, 2n ** 53n + 1n, 2n ** 31n - 1n, 2n ** 31n]) {
      expect(seen.has(edge), String(edge)).toBe(true);
    }
  });

  it('sends each fixed id once per run: a second draw gets fresh bits', () => {
    const fresh = createFreshIds('claims');
    const shape = { anchor: 'max' as const, offset: 0n, fresh: false, position: 0n };
    expect(materializeId(shape, fresh, 'a')).toEqual({ id: INT64.max, mayRepeat: true });
    const again = materializeId(shape, fresh, 'b');
    expect(again.id).not.toBe(INT64.max);
    expect(again.mayRepeat).toBe(false);
  });

  it('spells ids in ways that denote exactly the integer they claim', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: INT64.min, max: INT64.max }), fc.constantFrom(...SPELLINGS), (id, spelling) => {
        const { text, value } = spell(id, spelling);
        const parsed = parseExactJson(`{"id":${text}}`) as Record<string, unknown>;
        expect(exactInteger(numberText(parsed, 'id') ?? '')).toBe(value);
      }),
    );
  });

  it('pairs precision ids that are one apart yet equal as doubles', () => {
    const pairs = allCases(9, 40, 'pairs').filter((entry) => entry.probe === 'precision-pair');
    expect(pairs.length).toBeGreaterThan(0);
    for (const pair of pairs) {
      const [first, second] = pair.plans.map((plan) => {
        const body = parseExactJson(plan.body ?? '') as Record<string, unknown>;
        return exactInteger(numberText(body, 'id') ?? '') ?? 0n;
      });
      expect(first === undefined || second === undefined).toBe(false);
      expect(((second ?? 0n) - (first ?? 0n)) ** 2n).toBe(1n);
      expect(Number(first)).toBe(Number(second));
    }
  });
});
