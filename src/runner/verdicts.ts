import { PASS, type CheckDefinition, type JudgeContext, type Verdict } from './check.js';
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
  let worst: Verdict | undefined;
  let worstIndex = 0;
  for (let exchangeIndex = 0; exchangeIndex < exchanges.length; exchangeIndex++) {
    const exchange = exchanges[exchangeIndex];
    const verdict = exchange && check.judge(exchange, context, exchanges);
    if (verdict && (!worst || SEVERITY[verdict.outcome] > SEVERITY[worst.outcome])) {
      worst = verdict;
      worstIndex = exchangeIndex;
    }
  }
  if (worst === undefined) return undefined;
  return worst === PASS ? passAt(worstIndex) : { ...worst, exchangeIndex: worstIndex };
}

/** {@link PASS} at each exchange index, made once: most verdicts of a run are these. */
const PASSES: CaseVerdict[] = [];

function passAt(exchangeIndex: number): CaseVerdict {
  return (PASSES[exchangeIndex] ??= Object.freeze({ ...PASS, exchangeIndex }));
}

/** The exchange a verdict judged, else the case's last. */
export function failingExchange(exchanges: readonly Exchange[], verdict: CaseVerdict): Exchange | undefined {
  return exchanges[verdict.exchangeIndex] ?? exchanges[exchanges.length - 1];
}
