import { describe, expect, it, vi } from 'vitest';
import type { GeneratedCase } from './cases.js';
import { answersNow, dispatch, LIVENESS, pausedCaseSlots, type CaseRun } from './execute.js';
import type { Exchange, TargetClient } from './http/client.js';
import type { PlannedRequest } from './probe.js';
import { scriptedClient } from '../fixtures/scripted-client.js';

function fakeCase(index: number, splitBody: boolean): GeneratedCase {
  const plan = { splitBody, method: 'POST', path: '/plants' } as unknown as PlannedRequest;
  return { index, plans: [plan] } as unknown as GeneratedCase;
}

/** A client whose split-body requests wait until released; every other request is answered at once. */
function pausingClient(): { client: TargetClient; release: () => void; pending: () => number } {
  const waiting: (() => void)[] = [];
  const answer = (plan: PlannedRequest): Exchange =>
    ({ plan, request: {}, response: { status: 200, headers: {}, body: null, durationMs: 0 } }) as unknown as Exchange;
  const client: TargetClient = {
    send: (plan) =>
      plan.splitBody === true
        ? new Promise((resolve) => waiting.push(() => resolve(answer(plan))))
        : Promise.resolve(answer(plan)),
    redact: (text) => text,
    close: () => Promise.resolve(),
  };
  return { client, release: () => waiting.splice(0).forEach((resume) => resume()), pending: () => waiting.length };
}

/** Lets every settled promise run its continuations (bounded: the fake client never touches a socket). */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 50; turn++) await Promise.resolve();
}

/** Dispatches `count` plain cases with no deadline: the result, and the order of the cases judged. */
async function dispatchPlain(client: TargetClient, count: number, concurrency: number) {
  const cases = Array.from({ length: count }, (_, i) => fakeCase(i, false));
  const done: number[] = [];
  const result = await dispatch(cases, count, client, {
    concurrency,
    deadline: Number.POSITIVE_INFINITY,
    onCaseDone: (run) => done.push(run.order),
  });
  return { result, done };
}

describe('dispatch', () => {
  it('keeps sending the other cases while paused cases fill their share of the slots', async () => {
    const cases = [
      ...Array.from({ length: 10 }, (_, i) => fakeCase(i, true)),
      ...Array.from({ length: 10 }, (_, i) => fakeCase(10 + i, false)),
    ];
    const { client, release, pending } = pausingClient();
    const done: CaseRun[] = [];
    const dispatching = dispatch(cases, cases.length, client, {
      concurrency: 4,
      deadline: Number.POSITIVE_INFINITY,
      onCaseDone: (run) => done.push(run),
    });
    await settle();
    // Once nothing else is left, the last slot takes a paused case too.
    expect(pending()).toBe(4);
    expect(done.map((run) => run.order)).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
    for (let round = 0; round < 10 && done.length < cases.length; round++) {
      expect(pending()).toBeLessThanOrEqual(4);
      release();
      await settle();
    }
    const result = await dispatching;
    expect(result).toEqual({ sent: 20, throttled: 0, unsent: 0, nextOrder: 20 });
    expect(done.map((run) => run.order).sort((a, b) => a - b)).toEqual(cases.map((_, i) => i));
    expect(done.every((run) => run.generated === cases[run.order])).toBe(true);
  });

  it('sends every case once when paused cases outnumber what one turn generates', async () => {
    const cases = [
      ...Array.from({ length: 100 }, (_, i) => fakeCase(i, true)),
      ...Array.from({ length: 10 }, (_, i) => fakeCase(100 + i, false)),
    ];
    const { client, release, pending } = pausingClient();
    const done: number[] = [];
    const dispatching = dispatch(cases, cases.length, client, {
      concurrency: 4,
      deadline: Number.POSITIVE_INFINITY,
      onCaseDone: (run) => done.push(run.order),
    });
    for (let round = 0; round < 200 && done.length < cases.length; round++) {
      await settle();
      expect(pending()).toBeLessThanOrEqual(4);
      release();
    }
    expect(await dispatching).toEqual({ sent: 110, throttled: 0, unsent: 0, nextOrder: 110 });
    expect(done.sort((a, b) => a - b)).toEqual(cases.map((_, i) => i));
  });

  it('sends cases in generation order when none pauses', async () => {
    const cases = Array.from({ length: 12 }, (_, i) => fakeCase(i, false));
    const { client } = pausingClient();
    const done: number[] = [];
    await dispatch(cases, cases.length, client, {
      concurrency: 3,
      deadline: Number.POSITIVE_INFINITY,
      onCaseDone: (run) => done.push(run.order),
    });
    expect(done).toEqual(cases.map((_, i) => i));
  });

  it('judges a run of transport failures that an answer ends, in the order the cases ended', async () => {
    // Cases 3 to 6 are reset (a defect the target has), then the target answers again.
    const client = scriptedClient((_, index) => (index >= 3 && index <= 6 ? 'connection-reset' : 200));
    const { result, done } = await dispatchPlain(client, 12, 1);
    expect(result).toEqual({ sent: 12, throttled: 0, unsent: 0, nextOrder: 12 });
    expect(done).toEqual(Array.from({ length: 12 }, (_, i) => i));
  });

  it('judges none of the cases of the run of failures with which the target stopped answering', async () => {
    // From case 5 on the target is gone: the case it had is reset, every later connection refused.
    const client = scriptedClient((_, index) =>
      index < 5 ? 200 : index === 5 ? 'connection-reset' : 'connection-refused',
    );
    const { result, done } = await dispatchPlain(client, 100, 2);
    expect(result.stopped).toBe('unresponsive');
    expect(done).toEqual([0, 1, 2, 3, 4]);
    expect(result.cut?.after).toBe(5);
    expect(result.cut?.runs.map((run) => run.order)).toEqual(Array.from({ length: 11 }, (_, i) => 5 + i));
    expect(result.sent + result.unsent + (result.cut?.runs.length ?? 0)).toBe(100);
  });

  it.each([
    ['answers the liveness request asked afterwards: judged as any other', 404, 12, []],
    ['answers nothing afterwards (it died on them): set apart as an outage', 'connection-refused', 10, [10, 11]],
  ])('ends on failures no case answer follows, and the target %s', async (_, afterwards, judged, cut) => {
    const client = scriptedClient((plan, index) =>
      plan === LIVENESS ? afterwards : index >= 10 ? 'connection-reset' : 200,
    );
    const { result, done } = await dispatchPlain(client, 12, 1);
    expect(done).toHaveLength(judged);
    expect(result.cut?.runs.map((run) => run.order) ?? []).toEqual(cut);
    expect(result.stopped).toBeUndefined();
  });

  it('judges a failure that an answer ends only when that answer was asked for after it', async () => {
    // Case 0 is reset after case 1 was sent; case 1's answer, written before, proves nothing.
    let resolveFirst: (exchange: Exchange) => void = () => undefined;
    const answer = (plan: PlannedRequest, status: number, transportError?: string): Exchange =>
      ({
        plan,
        request: {},
        response: { status, headers: {}, body: null, durationMs: 0, ...(transportError ? { transportError } : {}) },
      }) as unknown as Exchange;
    let sent = 0;
    const client: TargetClient = {
      send: (plan) => {
        const index = sent++;
        if (index === 0) return new Promise((resolve) => (resolveFirst = resolve));
        if (index === 1) {
          setImmediate(() => resolveFirst(answer(plan, 0, 'connection-reset')));
          return new Promise((resolve) => setTimeout(() => resolve(answer(plan, 200)), 5));
        }
        return new Promise((resolve) => setTimeout(() => resolve(answer(plan, 200)), 20));
      },
      redact: (text) => text,
      close: () => Promise.resolve(),
    };
    const order: number[] = [];
    await dispatch(
      Array.from({ length: 4 }, (_, i) => fakeCase(i, false)),
      4,
      client,
      { concurrency: 2, deadline: Number.POSITIVE_INFINITY, onCaseDone: (run) => order.push(run.order) },
    );
    // Case 0 waits past case 1's answer (5 ms), for case 2's (sent after its failure, 20 ms later).
    expect(order.indexOf(0)).toBeGreaterThan(order.indexOf(1));
    expect(order.sort()).toEqual([0, 1, 2, 3]);
  });

  it('numbers the cases from firstOrder and says where a dispatch going on after it starts', async () => {
    const cases = Array.from({ length: 5 }, (_, i) => fakeCase(i, false));
    const orders: number[] = [];
    const { client } = pausingClient();
    const result = await dispatch(cases, cases.length, client, {
      concurrency: 2,
      deadline: Number.POSITIVE_INFINITY,
      firstOrder: 40,
      onCaseDone: (run) => orders.push(run.order),
    });
    expect(orders.sort((a, b) => a - b)).toEqual([40, 41, 42, 43, 44]);
    expect(result.nextOrder).toBe(45);
  });

  it('leaves a quarter of the slots to cases that do not pause, and all of them below four', () => {
    expect([1, 2, 3, 4, 16, 17].map(pausedCaseSlots)).toEqual([1, 2, 3, 3, 12, 13]);
  });
});

describe('dispatch against a target that never answers some requests', () => {
  /** Cases 6 and 7 wait until released (then time out); every other request is answered at once. */
  function hangingClient(): { client: TargetClient; release: () => void } {
    const waiting: (() => void)[] = [];
    const exchange = (plan: PlannedRequest, transportError?: string): Exchange =>
      ({
        plan,
        request: {},
        response: { status: transportError ? 0 : 200, headers: {}, body: null, durationMs: 1, transportError },
      }) as unknown as Exchange;
    const client: TargetClient = {
      send: (plan) =>
        (plan as unknown as { hangs?: boolean }).hangs === true
          ? new Promise((resolve) => waiting.push(() => resolve(exchange(plan, 'timeout'))))
          : Promise.resolve(exchange(plan)),
      redact: (text) => text,
      close: () => Promise.resolve(),
    };
    return { client, release: () => waiting.splice(0).forEach((resume) => resume()) };
  }
  const cases = Array.from({ length: 20 }, (_, index) => {
    const plan = { method: 'POST', path: '/plants', hangs: index === 6 || index === 7 } as unknown as PlannedRequest;
    return { index, plans: [plan] } as unknown as GeneratedCase;
  });

  async function sentWhileHung(timeoutMs: number | undefined): Promise<number[]> {
    vi.useFakeTimers();
    try {
      const { client, release } = hangingClient();
      const done: number[] = [];
      const dispatching = dispatch(cases, cases.length, client, {
        concurrency: 2,
        deadline: Number.POSITIVE_INFINITY,
        onCaseDone: (run) => done.push(run.order),
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
      });
      // Ten times the answers' time is below the floor: a second unanswered is a hang.
      await vi.advanceTimersByTimeAsync(1_000);
      const whileHung = [...done];
      release();
      await dispatching;
      expect([...done].sort((a, b) => a - b)).toEqual(cases.map((_, index) => index));
      return whileHung;
    } finally {
      vi.useRealTimers();
    }
  }

  it('leaves a hung case waiting and sends the rest meanwhile, when given the timeout', async () => {
    expect(await sentWhileHung(10_000)).toEqual([0, 1, 2, 3, 4, 5, ...cases.slice(8).map(({ index }) => index)]);
  });

  it('waits for a hung case in its slot without the timeout (a target serving few connections)', async () => {
    expect(await sentWhileHung(undefined)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('waits in the slot while the wait for a hang would be more than half the timeout', async () => {
    expect(await sentWhileHung(1_999)).toEqual([0, 1, 2, 3, 4, 5]);
  });
});

describe('answersNow', () => {
  it("asks with the operation's own method, credential-less and refused, never a GET the document may lack", async () => {
    const asked: PlannedRequest[] = [];
    const client = scriptedClient((plan) => (asked.push(plan), plan.method === 'POST' ? 401 : 'connection-reset'));
    expect(await answersNow(client)).toBe(true);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ method: 'POST', path: '/plants', auth: { kind: 'none' }, body: '{}' });
  });

  it.each([
    ['a gateway page', 502, false],
    ['no HTTP answer', 'connection-refused', false],
    ['a refusal', 400, true],
    ['a request taken and not answered in time (up, but slow or hung on every POST)', 'timeout', true],
    ['a connection not accepted in time', 'connect-timeout', false],
  ])('takes %s (%s) for the target being up: %s', async (_, outcome, up) => {
    expect(await answersNow(scriptedClient(() => outcome))).toBe(up);
  });
});
