import { describe, expect, it } from 'vitest';
import { runConformance } from '../index.js';
import { BUILT_IN_SUITES } from '../../suites/index.js';
import { deepNestingCrash } from '../fixtures/faulty/crash-defects.js';
import { droppedTag } from '../fixtures/faulty/echo-defects.js';
import { created201, invalidAs422 } from '../fixtures/faulty/status-defects.js';
import type { TargetFixture } from '../fixtures/target-fixture.js';

/** The fingerprints of one run against a fresh start of the fixture. */
async function fingerprints(fixture: TargetFixture, seed: number): Promise<string[]> {
  const target = await fixture.start();
  try {
    const report = await runConformance({
      baseUrl: target.url,
      token: target.token,
      seed,
      runs: 10,
      concurrency: 4,
      timeoutMs: 5_000,
      budgetMs: 30_000,
      suites: BUILT_IN_SUITES,
    });
    return (report.findings ?? []).map((finding) => finding.fingerprint).sort();
  } finally {
    await target.close();
  }
}

describe.concurrent('a finding has the same fingerprint whatever the seed and the nonce', () => {
  for (const fixture of [created201, invalidAs422, droppedTag, deepNestingCrash]) {
    it(
      fixture.name,
      async () => {
        const first = await fingerprints(fixture, 11);
        expect(first.length).toBeGreaterThan(0);
        expect(await fingerprints(fixture, 90_210)).toEqual(first);
      },
      60_000,
    );
  }
});
