import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../contract/index.js';
import { createFreshIds } from './generate/fresh-ids.js';
import { validPlants } from './probes/valid-plants.js';

const IDEMPOTENT = 'src/fixtures/documents/reduced/idempotency-key-3.1.yaml';

describe("the document's required parameters on a probe's requests", () => {
  it('are the same for the same case of a run, and differ between runs (an Idempotency-Key a server has stored)', async () => {
    const contract = await loadContract(IDEMPOTENT);
    const [value] = fc.sample(validPlants.arbitrary(contract, 0), { seed: 3, numRuns: 1 });
    if (value === undefined) throw new Error('fc.sample drew no value');
    const keyOf = (nonce: string): string | undefined => {
      const [plan] = validPlants.plan(value, { contract, fresh: createFreshIds(nonce), salt: 'valid-plant:0:' });
      return plan?.headers?.['idempotency-key'];
    };
    expect(keyOf('0123456789abcdef')).toMatch(/^[0-9a-f-]{36}$/i);
    expect(keyOf('0123456789abcdef')).toBe(keyOf('0123456789abcdef'));
    expect(keyOf('fedcba9876543210')).not.toBe(keyOf('0123456789abcdef'));
  });
});
