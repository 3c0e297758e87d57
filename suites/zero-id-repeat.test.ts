import { describe, expect, it } from 'vitest';
import { CORRECT_STEPS, startService, type ServiceSteps } from '../src/fixtures/base/plant-service.js';
import { runConformance } from '../src/index.js';

const MISSING_ID_ACCEPTED = 'an invalid body ("id": id missing (required) (keyword required)) accepted';

/**
 * Jackson binding into a primitive `long` (hj10's pojo-defaults): an id left out, null or "" is 0 and a string of digits
 * its number, stored like any other; every refusal carries the same `error` code, so only the message tells a repeat.
 */
const zeroDefault: Partial<ServiceSteps> = {
  readId(value) {
    if (value === undefined || value === null || value === '') return 0n;
    return typeof value === 'string' && /^-?\d{1,18}$/.test(value) ? BigInt(value) : CORRECT_STEPS.readId(value);
  },
  refusalAnswer: (refusal) => CORRECT_STEPS.refusalAnswer({ ...refusal, error: refusal.status }),
};

async function titlesAt(seed: number): Promise<string[]> {
  const target = await startService({ ...CORRECT_STEPS, ...zeroDefault });
  try {
    const report = await runConformance({ baseUrl: target.url, token: target.token, seed, runs: 60 });
    return (report.findings ?? []).map((finding) => finding.title);
  } finally {
    await target.close();
  }
}

describe('a body without an id refused as a repeat of id 0', () => {
  it.each([1, 3, 42])(
    'is the missing id read as 0, accepted, whichever zero-id body came first (seed %s)',
    async (seed) => {
      expect(await titlesAt(seed)).toContain(MISSING_ID_ACCEPTED);
    },
    90_000,
  );
});
