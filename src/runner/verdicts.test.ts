import { describe, expect, it } from 'vitest';
import { PASS, type CheckDefinition, type JudgeContext, type Verdict } from './check.js';
import type { Exchange } from './http/client.js';
import { judgeCase } from './verdicts.js';

/** A check answering each exchange with the verdict listed at its index. */
function checkAnswering(verdicts: readonly (Verdict | undefined)[]): CheckDefinition {
  return {
    judge: (exchange: Exchange) => verdicts[(exchange as unknown as { at: number }).at],
  } as unknown as CheckDefinition;
}

function judged(verdicts: readonly (Verdict | undefined)[]): ReturnType<typeof judgeCase> {
  const exchanges = verdicts.map((_, at) => ({ at }) as unknown as Exchange);
  return judgeCase(checkAnswering(verdicts), exchanges, {} as JudgeContext);
}

describe('judgeCase', () => {
  it('gives the worst verdict of the case, the first of equals, with its exchange', () => {
    const warn = { outcome: 'warn', reason: 'first warning', defect: 'w' } as const;
    const fail = { outcome: 'fail', reason: 'the failure' } as const;
    expect(judged([PASS, warn, { ...warn, reason: 'second' }])).toEqual({ ...warn, exchangeIndex: 1 });
    expect(judged([undefined, PASS, fail, warn])).toEqual({ ...fail, exchangeIndex: 2 });
    expect(judged([undefined, PASS, PASS])).toEqual({ outcome: 'pass', exchangeIndex: 1 });
    expect(judged([PASS])).toEqual({ outcome: 'pass', exchangeIndex: 0 });
  });

  it('gives nothing when no exchange concerns the check', () => {
    expect(judged([undefined, undefined])).toBeUndefined();
    expect(judged([])).toBeUndefined();
  });

  it('keeps what a pass says besides its outcome', () => {
    const noted = { outcome: 'pass', reason: 'accepted as documented' } as const;
    expect(judged([undefined, noted])).toEqual({ ...noted, exchangeIndex: 1 });
  });
});
