import { describe, expect, it } from 'vitest';
import { refusalStatusOf } from '../contract/refusal-status.js';
import { successStatusOf } from '../contract/success-status.js';
import { couldNotJudge, RunEvidence } from './evidence.js';
import type { CaseRun } from './execute.js';

/** A case of one valid NewPlant answered `status`, its id one an earlier run may have sent or fresh. */
function validPlant(status: number, idMayRepeat: boolean): CaseRun {
  return {
    generated: { probe: { name: 'valid-plants' } },
    exchanges: [
      {
        plan: { intent: { kind: 'valid', strings: {}, idMayRepeat } },
        response: { status, headers: { 'content-type': 'application/json' }, body: '{}', durationMs: 1 },
      },
    ],
    order: 0,
  } as unknown as CaseRun;
}

function verdictOf(runs: readonly CaseRun[], refusal = refusalStatusOf('400', ['200', '400'])) {
  const evidence = new RunEvidence(successStatusOf('200'), refusal);
  for (const run of runs) evidence.add(run);
  return couldNotJudge(evidence, 'http://127.0.0.1:8080');
}

describe('couldNotJudge: every id of a narrow id range may be taken', () => {
  it('is ids-taken when every valid NewPlant was refused and each carried an id an earlier run may have sent', () => {
    const verdict = verdictOf([validPlant(400, true), validPlant(400, true)]);
    expect(verdict?.code).toBe('ids-taken');
    expect(verdict?.reason).toMatch(/empty store/);
  });

  it('counts a refusal the document lists (409) like 400', () => {
    expect(verdictOf([validPlant(409, true)], refusalStatusOf('400', ['200', '400', '409']))?.code).toBe('ids-taken');
  });

  it('judges the refusals when one valid NewPlant carried a fresh id (a wide range: a refusal is a defect)', () => {
    expect(verdictOf([validPlant(400, true), validPlant(400, false)])).toBeUndefined();
  });

  it('judges the refusals when the target accepted a valid NewPlant of the run', () => {
    expect(verdictOf([validPlant(400, true), validPlant(200, true)])).toBeUndefined();
  });

  it('leaves a refusal the document does not list to be judged (500 is a server error, not a repeat)', () => {
    expect(verdictOf([validPlant(500, true)])).toBeUndefined();
  });

  it('is no credential-refused when no token was sent (the document asks for none): the 401 is judged', () => {
    const evidence = new RunEvidence();
    evidence.add(validPlant(401, false));
    expect(couldNotJudge(evidence, 'http://127.0.0.1:8080', '', undefined, false)).toBeUndefined();
    expect(couldNotJudge(evidence, 'http://127.0.0.1:8080')?.code).toBe('credential-refused');
  });

  it('keeps credential-refused for 401s, though a 4XX document lists them as refusals', () => {
    expect(verdictOf([validPlant(401, true)], refusalStatusOf('4XX', ['200', '4XX']))?.code).toBe('credential-refused');
  });

  it('says whether the setup made the answers: a refused token or a wrong path, not ids taken', () => {
    const refused = verdictOf([validPlant(401, false)]);
    const missing = verdictOf([validPlant(404, false)]);
    const taken = verdictOf([validPlant(400, true)]);
    expect([refused?.code, refused?.setupsDoing]).toEqual(['credential-refused', true]);
    expect([missing?.code, missing?.setupsDoing]).toEqual(['not-found', true]);
    expect([taken?.code, taken?.setupsDoing]).toEqual(['ids-taken', false]);
  });
});

describe('RunEvidence: ids with a small fraction', () => {
  const fraction = (what: string, status: number): CaseRun =>
    ({
      generated: { probe: { name: 'invalid-bodies' } },
      exchanges: [{ plan: { intent: { kind: 'invalid-body', what } }, response: { status, headers: {}, body: '' } }],
      order: 0,
    }) as unknown as CaseRun;

  it('counts refused and accepted small fractions, not 2^53+N.5 or other invalid bodies', () => {
    const evidence = new RunEvidence();
    for (const run of [
      fraction('"id" set to N.5', 400),
      fraction('"id" set to -N.25', 400),
      fraction('"id" set to 1e-3', 200),
      fraction('"id" set to 2^53+N.5', 200),
      fraction('"id" set to true', 200),
    ])
      evidence.add(run);
    expect([evidence.smallFractionRefused, evidence.smallFractionAccepted]).toEqual([2, 1]);
  });
});

describe('RunEvidence: members where an invalid body was refused', () => {
  const invalid = (what: string, status: number): CaseRun =>
    ({
      generated: { probe: { name: 'invalid-bodies' } },
      exchanges: [{ plan: { intent: { kind: 'invalid-body', what } }, response: { status, headers: {}, body: '' } }],
      order: 0,
    }) as unknown as CaseRun;

  it('names the top-level member of each invalid body refused with a 4xx, not of one accepted or failing with a 5xx', () => {
    const evidence = new RunEvidence();
    for (const run of [
      invalid('"care.water" holds 0: care.water 0, just outside minimum 1 (keyword minimum)', 400),
      invalid('"labels[0].key": labels[0].key missing (required) (keyword required)', 422),
      invalid('"soil" holds true: soil not of type object: a boolean (keyword type)', 200),
      invalid('"pot.size" holds -1: pot.size -1, just outside minimum 0 (keyword minimum)', 500),
    ])
      evidence.add(run);
    expect([...evidence.refusedIn]).toEqual(['care', 'labels']);
  });
});

describe('couldNotJudge: a web framework answering an unrouted path with its HTML 404 page', () => {
  function htmlNotFound(): CaseRun {
    const run = validPlant(404, false);
    const page = '<!doctype html>\n<html lang=en>\n<title>404 Not Found</title>\n<h1>Not Found</h1>\n';
    Object.assign(run.exchanges[0]!.response, { headers: { 'content-type': 'text/html; charset=utf-8' }, body: page });
    return run;
  }

  it("names the document's base path to try, as a JSON 404 does (Flask's page for /plants when the app serves /api/v1/plants)", () => {
    const evidence = new RunEvidence();
    evidence.add(htmlNotFound());
    const verdict = couldNotJudge(evidence, 'http://127.0.0.1:8080', '/api/v1');
    expect(verdict?.code).toBe('html');
    expect(verdict?.reason).toContain('try http://127.0.0.1:8080/api/v1');
    expect(verdict?.reason).not.toContain('front proxy');
  });
});
