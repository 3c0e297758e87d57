import type { DispatchResult } from './execute.js';
import type { CheckResult, Report } from './report.js';
import type { RunSettings } from './run-settings.js';
import { CANARY_ID, type Target, type TargetTraits } from './target.js';

/** The summary counts of a report: checks by status, cases sent, time taken. */
export function summarize(
  checks: readonly CheckResult[],
  cases: number,
  durationMs: number,
  unsent = 0,
): Report['summary'] {
  const count = (status: CheckResult['status']): number => checks.filter((check) => check.status === status).length;
  return {
    cases,
    passed: count('pass'),
    failed: count('fail'),
    warnings: count('warn'),
    skipped: count('skip'),
    unsent,
    durationMs,
  };
}

/** The command that re-runs one case, as printed with each failure. */
export function describeReplayCommand(settings: RunSettings, target: Target, replay: string): string {
  const where = target.embedded ? '' : ` --base-url ${target.baseUrl}`;
  return `plantstore test --seed ${settings.seed} --runs ${settings.runs}${where} --replay ${replay}`;
}

/** Notes about the run itself (not the target): nonce, repeat policy, budget, throttling. */
export function runNotes(
  dispatched: DispatchResult,
  traits: TargetTraits,
  settings: Pick<RunSettings, 'fresh' | 'replay' | 'budgetMs' | 'connectionLimit'>,
  embedded: boolean,
): string[] {
  const { fresh, replay, budgetMs, connectionLimit } = settings;
  const notes: string[] = [];
  if (connectionLimit !== undefined)
    notes.push(
      connectionLimit === 1
        ? 'The target did not answer a second connection while a first stayed open: it serves one connection at a time (a single-threaded HTTP/1.1 server, for instance), so this run used one connection. Serving only one client at a time is not a contract matter; concurrent clients would wait.'
        : `The target answered only ${connectionLimit} connections at once while they stayed open (a fixed pool of workers, for instance), so this run used ${Math.max(1, connectionLimit - 1)}. That is not a contract matter; more concurrent clients would wait.`,
    );
  if (replay)
    notes.push(
      `Replayed one case: ${replay.probe} #${replay.index}${replay.path.length ? `, shrink path ${replay.path.join('.')}` : ''}. Checks that do not judge it show as skipped.`,
    );
  if (traits.notFoundAt !== undefined)
    notes.push(
      `A valid NewPlant sent to ${traits.notFoundAt} was answered 404 Not Found. If every check fails that way, --base-url is probably wrong: it is the address the contract's {base_url} stands for, and the runner appends /plants (e.g. --base-url https://staging.example.com/api for https://staging.example.com/api/plants).`,
    );
  if (traits.credentialRefused !== undefined)
    notes.push(
      `A valid NewPlant sent with the token you gave was answered ${traits.credentialRefused}. If every check that needs an accepted request fails or is skipped, check the token first (PLANTSTORE_TOKEN, --token-file or --token): a wrong or expired token makes a correct target look broken.`,
    );
  notes.push(`Fresh ids of this run come from nonce ${fresh.nonce} (recorded in every replay string).`);
  const { rejectsRepeats } = traits;
  if (rejectsRepeats === true && traits.holdsEarlierRun === true)
    notes.push(
      `The target answers a repeated id with 400 and holds plants from an earlier run (it refused the canary plant, id ${CANARY_ID}, as a repeat): a 400 on a fixed id (e.g. 2^63-1) that run may have stored is a warning, not a failure.`,
    );
  // The embedded reference is new on every run: nothing to say about earlier runs.
  if (rejectsRepeats === true && traits.holdsEarlierRun !== true && !embedded)
    notes.push(
      `The target answers a repeated id with 400 and holds nothing from an earlier run (it accepted the canary plant, id ${CANARY_ID}): every fixed id (e.g. 2^63-1) must be accepted. Later runs against it will find the canary and excuse a 400 on a fixed id.`,
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
