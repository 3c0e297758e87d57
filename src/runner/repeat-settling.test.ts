import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { loadContract } from '../contract/index.js';
import { createFreshIds } from './generate/fresh-ids.js';
import { createArbitraryCache, generateCases } from './cases.js';
import { createTargetClient, type TargetClient } from './http/client.js';
import { parseReplay, formatReplay } from './replay.js';
import { replayCase } from './replay-case.js';
import { settleRepeatWarning } from './repeat-settling.js';
import { selectChecks } from './selection.js';
import { judgeContextOf } from './target.js';
import { listenOnLoopback } from '../fixtures/target-fixture.js';
import { integerSpellings } from './probes/valid-plants.js';
import { PACKAGE_ROOT } from '../contract/package-files.js';
import type { Failure } from './report.js';
import { runConformance } from './run.js';
import { BUILT_IN_SUITES } from '../../suites/index.js';

const TOKEN = 'repeat-settling-token';
const dir = mkdtempSync(join(tmpdir(), 'plantstore-repeats-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The package's document with ids 1 to 1000: a range an earlier run fills enough to meet its ids again. */
function narrowDocument(): string {
  const seed = readFileSync(join(PACKAGE_ROOT, 'openapi.yaml'), 'utf8');
  const narrow = seed.replace(
    '              type: integer\n              format: int64\n',
    '              type: integer\n              format: int64\n              minimum: 1\n              maximum: 1000\n',
  );
  expect(narrow).not.toBe(seed);
  const file = join(dir, 'narrow.yaml');
  writeFileSync(file, narrow);
  return file;
}

/**
 * A store of ids 1 to 1000 that refuses a repeated id and, when `blankNamesRefused`, a name of whitespace
 * only, a check the document does not make; every refusal with the same `error` value (its status), as many
 * services write them, so only the message tells a repeat apart.
 */
async function startStore(
  blankNamesRefused: boolean,
): Promise<{ url: string; close: () => Promise<void>; bodies: string[] }> {
  const stored = new Set<number>();
  const bodies: string[] = [];
  const answer = (res: ServerResponse, status: number, body: unknown): void => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.headers.authorization !== `Bearer ${TOKEN}`) return answer(res, 401, { error: 401, message: 'token' });
      let plant: { id?: unknown; name?: unknown; tag?: unknown };
      const text = Buffer.concat(chunks).toString('utf8');
      bodies.push(text);
      try {
        plant = JSON.parse(text) as typeof plant;
      } catch {
        return answer(res, 400, { error: 400, message: 'not JSON' });
      }
      const { id, name } = plant;
      const valid =
        typeof plant === 'object' &&
        plant !== null &&
        Number.isInteger(id) &&
        typeof name === 'string' &&
        (id as number) >= 1 &&
        (id as number) <= 1000 &&
        (!('tag' in plant) || typeof plant.tag === 'string');
      if (!valid || (req.headers['content-type'] ?? '').split(';')[0] !== 'application/json')
        return answer(res, 400, { error: 400, message: 'invalid plant' });
      if (blankNamesRefused && name.trim() === '')
        return answer(res, 400, { error: 400, message: 'name must not be blank' });
      if (stored.has(id as number)) return answer(res, 400, { error: 400, message: `id ${String(id)} exists` });
      stored.add(id as number);
      answer(res, 200, plant);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
    bodies,
  };
}

const settings = (url: string, spec: string, seed: number) =>
  ({
    baseUrl: url,
    token: TOKEN,
    spec,
    seed,
    runs: 30,
    concurrency: 4,
    checks: ['positive-acceptance'],
    suites: BUILT_IN_SUITES,
    timeoutMs: 5_000,
    budgetMs: 60_000,
  }) as const;

describe('a valid NewPlant refused where an earlier run may have stored its id (ids 1 to 1000)', () => {
  const spec = narrowDocument();

  it('is still a failure on later runs against the same store when a plain plant with its id is then accepted', async () => {
    const store = await startStore(true);
    try {
      const settled: boolean[] = [];
      for (const seed of [1, 2, 3, 4, 5]) {
        const report = await runConformance(settings(store.url, spec, seed));
        const check = report.checks.find((result) => result.id === 'positive-acceptance');
        const reasons = check?.failures.map((failure) => failure.reason).join('\n') ?? '';
        expect(check?.status, `seed ${seed}: ${reasons}`).toBe('fail');
        if (seed > 1) settled.push(/Not a repeat: a plain NewPlant sent with the same id right after/.test(reasons));
      }
      // A later run fails either way: a run whose own first plant (the preflight's) has a blank name learns
      // nothing of repeats and fails every refusal; the others hold the canary, and settle the warnings.
      expect(settled).toContain(true);
    } finally {
      await store.close();
    }
  }, 120_000);

  it("is replayed byte for byte: its replay string sends the plant settling sent, the curl line's", async () => {
    const store = await startStore(true);
    try {
      const settledFailures: Failure[] = [];
      for (const seed of [1, 2, 3]) {
        const report = await runConformance(settings(store.url, spec, seed));
        const failures = report.checks.find((result) => result.id === 'positive-acceptance')?.failures ?? [];
        settledFailures.push(...failures.filter((failure) => /Not a repeat/.test(failure.reason)));
      }
      expect(settledFailures.length).toBeGreaterThan(0);
      for (const failure of settledFailures) {
        const sent = (): number => store.bodies.filter((body) => body === failure.request.body).length;
        const before = sent();
        await runConformance({ ...settings(store.url, spec, failure.rerun!.seed), replay: failure.rerun!.replay });
        expect(sent(), `${failure.replay}\n${failure.curl}`).toBeGreaterThan(before);
      }
    } finally {
      await store.close();
    }
  }, 120_000);

  it('sends the integer-spelled twin of a plant with an id an earlier run may have stored, as its plain twin', async () => {
    const contract = await loadContract(spec);
    const fresh = createFreshIds('0123456789abcdef');
    const twins = fc
      .sample(integerSpellings.arbitrary(contract, 0), { seed: 7, numRuns: 20 })
      .map((value, index) => integerSpellings.plan(value, { contract, fresh, salt: `twins:${index}` }))
      .filter((plans) => plans.length === 2);
    expect(twins.length).toBeGreaterThan(0);
    for (const [plain, spelled] of twins) {
      expect(plain?.intent).toMatchObject({ kind: 'valid', idMayRepeat: true });
      expect(spelled?.intent).toMatchObject({ kind: 'valid-variant', idMayRepeat: true });
    }
  });

  it("stays a warning on a correct store that holds earlier runs' plants: sent again with other ids, it is accepted", async () => {
    const store = await startStore(false);
    try {
      for (const seed of [1, 2, 3, 4]) {
        const report = await runConformance(settings(store.url, spec, seed));
        const check = report.checks.find((result) => result.id === 'positive-acceptance');
        expect(check?.status, `seed ${seed}: ${check?.failures.map((f) => f.reason).join('\n')}`).not.toBe('fail');
      }
    } finally {
      await store.close();
    }
  }, 120_000);
});

/** The first valid-plant case of seed 7 (an id past 2^53) and what sending and replaying it needs. */
async function validPlantCase() {
  const contract = await loadContract();
  const fresh = createFreshIds('0123456789abcdef');
  const inputs = { contract, seed: 7, runs: 5, fresh, arbitraries: createArbitraryCache(contract) };
  const generated = generateCases(selectChecks(BUILT_IN_SUITES).allProbes, inputs).find(
    (entry) => entry.probe.name === 'valid-plant',
  )!;
  const check = BUILT_IN_SUITES.flatMap((suite) => suite.checks).find((each) => each.id === 'positive-acceptance')!;
  const settle = (client: TargetClient) =>
    settleRepeatWarning(
      check,
      { generated, exchanges: [], order: 0 },
      { outcome: 'warn', reason: 'maybe a repeat', exchangeIndex: 0 },
      { contract, client, fresh, judgeContext: judgeContextOf({ rejectsRepeats: true }, contract) },
    );
  return { generated, inputs, settle };
}

/** A store answering 200 to the POSTs `accepts` picks (counted from 1) and 400 to the others; `bodies` as received. */
async function startPicky(accepts: (post: number) => boolean) {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      const ok = accepts(bodies.length);
      const body = ok ? { name: 'control' } : { error: 400, message: 'refused' };
      res.writeHead(ok ? 200 : 400, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  const target = await listenOnLoopback(server, TOKEN);
  const client = createTargetClient({
    baseUrl: target.url,
    token: TOKEN,
    concurrency: 1,
    timeoutMs: 5_000,
    maxBodyBytes: 1e6,
  });
  return { bodies, client, close: async () => (await client.close(), await target.close()) };
}

describe('a warning of a plant with an id past 2^53', () => {
  it('is settled with a control carrying the same digits (a double would round them)', async () => {
    const { settle } = await validPlantCase();
    const store = await startPicky((post) => post === 2);
    try {
      const settled = await settle(store.client);
      expect(store.bodies).toHaveLength(2);
      const id = /"id":(-?\d+)/.exec(store.bodies[0]!)?.[1];
      expect(BigInt(id!) > 2n ** 53n || BigInt(id!) < -(2n ** 53n)).toBe(true);
      expect(store.bodies[1]).toContain(`"id":${id}`);
      expect(settled?.verdict.outcome).toBe('fail');
    } finally {
      await store.close();
    }
  });
});

describe('a warning settled on a later attempt (the id of the first was taken too)', () => {
  it('is sent as its replay string renders it: that attempt has a nonce of its own, which the string names', async () => {
    const { generated, inputs, settle } = await validPlantCase();
    // Every POST refused but the fourth: the second attempt's control (case, control, case, control).
    const store = await startPicky((post) => post === 4);
    try {
      const settled = await settle(store.client);
      expect(store.bodies).toHaveLength(4);
      expect(settled?.verdict.outcome).toBe('fail');
      const nonce = settled!.nonce;
      const replay = formatReplay({ probe: 'valid-plant', index: generated.index, path: [], alwaysFresh: true, nonce });
      const replayed = replayCase(parseReplay(replay), [generated], { ...inputs, fresh: createFreshIds(nonce) });
      expect(store.bodies[2]).not.toBe(store.bodies[0]);
      expect(settled?.exchanges[0]?.plan.body).toBe(store.bodies[2]);
      expect(replayed.plans[0]?.body).toBe(store.bodies[2]);
    } finally {
      await store.close();
    }
  });
});
