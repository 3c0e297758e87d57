import { describe, expect, it } from 'vitest';
import { CORRECT_STEPS, faultyTarget } from '../fixtures/base/plant-service.js';
import { JsonNumber } from '../fixtures/base/hand-json.js';
import { runConformance } from '../index.js';
import { ZERO_VALUES_DEFECT } from './findings.js';

/**
 * A Go handler decoding into a struct without pointers and never checking presence (hg10's `zero`): a missing id is
 * 0 and a missing name "", so `{}` is `{"id": 0, "name": ""}`; a `null` member is still refused. One fix (pointer
 * fields and a nil check) for every member.
 */
const zeroValues = faultyTarget(
  { name: 'zero-values', defect: 'missing members read as 0 and ""', expectedFailures: [] },
  {
    readId: (value) => CORRECT_STEPS.readId(value === undefined ? new JsonNumber('0') : value),
    readName: (value) => CORRECT_STEPS.readName(value === undefined ? '' : value),
  },
);

/** The same habit for the name alone, the id checked: `body.name ?? ''`, one member's finding. */
const nameDefaulted = faultyTarget(
  { name: 'name-defaulted', defect: 'a missing name read as ""', expectedFailures: [] },
  { readName: (value) => CORRECT_STEPS.readName(value === undefined ? '' : value) },
);

async function titlesAgainst(fixture: typeof zeroValues, seed: number): Promise<string[]> {
  const target = await fixture.start();
  try {
    const report = await runConformance({
      baseUrl: target.url,
      token: target.token,
      seed,
      runs: 30,
      concurrency: 4,
      timeoutMs: 5_000,
      budgetMs: 40_000,
      checks: ['negative-rejection', 'response-schema', 'echo'],
    });
    return (report.findings ?? []).map((finding) => finding.title);
  } finally {
    await target.close();
  }
}

describe('required members read as zero values', () => {
  it('names one finding for every required member accepted missing, whichever seed', async () => {
    for (const seed of [42, 7])
      expect(await titlesAgainst(zeroValues, seed), `seed ${seed}`).toEqual([ZERO_VALUES_DEFECT]);
  }, 90_000);

  it("keeps one member's default its own finding", async () => {
    expect(await titlesAgainst(nameDefaulted, 42)).toEqual([
      'an invalid body ("name": name missing (required) (keyword required)) accepted',
    ]);
  }, 60_000);
});
