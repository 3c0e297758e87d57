import { describe, expect, it } from 'vitest';
import { faultyTarget, refuse } from '../fixtures/base/plant-service.js';
import { loadContract } from '../contract/index.js';
import { createFreshIds } from './generate/fresh-ids.js';
import { createTargetClient } from './http/client.js';
import { scriptedClient } from '../fixtures/scripted-client.js';
import { ConformanceOptionsError } from './errors.js';
import { CANARY_ID, judgeContextOf, openTarget, probeTarget } from './target.js';
import { CORRECT_STEPS } from '../fixtures/base/plant-service.js';
import { runConformance } from '../index.js';

/** Joi's `object()` without `.unknown()`, class-validator's `forbidNonWhitelisted`: members beyond id, name, tag refused. */
const closedObject = faultyTarget(
  {
    name: 'closed-object',
    defect: 'members the document allows beyond id, name and tag refused',
    expectedFailures: [],
  },
  {
    readExtra: (record) =>
      Object.keys(record).some((key) => !['id', 'name', 'tag'].includes(key))
        ? refuse(400, 'unknown member')
        : undefined,
  },
);

describe('probeTarget', () => {
  it('learns how a target treats repeats though it refuses the first plant for members the document allows', async () => {
    const contract = await loadContract();
    const target = await closedObject.start();
    const client = createTargetClient({
      baseUrl: target.url,
      token: target.token,
      concurrency: 2,
      timeoutMs: 5_000,
      maxBodyBytes: 4096,
    });
    try {
      const learned: (boolean | undefined)[] = [];
      // Nonces whose first preflight plant holds extra members, and some whose first does not.
      for (let nonce = 0; nonce < 8; nonce++) {
        const traits = await probeTarget(
          client,
          contract,
          createFreshIds(nonce.toString(16).padStart(16, '0')),
          target.url,
        );
        learned.push(traits.rejectsRepeats === true && traits.acceptedPlant !== undefined);
      }
      expect(learned).toEqual(Array.from({ length: 8 }, () => true));
    } finally {
      await client.close();
      await target.close();
    }
  });
});

/**
 * Jackson binding a POJO's primitive `long id` with FAIL_ON_NULL_FOR_PRIMITIVES off (its default): a missing or
 * null id reads as 0. Once a plant with id 0 is stored, such a body is answered as a repeat of 0.
 */
const missingIdAsZero = faultyTarget(
  { name: 'missing-id-as-zero', defect: 'a missing or null id read as 0', expectedFailures: ['negative-rejection'] },
  { readId: (value) => (value === undefined || value === null ? 0n : CORRECT_STEPS.readId(value)) },
);

describe('a target that reads a missing id as 0, an id the run already stored', () => {
  it('still learns its repeat code is its own: the missing-id answer of the preflight is a repeat refusal itself', async () => {
    const contract = await loadContract();
    const target = await missingIdAsZero.start();
    const client = createTargetClient({
      baseUrl: target.url,
      token: target.token,
      concurrency: 2,
      timeoutMs: 5_000,
      maxBodyBytes: 4096,
    });
    try {
      // The run's exact id 0 is often taken before the preflight sends its plant without an id.
      const zero = await fetch(`${target.url}/plants`, {
        method: 'POST',
        headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json' },
        body: '{"id":0,"name":"Fern"}',
      });
      expect(zero.status).toBe(200);
      const traits = await probeTarget(client, contract, createFreshIds('00112233aabbccdd'), target.url);
      expect(traits.rejectsRepeats).toBe(true);
      expect(traits.repeatCodeIsDistinct).toBe(true);
    } finally {
      await client.close();
      await target.close();
    }
  });

  it('fails negative-rejection once, for the id, at several seeds', async () => {
    for (const seed of [7, 42]) {
      const target = await missingIdAsZero.start();
      try {
        const report = await runConformance({
          baseUrl: target.url,
          token: target.token,
          seed,
          runs: 60,
          concurrency: 4,
        });
        const failed = report.checks.filter((check) => check.status === 'fail').map((check) => check.id);
        expect(failed).toEqual(['negative-rejection']);
        const titles = (report.findings ?? []).map((finding) => finding.title);
        expect(titles).toHaveLength(1);
        expect(titles[0]).toMatch(/"id"/);
      } finally {
        await target.close();
      }
    }
  }, 120_000);
});

describe('a preflight that finds nothing listening', () => {
  const refused = scriptedClient(() => 'connection-refused');

  it('says the target cannot be reached when nothing answered before it', async () => {
    const contract = await loadContract();
    const probing = probeTarget(refused, contract, createFreshIds('00112233aabbccdd'), 'http://127.0.0.1:9');
    await expect(probing).rejects.toThrow(/connection-refused/);
  });

  it('leaves it to the run when the target answered its first request (the cases beside it may have killed it)', async () => {
    const contract = await loadContract();
    const fresh = createFreshIds('00112233aabbccdd');
    const traits = await probeTarget(refused, contract, fresh, 'http://127.0.0.1:9', true);
    expect(traits).toEqual({ rejectsRepeats: undefined });
  });
});

describe('the canary plant', () => {
  it('leaves open whether the target holds an earlier run when it was throttled, excusing a fixed id refused', async () => {
    const contract = await loadContract();
    let accepted = 0;
    // Accepts the first plant, refuses its repeat, and throttles the canary (a limiter past the run's retries).
    const client = scriptedClient((plan) => {
      if (plan.body?.includes(`"id":${CANARY_ID}`)) return 429;
      return accepted++ === 0 ? 200 : 400;
    });
    const traits = await probeTarget(client, contract, createFreshIds('00112233aabbccdd'), 'http://127.0.0.1:9');
    expect(traits.rejectsRepeats).toBe(true);
    expect(traits.holdsEarlierRun).toBeUndefined();
    expect(judgeContextOf(traits, contract).targetHoldsEarlierRun).toBe(true);
    expect(judgeContextOf({ ...traits, holdsEarlierRun: false }, contract).targetHoldsEarlierRun).toBe(false);
    expect(judgeContextOf({ rejectsRepeats: false }, contract).targetHoldsEarlierRun).toBe(false);
  });
});

describe('a base URL', () => {
  it('with a user, password, query or fragment is refused as an option, without showing them (nothing sends them)', async () => {
    const secret = 'gateway-secret-3f9a';
    for (const baseUrl of [
      `https://ci:${secret}@127.0.0.1:9/api/v2`,
      `https://127.0.0.1:9/api/v2?access_token=${secret}`,
      `https://127.0.0.1:9/api/v2#${secret}`,
    ]) {
      const refused = await openTarget({ baseUrl, token: 't' }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(ConformanceOptionsError);
      expect((refused as Error).message).toMatch(/^`baseUrl` https:\/\/127\.0\.0\.1:9\/api\/v2 carries /);
      expect((refused as Error).message).not.toContain(secret);
    }
  });
});
