import type { Contract } from '../contract/index.js';
import type { ArbitraryCache } from './cases.js';
import type { CheckDefinition, JudgeContext } from './check.js';
import type { CaseRun } from './execute.js';
import type { FreshIds } from './generate/fresh-ids.js';
import type { TargetClient } from './http/client.js';
import { curlLine } from './http/curl.js';
import type { CheckResult, Failure } from './report.js';
import { shrinkCounterexample, type Counterexample } from './shrink.js';
import type { CaseVerdict } from './verdicts.js';

/** A case run with every selected check's verdict on it. */
export interface JudgedRun {
  readonly run: CaseRun;
  readonly verdicts: ReadonlyMap<CheckDefinition, CaseVerdict>;
}

export interface CheckResultOptions {
  readonly contract: Contract;
  readonly client: TargetClient;
  readonly fresh: FreshIds;
  readonly judgeContext: JudgeContext;
  readonly arbitraries: ArbitraryCache;
  /** `Date.now()` after which no more shrinking starts. */
  readonly deadline: number;
  /** Builds the replay command of a counterexample. */
  replayCommand(run: CaseRun, path: readonly number[]): string;
  /** Called before each candidate sent while shrinking. */
  onShrinkStep?(): void;
}

/** Failures reported per check: distinct probes first, each shrunk. */
const MAX_FAILURES = 3;
const SHRINK_STEPS = 150;
const SHRINK_MS_PER_CHECK = 15_000;

/** Turns the verdicts on every case into the check's result, shrinking its first counterexamples. */
export async function checkResult(
  check: CheckDefinition,
  judged: readonly JudgedRun[],
  options: CheckResultOptions,
): Promise<CheckResult> {
  const base = { id: check.id, title: check.title, rule: check.rule };
  const concerned = judged.filter((entry) => entry.verdicts.has(check));
  const cases = concerned.length;
  const failing = concerned.filter((entry) => entry.verdicts.get(check)?.outcome === 'fail');
  if (failing.length > 0) {
    const failures: Failure[] = [];
    const deadline = Math.min(options.deadline, Date.now() + SHRINK_MS_PER_CHECK);
    for (const entry of firstPerProbe(failing)) {
      const verdict = entry.verdicts.get(check);
      if (!verdict) continue;
      const first: Counterexample = {
        value: entry.run.generated.value,
        path: [],
        exchanges: entry.run.exchanges,
        verdict,
      };
      const { counterexample, steps } = await shrinkCounterexample(check, entry.run.generated, first, {
        contract: options.contract,
        client: {
          send: (plan) => (options.onShrinkStep?.(), options.client.send(plan)),
          close: () => options.client.close(),
        },
        fresh: options.fresh,
        judgeContext: options.judgeContext,
        arbitrary: options.arbitraries(entry.run.generated.probe, entry.run.generated.index),
        maxSteps: SHRINK_STEPS,
        deadline,
      });
      failures.push(toFailure(counterexample, steps, options.replayCommand(entry.run, counterexample.path)));
    }
    return { ...base, status: 'fail', cases, failures };
  }
  const warning = concerned.filter((entry) => entry.verdicts.get(check)?.outcome === 'warn');
  if (warning.length > 0) {
    const failures = firstPerProbe(warning).map((entry) => {
      const verdict = entry.verdicts.get(check) as CaseVerdict;
      return toFailure(
        { value: entry.run.generated.value, path: [], exchanges: entry.run.exchanges, verdict },
        0,
        options.replayCommand(entry.run, []),
      );
    });
    return { ...base, status: 'warn', cases, failures };
  }
  if (cases === 0) {
    return {
      ...base,
      status: 'skip',
      cases,
      failures: [],
      skipReason: 'No case reached a verdict: no answer was judgeable for this check (see the notes).',
    };
  }
  return { ...base, status: 'pass', cases, failures: [] };
}

function firstPerProbe(entries: readonly JudgedRun[]): JudgedRun[] {
  const seen = new Set<string>();
  const picked: JudgedRun[] = [];
  for (const entry of entries) {
    const name = entry.run.generated.probe.name;
    if (seen.has(name)) continue;
    seen.add(name);
    picked.push(entry);
    if (picked.length === MAX_FAILURES) break;
  }
  return picked;
}

function toFailure(counterexample: Counterexample, shrinkSteps: number, replay: string): Failure {
  const { exchanges, verdict } = counterexample;
  const failing = exchanges[verdict.exchangeIndex] ?? exchanges[exchanges.length - 1];
  if (!failing) throw new Error('a counterexample without an exchange');
  const sequence = exchanges.slice(0, verdict.exchangeIndex + 1);
  const before =
    sequence.length > 1
      ? ` (request ${sequence.length} of the case; the curl lines send all ${sequence.length} in order)`
      : '';
  return {
    reason: `${verdict.reason ?? 'failed'}${before}`,
    request: failing.request,
    response: failing.response,
    curl: sequence.map((exchange) => curlLine(exchange.request)).join('\n'),
    replay,
    shrinkSteps,
  };
}
