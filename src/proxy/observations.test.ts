import { describe, expect, it } from 'vitest';
import type { CheckDefinition } from '../runner/check.js';
import type { Exchange } from '../runner/http/client.js';
import type { PlannedRequest } from '../runner/probe.js';
import { Observations } from './observations.js';

const CHECK = {
  id: 'negative-rejection',
  title: 'Invalid requests are rejected',
  rule: 'rule 4',
} as unknown as CheckDefinition;
const BODY = '{"id":501,"name":"Fern","care":{"water":{"everyDays":31}}}';

/** A POST /plants the upstream answered with `status`, failed by the one check. */
function replayOf(status: number): string | undefined {
  const observations = new Observations([CHECK], 'http://127.0.0.1:8080');
  const exchange: Exchange = {
    plan: { intent: { kind: 'valid' } } as unknown as PlannedRequest,
    request: { method: 'POST', url: 'http://127.0.0.1:8080/plants', headers: {}, body: BODY },
    response: { status, headers: {}, body: BODY, durationMs: 1 },
  };
  observations.add(exchange, [{ check: CHECK, verdict: { outcome: 'fail', reason: 'accepted' } }], undefined);
  return observations.report().checks.find((check) => check.id === CHECK.id)?.failures[0]?.replay;
}

describe("a failing exchange's replay", () => {
  it('says the id is stored now when the server accepted the plant (sent again, it meets a repeated id)', () => {
    // Before: "send the curl line again to repeat it"; a server that keeps plants answered the resend 400 (repeated id).
    expect(replayOf(201)).toBe(
      'exchange 1 seen by plantstore proxy; the server accepted it (201), so it may keep id 501 now: send the curl line again with another id to repeat it',
    );
  });

  it('says to send it again as it is when the server did not accept it', () => {
    expect(replayOf(500)).toBe('exchange 1 seen by plantstore proxy; send the curl line again to repeat it');
  });
});
