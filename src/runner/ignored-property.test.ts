import { describe, expect, it } from 'vitest';
import { faultyTarget } from '../fixtures/base/plant-service.js';
import { runConformance } from '../index.js';
import { ignoredMemberDefect } from './findings.js';

/**
 * Never reads the tag: an invalid one is accepted and a valid one left out of the answer. One cause, as a Sinatra
 * server shows it that parses with `symbolize_names: true` and looks the tag up as `data.key?('tag')` (a string key
 * in a hash of symbols), or a model written without the field (hy11's /tmp/hy11/ruby/sinatra_plants.rb symbolize).
 */
const tagIgnored = faultyTarget(
  { name: 'tag-ignored', defect: 'the tag is never read: not checked, not echoed', expectedFailures: [] },
  { readTag: () => undefined },
);

describe('a property the target never reads', () => {
  // It was two findings (hy11, 2026-11-29): '"tag" not echoed as sent' and '… ("tag" holds …) accepted'.
  it('is one finding, whether an invalid value was accepted or a valid one not echoed', async () => {
    const target = await tagIgnored.start();
    try {
      const report = await runConformance({
        baseUrl: target.url,
        token: target.token,
        seed: 20261129,
        runs: 40,
        concurrency: 4,
        timeoutMs: 5_000,
        budgetMs: 40_000,
        checks: ['echo', 'negative-rejection'],
      });
      const titles = (report.findings ?? []).map((finding) => finding.title);
      expect(titles).toEqual([ignoredMemberDefect('tag')]);
    } finally {
      await target.close();
    }
  }, 60_000);
});
