import { isUtf8 } from 'node:buffer';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../contract/index.js';
import type { ExactJson } from '../../contract/schema/index.js';
import { caseCount } from '../cases.js';
import { createFreshIds } from '../generate/fresh-ids.js';
import type { PlannedRequest } from '../probe.js';
import { encodesSurrogatesOnly, notUtf8Bodies } from './not-utf8.js';

const contract = await loadContract();
const fresh = createFreshIds('0123456789abcdef');

/** The plans of `samples` values of one variant. */
function plansOf(variant: number, samples: number, of = contract): PlannedRequest[] {
  const values = fc.sample(notUtf8Bodies.arbitrary(of, variant), { numRuns: samples, seed: variant });
  return values.flatMap((value, index) =>
    notUtf8Bodies.plan(value, { contract: of, fresh, salt: `t:${variant}:${index}` }),
  );
}

/** The body as a lenient reader takes it: each invalid sequence read as U+FFFD (Express, Go). */
function lossy(plan: PlannedRequest): Record<string, unknown> {
  return JSON.parse(Buffer.from(plan.bodyBytes ?? []).toString('utf8')) as Record<string, unknown>;
}

describe('not-utf8 cases', () => {
  it('are six every run, whatever --runs, so no seed decides whether a strict decoder is met', () => {
    for (const runs of [1, 10, 100, 5000]) expect(caseCount(notUtf8Bodies, runs, contract)).toBe(6);
  });

  it('send bytes that are not UTF-8, and carry their lossy reading as the text the judging reads', () => {
    // The encoded surrogate is the last variant (5), after the nested string (3) and the member name (4).
    const sequences = new Map([
      [0, [0xff]],
      [1, [0xe2, 0x82]],
      [2, [0xc0, 0xaf]],
      [5, [0xed, 0xa0, 0x80]],
    ]);
    for (const [variant, sequence] of sequences) {
      for (const plan of plansOf(variant, 10)) {
        const bytes = Buffer.from(plan.bodyBytes ?? []);
        expect(isUtf8(bytes)).toBe(false);
        expect(bytes.includes(Buffer.from(sequence))).toBe(true);
        expect(plan.body).toBe(bytes.toString('utf8'));
        expect(plan.intent).toMatchObject({ kind: 'unpredictable', notUtf8: true });
        // In the name, appended to what was drawn: otherwise a NewPlant as generated, a fresh id included.
        const body = lossy(plan);
        expect(body.name).toMatch(/\ufffd$/);
        expect(typeof body.id).toBe('number');
        expect(plan.intent.kind === 'unpredictable' && plan.intent.what).toMatch(
          /^"name" holding .* \(not valid UTF-8\)$/,
        );
      }
    }
  });

  it('put the bytes in a member name in one case, and in a nested string where the document has one', () => {
    for (const plan of plansOf(4, 10)) {
      const keys = Object.keys(lossy(plan));
      expect(keys.filter((key) => key.includes('\ufffd'))).toHaveLength(1);
      expect(keys).toEqual(expect.arrayContaining(['id', 'name']));
    }
    // The seed's document has no nested string: the name takes the bytes.
    for (const plan of plansOf(3, 5)) expect(lossy(plan).name).toMatch(/\ufffd$/);
  });

  it("send a JSON string of the bytes where the document's NewPlant is no object and holds no string", () => {
    const values: ExactJson[] = [5n, [1n], 'Fern'];
    for (const [index, value] of values.entries()) {
      const draft = { value, ids: [], slots: [] };
      const [plan] = notUtf8Bodies.plan({ draft, variant: 0 }, { contract, fresh, salt: 't:scalar' });
      const bytes = Buffer.from(plan?.bodyBytes ?? []);
      expect(isUtf8(bytes), `draft ${index}`).toBe(false);
      expect(bytes.toString('latin1')).toMatch(/^"(?:Fern)?\xff"$/);
    }
  });

  it('put the bytes in a nested string of a document with nested objects (care.water)', async () => {
    const nested = await loadContract(
      fileURLToPath(new URL('../../fixtures/documents/11-nested-care.yaml', import.meta.url)),
    );
    const whats = plansOf(3, 30, nested).map((plan) => (plan.intent.kind === 'unpredictable' ? plan.intent.what : ''));
    expect(whats.filter((what) => what.startsWith('"care.')).length).toBeGreaterThan(0);
    for (const plan of plansOf(3, 30, nested)) expect(JSON.stringify(lossy(plan))).toContain('\ufffd');
  });
});

describe('encodesSurrogatesOnly', () => {
  it('holds for bytes whose only invalid sequences encode surrogates, as Python reads 0xED 0xA0 0x80', () => {
    const body = (...bytes: number[]): Buffer =>
      Buffer.concat([Buffer.from('{"id":1,"name":"é'), Buffer.from(bytes), Buffer.from('"}')]);
    expect(encodesSurrogatesOnly(body(0xed, 0xa0, 0x80))).toBe(true);
    expect(encodesSurrogatesOnly(body(0xed, 0xb0, 0x80, 0xed, 0xbf, 0xbf))).toBe(true);
    expect(encodesSurrogatesOnly(body(0xed, 0xa0, 0x80, 0xff))).toBe(false);
    for (const other of [[0xff], [0xe2, 0x82], [0xc0, 0xaf], [0xed, 0x9f, 0xbf], []])
      expect(encodesSurrogatesOnly(body(...other)), other.join(' ')).toBe(false);
    // The probe's own encoded-surrogate case, and none of the others.
    expect(plansOf(5, 5).every((plan) => encodesSurrogatesOnly(plan.bodyBytes ?? new Uint8Array()))).toBe(true);
    for (const variant of [0, 1, 2, 3, 4])
      expect(plansOf(variant, 5).some((plan) => encodesSurrogatesOnly(plan.bodyBytes ?? new Uint8Array()))).toBe(false);
  });
});
