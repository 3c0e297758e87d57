import { describe, expect, it } from 'vitest';
import type { GeneratedCase } from './cases.js';
import type { CaseRun } from './execute.js';
import type { Exchange } from './http/client.js';
import type { PlannedRequest } from './probe.js';
import type { CaseVerdict } from './verdicts.js';
import type { Failure } from './report.js';
import { WENT_AWAY_DEFECT, wentAwayVerdict, withWentAwayCandidates } from './went-away.js';

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
    expect(verdict?.reason).toContain('Candidates: the first 2, each with its curl line and replay');
  });

  it("gives the failure every candidate's curl line and replay, the one not shown as the counterexample too", () => {
    const suspects = [cut(1, '{"id":1,"name":"a\\u0000b"}'), cut(2, '{"id":2,"name":"Fern"}')];
    const judged = { ...suspects[0]!, wentAway: { suspects, waitedMs: 9_800 } };
    const failure = { reason: 'gone', defect: WENT_AWAY_DEFECT, replay: 'shown' } as unknown as Failure;
    const replayOf = (run: CaseRun) => ({ replay: `valid-plant:${run.order}:-:ab12` });
    const candidates = withWentAwayCandidates(failure, judged, replayOf).candidates;
    expect(candidates?.map((candidate) => candidate.replay)).toEqual(['valid-plant:1:-:ab12', 'valid-plant:2:-:ab12']);
    expect(candidates?.[0]?.curl).toMatch(/^curl -sS -i -X POST 'http:\/\/127\.0\.0\.1:9\/plants' /);
    expect(candidates?.[1]?.curl).toContain(`'{"id":2,"name":"Fern"}'`);
    // Another defect, or one request in flight (the counterexample is the candidate): nothing added.
    expect(withWentAwayCandidates({ ...failure, defect: 'other' }, judged, replayOf).candidates).toBeUndefined();
    const alone = { ...suspects[0]!, wentAway: { suspects: [suspects[0]!], waitedMs: 1 } };
    expect(withWentAwayCandidates(failure, alone, replayOf).candidates).toBeUndefined();
  });

  it('says the one request in flight brought the target down, unless it was stopped from outside', () => {
    const only = cut(1, '{"id":1,"name":"Fern"}');
    const verdict = wentAwayVerdict(dropped, { ...only, wentAway: { suspects: [only], waitedMs: 2_000 } });
    expect(verdict?.reason).toMatch(
      /^The target stopped answering mid-run with this one request in flight .* it brought it down, unless it was stopped from outside/,
    );
    expect(verdict?.reason).not.toContain('Candidates');
  });

  it('names at most four candidates and counts the rest', () => {
    const suspects = Array.from({ length: 6 }, (_, index) => cut(index, `{"id":${index},"name":"x"}`));
    const judged = { ...suspects[0]!, wentAway: { suspects, waitedMs: 1_000 } };
    const verdict = wentAwayVerdict(dropped, judged);
    expect(verdict?.reason).toContain('Candidates: the first 4');
    expect(verdict?.reason).toContain('2 more, named by replay string');
    const failure = { reason: 'gone', defect: WENT_AWAY_DEFECT } as unknown as Failure;
    const candidates = withWentAwayCandidates(failure, judged, () => ({ replay: 'r' })).candidates;
    expect(candidates).toHaveLength(4);
  });

  it('leaves a passing verdict, and any verdict of a case that was not judged for a target gone, as it is', () => {
    const run = cut(1, '{}');
    expect(wentAwayVerdict(dropped, run)).toBe(dropped);
    const pass: CaseVerdict = { outcome: 'pass', exchangeIndex: 0 };
    expect(wentAwayVerdict(pass, { ...run, wentAway: { suspects: [run], waitedMs: 1 } })).toBe(pass);
    expect(wentAwayVerdict(undefined, { ...run, wentAway: { suspects: [run], waitedMs: 1 } })).toBeUndefined();
  });
});
