import { describe, expect, it } from 'vitest';
import { CORRECT_STEPS, faultyTarget } from '../fixtures/base/plant-service.js';
import { runConformance } from '../index.js';

/** Two root causes the same probe (invalid bodies) finds: a missing name and a null tag, both accepted. */
const twoDefects = faultyTarget(
  { name: 'missing-name-and-null-tag', defect: 'name defaults to ""; a null tag is dropped', expectedFailures: [] },
  {
    readName: (value) => CORRECT_STEPS.readName(value ?? ''),
    readTag: (value) => CORRECT_STEPS.readTag(value ?? undefined),
  },
);

describe('a check keeps one counterexample per root cause', () => {
  it('reports a second defect of one probe beside the first, so a baseline of one cannot hide the other', async () => {
    const target = await twoDefects.start();
    try {
      const report = await runConformance({
        baseUrl: target.url,
        token: target.token,
        seed: 20261123,
        runs: 30,
        concurrency: 4,
        timeoutMs: 5_000,
        budgetMs: 40_000,
        checks: ['negative-rejection'],
      });
      const titles = (report.findings ?? []).map((finding) => finding.title);
      expect(titles.some((title) => title.includes('"name"'))).toBe(true);
      expect(titles.some((title) => title.includes('"tag"'))).toBe(true);
    } finally {
      await target.close();
    }
  }, 60_000);
});
