import { INT64, type Contract } from '../contract/index.js';
import type { ArbitraryCache } from './cases.js';
import type { CheckDefinition, JudgeContext } from './check.js';
import { pauses, type CaseRun } from './execute.js';
import { createFreshIds, type FreshIds } from './generate/fresh-ids.js';
import type { Exchange, SendOptions, TargetClient } from './http/client.js';
import type { PlantDraft } from './generate/new-plant.js';
import type { PlannedRequest } from './probe.js';
import { curlCommands, type CurlOptions } from './http/curl.js';
import { messageShapeOf, unansweredHow } from './judge.js';
import { breaksReading, causeOf, FIELD, numberFamily, takesAnyTypeForNumber, typeReading } from './defects.js';
import { counterexampleSize, failureFingerprint, foldTarget, itemRulesFingerprint, itemsOf } from './findings.js';
import type { CheckResult, Failure, RecordedResponse } from './report.js';
import { isRepeatWarning, MAX_SETTLED, settleRepeatWarning } from './repeat-settling.js';
import { defectShape, shrinkCounterexample, type Counterexample, type HangShrinking } from './shrink.js';
import { failingExchange, type CaseVerdict } from './verdicts.js';
import { withWentAwayCandidates } from './went-away.js';
import {
  charactersNeeded,
  answeredWithoutCrash,
  crashClass,
  CRASH_GROUP_TITLES,
  objectRefusals,
  refusedOnlyIn,
  refusesAnObject,
  unreadableKind,
  type CrashEvidence,
} from './crash-groups.js';
import { timedOutOnce, unansweredOnce, waitedOut, UnansweredFailures, type AloneResends } from './resend-alone.js';

/** A case run on which a check failed or warned, kept as a counterexample. */
interface Kept {
  readonly run: CaseRun;
  readonly verdict: CaseVerdict;
  /** What tells it apart from the other kept cases ({@link keyOf}), worked out once. */
  readonly key: string;
  /** Its cause whatever the probe ({@link causeOf}): the cap drops a cause's later cases before any cause's first. */
  readonly group: string;
}

/**
 * Failing (or warning) cases kept per check: the first of each probe and cause ({@link causeOf}), each shrunk; for
 * invalid bodies, the first of each field and rule they break. One probe of invalid bodies often finds several root
 * causes (a `null` tag accepted, a `NAME` key read as `name`), and a defect hidden behind another would pass a
 * baseline that lists only the other. Past MAX_FAILURES, the later cases of a cause already kept (met by another
 * probe) are dropped first: the first case of every cause is kept, up to MAX_CAUSES, so a run meeting many causes
 * reports each (it dropped the last in run order, text after the value or a body `null` accepted).
 */
const MAX_FAILURES = 12;
const MAX_CAUSES = 48;

/**
 * A check's verdicts, tallied as cases finish: a count, and the first failing (and warning) case
 * of each probe (and field). Nothing else is kept, so memory stays flat however many cases a run sends.
 */
export class CheckTally {
  cases = 0;
  readonly failures: Kept[] = [];
  readonly warnings: Kept[] = [];
  readonly unanswered = new UnansweredFailures();
  /** Whether some case showed the target refusing an invalid object with a 4xx ({@link refusesAnObject}). */
  objectRefused = false;
  /** The members the invalid objects refused broke, and whether one was accepted ({@link objectRefusals}). */
  readonly refusedFields = new Set<string>();
  objectAccepted = false;
  /** Whether some request with the run's credential got an answer but a crash ({@link answeredWithoutCrash}). */
  answeredOtherwise = false;
  /** The kinds of body no parser reads that failed, by way of crashing ({@link unreadableKind}). */
  readonly unreadableKinds = new Map<string, Set<string>>();

  constructor(readonly check: CheckDefinition) {}

  add(run: CaseRun, verdict: CaseVerdict | undefined): void {
    if (!verdict) return;
    this.cases++;
    this.objectRefused ||= refusesAnObject(run.exchanges);
    const refusals = objectRefusals(run.exchanges);
    for (const field of refusals.fields) this.refusedFields.add(field);
    this.objectAccepted ||= refusals.accepted;
    this.answeredOtherwise ||= answeredWithoutCrash(run.exchanges);
    this.unanswered.add(run, verdict);
    if (verdict.outcome === 'fail') this.countUnreadable(run, verdict);
    if (verdict.outcome === 'fail') keepFirstPerCause(this.failures, { run, verdict, ...keyOf(run, verdict) });
    if (verdict.outcome === 'warn') keepFirstPerCause(this.warnings, { run, verdict, ...keyOf(run, verdict) });
  }

  private countUnreadable(run: CaseRun, verdict: CaseVerdict): void {
    const met = unreadableKind(run.exchanges[verdict.exchangeIndex]?.plan, verdict.defect);
    if (met === undefined) return;
    const kinds = this.unreadableKinds.get(met.way) ?? new Set<string>();
    this.unreadableKinds.set(met.way, kinds.add(met.kind));
  }
}

/**
 * What tells two kept cases apart: their probe and their cause ({@link causeOf}); for a valid NewPlant
 * warned of as a possible repeat, also its answer's message, so that a refusal saying something else than
 * the repeats do (`name must not be blank`) is kept beside them, to be settled ({@link settleRepeatWarning}).
 */
function keyOf(run: CaseRun, verdict: CaseVerdict): Pick<Kept, 'key' | 'group'> {
  const exchange = run.exchanges[verdict.exchangeIndex];
  const plan = exchange?.plan;
  const group = causeOf(plan, verdict.defect);
  const key = `${run.generated.probe.name}\u0000${group}`;
  const mayRepeat = verdict.outcome === 'warn' && plan?.intent.kind === 'valid' && plan.intent.idMayRepeat === true;
  return { key: mayRepeat ? `${key}\u0000${messageShapeOf(exchange!) ?? ''}` : key, group };
}

/**
 * Keeps the earliest case (in run order) of each probe and cause; past {@link MAX_FAILURES}, drops the latest case
 * whose cause an earlier kept case holds, and past {@link MAX_CAUSES} the latest. Which cases stay depends only on
 * the cases that failed, not on the order their answers came in.
 */
function keepFirstPerCause(kept: Kept[], entry: Kept): void {
  const same = kept.findIndex((other) => other.key === entry.key);
  if (same >= 0) {
    const existing = kept[same];
    if (existing && entry.run.order < existing.run.order) kept[same] = entry;
    return;
  }
  kept.push(entry);
  kept.sort((a, b) => a.run.order - b.run.order);
  if (kept.length <= MAX_FAILURES) return;
  const groups = new Set<string>();
  const repeated = kept.map((other) => groups.has(other.group) || (groups.add(other.group), false));
  const last = repeated.lastIndexOf(true);
  if (last >= 0) kept.splice(last, 1);
  else if (kept.length > MAX_CAUSES) kept.pop();
}

export interface CheckResultOptions {
  readonly contract: Contract;
  readonly client: TargetClient;
  readonly fresh: FreshIds;
  readonly judgeContext: JudgeContext;
  readonly arbitraries: ArbitraryCache;
  /** `Date.now()` after which no more shrinking starts. */
  readonly deadline: number;
  /** The valid NewPlant the target accepted in the preflight (see `RepeatSettlingOptions`). */
  readonly controlPlant?: PlantDraft;
  /** Builds the replay text and options of a counterexample. */
  replayCommand(run: CaseRun, path: readonly number[], alwaysFresh: boolean): Pick<Failure, 'replay' | 'rerun'>;
  /** Called before each candidate sent while shrinking. */
  onShrinkStep?(): void;
  /** False when replaying: the case named by the replay string is reported as it is. */
  readonly shrink: boolean;
  /** How a counterexample that timed out is shrunk, when the target answered everything else quickly. */
  readonly hangs?: HangShrinking;
  /**
   * Where failing cases that got no answer of the service are sent again alone before they are reported,
   * when they are few or close together ({@link UnansweredFailures}); the run's concurrency.
   */
  readonly alone?: { readonly resends: AloneResends; readonly concurrency: number };
  /** The run's shrink candidates answered so far, shared by its checks ({@link ShrinkAnswers}). */
  readonly shrinkAnswers?: ShrinkAnswers;
}

/**
 * Answers to shrink candidates sent in this run, by their requests ({@link candidateKey}), in the order sent (a repeat
 * sends one request twice). Checks shrink one after another, and two checks failing one case walk the same
 * candidates, fresh ids included: sent again, each would meet the plant its first sending stored, and the later check
 * would judge the target's repeat answer (nim's trailing comma accepted: content-type shrank to the 200,
 * negative-rejection to a refusal as a repeat). The later check judges the answers the first sending got instead, as
 * every check judges a case's one exchange in the run.
 */
export type ShrinkAnswers = Map<string, (Exchange | readonly Exchange[])[]>;

/**
 * The client one case's shrinking sends through: a request another check's shrinking sent is answered as it was then,
 * its n-th sending by the n-th answer ({@link ShrinkAnswers}); one answered with no answer of the service is sent.
 */
function shrinkClient(options: CheckResultOptions): TargetClient {
  const { client, shrinkAnswers: known = new Map() as ShrinkAnswers } = options;
  const sentTimes = new Map<string, number>();
  const remembered = async <T extends Exchange | readonly Exchange[]>(key: string, send: () => Promise<T>) => {
    const times = sentTimes.get(key) ?? 0;
    sentTimes.set(key, times + 1);
    const answers = known.get(key) ?? [];
    const found = answers[times] as T | undefined;
    if (found !== undefined) return found;
    options.onShrinkStep?.();
    const answer = await send();
    const all: readonly Exchange[] = Array.isArray(answer) ? answer : [answer as Exchange];
    // A cut answer (a flood read up to the cap) is not kept: held for the run, a few would hold hundreds of MiB.
    const keep = all.every(({ response }) => unansweredHow(response) === undefined && response.truncated !== true);
    if (answers.length === times && keep) known.set(key, [...answers, answer]);
    return answer;
  };
  const sendOnOneConnection = client.sendOnOneConnection?.bind(client);
  return {
    send: (plan, sending) => remembered(candidateKey([plan]), () => client.send(plan, sending)),
    ...(sendOnOneConnection
      ? {
          sendOnOneConnection: (plans: readonly PlannedRequest[], sending?: SendOptions) =>
            remembered(`together\u0000${candidateKey(plans)}`, () => sendOnOneConnection(plans, sending)),
        }
      : {}),
    redact: client.redact,
    close: () => client.close(),
  };
}

/** What a candidate sends, every byte and how: two candidates with one key are the same requests. */
function candidateKey(plans: readonly PlannedRequest[]): string {
  return JSON.stringify(
    plans.map(({ intent: _intent, bodyBytes, ...request }) => ({
      ...request,
      bodyBytes: bodyBytes === undefined ? undefined : Buffer.from(bodyBytes).toString('base64'),
    })),
    (_key, value: unknown) => (typeof value === 'bigint' ? String(value) : value),
  );
}

/** Whether a failing case's request was a valid NewPlant (or one written another way), as {@link sentValid}. */
function validity(run: CaseRun, verdict: CaseVerdict): boolean {
  return sentValid({ exchanges: run.exchanges, verdict });
}

/** Whether a counterexample's failing request was a valid NewPlant (or one written another way). */
function sentValid(counterexample: Pick<Counterexample, 'exchanges' | 'verdict'>): boolean {
  const kind = failingExchange(counterexample.exchanges, counterexample.verdict)?.plan.intent.kind;
  return kind === 'valid' || kind === 'valid-variant';
}

const SHRINK_STEPS = 300;
const SHRINK_MS_PER_CHECK = 15_000;

/** Turns a check's tally into its result, shrinking its first counterexamples one after another. */
export async function checkResult(tally: CheckTally, options: CheckResultOptions): Promise<CheckResult> {
  const { check, cases } = tally;
  const base = { id: check.id, title: check.title, rule: check.rule };
  const resends =
    options.alone && tally.unanswered.fewOrTogether(options.alone.concurrency) ? options.alone.resends : undefined;
  const failures: Failure[] = [];
  let [answeredAlone, reproducedAlone] = [0, 0];
  if (tally.failures.length > 0) {
    const fields = new Map<Failure, { field: string; what: string } | undefined>();
    const validSent = new Map<Failure, boolean>();
    const counterexamples: { readonly failure: Failure; readonly plan: PlannedRequest | undefined }[] = [];
    const deadline = Math.min(options.deadline, Date.now() + SHRINK_MS_PER_CHECK);
    // Several probes meeting one defect (a precision loss met by plain plants, spelled schemes and media types):
    // a case no smaller than one already shrunk to that defect could never be the counterexample shown, so it
    // is kept as found, sparing a sequential shrink of up to SHRINK_STEPS requests.
    const smallestShrunk = new Map<string, number>();
    // A hang confirmed alone for valid (or invalid) bodies: the check's other timeouts of that class would be the same
    // finding, and each costs a whole timeout to confirm.
    const confirmedTimeout = new Set<boolean>();
    // A case whose body went in two halves waits out a pause for every candidate: cases sent whole shrink first,
    // and one of those that shows the defect spares its shrinking (a crash on long answers: 16 s -> 3 s).
    const inShrinkOrder = [...tally.failures].sort(
      (a, b) => Number(pauses(a.run.generated)) - Number(pauses(b.run.generated)),
    );
    for (const { run, verdict } of inShrinkOrder) {
      // A case sent again after an outage had every id fresh, of its own nonce: so have its shrink candidates.
      let first: Counterexample = { value: run.generated.value, path: [], exchanges: run.exchanges, verdict };
      if (run.nonce !== undefined) first = { ...first, alwaysFresh: true };
      // A timeout under the run's load may be a small target's queue, not a hang: it is sent again alone and judged
      // on that answer, before shrinking, or after it when hang shrinking confirmed no smaller hang.
      const timedOutInRun = options.alone !== undefined && timedOutOnce(run, verdict);
      if (timedOutInRun) {
        if (confirmedTimeout.has(validity(run, verdict))) continue;
        if (!options.hangs) {
          const alone = await options.alone.resends.confirmTimeout(check, run, verdict);
          if (alone === 'answered') continue;
          first = alone;
        }
      } else if (resends && unansweredOnce(run, verdict) !== undefined) {
        const alone = await resends.confirm(check, run, verdict);
        // Answered alone: the run's dropped connection or gateway page was the moment's (a note says so).
        if (alone === 'answered') {
          answeredAlone++;
          continue;
        }
        first = alone;
        reproducedAlone++;
      }
      const shape = defectShape(check, verdict);
      const found = failingExchange(run.exchanges, verdict);
      const best = smallestShrunk.get(shape);
      const shrinks =
        options.shrink &&
        (best === undefined || (!pauses(run.generated) && (found === undefined || counterexampleSize(found) < best)));
      const shrunk = await shrinkCounterexample(check, run.generated, first, {
        contract: options.contract,
        client: shrinkClient(options),
        fresh: run.nonce === undefined ? options.fresh : createFreshIds(run.nonce),
        judgeContext: options.judgeContext,
        arbitrary: options.arbitraries(run.generated.probe, run.generated.index),
        maxSteps: shrinks ? SHRINK_STEPS : 0,
        deadline,
        ...(options.hangs ? { hangs: options.hangs } : {}),
      });
      let { counterexample, steps } = shrunk;
      if (timedOutInRun && counterexample.exchanges === run.exchanges) {
        const alone = await options.alone.resends.confirmTimeout(check, run, verdict);
        if (alone === 'answered') continue;
        [counterexample, steps] = [alone, 0];
      }
      if (
        timedOutInRun &&
        waitedOut(counterexample.exchanges, counterexample.verdict) &&
        counterexample.exchanges !== run.exchanges
      )
        confirmedTimeout.add(validity(run, verdict));
      const replay = options.replayCommand(run, counterexample.path, counterexample.alwaysFresh === true);
      const made = toFailure(String(check.id), counterexample, steps, replay, options.client.redact);
      const failure = withWentAwayCandidates(made, run, (suspect) =>
        options.replayCommand(suspect, [], suspect.nonce !== undefined),
      );
      if (shrinks) smallestShrunk.set(shape, Math.min(best ?? Infinity, counterexampleSize(failure)));
      counterexamples.push({ failure, plan: failingExchange(counterexample.exchanges, counterexample.verdict)?.plan });
      validSent.set(failure, sentValid(counterexample));
      fields.set(failure, brokenField(run.exchanges[verdict.exchangeIndex]?.plan));
    }
    if (resends && answeredAlone > 0 && reproducedAlone === 0) resends.dismiss(tally.unanswered);
    const evidence = {
      objectRefused: tally.objectRefused,
      characters: charactersNeeded(counterexamples, tally.objectRefused),
      unreadableKinds: tally.unreadableKinds,
      refusedOnlyIn: refusedOnlyIn(tally.refusedFields, tally.objectAccepted),
      everyRequestCrashed: !tally.answeredOtherwise,
    };
    const groups = keptPerCause(counterexamples, validSent, evidence, failures);
    if (failures.length > 0)
      return {
        ...base,
        status: 'fail',
        cases,
        failures: withCrashGroupsNamed(withFieldsReadWrongly(failures, fields), failures, groups),
      };
  }
  // Also in a replay: the one case it sends is settled as in the run that found it.
  const settled = tally.failures.length === 0 ? await settledRepeats(tally, options) : [];
  if (settled.length > 0) {
    const failures = settled.map((counterexample) =>
      toFailure(
        String(check.id),
        counterexample,
        0,
        options.replayCommand(counterexample.run, [], true),
        options.client.redact,
      ),
    );
    return { ...base, status: 'fail', cases, failures };
  }
  if (tally.warnings.length > 0) {
    const failures = tally.warnings.map(({ run, verdict }) =>
      toFailure(
        String(check.id),
        { value: run.generated.value, path: [], exchanges: run.exchanges, verdict },
        0,
        options.replayCommand(run, [], run.nonce !== undefined),
        options.client.redact,
      ),
    );
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

/**
 * The warned cases of a check that were refusals of a valid NewPlant excused as possible repeats, settled
 * by asking the target ({@link settleRepeatWarning}): those shown not to be repeats, as counterexamples.
 */
async function settledRepeats(
  tally: CheckTally,
  options: CheckResultOptions,
): Promise<(Counterexample & { readonly run: CaseRun })[]> {
  const settled: (Counterexample & { readonly run: CaseRun })[] = [];
  const candidates = tally.warnings.filter(({ run, verdict }) => isRepeatWarning(run, verdict, options.contract));
  for (const { run, verdict } of candidates.slice(0, MAX_SETTLED)) {
    if (Date.now() > options.deadline) break;
    const counterexample = await settleRepeatWarning(tally.check, run, verdict, options);
    if (counterexample !== undefined) settled.push({ ...counterexample, run: { ...run, nonce: counterexample.nonce } });
  }
  return settled;
}

/**
 * Shrunk cases of several probes often meet in one cause: each is reported once (pushed to `failures`), by its
 * smallest request (a parser's 500 met first with a 10,000-digit id is shown with the `{` that shows it too). Which
 * cause is what the counterexamples show ({@link crashGroup}), not the reason's words: a 500 is a 500 whatever broke
 * it. Returns the group of each failure kept.
 */
function keptPerCause(
  counterexamples: readonly { readonly failure: Failure; readonly plan: PlannedRequest | undefined }[],
  validSent: ReadonlyMap<Failure, boolean>,
  evidence: CrashEvidence,
  failures: Failure[],
): Map<Failure, CrashGroup> {
  const groups = new Map<Failure, CrashGroup>();
  for (const { failure, plan } of counterexamples) {
    const group = crashGroup(validSent.get(failure) === true, plan, failure, evidence);
    const same = failures.findIndex((other) => other.reason === failure.reason && groups.get(other)?.key === group.key);
    const classes = new Set([...(same < 0 ? [] : groups.get(failures[same]!)!.classes), ...group.classes]);
    if (same < 0) failures.push(failure);
    else if (shownBefore(failure, failures[same]!, group.key === 'characters' ? validSent : undefined))
      failures[same] = failure;
    groups.set(failures[same < 0 ? failures.length - 1 : same]!, { ...group, classes });
  }
  return groups;
}

/**
 * Whether `failure` shows its group better than `shown`: smaller; where `valid` is given (a crash on characters),
 * a valid NewPlant first, whose other members cannot be what failed (`{"name":"🌱"}` without its id reads as a crash
 * on a missing id).
 */
function shownBefore(failure: Failure, shown: Failure, valid?: ReadonlyMap<Failure, boolean>): boolean {
  const [mine, theirs] = [valid?.get(failure) === true, valid?.get(shown) === true];
  if (mine !== theirs) return mine;
  return counterexampleSize(failure) < counterexampleSize(shown);
}

/** The field an invalid body breaks and its description, for an invalid body. */
function brokenField(plan: PlannedRequest | undefined): { field: string; what: string } | undefined {
  const intent = plan?.intent;
  if (intent?.kind !== 'invalid-body') return undefined;
  const field = FIELD.exec(intent.what)?.[1];
  return field === undefined ? undefined : { field, what: intent.what };
}

/**
 * A null or a converted value accepted ({@link typeReading}) for a field the target also reads wrongly
 * another way (a missing one defaulted, an array taken for a string: `body.name ?? ''`, a type never
 * read) is that field's defect, not a lenient reader's across fields: one finding for the field,
 * whichever wrong value showed it. The other way must be the field's own, its defect naming the field: a defect
 * named across fields is not (`2^53+N.5` accepted for an id is how numbers are parsed, doubles; `true` taken for
 * that id is pydantic's lax mode converting types, another fix: two findings). Inside an array's items that took
 * another break too (a bound, an array for a number), a null or a converted value is the items' finding
 * ({@link itemRulesFingerprint}): the items are not validated at all.
 */
function withFieldsReadWrongly(
  failures: readonly Failure[],
  fields: ReadonlyMap<Failure, { field: string; what: string } | undefined>,
): Failure[] {
  const owners = new Map<string, Failure>();
  for (const failure of failures) {
    const broken = fields.get(failure);
    const own = broken !== undefined && failure.defect?.includes(`"${broken.field}"`) === true;
    if (own && breaksReading(broken.what) && !owners.has(broken.field)) owners.set(broken.field, failure);
  }
  const casts = castOwners(failures, fields);
  const brokenItems = new Set(failures.map((failure) => itemsOf(failure.defect ?? '')));
  return failures.map((failure) => {
    const broken = fields.get(failure);
    const cast = broken !== undefined && numberFamily(broken.what) !== undefined && castTo(failure, broken.field);
    const reading = broken !== undefined && typeReading(broken.what) !== undefined;
    const owner =
      broken === undefined
        ? undefined
        : reading
          ? owners.get(broken.field)
          : cast
            ? casts.get(broken.field)
            : undefined;
    if (owner?.fingerprint !== undefined && owner !== failure) return { ...failure, foldedInto: owner.fingerprint };
    // Inside array items that took another break too (a bound, an array for a number): the items are not validated
    // (a Draft 7 validator ignoring 3.1's prefixItems), and a null or a boolean there is that finding's.
    const items = reading ? itemsPathOf(broken.field) : undefined;
    return items !== undefined && brokenItems.has(items)
      ? { ...failure, foldedInto: itemRulesFingerprint(items) }
      : failure;
  });
}

/** The items' path (`coords[#]`) a field's path lies in (`coords.0`, `beds.1.name` in `beds[#]`), if any. */
function itemsPathOf(field: string): string | undefined {
  const segments = field.split('.');
  const last = segments.findLastIndex((segment) => /^\d+$/.test(segment));
  if (last < 0) return undefined;
  return segments
    .slice(0, last + 1)
    .map((segment, index) => (/^\d+$/.test(segment) ? '[#]' : index === 0 ? segment : `.${segment}`))
    .join('');
}

/**
 * Per field, the failure showing its type never read and its value cast to an integer: an array or object accepted
 * for a number, answered with an id inside int64 (PHP's `(int)$body['id']` takes `[]` as 0). A fraction and an
 * integer past int64 the same field took, answered as another integer inside int64 (0.5 as 0, 2^63 as -2^63), are
 * that cast, one fix (`is_int`); a fraction refused or 2^64 answered as a double (JavaScript's `Number(x)` beside
 * `Number.isInteger`) stays its own cause (no range check).
 */
function castOwners(
  failures: readonly Failure[],
  fields: ReadonlyMap<Failure, { field: string; what: string } | undefined>,
): Map<string, Failure> {
  const owners = new Map<string, Failure>();
  for (const failure of failures) {
    const broken = fields.get(failure);
    if (broken === undefined || owners.has(broken.field) || !takesAnyTypeForNumber(broken.what)) continue;
    if (failure.defect?.includes(`"${broken.field}"`) === true && castTo(failure, broken.field))
      owners.set(broken.field, failure);
  }
  return owners;
}

/** An answer quoting a field's value (`"id":-9223372036854775808`, `plant with id 0 exists`). */
const quotedValue = (field: string) => new RegExp(`\\b${field}[^\\w-]{0,3}(-?\\d+)(?![\\d.eE])`, 'i');
const sentValue = (field: string) => new RegExp(`"${field}"\\s*:\\s*(-?[\\d.eE+-]+)`);

/** Whether the answer quotes the top-level `field` as an integer inside int64 other than the one sent. */
function castTo(failure: Failure, field: string): boolean {
  if (!/^[A-Za-z_]\w*$/.test(field)) return false;
  const quoted = quotedValue(field).exec(failure.response.body ?? '')?.[1];
  if (quoted === undefined || BigInt(quoted) > INT64.max || BigInt(quoted) < INT64.min) return false;
  const sent = sentValue(field).exec(failure.request.body ?? '')?.[1];
  return sent === undefined || !/^-?\d+$/.test(sent) || BigInt(sent) !== BigInt(quoted);
}

/** Kept failures of a check that one cause explains ({@link crashGroup}). */
interface CrashGroup {
  readonly key: string;
  /** The crash classes (of characters: the kinds of request) met ({@link crashClass}): named when two or more. */
  readonly classes: ReadonlySet<string>;
  /** The title of the finding the group names, whichever of its failures is shown. */
  readonly title?: string;
}

/**
 * The cause a failure's counterexample shows. Failures that are no crash keep the old rule: one per reason, a valid
 * NewPlant's apart from others. Crashes: on a string holding a character beyond ASCII, one (valid or not); on bodies
 * no parser reads, one; where the target refused some invalid object (its refusal path works), one per class
 * (a non-object body, each member break: a Flask handler calling `data.get` on a list and one concatenating a
 * number `name` are two fixes); where it refused none, every crash on a readable body is the refusal path's (an
 * uncaught `ValidationError`: one fix).
 */
function crashGroup(
  valid: boolean,
  plan: PlannedRequest | undefined,
  failure: Pick<Failure, 'defect' | 'response'>,
  evidence: CrashEvidence,
): CrashGroup {
  const { defect } = failure;
  const every = evidence.everyRequestCrashed === true ? everyRequestWay(plan, failure) : undefined;
  if (every !== undefined)
    return {
      key: `every:${every}`,
      classes: new Set([plan?.intent.kind ?? '']),
      title: CRASH_GROUP_TITLES.everyRequest(every),
    };
  const crash = crashClass(plan, defect, evidence);
  if (crash === undefined) return { key: valid ? 'valid' : 'invalid', classes: new Set() };
  const classes = new Set([crash.name]);
  // Named once it holds two kinds of request (a valid NewPlant, an invalid body, a lone surrogate): alone, a kind's
  // own title says as much (`status 500 for a valid NewPlant` on a utf8mb3 column, past U+FFFF and not past ASCII).
  if (crash.name === 'characters') {
    const kind = plan?.intent.kind === 'valid-variant' ? 'valid' : (plan?.intent.kind ?? '');
    return { key: crash.name, classes: new Set([kind]), title: CRASH_GROUP_TITLES.characters(crash.way) };
  }
  // Named once two kinds of unreadable body crashed (a trailing comma and truncated JSON): the seed's first is not the
  // cause, the parser's error is.
  if (crash.name === 'parse')
    return {
      key: crash.name,
      classes: evidence.unreadableKinds?.get(crash.way) ?? classes,
      title: CRASH_GROUP_TITLES.parse(crash.way),
    };
  const only = evidence.refusedOnlyIn;
  if (evidence.objectRefused && only === undefined) return { key: crash.name, classes };
  const title = evidence.objectRefused
    ? CRASH_GROUP_TITLES.oneMemberRefused(crash.way, only ?? '')
    : CRASH_GROUP_TITLES.refusalPath(crash.way);
  return { key: 'refusal-path', classes, title };
}

/** A crash's way (`status 500`, `connection-reset`) of showing, as its defect names it. */
const CRASH_WAY = /^(status 5\d\d|[\w-]+) (?:for|on) /;

/**
 * Where every request with the run's credential crashed ({@link CrashEvidence.everyRequestCrashed}), the way a failure
 * carrying it shows that crash; undefined for a request without it (a bad credential's 500 is the credential's) or an
 * answer that is no crash.
 */
function everyRequestWay(
  plan: PlannedRequest | undefined,
  failure: Pick<Failure, 'defect' | 'response'>,
): string | undefined {
  const { status, transportError } = failure.response;
  if (plan === undefined || plan.intent.kind === 'auth' || (status > 0 && status < 500 && transportError === undefined))
    return undefined;
  return CRASH_WAY.exec(failure.defect ?? '')?.[1];
}

/**
 * The failures (`named`, as `kept` in order) of a named crash group folded into its finding, titled for the cause
 * and not for the counterexample that showed it (a seed met a lone surrogate, another U+2028); a failure folded into
 * one of them follows it.
 */
function withCrashGroupsNamed(
  named: readonly Failure[],
  kept: readonly Failure[],
  groups: ReadonlyMap<Failure, CrashGroup>,
): Failure[] {
  // A group's failures of other reasons (`(request 2 of the case; …)`) are kept apart, their kinds counted together.
  const kinds = new Map<string, Set<string>>();
  for (const group of groups.values())
    kinds.set(group.key, new Set([...(kinds.get(group.key) ?? []), ...group.classes]));
  const targets = new Map<string, string>();
  const folded = named.map((failure, index) => {
    const group = groups.get(kept[index]!);
    if (group?.title === undefined || (kinds.get(group.key)?.size ?? 0) < 2) return failure;
    const into = foldTarget(group.title);
    if (failure.fingerprint !== undefined) targets.set(failure.fingerprint, into);
    const met = group.key === 'parse' ? kindsMet(kinds.get(group.key)) : '';
    return { ...failure, foldedInto: into, reason: `${failure.reason}${met}` };
  });
  return folded.map((failure) => {
    const into = failure.foldedInto === undefined ? undefined : targets.get(failure.foldedInto);
    return into === undefined ? failure : { ...failure, foldedInto: into };
  });
}

/**
 * The kinds of body no parser reads that crashed alike, for a parse group's reason: the counterexample shows one, and
 * a fix of that one alone (a `NaN` caught) leaves the others.
 */
function kindsMet(kinds: ReadonlySet<string> | undefined): string {
  const shown = [...(kinds ?? [])].map((kind) => kind.replace(/ \(\d+ characters\)$/, ''));
  return shown.length < 2
    ? ''
    : ` The same crash met every kind of body the parser cannot read that the run sent: ${shown.join('; ')}.`;
}

/**
 * A counterexample as the report shows it. Verdicts were reached on the answer exactly as it came;
 * only here, on its way out, is the token hidden from what the target sent back.
 */
function toFailure(
  checkId: string,
  counterexample: Counterexample,
  shrinkSteps: number,
  replay: Pick<Failure, 'replay' | 'rerun'>,
  redact: (text: string) => string,
): Failure {
  const { exchanges, verdict } = counterexample;
  const failing = failingExchange(exchanges, verdict);
  if (!failing) throw new Error('a counterexample without an exchange');
  const sequence = exchanges.slice(0, verdict.exchangeIndex + 1);
  const oneConnection = sequence.some((exchange) => exchange.plan.sameConnection === true);
  const how = oneConnection
    ? 'the curl command sends all of them on one connection, in order'
    : 'the curl lines send all of them in order';
  const before = sequence.length > 1 ? ` (request ${sequence.length} of the case; ${how})` : '';
  const reason = redact(verdict.reason ?? 'failed');
  const fingerprint = failureFingerprint(checkId, failing.plan, reason, verdict.defect);
  return {
    reason: `${reason}${redact(before)}`,
    request: failing.request,
    response: redactResponse(failing.response, redact),
    curl: curlCommands(
      sequence.map((exchange) => exchange.request),
      oneConnection,
      sequence.map((exchange) => exchange.plan.splitBody === true),
      timedOutWait(failing.response),
    ),
    ...replay,
    shrinkSteps,
    ...(sequence.length > 1 ? { requests: sequence.length } : {}),
    ...(verdict.defect === undefined ? {} : { defect: verdict.defect }),
    fingerprint,
  };
}

/** A curl line's `--max-time` for an answer that never came: a second past the runner's own wait. */
function timedOutWait(response: RecordedResponse): CurlOptions {
  if (response.transportError !== 'timeout') return {};
  return { maxTimeSeconds: Math.ceil(response.durationMs / 1000) + 1 };
}

function redactResponse(response: RecordedResponse, redact: (text: string) => string): RecordedResponse {
  const headers = Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, redact(value)]));
  return { ...response, headers, body: response.body === null ? null : redact(response.body) };
}
