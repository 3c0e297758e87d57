import { describe, expect, it } from 'vitest';
import type { GeneratedCase } from './cases.js';
import { LIVENESS, type CaseRun } from './execute.js';
import type { Exchange, TargetClient } from './http/client.js';
import { scriptedClient } from '../fixtures/scripted-client.js';
import { answersSteadily, sendCutAgain, settleOutage, wasInFlight } from './outage.js';
import type { PlannedRequest } from './probe.js';
import { createFreshIds, type FreshIds } from './generate/fresh-ids.js';
import type { Contract } from '../contract/index.js';

type Outcome = number | string;

function cutRun(order: number, failure: string, requests = 1): CaseRun {
  const plan = { method: 'POST', path: '/plants', body: `{"n":${order}}` } as unknown as PlannedRequest;
  // Planned again, its body carries the id its fresh source gives it.
  const probe = {
    name: 'p',
    plan: (_value: unknown, { fresh, salt }: { fresh: FreshIds; salt: string }) => [
      { ...plan, body: `{"n":${order},"id":${fresh.bits(salt)}}` },
    ],
  };
  const value = { value: order };
  const plans = Array.from({ length: requests }, () => plan);
  const generated = { index: order, plans, probe, value } as unknown as GeneratedCase;
  const response = { status: 0, headers: {}, body: null, durationMs: 0, transportError: failure };
  return { generated, order, exchanges: [{ plan, request: {}, response } as unknown as Exchange] };
}

/** A scripted client that also lists what it was sent: `LIVENESS` for a liveness request, else the body. */
function client(outcome: (plan: PlannedRequest) => Outcome): { client: TargetClient; sent: string[] } {
  const sent: string[] = [];
  const listing = scriptedClient((plan) => {
    sent.push(plan === LIVENESS ? 'LIVENESS' : (plan.body ?? ''));
    return outcome(plan);
  });
  return { sent, client: listing };
}

const cut = {
  after: 40,
  runs: [
    cutRun(1, 'connection-refused'),
    cutRun(2, 'connection-reset'),
    cutRun(3, 'timeout'),
    cutRun(4, 'connection-refused'),
  ],
};

describe('settleOutage', () => {
  const fresh = createFreshIds('fedcba9876543210');
  // The probe above plans without the contract.
  const settling = { waitMs: 300, deadline: Number.POSITIVE_INFINITY, contract: {} as Contract, fresh };
  /** The body a cut case is sent again alone with: every id fresh of the nonce given. */
  const alone = (order: number): string => `{"n":${order},"id":${fresh.bits(`p:${order}:`)}}`;

  it('counts a refused connection as no request in flight, a reset or timeout as one', () => {
    expect(cut.runs.map(wasInFlight)).toEqual([false, true, true, false]);
  });

  it('judges the first request the target had when it does not come back within the wait', async () => {
    const { client: gone } = client(() => 'connection-refused');
    const outage = await settleOutage(gone, cut, settling);
    expect(outage.cause.kind).toBe('gone');
    expect(outage.judged?.order).toBe(2);
  });

  it('tells a target that still takes connections and resets every request from one where nothing listens', async () => {
    const resetting = await settleOutage(client(() => 'connection-reset').client, cut, settling);
    expect(resetting.cause).toMatchObject({ kind: 'gone', listening: true });
    const refusing = await settleOutage(client(() => 'connection-refused').client, cut, settling);
    expect(refusing.cause).toMatchObject({ kind: 'gone', listening: false });
  });

  it('judges nothing when the target comes back and no request it had stops it again', async () => {
    const { client: restarted, sent } = client((plan) => (plan === LIVENESS ? 404 : 200));
    const outage = await settleOutage(restarted, cut, settling);
    expect(outage).toEqual({
      cut,
      suspects: [cut.runs[1], cut.runs[2]],
      cause: { kind: 'restarted', afterMs: expect.any(Number) as number },
    });
    // Only the requests it had are sent again, each alone, in the order they ended, once it answered steadily.
    expect(sent).toEqual(['LIVENESS', 'LIVENESS', 'LIVENESS', 'LIVENESS', alone(2), alone(3)]);
  });

  it('judges the request that stops the target again, as sent the second time', async () => {
    let down = false;
    const { client: crashing } = client((plan) => {
      if (plan === LIVENESS) return down ? 'connection-refused' : 404;
      if (plan.body === alone(3)) down = true;
      return down ? 'connection-reset' : 200;
    });
    const outage = await settleOutage(crashing, cut, settling);
    expect(outage.cause).toMatchObject({ kind: 'caused', stoppedAgain: true });
    expect(outage.judged?.order).toBe(3);
    expect(outage.judged?.exchanges[0]?.response.transportError).toBe('connection-reset');
    expect(outage.judged).not.toBe(cut.runs[2]);
  });

  it('sends nothing alone until every instance behind a round-robin gateway answers, as in a rolling restart', async () => {
    // Two instances in turn; the second is down for the first 10 requests, answering the gateway's 502 page.
    let requests = 0;
    const { client: rolling, sent } = client(() => (++requests % 2 === 0 && requests <= 10 ? 502 : 404));
    const outage = await settleOutage(rolling, cut, { ...settling, waitMs: 3_000 });
    expect(outage.cause.kind).toBe('restarted');
    expect(sent.slice(-2)).toEqual([alone(2), alone(3)]);
    expect(sent.filter((what) => what === 'LIVENESS').length).toBeGreaterThanOrEqual(8);
  });

  it('judges the request sent alone with ids of its own nonce, named by its replay', async () => {
    const { client: resetting } = client((plan) =>
      plan === LIVENESS ? 404 : plan.body === alone(2) ? 'connection-reset' : 200,
    );
    const outage = await settleOutage(resetting, cut, settling);
    expect([outage.judged?.nonce, outage.judged?.exchanges[0]?.plan.body]).toEqual([fresh.nonce, alone(2)]);
  });

  it('judges the request a single-threaded target hangs on, sent alone once it takes requests again unanswered', async () => {
    // Hung on every POST, the liveness request included: it takes them and answers none in time.
    const { client: hung, sent } = client(() => 'timeout');
    const outage = await settleOutage(hung, cut, settling);
    expect(outage.cause).toMatchObject({ kind: 'caused', stoppedAgain: false });
    expect(outage.judged?.exchanges[0]?.response.transportError).toBe('timeout');
    // One liveness request before the resend (each more would cost a whole timeout), one after.
    expect(sent).toEqual(['LIVENESS', alone(2), 'LIVENESS']);
  });

  it('judges a request cut again while the target stays up, and says it stayed up', async () => {
    const { client: resetting } = client((plan) =>
      plan === LIVENESS ? 404 : plan.body === alone(2) ? 'connection-reset' : 200,
    );
    const outage = await settleOutage(resetting, cut, settling);
    expect(outage.cause).toMatchObject({ kind: 'caused', stoppedAgain: false });
    expect(outage.judged?.order).toBe(2);
  });

  it('sends a case of one request again before one of several, each of which may wait a whole timeout', async () => {
    const twoThenOne = { after: 40, runs: [cutRun(5, 'timeout', 2), cutRun(6, 'timeout')] };
    const { client: hanging, sent } = client((plan) => (plan === LIVENESS ? 404 : 'timeout'));
    const outage = await settleOutage(hanging, twoThenOne, settling);
    expect(outage.cause).toMatchObject({ kind: 'caused', stoppedAgain: false });
    expect(outage.judged?.order).toBe(6);
    expect(sent).toEqual(['LIVENESS', 'LIVENESS', 'LIVENESS', 'LIVENESS', alone(6), 'LIVENESS']);
    // The suspects stay as they ended: the first of them is what a target gone for good is judged by.
    expect(outage.suspects.map((run) => run.order)).toEqual([5, 6]);
  });
});

describe('sendCutAgain', () => {
  const fresh = createFreshIds('0123456789abcdef');
  // The probe above plans without the contract.
  const forever = { concurrency: 2, deadline: Number.POSITIVE_INFINITY, contract: {} as Contract, fresh };

  it('sends every cut case again but the one judged, every id fresh of another nonce, and keeps those answered', async () => {
    const { client: back, sent } = client((plan) =>
      plan === LIVENESS ? 404 : plan.body?.startsWith('{"n":4,') === true ? 'connection-refused' : 200,
    );
    const outage = {
      cut,
      suspects: [],
      cause: { kind: 'caused', afterMs: 0, run: cut.runs[1]!, stoppedAgain: false },
      judged: cut.runs[1]!,
    } as const;
    const again = await sendCutAgain(back, outage, forever);
    const ids = [1, 3, 4].map((order) => `{"n":${order},"id":${fresh.bits(`p:${order}:`)}}`);
    expect(sent.sort()).toEqual(ids.sort());
    // Case 4 got no answer again: it stays without a verdict. The others carry the nonce of their ids.
    expect(again.map((run) => [run.order, run.nonce, run.exchanges[0]?.plan.body])).toEqual([
      [1, fresh.nonce, ids[0]],
      [3, fresh.nonce, ids[1]],
    ]);
  });

  it('sends nothing again past the deadline', async () => {
    const { client: back, sent } = client((plan) => (plan === LIVENESS ? 404 : 200));
    const outage = { cut, suspects: [], cause: { kind: 'restarted', afterMs: 0 } } as const;
    const again = await sendCutAgain(back, outage, { ...forever, deadline: Date.now() - 1 });
    expect([again, sent]).toEqual([[], []]);
  });
});

describe('answersSteadily', () => {
  it('takes a liveness request taken and left unanswered for up at once (hung, not gone)', async () => {
    const { client: hung, sent } = client(() => 'timeout');
    expect(await answersSteadily(hung, 0)).toBe(true);
    expect(sent).toEqual(['LIVENESS']);
  });

  it('asks for four answers in a row otherwise, and finds none from a target refusing connections', async () => {
    const { client: up, sent } = client(() => 401);
    expect(await answersSteadily(up, 0)).toBe(true);
    expect(sent).toHaveLength(4);
    expect(await answersSteadily(client(() => 'connection-refused').client, 0)).toBe(false);
  });
});
