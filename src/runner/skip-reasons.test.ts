import { describe, expect, it } from 'vitest';
import type { CheckDefinition } from './check.js';
import { RunEvidence } from './evidence.js';
import type { CaseRun } from './execute.js';
import type { CheckResult } from './report.js';
import { explainSkip } from './skip-reasons.js';

/** A case of one valid NewPlant answered 200, its id fixed or fresh. */
function acceptedPlant(idMayRepeat: boolean, order: number): CaseRun {
  return {
    generated: { probe: { name: 'valid-plants' } },
    exchanges: [
      {
        plan: { intent: { kind: 'valid', strings: {}, idMayRepeat } },
        response: { status: 200, headers: {}, body: '{}', durationMs: 1 },
      },
    ],
    order,
  } as unknown as CaseRun;
}

const echoCheck = { id: 'echo', probes: [{ name: 'valid-plants' }] } as unknown as CheckDefinition;
const skipped: CheckResult = { id: 'echo', title: 'echo', rule: '', status: 'skip', cases: 0 } as CheckResult;

function skipReason(runs: readonly CaseRun[]): string | undefined {
  const evidence = new RunEvidence();
  for (const run of runs) evidence.add(run);
  return explainSkip(skipped, echoCheck, { evidence, findings: [], couldNotJudge: undefined }).skipReason;
}

describe('explainSkip', () => {
  it('says echo judged nothing because every accepted plant carried an id an earlier run may have sent', () => {
    expect(skipReason([acceptedPlant(true, 0), acceptedPlant(true, 1)])).toMatch(/id an earlier run may have sent/);
  });

  it('keeps the general words when some accepted plant had an id of its own', () => {
    expect(skipReason([acceptedPlant(true, 0), acceptedPlant(false, 1)])).toMatch(/none of those answers/);
  });
});
