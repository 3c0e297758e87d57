import type { CaseRun } from './execute.js';
import type { Failure } from './report.js';
import { curlCommands } from './http/curl.js';
import { unansweredHow } from './judge.js';
import type { CaseVerdict } from './verdicts.js';

/** The finding of a target that stopped answering mid-run and never answered again: one, whatever it had in flight. */
export const WENT_AWAY_DEFECT = 'the target stopped answering during the run and did not come back';

/** Most candidates whose curl lines a went-away verdict quotes (the outage note names every one by replay string). */
const MAX_QUOTED = 4;

/**
 * A failing verdict on the case an outage judged when the target did not come back, reworded: a target gone for
 * good is the finding, and the requests it had in flight are its candidates, none shown as the certain cause
 * (nothing answered to send them again alone, and a stop from outside looks the same from here). Other verdicts,
 * and those of any other case, are returned as they are.
 */
export function wentAwayVerdict(verdict: CaseVerdict | undefined, run: CaseRun): CaseVerdict | undefined {
  const gone = run.wentAway;
  if (gone === undefined || verdict?.outcome !== 'fail') return verdict;
  const waited = `${(gone.waitedMs / 1000).toFixed(1)} s`;
  const outside = 'unless it was stopped from outside then, which looks the same from here';
  const count = gone.suspects.length;
  const reason =
    count <= 1
      ? `The target stopped answering mid-run with this one request in flight and did not come back within ${waited}: it brought it down, ${outside}. Once it is up again, send it alone: if it stops the target again, it is the cause.`
      : `The target stopped answering mid-run with ${count} requests in flight and did not come back within ${waited}: one of them (or several together) brought it down, ${outside}. None is known to be the cause (nothing answered to send them alone): this one ended first. Once it is up again, send each alone; one that stops it is the cause. ${candidatesText(gone.suspects)}`;
  return { ...verdict, reason, defect: WENT_AWAY_DEFECT };
}

/** Where the candidates are, and how many more the outage note names. */
function candidatesText(suspects: readonly CaseRun[]): string {
  const more = suspects.length - Math.min(suspects.length, MAX_QUOTED);
  const rest = more > 0 ? `; ${more} more, named by replay string in the note \`unresponsive\`` : '';
  return `Candidates: the first ${Math.min(suspects.length, MAX_QUOTED)}, each with its curl line and replay, under this counterexample (\`candidates\`)${rest}.`;
}

/**
 * `failure` with the curl lines and replays of the requests its target had in flight when it went away for good
 * (see {@link wentAwayVerdict}); any other failure as it is.
 */
export function withWentAwayCandidates(
  failure: Failure,
  run: CaseRun,
  replayOf: (suspect: CaseRun) => Pick<Failure, 'replay'>,
): Failure {
  const suspects = run.wentAway?.suspects ?? [];
  if (failure.defect !== WENT_AWAY_DEFECT || suspects.length < 2) return failure;
  const candidates = suspects
    .slice(0, MAX_QUOTED)
    .map((suspect) => ({ curl: candidateCurl(suspect), replay: replayOf(suspect).replay }));
  return { ...failure, candidates };
}

/** A case's requests up to the first the target left unanswered, as curl commands (one a line). */
function candidateCurl(run: CaseRun): string {
  const end = run.exchanges.findIndex(({ response }) => unansweredHow(response) !== undefined);
  const sequence = run.exchanges.slice(0, end < 0 ? run.exchanges.length : end + 1);
  return curlCommands(
    sequence.map(({ request }) => request),
    sequence.some(({ plan }) => plan.sameConnection === true),
    sequence.map(({ plan }) => plan.splitBody === true),
  );
}
