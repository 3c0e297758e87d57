import { describe, expect, it } from 'vitest';
import type { GeneratedCase } from './cases.js';
import type { CaseRun } from './execute.js';
import type { Exchange } from './http/client.js';
import type { PlannedRequest } from './probe.js';
import type { CaseVerdict } from './verdicts.js';
import { WENT_AWAY_DEFECT, wentAwayVerdict } from './went-away.js';

/** A case whose one request, its body `body`, got `failure` and no answer. */
function cut(order: number, body: string, failure = 'connection-reset'): CaseRun {
  const plan = { method: 'POST', path: '/plants', body } as unknown as PlannedRequest;
  const request = { method: 'POST', url: 'http://127.0.0.1:9/plants', headers: {}, body };
  const response = { status: 0, headers: {}, body: null, durationMs: 3, transportError: failure };
  const generated = { index: order, plans: [plan] } as unknown as GeneratedCase;
  const exchange = { plan, request, response } as unknown as Exchange;
  return { generated, order, exchanges: [exchange] };
}

const dropped: CaseVerdict = {
  outcome: 'fail',
  reason: 'No complete answer: connection-reset.',
  defect: 'connection-reset on a valid NewPlant',
  exchangeIndex: 0,
};

describe('wentAwayVerdict', () => {
  it('makes the failure of the case judged for a target gone for good the one went-away defect, naming every candidate', () => {
    const suspects = [cut(1, '{"id":1,"name":"a\\u0000b"}'), cut(2, '{"id":2,"name":"Fern"}')];
    const judged = { ...suspects[0]!, judgedForOutage: true as const, wentAway: { suspects, waitedMs: 9_800 } };
    const verdict = wentAwayVerdict(dropped, judged);
    expect(verdict?.defect).toBe(WENT_AWAY_DEFECT);
    expect(verdict?.reason).toMatch(
      /^The target stopped answering mid-run with 2 requests in flight and did not come back within 9\.8 s:/,
    );
    expect(verdict?.reason).toContain('None is known to be the cause');
    expect(verdict?.reason).toContain('stopped from outside');
    // Both candidates' curl lines, the one not shown as the counterexample too.
    expect(verdict?.reason).toContain(`(1) curl -sS -i -X POST 'http://127.0.0.1:9/plants'`);
    expect(verdict?.reason).toMatch(
      /\(2\) curl -sS -i -X POST 'http:\/\/127\.0\.0\.1:9\/plants' .*'\{"id":2,"name":"Fern"\}'/,
    );
  });

  it('says the one request in flight brought the target down, unless it was stopped from outside', () => {
    const only = cut(1, '{"id":1,"name":"Fern"}');
    const verdict = wentAwayVerdict(dropped, { ...only, wentAway: { suspects: [only], waitedMs: 2_000 } });
    expect(verdict?.reason).toMatch(
      /^The target stopped answering mid-run with this one request in flight .* it brought it down, unless it was stopped from outside/,
    );
    expect(verdict?.reason).not.toContain('Candidates');
  });

  it('names at most four candidates by curl line and counts the rest', () => {
    const suspects = Array.from({ length: 6 }, (_, index) => cut(index, `{"id":${index},"name":"x"}`));
    const verdict = wentAwayVerdict(dropped, { ...suspects[0]!, wentAway: { suspects, waitedMs: 1_000 } });
    expect(verdict?.reason).toContain('(4) curl');
    expect(verdict?.reason).not.toContain('(5) curl');
    expect(verdict?.reason).toContain('2 more, named by replay string');
  });

  it('leaves a passing verdict, and any verdict of a case that was not judged for a target gone, as it is', () => {
    const run = cut(1, '{}');
    expect(wentAwayVerdict(dropped, run)).toBe(dropped);
    const pass: CaseVerdict = { outcome: 'pass', exchangeIndex: 0 };
    expect(wentAwayVerdict(pass, { ...run, wentAway: { suspects: [run], waitedMs: 1 } })).toBe(pass);
    expect(wentAwayVerdict(undefined, { ...run, wentAway: { suspects: [run], waitedMs: 1 } })).toBeUndefined();
  });
});
