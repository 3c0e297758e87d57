import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBearerCheck, errorBody, loadContract, readNewPlant, type NewPlant } from '../contract/index.js';
import { runConformance } from '../index.js';
import { AnswerTimes } from './answer-times.js';
import type { GeneratedCase } from './cases.js';
import { fail, PASS, type CheckDefinition, type JudgeContext } from './check.js';
import { sendSequence } from './execute.js';
import { bodySize } from './findings.js';
import { createFreshIds } from './generate/fresh-ids.js';
import type { Exchange, TargetClient } from './http/client.js';
import type { Probe } from './probe.js';
import {
  HANGS_CONFIRMED_AT_ONCE,
  hangShrinking,
  sameDefect,
  shrinkCounterexample,
  type HangShrinking,
} from './shrink.js';
import { judgeCase } from './verdicts.js';

const TOKEN = 'shrink-test-token';
const contract = await loadContract();
const checkBearer = createBearerCheck([TOKEN]);

/** A stateless target, correct but for `twist`, which may answer instead of the correct code. */
function target(twist: (plant: NewPlant, res: ServerResponse) => boolean) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const send = (status: number, text: string) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(text);
      const authProblem = checkBearer(req.headers.authorization);
      if (authProblem) return send(401, errorBody(authProblem));
      const read = readNewPlant(contract, req.headers['content-type'], Buffer.concat(chunks));
      if (!read.ok) return send(400, errorBody(read.problem));
      if (twist(read.plant, res)) return;
      const { name, tag } = read.plant;
      send(200, JSON.stringify(tag === undefined ? { name } : { name, tag }));
    });
  };
}

const TARGETS = {
  /** Refuses names with astral characters: positive-acceptance. */
  astral: target((plant, res) => {
    if (typeof plant.name !== 'string' || !/[\u{10000}-\u{10ffff}]/u.test(plant.name)) return false;
    res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":1,"message":"bad name"}');
    return true;
  }),
  /** Crashes on a tag with a control character: no-server-error. */
  control: target((plant, res) => {
    // eslint-disable-next-line no-control-regex
    if (!/[\u0000-\u001f]/.test(typeof plant.tag === 'string' ? plant.tag : '')) return false;
    res.writeHead(500).end();
    return true;
  }),
  /** Stores ids in a double and refuses ids it cannot represent: positive-acceptance. */
  double: target((plant, res) => {
    const { id } = plant;
    if (typeof id !== 'bigint' || BigInt(Number(id)) === id) return false;
    res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":2,"message":"id"}');
    return true;
  }),
};

const urls: Record<string, string> = {};
const servers: ReturnType<typeof createServer>[] = [];
beforeAll(async () => {
  for (const [name, handler] of Object.entries(TARGETS)) {
    const server = createServer(handler);
    servers.push(server);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    urls[name] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
});
afterAll(() => Promise.all(servers.map((server) => new Promise((done) => server.close(done)))));

describe('shrinking', () => {
  it('every reported counterexample still fails when replayed, with the exact same request', async () => {
    let replayed = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...Object.keys(TARGETS)),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        async (name, seed) => {
          const options = { baseUrl: urls[name], token: TOKEN, seed, runs: 30, concurrency: 4, timeoutMs: 3_000 };
          const report = await runConformance(options);
          const failing = report.checks.filter((check) => check.status === 'fail');
          for (const check of failing) {
            for (const failure of check.failures) {
              const replay = failure.rerun?.replay ?? '';
              const again = await runConformance({ ...options, replay, checks: [String(check.id)] });
              const result = again.checks.find((other) => other.id === check.id);
              expect(result?.status, `${name} ${check.id} ${replay}`).toBe('fail');
              const replayedBodies = result?.failures.map((other) => other.request.body);
              expect(replayedBodies).toContain(failure.request.body);
              replayed++;
            }
          }
        },
      ),
      { numRuns: 6 },
    );
    expect(replayed).toBeGreaterThan(0);
    // Six whole runs with shrinking: about 6 s alone on Node 20, 13-15 s on Node 24, more beside other test files.
  }, 90_000);

  it('shrinks to small counterexamples that keep the defect', async () => {
    const report = await runConformance({ baseUrl: urls.astral, token: TOKEN, seed: 5, runs: 60, concurrency: 4 });
    const failure = report.checks.find((check) => check.id === 'positive-acceptance')?.failures[0];
    const body = JSON.parse(failure?.request.body ?? '{}') as { name?: string };
    expect(body.name).toMatch(/[\u{10000}-\u{10ffff}]/u);
    // Small in what a person sees: at most two graphemes (a family emoji is one, of five code points).
    const graphemes = [...new Intl.Segmenter('en', { granularity: 'grapheme' }).segment(body.name ?? '')];
    expect(graphemes.length, body.name).toBeLessThanOrEqual(2);
    expect(failure?.shrinkSteps).toBeGreaterThan(0);
  });
});

describe('a shrink candidate is taken only for the same defect', () => {
  const verdict = (reason: string, defect?: string) => ({
    outcome: 'fail' as const,
    reason,
    exchangeIndex: 0,
    ...(defect === undefined ? {} : { defect }),
  });
  const check = { id: 'negative-rejection' as const };

  it('a wrong refusal status is not the accepted out-of-range id it was shrunk from', () => {
    const accepted = verdict('An invalid body was accepted', 'an invalid body ("id" holds #) accepted');
    const refused = verdict('An invalid body was answered 422', 'status 422 for a request it refuses');
    expect(sameDefect(check, refused, accepted)).toBe(false);
    expect(sameDefect(check, verdict('again', 'an invalid body ("id" holds #) accepted'), accepted)).toBe(true);
  });

  it('without a named defect, a reason differing only in its counts is the same defect', () => {
    const echo = { id: 'echo' as const };
    const longer = verdict('"name" was sent as "a  " (3 UTF-16 units) but came back as "a" (1 UTF-16 unit).');
    const shorter = verdict('"name" was sent as "a " (2 UTF-16 units) but came back as "a" (1 UTF-16 unit).');
    const dropped = verdict('"name" was sent as "a " but the 200 Plant has no "name".');
    expect(sameDefect(echo, shorter, longer)).toBe(true);
    expect(sameDefect(echo, dropped, longer)).toBe(false);
  });
});

describe('shrinking a request the target never answers', () => {
  const hangProbe: Probe<string> = {
    name: 'hang-test',
    title: 'a name the fake target never answers when it holds an x',
    share: 1,
    arbitrary: () => fc.string({ minLength: 1, maxLength: 30 }),
    plan: (name) => [
      {
        method: 'POST',
        path: '/plants',
        auth: { kind: 'none' },
        contentType: 'application/json',
        body: JSON.stringify({ id: 1, name }),
        intent: { kind: 'unpredictable', what: 'a name' },
      },
    ],
  };
  const timeoutCheck: CheckDefinition = {
    id: 'no-server-error',
    title: 'answers',
    rule: 'every request is answered',
    probes: [hangProbe],
    judge: (exchange) => (exchange.response.transportError === 'timeout' ? fail('No complete answer: timeout.') : PASS),
  };
  const TIMEOUT_MS = 10_000;

  /** A fake client: a name holding `x` is never answered (a timeout after the wait it was given), unless `answersLate`. */
  function fakeTarget(answersLate: (name: string) => boolean = () => false) {
    const waits: { name: string; waitMs: number }[] = [];
    const client: TargetClient = {
      send: (plan, sending) => {
        const { name } = JSON.parse(plan.body ?? '{}') as { name: string };
        const waitMs = Math.min(TIMEOUT_MS, sending?.timeoutMs ?? TIMEOUT_MS);
        waits.push({ name, waitMs });
        const hangs = name.includes('x') && !(answersLate(name) && waitMs === TIMEOUT_MS);
        const response = hangs
          ? { status: 0, headers: {}, body: null, durationMs: waitMs, transportError: 'timeout' }
          : { status: 200, headers: {}, body: '{}', durationMs: 1 };
        return Promise.resolve({ plan, request: {} as Exchange['request'], response });
      },
      redact: (text) => text,
      close: () => Promise.resolve(),
    };
    return { client, waits };
  }

  async function shrinkHang(client: TargetClient, hangs: HangShrinking | undefined) {
    const start = new fc.Value<unknown>('abcxdefghijxk', undefined);
    const fresh = createFreshIds('0123456789abcdef');
    const plans = hangProbe.plan('abcxdefghijxk', { contract, fresh, salt: 'hang-test:0:' });
    const generated: GeneratedCase = {
      probe: hangProbe,
      index: 0,
      value: start,
      plans,
      claimedIds: [],
    };
    const judgeContext: JudgeContext = { contract, targetRejectsRepeats: undefined };
    const exchanges = await sendSequence(client, plans);
    const verdict = judgeCase(timeoutCheck, exchanges, judgeContext)!;
    return shrinkCounterexample(
      timeoutCheck,
      generated,
      { value: start, path: [], exchanges, verdict },
      {
        contract,
        client,
        fresh,
        judgeContext,
        arbitrary: fc.string({ minLength: 1, maxLength: 30 }),
        maxSteps: 300,
        deadline: Date.now() + 60_000,
        ...(hangs ? { hangs } : {}),
      },
    );
  }
  const HANGS: HangShrinking = { candidateWaitMs: 1_000, confirmBy: Date.now() + 600_000 };

  it('gives candidates the short wait and confirms the smallest with the whole timeout', async () => {
    const { client, waits } = fakeTarget();
    const { counterexample } = await shrinkHang(client, HANGS);
    const shown = counterexample.exchanges[0]!;
    const shrunkName = (JSON.parse(shown.plan.body ?? '{}') as { name: string }).name;
    expect(shrunkName).toContain('x');
    expect(shrunkName.length).toBeLessThanOrEqual(2);
    expect(shown.response.durationMs).toBe(TIMEOUT_MS);
    const [original, ...rest] = waits;
    expect(original?.waitMs).toBe(TIMEOUT_MS);
    const confirmations = rest.filter((wait) => wait.waitMs === TIMEOUT_MS);
    expect(confirmations.length).toBeLessThanOrEqual(HANGS_CONFIRMED_AT_ONCE);
    expect(confirmations.map((wait) => wait.name)).toContain(shrunkName);
    expect(rest.filter((wait) => wait.waitMs === HANGS.candidateWaitMs).length).toBeGreaterThan(0);
  });

  it('sends only candidates smaller than the hang so far', async () => {
    const { client, waits } = fakeTarget();
    await shrinkHang(client, HANGS);
    const lengths = waits.slice(1).filter((wait) => wait.waitMs < TIMEOUT_MS);
    // Each candidate sent is shorter than the last one taken (which, in this target, is every one holding an x).
    let smallest = 'abcxdefghijxk'.length;
    for (const { name } of lengths) {
      expect(name.length).toBeLessThan(smallest);
      if (name.includes('x')) smallest = name.length;
    }
    expect(lengths.length).toBeGreaterThan(0);
  });

  it('keeps the case as found when no small candidate stays unanswered for the whole timeout', async () => {
    const { client } = fakeTarget((name) => name.length < 13);
    const { counterexample } = await shrinkHang(client, HANGS);
    expect(counterexample.path).toEqual([]);
    expect((JSON.parse(counterexample.exchanges[0]!.plan.body ?? '{}') as { name: string }).name).toBe('abcxdefghijxk');
  });

  it('ends as small as a shrink waiting the whole timeout for every candidate', async () => {
    const whole = fakeTarget();
    const slow = await shrinkHang(whole.client, undefined);
    expect(whole.waits.every((wait) => wait.waitMs === TIMEOUT_MS)).toBe(true);
    const quick = await shrinkHang(fakeTarget().client, HANGS);
    // The same size, not always the same characters: a hang's candidates no smaller ("xk" to "x ") are not sent.
    expect(bodySize(quick.counterexample.exchanges[0]?.plan.body ?? '')).toBe(
      bodySize(slow.counterexample.exchanges[0]?.plan.body ?? ''),
    );
  });
});

describe('when timeouts are shrunk with a shorter wait', () => {
  const run = { timeoutMs: 10_000, deadline: 100_000 };
  /** Answer times: `quick` of `quickMs`, then `slow` of `slowMs`. */
  const times = (quick: number, quickMs: number, slow = 0, slowMs = 0): AnswerTimes => {
    const counted = new AnswerTimes();
    for (let index = 0; index < quick; index++) counted.add(quickMs);
    for (let index = 0; index < slow; index++) counted.add(slowMs);
    return counted;
  };

  it('waits ten times the time nine answers in ten came within, at least a second, and confirms before the deadline', () => {
    expect(hangShrinking(run, { times: times(9, 3.2), timeouts: 1 })).toEqual({
      candidateWaitMs: 1_000,
      confirmBy: 90_000,
    });
    expect(hangShrinking(run, { times: times(9, 420), timeouts: 1 })?.candidateWaitMs).toBeGreaterThanOrEqual(4_200);
    // A few connections accepted a second late (a listen backlog full) do not make every candidate wait the whole timeout.
    expect(hangShrinking(run, { times: times(95, 20, 5, 1_244), timeouts: 1 })?.candidateWaitMs).toBe(1_000);
  });

  it('waits the whole timeout when the run met no timeout, or the target answered nothing or slowly', () => {
    expect(hangShrinking(run, { times: times(0, 0), timeouts: 1 })).toBeUndefined();
    expect(hangShrinking(run, { times: times(9, 501), timeouts: 1 })).toBeUndefined();
    expect(hangShrinking({ ...run, timeoutMs: 1_500 }, { times: times(9, 1), timeouts: 1 })).toBeUndefined();
    expect(hangShrinking(run, { times: times(9, 1), timeouts: 0 })).toBeUndefined();
  });
});
