import type { CheckDefinition, JudgeContext, Verdict } from './check.js';
import type { Exchange } from './http/client.js';

/** A check's verdict on a whole case: the worst verdict over its exchanges, and which exchange it was. */
export interface CaseVerdict extends Verdict {
  readonly exchangeIndex: number;
}

const SEVERITY = { pass: 0, warn: 1, fail: 2 } as const;

/** Judges every exchange of a case; `undefined` when no exchange concerns the check. */
export function judgeCase(
  check: CheckDefinition,
  exchanges: readonly Exchange[],
  context: JudgeContext,
): CaseVerdict | undefined {
  let worst: CaseVerdict | undefined;
  for (let exchangeIndex = 0; exchangeIndex < exchanges.length; exchangeIndex++) {
    const exchange = exchanges[exchangeIndex];
    const verdict = exchange && check.judge(exchange, context, exchanges);
    if (verdict && (!worst || SEVERITY[verdict.outcome] > SEVERITY[worst.outcome])) {
      worst = { ...verdict, exchangeIndex };
    }
  }
  return worst;
}
