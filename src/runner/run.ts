import { randomInt } from 'node:crypto';
import { DEFAULT_SPEC_PATH, loadContract, PACKAGE_VERSION } from '../contract/index.js';
import { BUILT_IN_SUITES } from '../../suites/index.js';
import { caseCount, createArbitraryCache, generateCases, iterateCases, type GeneratedCase } from './cases.js';
import type { JudgeContext } from './check.js';
import { checkResult, CheckTally } from './check-results.js';
import { dispatch, type CaseRun, type DispatchResult } from './execute.js';
import { createFreshIds, type FreshIds } from './generate/fresh-ids.js';
import { createTargetClient, DEFAULT_MAX_BODY_BYTES } from './http/client.js';
import { DEFAULTS, type ConformanceOptions } from './options.js';
import { formatReplay, parseReplay, type ReplaySpec } from './replay.js';
import type { CheckResult, Report } from './report.js';
import { replayCase } from './replay-case.js';
import { selectChecks, type CheckSelection } from './selection.js';
import { openTarget, probeTarget, type Target } from './target.js';
import { judgeCase } from './verdicts.js';

/**
 * Runs the conformance suites against a Plant Store implementation and resolves to the report.
 * Problems of the target are findings inside the report; only a target that cannot be reached at
 * all (`TargetUnreachableError`) or contradictory options (`ConformanceOptionsError`) throw.
 */
export async function runConformance(options: ConformanceOptions = {}): Promise<Report> {
  const started = Date.now();
  const startedAt = new Date(started).toISOString();
  const contract = await loadContract(options.spec ?? DEFAULT_SPEC_PATH);
  const seed = options.seed ?? randomInt(0, 2 ** 31 - 1);
  const runs = options.runs ?? DEFAULTS.runs;
  const concurrency = options.concurrency ?? DEFAULTS.concurrency;
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
  const deadline = started + (options.budgetMs ?? Math.max(60_000, 6 * timeoutMs));
  const selection = selectChecks(options.suites ?? BUILT_IN_SUITES, options.checks, options.skipChecks);
  const replay = options.replay === undefined ? undefined : parseReplay(options.replay);
  const fresh = createFreshIds(replay?.nonce);
  const target = await openTarget(options);
  try {
    const client = createTargetClient({
      baseUrl: target.baseUrl,
      token: target.token,
      concurrency,
      timeoutMs,
      maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    });
    try {
      const arbitraries = createArbitraryCache(contract);
      const inputs = { contract, seed, runs, fresh, arbitraries };
      const traits = await probeTarget(client, contract, fresh, target.baseUrl);
      const judgeContext: JudgeContext = {
        contract,
        targetRejectsRepeats: traits.rejectsRepeats,
        ...(traits.repeatErrorCode === undefined ? {} : { repeatErrorCode: traits.repeatErrorCode }),
      };
      const toSend = replay
        ? [replayCase(replay, generateCases(selection.allProbes, inputs), { contract, fresh, arbitraries })]
        : sentCases(iterateCases(selection.allProbes, inputs), selection);
      const planned = replay
        ? 1
        : [...selection.sentProbes].reduce((sum, probe) => sum + caseCount(probe, runs, contract), 0);
      const targetInfo = { baseUrl: target.baseUrl, embedded: target.embedded };
      options.onProgress?.({ kind: 'run-start', target: targetInfo, seed, plannedCases: planned });
      const tallies = new Map(selection.selected.map((check) => [check, new CheckTally(check)]));
      let failedCases = 0;
      const dispatched = await dispatch(toSend, planned, client, {
        concurrency,
        deadline,
        onCaseDone: (run, done) => {
          let failed = false;
          for (const [check, tally] of tallies) {
            const verdict = judgeCase(check, run.exchanges, judgeContext);
            tally.add(run, verdict);
            failed ||= verdict?.outcome === 'fail';
          }
          if (failed) failedCases++;
          options.onProgress?.({ kind: 'case', done, planned, failed: failedCases, phase: 'run' });
        },
      });
      let shrinkSteps = 0;
      const replayCommand = (run: CaseRun, path: readonly number[], alwaysFresh: boolean): string =>
        describeReplayCommand(
          seed,
          runs,
          target,
          formatReplay({
            probe: run.generated.probe.name,
            index: run.generated.index,
            path: [...(replay?.path ?? []), ...path],
            alwaysFresh: alwaysFresh || replay?.alwaysFresh === true,
            nonce: fresh.nonce,
          }),
        );
      const checks: CheckResult[] = [];
      for (const check of selection.ordered) {
        const result =
          'skipReason' in check
            ? check.result
            : await checkResult(tallies.get(check.check) ?? new CheckTally(check.check), {
                contract,
                client,
                fresh,
                judgeContext,
                arbitraries,
                deadline,
                replayCommand,
                shrink: replay === undefined,
                onShrinkStep: () =>
                  options.onProgress?.({
                    kind: 'case',
                    done: dispatched.sent + ++shrinkSteps,
                    planned: planned + shrinkSteps,
                    failed: failedCases,
                    phase: 'shrink',
                  }),
              });
        checks.push(result);
        options.onProgress?.({ kind: 'check', check: result });
      }
      return {
        tool: { name: 'plantstore', version: PACKAGE_VERSION },
        target: targetInfo,
        seed,
        startedAt,
        summary: summarize(checks, dispatched.sent, Date.now() - started),
        checks,
        notes: runNotes(
          dispatched,
          traits.rejectsRepeats,
          fresh,
          replay,
          options.budgetMs ?? Math.max(60_000, 6 * timeoutMs),
        ),
      };
    } finally {
      await client.close();
    }
  } finally {
    await target.close();
  }
}

/** The cases of the probes the selected checks need; the others are generated only to claim ids in order. */
function* sentCases(cases: Iterable<GeneratedCase>, selection: CheckSelection): Generator<GeneratedCase> {
  for (const entry of cases) if (selection.sentProbes.has(entry.probe)) yield entry;
}

function summarize(checks: readonly CheckResult[], cases: number, durationMs: number): Report['summary'] {
  const count = (status: CheckResult['status']): number => checks.filter((check) => check.status === status).length;
  return {
    cases,
    passed: count('pass'),
    failed: count('fail'),
    warnings: count('warn'),
    skipped: count('skip'),
    durationMs,
  };
}

function describeReplayCommand(seed: number, runs: number, target: Target, replay: string): string {
  const where = target.embedded ? '' : ` --base-url ${target.baseUrl}`;
  return `plantstore test --seed ${seed} --runs ${runs}${where} --replay ${replay}`;
}

function runNotes(
  dispatched: DispatchResult,
  rejectsRepeats: boolean | undefined,
  fresh: FreshIds,
  replay: ReplaySpec | undefined,
  budgetMs: number,
): string[] {
  const notes: string[] = [];
  if (replay)
    notes.push(
      `Replayed one case: ${replay.probe} #${replay.index}${replay.path.length ? `, shrink path ${replay.path.join('.')}` : ''}.`,
    );
  notes.push(`Fresh ids of this run come from nonce ${fresh.nonce} (recorded in every replay string).`);
  if (rejectsRepeats === true)
    notes.push(
      'The target answers a repeated id with 400: a 400 on a fixed id (e.g. 2^63-1) an earlier run may have stored is a warning, not a failure.',
    );
  if (rejectsRepeats === false)
    notes.push('The target accepts a repeated id (200), so every valid id must be accepted, fixed ones included.');
  if (dispatched.stopped === 'budget')
    notes.push(
      `The run's budget of ${budgetMs} ms ran out: ${dispatched.unsent} cases were not sent (raise --budget).`,
    );
  if (dispatched.stopped === 'unresponsive')
    notes.push(
      `The target stopped answering (only transport failures in a row): ${dispatched.unsent} cases were not sent.`,
    );
  const { throttled } = dispatched;
  if (throttled > 0)
    notes.push(
      `${throttled} answers were 429 or 503 (throttling or unavailable): they were not judged. Lower --concurrency.`,
    );
  return notes;
}

export type { GeneratedCase };
