import type { CheckDefinition, JudgeContext, Verdict } from './check.js';
import type { Exchange } from './http/client.js';

/** One check's verdict on one exchange. */
export interface ExchangeVerdict {
  readonly check: CheckDefinition;
  readonly verdict: Verdict;
}

/**
 * Judges one exchange seen on its own (as the proxy sees live traffic) with the given checks, the
 * exchange being its whole case. Checks with nothing to say about it are left out.
 */
export function judgeExchange(
  exchange: Exchange,
  checks: readonly CheckDefinition[],
  context: JudgeContext,
): ExchangeVerdict[] {
  const verdicts: ExchangeVerdict[] = [];
  const caseExchanges = [exchange];
  for (const check of checks) {
    const verdict = check.judge(exchange, context, caseExchanges);
    if (verdict) verdicts.push({ check, verdict });
  }
  return verdicts;
}
