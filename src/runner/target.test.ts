import { createServer } from 'node:http';
import { parse, stringify } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { listenOnLoopback } from '../fixtures/target-fixture.js';
import { faultyTarget, refuse } from '../fixtures/base/plant-service.js';
import { loadContract } from '../contract/index.js';
import { createFreshIds } from './generate/fresh-ids.js';
import { createTargetClient } from './http/client.js';
import { scriptedClient } from '../fixtures/scripted-client.js';
import { ConformanceOptionsError } from './errors.js';
import { CANARY_ID, judgeContextOf, openTarget, probeTarget } from './target.js';
import { CORRECT_STEPS, startService } from '../fixtures/base/plant-service.js';
import { runConformance } from '../index.js';

/** A client of a started target, as the runner opens one (small limits: the preflight's few requests). */
const clientOf = (target: { readonly url: string; readonly token: string }) =>
  createTargetClient({
    baseUrl: target.url,
    token: target.token,
    concurrency: 2,
    timeoutMs: 5_000,
    maxBodyBytes: 4096,
  });

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
  it('learns how a target treats repeats in a replay, whose preflight ids the replayed run stored', async () => {
    const contract = await loadContract();
    const target = await startService(CORRECT_STEPS);
    const client = clientOf(target);
    try {
      const learned: boolean[] = [];
      // A replay draws from the recorded run's nonce: its first preflight plant is the one that run stored.
      for (let nonce = 0; nonce < 16; nonce++) {
        const recorded = nonce.toString(16).padStart(16, '0');
        await probeTarget(client, contract, createFreshIds(recorded), target.url);
        const replayed = await probeTarget(client, contract, createFreshIds(recorded), target.url);
        learned.push(replayed.rejectsRepeats === true);
      }
      expect(learned).toEqual(Array.from({ length: 16 }, () => true));
    } finally {
      await client.close();
      await target.close();
    }
  });

  it('learns how a target treats repeats though it refuses the first plant for members the document allows', async () => {
    const contract = await loadContract();
    const target = await closedObject.start();
    const client = clientOf(target);
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
    const client = clientOf(target);
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

/**
 * FastAPI with pydantic 1 as its tutorial writes it: a missing id answered 422 `{"detail": …}`, a string or a boolean
 * id converted (`true` read as 1), a repeat refused 400 with an Error quoting the id.
 */
async function startLaxStore(): Promise<{ url: string; token: string; close(): Promise<void> }> {
  const stored = new Set<string>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const answer = (status: number, body: object): void => {
        res.writeHead(status, { 'content-type': 'application/json' }).end(stringify(body));
      };
      if (req.headers.authorization !== 'Bearer lax-token') return answer(403, { detail: 'Not authenticated' });
      let body: Record<string, unknown>;
      try {
        body = parse(Buffer.concat(chunks).toString(), null, (text) =>
          /^-?\d+$/.test(text) ? BigInt(text) : Number(text),
        ) as Record<string, unknown>;
      } catch {
        return answer(422, { detail: [{ loc: ['body'], msg: 'invalid json' }] });
      }
      const raw = body?.id;
      const id =
        typeof raw === 'bigint'
          ? raw
          : typeof raw === 'boolean'
            ? BigInt(raw)
            : typeof raw === 'string' && /^-?\d+$/.test(raw)
              ? BigInt(raw)
              : undefined;
      if (id === undefined || typeof body.name !== 'string')
        return answer(422, { detail: [{ loc: ['body', 'id'], msg: 'field required' }] });
      if (stored.has(String(id))) return answer(400, { error: 1, message: `plant ${String(id)} exists` });
      stored.add(String(id));
      answer(200, { ...body, id });
    });
  });
  const listening = await listenOnLoopback(server, 'lax-token');
  return { url: listening.url, token: 'lax-token', close: () => listening.close() };
}

describe('a target whose invalid ids are answered 422 or converted, not refused (FastAPI with pydantic 1)', () => {
  it('takes its repeat message, quoting the id, as its own: a fixed id it stored from `true` is refused as a repeat', async () => {
    const contract = await loadContract();
    const target = await startLaxStore();
    const client = clientOf(target);
    try {
      const traits = await probeTarget(client, contract, createFreshIds('00112233aabbccdd'), target.url);
      expect(traits.rejectsRepeats).toBe(true);
      expect(traits.repeatCodeIsDistinct).toBe(false);
      expect(traits.repeatMessageShape).toBe('plant # exists');
    } finally {
      await client.close();
      await target.close();
    }
  });
});
