import { describe, expect, it } from 'vitest';
import { ConformanceOptionsError, runConformance, type ConformanceOptions } from './index.js';

describe('runConformance from code', () => {
  // The CLI's flags are checked by their parser; options given in code reached undici or the case
  // generator as they were: concurrency -2 threw undici's 'invalid connections', timeoutMs 0 failed
  // the embedded reference on no-server-error, runs NaN skipped every check, seed 1.5 was reported
  // with a replay line `plantstore test --seed 1.5` refuses.
  it.each<[ConformanceOptions, string]>([
    [{ runs: -1 }, '`runs` must be a whole number from 1 to 1000000, got -1'],
    [{ runs: Number.NaN }, '`runs` must be a whole number from 1 to 1000000, got NaN'],
    [{ concurrency: -2 }, '`concurrency` must be a whole number from 1 to 1024, got -2'],
    [{ concurrency: 1.5 }, '`concurrency` must be a whole number from 1 to 1024, got 1.5'],
    [{ timeoutMs: 0 }, '`timeoutMs` must be a whole number from 1 to 3600000, got 0'],
    [{ budgetMs: 0 }, '`budgetMs` must be a whole number from 1 to 86400000, got 0'],
    [{ seed: 1.5 }, '`seed` must be a whole number from 0 to 2147483647, got 1.5'],
    // Cut at 4 KiB, the reference's answers failed echo, response-schema and no-server-error.
    [{ maxBodyBytes: 4096 }, '`maxBodyBytes` must be a whole number from 65536 to 1073741824, got 4096'],
  ])('refuses %o naming the option and its range', async (options, message) => {
    const refusal = runConformance(options);
    await expect(refusal).rejects.toThrow(ConformanceOptionsError);
    await expect(refusal).rejects.toThrow(message);
  });

  it('names the option the refusal is about', async () => {
    await expect(runConformance({ concurrency: 0 })).rejects.toMatchObject({ option: 'concurrency' });
  });
});
