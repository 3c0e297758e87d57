import type { CaseRun, DispatchResult } from './execute.js';
import { unansweredOf, unjudgedOf, type Outage } from './outage.js';
import { WENT_AWAY_DEFECT } from './went-away.js';
import type { TimeoutsAnsweredAlone, UnansweredFailures } from './resend-alone.js';
import { countsText } from './evidence.js';
import { formatReplay } from './replay.js';
import { optionsNamedIn } from './option-text.js';
import type { UncheckedAnswer } from '../contract/index.js';
import { summariseList } from '../contract/operations.js';
import type { ReplaySpec } from './replay.js';
import type { CheckResult, CouldNotJudge, Report, Rerun, RunNote, RunVerdict } from './report.js';
import type { RunSettings } from './run-settings.js';
import { CANARY_ID, type Target, type TargetTraits } from './target.js';

/** The summary counts of a report: checks by status, cases sent, time taken, answers left throttled. */
export function summarize(
  checks: readonly CheckResult[],
  cases: number,
  durationMs: number,
  unsent = 0,
  throttled = 0,
): Report['summary'] {
  const count = (status: CheckResult['status']): number => checks.filter((check) => check.status === status).length;
  return {
    cases,
    passed: count('pass'),
    failed: count('fail'),
    warnings: count('warn'),
    skipped: count('skip'),
    unsent,
    ...(throttled > 0 ? { throttled } : {}),
    durationMs,
  };
}

/**
 * More answers than this share of the cases sent left 429 or 503 after the waits: the verdict rests on too few
 * judged answers to call the target conformant (a broken server behind a strict rate limiter passed so).
 */
export const THROTTLED_SHARE_LIMIT = 0.1;

/**
 * The run's verdict: could-not-judge whatever the checks say when the URL is not a Plant Store;
 * else not-conformant on a failed check; incomplete when nothing was judged, cases went unsent, or
 * more than {@link THROTTLED_SHARE_LIMIT} of the answers were left throttled.
 */
export function runVerdict(
  checks: readonly CheckResult[],
  summary: Pick<Report['summary'], 'unsent' | 'throttled' | 'cases'>,
  couldNotJudge: CouldNotJudge | undefined,
): RunVerdict {
  if (couldNotJudge) return 'could-not-judge';
  if (checks.some((check) => check.status === 'fail')) return 'not-conformant';
  const judged = checks.some((check) => check.status !== 'skip');
  const throttledMost = (summary.throttled ?? 0) > THROTTLED_SHARE_LIMIT * summary.cases;
  return !judged || (summary.unsent ?? 0) > 0 || throttledMost ? 'incomplete' : 'conformant';
}

/** The options that re-run one case, in option names (the CLI shows them as a command). */
export function rerunOptions(
  settings: Pick<RunSettings, 'seed' | 'runs' | 'spec'>,
  target: Target,
  replay: string,
): Rerun {
  const { seed, runs, spec } = settings;
  return {
    seed,
    runs,
    ...(target.embedded ? {} : { baseUrl: target.baseUrl }),
    ...(spec === undefined ? {} : { spec }),
    replay,
  };
}

/** A note whose message names options in backquotes. */
function note(code: string, message: string): RunNote {
  return { code, message, options: optionsNamedIn(message) };
}

/** Notes about the run itself (not the target): nonce, repeat policy, budget, throttling. */
export function runNotes(
  dispatched: DispatchResult,
  traits: TargetTraits,
  settings: Pick<RunSettings, 'fresh' | 'replay' | 'budgetMs' | 'connectionLimit' | 'contract'> &
    Partial<Pick<RunSettings, 'concurrency' | 'timeoutMs'>>,
  embedded: boolean,
  after: {
    readonly outage?: Outage;
    readonly answeredAlone?: UnansweredFailures;
    readonly timeoutsAnswered?: TimeoutsAnsweredAlone & { readonly timeouts: number };
  } = {},
): RunNote[] {
  const { outage, answeredAlone, timeoutsAnswered } = after;
  return [
    ...untestedNotes(settings.contract.otherOperations),
    ...uncheckedAnswerNotes(settings.contract.answers.unchecked),
    ...connectionNotes(settings.connectionLimit),
    ...replayNotes(settings.replay),
    ...targetNotes(traits),
    note('nonce', `Fresh ids of this run come from nonce ${settings.fresh.nonce} (recorded in every replay string).`),
    ...repeatNotes(traits, embedded, settings.contract.success.documented, settings.contract.refusal.status),
    ...dispatchNotes(dispatched, settings.budgetMs),
    ...(outage ? [outageNote(outage, dispatched.unsent, settings.fresh.nonce)] : []),
    ...answeredAloneNotes(answeredAlone),
    ...(timeoutsAnswered ? [timeoutsAnsweredNote(timeoutsAnswered, settings)] : []),
  ];
}

/** Requests that timed out under the run's load and were answered when sent again alone: the target's capacity. */
function timeoutsAnsweredNote(
  { timeouts, count, slowestMs }: TimeoutsAnsweredAlone & { readonly timeouts: number },
  settings: Partial<Pick<RunSettings, 'concurrency' | 'timeoutMs'>>,
): RunNote {
  const inFlight =
    settings.concurrency === undefined ? '' : ` while the run had up to ${settings.concurrency} in flight`;
  const wait = settings.timeoutMs === undefined ? '' : ` (${settings.timeoutMs} ms, \`timeoutMs\`)`;
  const tried = count === 1 ? 'the one sent again alone was' : `the ${count} sent again alone were`;
  return note(
    'timeouts-answered-alone',
    `${timeouts} request${timeouts === 1 ? '' : 's'} of the run got no answer within the timeout${wait}${inFlight}; ${tried} answered within ${Math.ceil(slowestMs)} ms and judged on that answer, not as a hang. The target serves fewer requests at once than the run sent (one thread, a short listen queue, few workers): not a contract matter, but its clients wait as the run did. A lower \`concurrency\` sends it no more than it serves.`,
  );
}

/** Failing cases that got no answer of the service, whose requests were answered when sent again alone. */
function answeredAloneNotes(failures: UnansweredFailures | undefined): RunNote[] {
  if (failures === undefined) return [];
  const { count, first, last, kinds } = failures;
  const where = count === 1 ? `case ${first + 1}` : `cases ${first + 1} to ${last + 1}`;
  const got = count === 1 ? 'A case of the run got' : `${count} cases of the run got`;
  return [
    note(
      'answered-alone',
      `${got} no answer of the service (${countsText(kinds)}; ${where} of the run in the order generated), and sent again alone ${count === 1 ? 'it was' : 'those tried were'} answered as the contract says: not judged, as load, a restart or a deploy of the target cuts requests so. A target that drops a request now and then looks the same: a run with more cases (\`runs\`) tells them apart.`,
    ),
  ];
}

function untestedNotes(operations: readonly string[]): RunNote[] {
  if (operations.length === 0) return [];
  return [
    note(
      'not-tested',
      `Not tested: ${summariseList(operations, 12)}. The document declares them; plantstore judges POST /plants, the contract's one operation.`,
    ),
  ];
}

function uncheckedAnswerNotes(unchecked: readonly UncheckedAnswer[]): RunNote[] {
  return unchecked.map(({ key, problems, reason }) => {
    const at = problems[0]?.pointer ? ` (at ${problems[0].pointer})` : '';
    return note('answer-unjudged', `The bodies of ${key} answers are not judged${at}: ${reason}`);
  });
}

function connectionNotes(connectionLimit: number | undefined): RunNote[] {
  if (connectionLimit === undefined) return [];
  return [
    connectionLimit === 1
      ? note(
          'one-connection',
          'The target did not answer a second connection while a first stayed open: it serves one connection at a time (a single-threaded HTTP/1.1 server, for instance), so this run used one connection. Serving only one client at a time is not a contract matter; concurrent clients would wait.',
        )
      : note(
          'connection-limit',
          `The target answered only ${connectionLimit} connections at once while they stayed open (a fixed pool of workers, for instance), so this run used ${Math.max(1, connectionLimit - 1)}. That is not a contract matter; more concurrent clients would wait.`,
        ),
  ];
}

function replayNotes(replay: ReplaySpec | undefined): RunNote[] {
  if (!replay) return [];
  const path = replay.path.length ? `, shrink path ${replay.path.join('.')}` : '';
  return [
    note(
      'replayed',
      `Replayed one case: ${replay.probe} #${replay.index}${path}. Checks that do not judge it show as skipped.`,
    ),
  ];
}

function targetNotes(traits: TargetTraits): RunNote[] {
  const notes: RunNote[] = [];
  if (traits.notFoundAt !== undefined)
    notes.push(
      note(
        'not-found',
        `A valid NewPlant sent to ${traits.notFoundAt} was answered 404 Not Found. If every check fails that way, \`baseUrl\` is probably wrong: it is the address the contract's {base_url} stands for, and the runner appends /plants (e.g. \`baseUrl\` https://staging.example.com/api for https://staging.example.com/api/plants).`,
      ),
    );
  if (traits.credentialRefused !== undefined)
    notes.push(
      note(
        'credential-refused',
        `A valid NewPlant sent with the token you gave was answered ${traits.credentialRefused}. If every check that needs an accepted request fails or is skipped, check the token first (\`token\`): a wrong or expired token makes a correct target look broken.`,
      ),
    );
  if (traits.redirect !== undefined && traits.preflightRefused !== undefined)
    notes.push(note('redirected', redirectText(traits.preflightRefused, traits.redirect)));
  else if (traits.preflightRefused !== undefined)
    notes.push(
      note(
        'preflight-refused',
        `The first valid NewPlant of the run (generated from the document, like every valid case) was answered ${traits.preflightRefused}, so nothing was learned about how the target treats repeated ids; positive-acceptance judges that refusal like any other.`,
      ),
    );
  if (traits.delaysBodies === true)
    notes.push(
      note(
        'delayed-bodies',
        "The target sent small answers' bodies about 40 ms after their heads on keep-alive connections (head and body in two writes with Nagle's algorithm on, which waits for the client's delayed ACK: Python's http.server and Java's com.sun.net.httpserver do so), so later requests went on a connection each. Not a contract matter; its clients pay 40 ms an exchange, which one write per answer or TCP_NODELAY spares.",
      ),
    );
  return notes;
}

/** What a redirect of POST /plants means, and what to change: the URL given, or the target's routes. */
function redirectText(status: number, { from, to }: { from: string; to: string }): string {
  const said = `A valid NewPlant sent to ${from} was answered ${status}, a redirect to ${to}`;
  const lost = 'a client following it may send the POST again as a GET without its body (RFC 9110, 15.4)';
  if (new URL(to).origin !== new URL(from).origin)
    return `${said}: the service may answer at ${new URL(to).origin}; if so, use that in \`baseUrl\`. Either way ${lost}.`;
  const withSlash = to.replace(/[?#].*$/s, '') === `${from.replace(/[?#].*$/s, '')}/`;
  const why = withSlash
    ? ' (the same path with a trailing slash, as Django with APPEND_SLASH and routers with strict slashes answer)'
    : '';
  return `${said}${why}. The contract's operation is POST ${new URL(from).pathname} itself, and ${lost}: each case is judged by the redirect it got.`;
}

function repeatNotes(traits: TargetTraits, embedded: boolean, success: string, documented: number): RunNote[] {
  const { rejectsRepeats } = traits;
  const refusal = traits.repeatStatus ?? documented;
  const notes: RunNote[] = [];
  if (rejectsRepeats === true && traits.holdsEarlierRun === true)
    notes.push(
      note(
        'repeats-held',
        `The target answers a repeated id with ${refusal} and holds plants from an earlier run (it refused the canary plant, id ${traits.canaryId ?? CANARY_ID}, as a repeat): a ${refusal} on a fixed id (e.g. 2^63-1) that run may have stored is a warning, not a failure.`,
      ),
    );
  // The embedded reference is new on every run: nothing to say about earlier runs.
  if (rejectsRepeats === true && traits.holdsEarlierRun === undefined)
    notes.push(
      note(
        'repeats-unknown',
        `The target answers a repeated id with ${refusal}; whether it holds plants from an earlier run is not known (the canary plant, id ${traits.canaryId ?? CANARY_ID}, was neither accepted nor refused: throttled, a server error or no answer): a ${refusal} on a fixed id (e.g. 2^63-1) is a warning, not a failure.`,
      ),
    );
  if (rejectsRepeats === true && traits.holdsEarlierRun === false && !embedded)
    notes.push(
      note(
        'repeats-fresh',
        `The target answers a repeated id with ${refusal} and holds nothing from an earlier run (it accepted the canary plant, id ${traits.canaryId ?? CANARY_ID}): every fixed id (e.g. 2^63-1) must be accepted. Later runs against it will find the canary and excuse a ${refusal} on a fixed id.`,
      ),
    );
  if (rejectsRepeats === false)
    notes.push(
      note(
        'repeats-accepted',
        `The target accepts a repeated id (${success}), so every valid id must be accepted, fixed ones included.`,
      ),
    );
  return notes;
}

function dispatchNotes(dispatched: DispatchResult, budgetMs: number): RunNote[] {
  const notes: RunNote[] = [];
  if (dispatched.stopped === 'budget')
    notes.push(
      note(
        'budget',
        `The run's budget of ${budgetMs} ms ran out: ${dispatched.unsent} cases were not sent (raise \`budgetMs\`).`,
      ),
    );
  if (dispatched.throttled > 0) {
    const tooMany = dispatched.throttled > THROTTLED_SHARE_LIMIT * dispatched.sent;
    const verdict = tooMany ? ' More than a tenth of the cases: no verdict rests on so few answers.' : '';
    notes.push(
      note(
        'throttled',
        `${dispatched.throttled} answers were 429 or 503 (throttling or unavailable) after waiting them out: they were not judged.${verdict} Lower \`concurrency\`.`,
      ),
    );
  }
  return notes;
}

/**
 * What a target that stopped answering mid-run leaves: after how many cases, what the last requests
 * met, and what waiting for it and sending its requests again alone found (see `settleOutage`).
 */
function outageNote(outage: Outage, unsent: number, nonce: string): RunNote {
  const before = outage.earlier === undefined ? '' : `${outageText(outage.earlier, 0, nonce, false)} Then it`;
  return note('unresponsive', `${before}${outageText(outage, unsent, nonce, outage.earlier !== undefined)}`);
}

/** How one outage went, and what of it is judged (`again`: the sentence goes on from an earlier outage's). */
function outageText(outage: Outage, unsent: number, nonce: string, again: boolean): string {
  const { cut, suspects, cause, judged, resumed, rejudged } = outage;
  const replayOf = (run: CaseRun): string =>
    formatReplay({
      probe: run.generated.probe.name,
      index: run.generated.index,
      path: [],
      alwaysFresh: run.nonce !== undefined,
      nonce: run.nonce ?? nonce,
    });
  const stopped = `${again ? ' stopped answering again' : 'The target stopped answering'} after ${cut.after} cases (${countsText(failuresOf(cut))} in a row)`;
  const unjudged = unjudgedOf(outage);
  const cutThen =
    rejudged === undefined
      ? `${unjudged} cases cut then are not judged`
      : `sent again once it answered, ${rejudged} of the ${cut.runs.length - (judged ? 1 : 0)} ${judged ? 'other ' : ''}cases cut then were answered and are judged (${unjudged} not)`;
  const counts =
    resumed === undefined
      ? `${unsent} cases were not sent and ${rejudged === undefined ? `${unjudged} not judged` : cutThen}`
      : `${cutThen}; the run went on with the ${resumed} cases not yet sent`;
  const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
  if (cause.kind === 'caused') {
    const failure = unansweredOf(cause.run);
    // A target slow on every request meets the deadline again alone: the same words would blame a crash.
    const slow =
      failure === 'timeout' && !cause.stoppedAgain
        ? ' If the target is only slow (it answered other requests meanwhile), raise `timeoutMs` and run again.'
        : '';
    return `${stopped} and answered again after ${seconds(cause.afterMs)}; sent again alone, the request ${replayOf(cause.run)} ${cause.stoppedAgain ? 'stopped it again' : `was cut again (${failure ?? 'no answer'}) while the target stayed up`}: it is judged (no-server-error), the cause. ${capitalised(counts)}${resumed === undefined && unjudged + unsent > 0 ? ': a run after the fix sends them' : ''}.${slow}`;
  }
  if (cause.kind === 'restarted') {
    const alone =
      suspects.length === 0
        ? 'it had no request of the run in flight when it stopped'
        : suspects.length === 1
          ? 'the request it had then does not stop it again when sent alone'
          : `none of the ${suspects.length} requests it had then stops it again when sent alone`;
    return `${stopped} and answered again after ${seconds(cause.afterMs)}; ${alone}: the outage came from outside (a restart, a deploy) or from requests together${rejudged === undefined ? ', and nothing of it is judged' : ''}. ${capitalised(counts)}${resumed === undefined && unjudged + unsent > 0 ? ': run again' : ''}.`;
  }
  const head = `${stopped} and did not answer again within ${seconds(cause.waitedMs)}: ${counts}.`;
  if (!judged)
    return `${head} It refused connections with no request of the run in flight: it was stopped or restarted from outside, or failed on its own. Run again once it is up.`;
  if (cause.listening)
    return `${head} It still takes connections and drops every request unanswered: the first request it had then is judged (no-server-error), as any request it drops.`;
  const candidates = suspects.length === 1 ? 'the request it had then' : `the ${suspects.length} requests it had then`;
  return `${head} It is one finding (no-server-error, "${WENT_AWAY_DEFECT}") naming ${candidates} (${suspects.map(replayOf).join(', ')}): one of them may have brought it down, or several together (a data race), or it was stopped from outside; nothing tells which from here. Once it is up again, send each alone (\`replay\`); one that stops it again is the cause.`;
}

/** The transport failures of an outage's cut cases, by kind. */
function failuresOf(cut: Outage['cut']): Map<string, number> {
  const failures = new Map<string, number>();
  for (const run of cut.runs) {
    const kind = unansweredOf(run) ?? 'no answer';
    failures.set(kind, (failures.get(kind) ?? 0) + 1);
  }
  return failures;
}

/** A sentence's text with its first letter upper case. */
function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
