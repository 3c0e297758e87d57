import { calledPlantsPath, PACKAGE_VERSION } from '../contract/index.js';
import { objectView } from '../contract/object-view.js';
import {
  caseCount,
  createArbitraryCache,
  generateCases,
  iterateCases,
  type ArbitraryCache,
  type GeneratedCase,
} from './cases.js';
import type { CheckDefinition, JudgeContext } from './check.js';
import type { PlantDraft } from './generate/new-plant.js';
import { checkResult, CheckTally, type ShrinkAnswers } from './check-results.js';
import { dispatch, livenessOf, type CaseRun, type DispatchResult, type TargetStopped } from './execute.js';
import { claimingUntilEnd, createFreshIds } from './generate/fresh-ids.js';
import { createTargetClient, DEFAULT_MAX_BODY_BYTES, type TargetClient } from './http/client.js';
import { probeConnectionCapacity } from './http/connection-capacity.js';
import { honouringRetryAfter } from './http/retry-after.js';
import { deliver, endRun, type RunEvent } from './events.js';
import { rerunCall } from './option-text.js';
import type { RunnerOptions } from './options.js';
import { formatReplay } from './replay.js';
import { couldNotJudge, RunEvidence, SPOKE_NO_HTTP } from './evidence.js';
import { hangShrinking } from './shrink.js';
import { AnswerTimes } from './answer-times.js';
import { declaredMemberNames, findingsOf, inFlightWhenGone, withRootCausesFolded } from './findings.js';
import { isTlsFailure } from './http/transport-errors.js';
import { validatorReadings } from './validator-readings.js';
import {
  judgedOf,
  metGatewayPage,
  sendCutAgain,
  settleOutage,
  unansweredOf,
  unjudgedCases,
  type Outage,
} from './outage.js';
import { AloneResends, type TimeoutsAnsweredAlone, type UnansweredFailures } from './resend-alone.js';
import type { CheckResult, CouldNotJudge, Failure, Finding, Report, RunNote } from './report.js';
import { replayCase } from './replay-case.js';
import { rerunOptions, runNotes, runVerdict, summarize } from './run-report.js';
import { explainSkip } from './skip-reasons.js';
import { resolveSettings, type RunSettings } from './run-settings.js';
import type { CheckSelection } from './selection.js';
import { judgeContextOf, openTarget, probeTarget, type Target, type TargetTraits } from './target.js';
import { judgeCase } from './verdicts.js';
import { saysRepeat } from './judge.js';
import { wentAwayVerdict } from './went-away.js';

/**
 * Runs the given suites against a Plant Store implementation, renders the run through the given
 * reporters, and resolves to the report. Problems of the target are findings inside the report; only
 * a target that cannot be reached at all (`TargetUnreachableError`) or contradictory options
 * (`ConformanceOptionsError`) throw.
 */
export async function runConformance(options: RunnerOptions): Promise<Report> {
  const reporters = options.reporters ?? [];
  const onProgress = (event: RunEvent): void => {
    options.onProgress?.(event);
    for (const reporter of reporters) deliver(reporter, event);
  };
  const report = await runSuites(options, onProgress);
  await endRun(reporters, report);
  return report;
}

/** Opens the target and a client sized to what it serves, and tests it. */
async function runSuites(options: RunnerOptions, onProgress: Progress): Promise<Report> {
  const resolved = await resolveSettings(options);
  const target = await openTarget(options, resolved.contract.auth);
  try {
    const wanted = Math.min(resolved.concurrency, 32);
    const plantsPath = calledPlantsPath(resolved.contract.operationPath);
    const capacity =
      target.embedded || resolved.concurrency === 1
        ? undefined
        : await probeConnectionCapacity(target.baseUrl, resolved.timeoutMs, wanted, plantsPath);
    // A target that serves fewer connections at once gets fewer (one spare for cases that need a
    // connection of their own): more would only wait and time out.
    const settings =
      capacity !== undefined && capacity < wanted
        ? { ...resolved, concurrency: Math.max(1, capacity - 1), connectionLimit: capacity }
        : resolved;
    const client = createTargetClient({
      baseUrl: target.baseUrl,
      token: target.token,
      concurrency: settings.concurrency,
      // Cases left waiting on a hung request hold a connection each beside the others (see `dispatch`).
      connections: hungCasesMayWait(settings) ? 2 * settings.concurrency : settings.concurrency,
      timeoutMs: settings.timeoutMs,
      maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      plantsPath,
    });
    try {
      const patient = honouringRetryAfter(client, { deadline: settings.deadline });
      return await testTarget(settings, target, patient, onProgress);
    } finally {
      await client.close();
    }
  } finally {
    await target.close();
  }
}

type Progress = (event: RunEvent) => void;

/** Probes the target, sends and judges every case, then settles each check. */
async function testTarget(
  settings: RunSettings,
  target: Target,
  client: TargetClient,
  onProgress: Progress,
): Promise<Report> {
  const arbitraries = createArbitraryCache(settings.contract);
  const { liveness, serviceAnswered, preflight } = await startPreflight(settings, target, client);
  const { cases, planned } = casesToSend(settings, arbitraries);
  const targetInfo = { baseUrl: target.baseUrl, embedded: target.embedded };
  onProgress?.({ kind: 'run-start', target: targetInfo, seed: settings.seed, plannedCases: planned });
  const sent = await sendAndJudge(settings, client, { cases, planned, serviceAnswered }, preflight, onProgress);
  const { traits, judgeContext } = await preflight;
  const settledChecks = await settleChecks(settings, target, sent, {
    client,
    arbitraries,
    judgeContext,
    planned,
    onProgress,
    ...(traits.acceptedPlant === undefined ? {} : { controlPlant: traits.acceptedPlant }),
  });
  const concluded = conclude(settings, target, sent, settledChecks.settled, traits, liveness);
  // In report order, once final: a skipped check's reason names findings of checks settled after it.
  for (const check of concluded.checks) onProgress?.({ kind: 'check', check });
  return reportOf(settings, target, client, { sent, traits, settledChecks, concluded });
}

type Preflight = Promise<{ traits: TargetTraits; judgeContext: JudgeContext }>;
type Liveness = Awaited<ReturnType<typeof livenessOf>>;
type SettledChecks = Awaited<ReturnType<typeof settleChecks>>;

/**
 * Asks whether a service answers at all, then starts the preflight, which runs beside the first cases: their
 * verdicts wait for what it learns.
 */
async function startPreflight(
  settings: RunSettings,
  target: Target,
  client: TargetClient,
): Promise<{ liveness: Liveness; serviceAnswered: boolean; preflight: Preflight }> {
  const { contract, fresh } = settings;
  // Asked before anything else: a service that answers is there, so gateway pages to the requests after (a
  // service brought down by the first of them, then restarted) are an outage, not what the URL answers.
  const liveness = settings.replay === undefined ? await livenessOf(client) : 'none';
  const serviceAnswered = liveness !== 'none';
  // Its ids are claimed before any case is generated, as in a replay, whenever its answers come.
  const early = claimingUntilEnd(fresh);
  const preflight = probeTarget(client, contract, early.fresh, target.baseUrl, serviceAnswered).then((traits) => ({
    traits,
    judgeContext: judgeContextOf(traits, contract),
  }));
  early.end();
  return { liveness, serviceAnswered, preflight };
}

/** The report of a run whose checks are concluded: its summary, notes and verdict. */
function reportOf(
  settings: RunSettings,
  target: Target,
  client: TargetClient,
  run: {
    readonly sent: SentCases;
    readonly traits: TargetTraits;
    readonly settledChecks: SettledChecks;
    readonly concluded: ReturnType<typeof conclude>;
  },
): Report {
  const { sent, traits, concluded } = run;
  const { checks, findings, couldNotJudge } = concluded;
  // Cases an outage cut without a verdict count as unsent: a run that lost them is incomplete.
  const unsent = sent.dispatched.unsent + unjudgedCases(sent.outage);
  const elapsed = Date.now() - settings.started;
  const summary = summarize(checks, sent.dispatched.sent, elapsed, unsent, sent.dispatched.throttled);
  const details = { ...traits, delaysBodies: client.delaysBodies?.() === true };
  return {
    tool: { name: 'plantstore', version: PACKAGE_VERSION },
    target: { baseUrl: target.baseUrl, embedded: target.embedded },
    seed: settings.seed,
    startedAt: new Date(settings.started).toISOString(),
    summary,
    checks,
    ...notesOf(
      runNotes(
        sent.dispatched,
        details,
        settings,
        target.embedded,
        outageNotes(sent, run.settledChecks, couldNotJudge),
      ),
    ),
    verdict: runVerdict(checks, summary, couldNotJudge),
    ...(couldNotJudge === undefined ? {} : { couldNotJudge }),
    findings,
  };
}

/** What the notes say of the run's outage and of the requests answered when sent again alone. */
function outageNotes(
  sent: SentCases,
  { answeredAlone, timeoutsAnswered }: SettledChecks,
  couldNotJudge: CouldNotJudge | undefined,
): Parameters<typeof runNotes>[4] {
  // Its outage is no outage: the could-not-judge reason says what every request met.
  const spokeNoHttp = couldNotJudge !== undefined && SPOKE_NO_HTTP.has(couldNotJudge.code);
  return {
    ...(spokeNoHttp || !sent.outage ? {} : { outage: sent.outage }),
    answeredAlone,
    ...(timeoutsAnswered
      ? { timeoutsAnswered: { ...timeoutsAnswered, timeouts: sent.evidence.transport.get('timeout') ?? 0 } }
      : {}),
  };
}

/**
 * What the settled checks add up to: whether the URL answers like a Plant Store at all, the
 * failures grouped into findings, and each skip said exactly (which answers, which finding).
 */
function conclude(
  settings: RunSettings,
  target: Target,
  { evidence, outage, refusedAsHeld }: Pick<SentCases, 'evidence' | 'outage' | 'refusedAsHeld'>,
  settled: readonly { check: CheckDefinition | undefined; result: CheckResult }[],
  traits: TargetTraits,
  startLiveness: 'answered' | 'taken' | 'none',
): { checks: CheckResult[]; findings: Finding[]; couldNotJudge: CouldNotJudge | undefined } {
  // A replay sends one case: too little to say the URL is not a Plant Store. Nor is a target that went
  // away before answering a case, when it answered the run's first liveness request or the preflight (it was
  // up, and the run's requests found it gone), or answered again once back. A target that took the first liveness
  // request and answered it nothing never answered in HTTP at all: a port that accepts and says nothing looks the
  // same, so nothing it did is judged (could not judge, 'no-answer').
  const answeredAgain =
    outage !== undefined &&
    evidence.answered === 0 &&
    (traits.answered === true ||
      startLiveness === 'answered' ||
      (outage.cause.kind !== 'gone' && startLiveness !== 'taken'));
  const unjudgeable =
    settings.replay === undefined && !answeredAgain
      ? couldNotJudge(
          evidence,
          target.baseUrl,
          settings.contract.basePath,
          traits.redirect,
          tokenSent(settings, target),
        )
      : undefined;
  // What the setup made the target answer (a refused token, a wrong base path or scheme, no HTTP at all) is no
  // Plant Store's defect to blame: the verdict's reason says it, and no check fails for it.
  const setupsDoing = unjudgeable?.setupsDoing === true;
  const folded = withRootCausesFolded(
    settled.map(({ result }) => (setupsDoing && result.status === 'fail' ? unjudged(result) : result)),
    {
      smallFractionsRefused: evidence.smallFractionRefused > 0 && evidence.smallFractionAccepted === 0,
      refusedIn: evidence.refusedIn,
      objectRefused: evidence.objectRefused,
      invalidRefused: evidence.invalidRefused,
      inFlightWhenGone: inFlightWhenGone(outage),
      requiredMembers: objectView(settings.contract.compiled.newPlant.schema).required,
      declaredNames: declaredMemberNames(settings.contract.compiled.newPlant.schema),
      readings: validatorReadings(
        settings.contract.schemas.newPlant,
        settings.contract.document,
        settings.contract.dialect,
      ),
    },
  );
  const findings = findingsOf(folded);
  const context = { evidence, findings, couldNotJudge: unjudgeable };
  const checks = settled.map(({ check }, index) => {
    const result = folded[index]!;
    return check ? explainSkip(result, check, context) : result;
  });
  const heldAgain = settings.replay !== undefined && refusedAsHeld > 0 && findings.length === 0;
  return { checks, findings, couldNotJudge: unjudgeable ?? (heldAgain ? REPLAYED_ID_HELD : undefined) };
}

/**
 * A replayed case refused as a repeat of an id the target holds, and nothing failed: the run replayed stored that id
 * (a wrong token accepted, a plant created), so the case cannot show again what it showed. Not a pass.
 */
const REPLAYED_ID_HELD: CouldNotJudge = {
  code: 'replay-id-held',
  reason:
    'The target answered the replayed case as a repeat of an id it already holds (its own answer to a repeated id): the run being replayed stored it, so the case cannot show what it showed then. Replay it against a store that never saw that run (restart the target or empty its store).',
  options: [],
  setupsDoing: false,
};

/** A check's result with nothing judged: its skip reason is worked out from the run's evidence. */
function unjudged(result: CheckResult): CheckResult {
  return { ...result, status: 'skip', cases: 0, failures: [] };
}

/**
 * Whether the valid cases carried a token the target may refuse: one was given, and the document asks
 * for a credential (a document declaring none makes a 401 the target's own demand).
 */
function tokenSent(settings: RunSettings, target: Target): boolean {
  return target.token !== '' && settings.contract.auth !== 'none';
}

/** The cases of the run (lazily generated), or the one case a replay string names. */
function casesToSend(
  settings: RunSettings,
  arbitraries: ArbitraryCache,
): { cases: Iterable<GeneratedCase>; planned: number } {
  const { contract, seed, runs, fresh, selection, replay } = settings;
  const inputs = { contract, seed, runs, fresh, arbitraries };
  if (replay) {
    return { cases: [replayCase(replay, generateCases(selection.allProbes, inputs), inputs)], planned: 1 };
  }
  const planned = [...selection.sentProbes].reduce((sum, probe) => sum + caseCount(probe, runs, contract), 0);
  return { cases: sentCases(iterateCases(selection.allProbes, inputs), selection), planned };
}

interface SentCases {
  readonly dispatched: DispatchResult;
  readonly evidence: RunEvidence;
  /** How long the complete answers of the run's cases took. */
  readonly answerTimes: AnswerTimes;
  readonly tallies: ReadonlyMap<CheckDefinition, CheckTally>;
  readonly failedCases: number;
  /** Cases whose first request was refused with the target's own answer to a repeated id. */
  readonly refusedAsHeld: number;
  /** Set when the target stopped answering mid-run. */
  readonly outage?: Outage;
}

/**
 * Judges each case as it finishes, once the preflight has said how the target treats repeats (cases
 * finished before wait for it); only the tallies and the run's evidence are kept.
 */
class CaseJudge {
  readonly tallies: Map<CheckDefinition, CheckTally>;
  readonly evidence: RunEvidence;
  failedCases = 0;
  refusedAsHeld = 0;
  private context: JudgeContext | undefined;
  private readonly waiting: CaseRun[] = [];

  private readonly replay: boolean;

  constructor(settings: RunSettings) {
    this.replay = settings.replay !== undefined;
    this.tallies = new Map(settings.selection.selected.map((check) => [check, new CheckTally(check)]));
    this.evidence = new RunEvidence(settings.contract.success, settings.contract.refusal);
  }

  /** What the run's judging kept so far: the tallies, the evidence and the counts. */
  judged(): Pick<SentCases, 'tallies' | 'evidence' | 'failedCases' | 'refusedAsHeld'> {
    const { tallies, evidence, failedCases, refusedAsHeld } = this;
    return { tallies, evidence, failedCases, refusedAsHeld };
  }

  ready(context: JudgeContext): void {
    this.context = context;
    for (const run of this.waiting.splice(0)) this.judge(run, context);
  }

  add(run: CaseRun): void {
    // A gateway's page for the request that brought the service down (the one an outage judged) says
    // nothing of what the URL answers: when no case had got an answer before, it would pass for all it does.
    if (run.judgedForOutage !== true || !metGatewayPage(run)) this.evidence.add(run);
    if (this.context) this.judge(run, this.context);
    else this.waiting.push(run);
  }

  private judge(run: CaseRun, context: JudgeContext): void {
    let failed = false;
    for (const [check, tally] of this.tallies) {
      const verdict = wentAwayVerdict(judgeCase(check, run.exchanges, context), run);
      tally.add(run, verdict);
      failed ||= verdict?.outcome === 'fail';
    }
    if (failed) this.failedCases++;
    // Only a replay asks (its one case): every case's answer parsed again would cost a run's hot path.
    const first = this.replay ? run.exchanges[0] : undefined;
    if (first && saysRepeat(first, context)) this.refusedAsHeld++;
  }
}

/** Sends the cases concurrently and judges each as it finishes; only the tallies are kept. */
async function sendAndJudge(
  settings: RunSettings,
  client: TargetClient,
  start: { readonly cases: Iterable<GeneratedCase>; readonly planned: number; readonly serviceAnswered: boolean },
  preflight: Preflight,
  onProgress: Progress,
): Promise<SentCases> {
  const judge = new CaseJudge(settings);
  const sender = new CaseSender(settings, client, judge, start, onProgress);
  const ready = preflight.then((result) => judge.ready(result.judgeContext));
  // An unreachable target rejects the preflight: stop sending at once.
  ready.catch(() => (sender.preflightFailed = true));
  const [dispatched] = await Promise.all([sender.send(start.planned, 0), ready]);
  const { answerTimes } = sender;
  if (!dispatched.cut) return { dispatched, answerTimes, ...judge.judged() };
  const { traits } = await preflight;
  const settle = (cut: TargetStopped): Promise<Outage> => settleCut(cut, { settings, client, judge, sender, traits });
  const send = sender.send.bind(sender);
  const { cut } = dispatched;
  const { outage, ...result } = await afterOutage(
    { ...dispatched, cut },
    start.planned,
    settings.deadline,
    settle,
    send,
  );
  return { ...result, answerTimes, ...judge.judged(), outage };
}

/**
 * Sends the run's cases, each judged as it finishes: one iterator for the whole run, so a run that goes on
 * after an outage sends the cases not yet sent, and one count of the answers' times (dispatch's hang waits,
 * then shrinking's).
 */
class CaseSender {
  readonly answerTimes = new AnswerTimes();
  /** Whether a service answered: gateway pages after it are an outage, not what the URL answers. */
  serviceAnswered: boolean;
  preflightFailed = false;
  private readonly remaining: Iterable<GeneratedCase>;
  private readonly planned: number;

  constructor(
    private readonly settings: RunSettings,
    private readonly client: TargetClient,
    private readonly judge: CaseJudge,
    start: { readonly cases: Iterable<GeneratedCase>; readonly planned: number; readonly serviceAnswered: boolean },
    private readonly onProgress: Progress,
  ) {
    const source = start.cases[Symbol.iterator]();
    this.remaining = { [Symbol.iterator]: () => source };
    this.serviceAnswered = start.serviceAnswered;
    this.planned = start.planned;
  }

  /** Sends up to `count` more cases; `before` of the planned ones are done, `firstOrder` numbers the first. */
  send(count: number, before: number, firstOrder = 0): Promise<DispatchResult> {
    const { settings, judge } = this;
    return dispatch(this.remaining, count, this.client, {
      concurrency: settings.concurrency,
      deadline: settings.deadline,
      answerTimes: this.answerTimes,
      // Orders stay unique across an outage: cases sent again alone are told apart by it.
      firstOrder,
      ...(hungCasesMayWait(settings) ? { timeoutMs: settings.timeoutMs } : {}),
      serviceAnswered: () => this.serviceAnswered,
      shouldStop: () => this.preflightFailed,
      onCaseDone: (run, done) => {
        judge.add(run);
        const progress = { done: before + done, planned: this.planned, failed: judge.failedCases };
        this.onProgress?.({ kind: 'case', ...progress, phase: 'run' });
      },
    });
  }
}

/**
 * Settles the outage that cut the run's cases, and when the target is back (a restart, a deploy), sends the cases
 * it cut again, judged on their answers now.
 */
async function settleCut(
  cut: TargetStopped,
  context: { settings: RunSettings; client: TargetClient; judge: CaseJudge; sender: CaseSender; traits: TargetTraits },
): Promise<Outage> {
  const { settings, client, judge, sender, traits } = context;
  // A URL that never spoke HTTP (another protocol, a certificate not trusted) answers the same later.
  const speaksOtherwise = judge.evidence.answered === 0 && traits.answered !== true && cut.runs.every(metOtherProtocol);
  const waitMs = speaksOtherwise ? 0 : outageWaitMs(cut, settings.timeoutMs);
  // Fresh ids of their own for the requests sent alone, and others for the cut cases sent again after them.
  const outage = await settleOutage(client, cut, { ...settings, waitMs, fresh: createFreshIds() });
  if (outage.judged) judge.add({ ...outage.judged, judgedForOutage: true, ...wentAwayOf(outage) });
  if (!answersAgain(outage)) return outage;
  sender.serviceAnswered = true;
  const again = await sendCutAgain(client, outage, { ...settings, fresh: createFreshIds() });
  for (const run of again) judge.add(run);
  return again.length === 0 ? outage : { ...outage, rejudged: again.length };
}

/**
 * What the run becomes once the target stopped answering: the outage settled, and, when the target is
 * back with none of its requests shown to stop it, the cases not yet sent (once: a second outage ends it).
 */
async function afterOutage(
  dispatched: DispatchResult & { readonly cut: TargetStopped },
  planned: number,
  deadline: number,
  settle: (cut: TargetStopped) => Promise<Outage>,
  send: (count: number, before: number, firstOrder: number) => Promise<DispatchResult>,
): Promise<{ dispatched: DispatchResult; outage: Outage }> {
  const outage = await settle(dispatched.cut);
  const sent = dispatched.sent + judgedOf(outage);
  if (!answersAgain(outage) || Date.now() > deadline) return { dispatched: { ...dispatched, sent }, outage };
  const rest = await send(
    Math.max(0, planned - dispatched.sent - dispatched.cut.runs.length),
    sent,
    dispatched.nextOrder,
  );
  const later = rest.cut ? await settle({ ...rest.cut, after: sent + rest.cut.after }) : undefined;
  const resumed = { ...outage, resumed: rest.sent };
  const throttled = dispatched.throttled + rest.throttled;
  return {
    dispatched: { ...rest, sent: sent + rest.sent + (later ? judgedOf(later) : 0), throttled },
    outage: later ? { ...later, earlier: resumed } : resumed,
  };
}

/** What a case an outage judged carries when the target did not come back: what it had in flight (see `wentAwayVerdict`). */
function wentAwayOf({ cause, suspects }: Outage): Pick<CaseRun, 'wentAway'> {
  return cause.kind === 'gone' && !cause.listening ? { wentAway: { suspects, waitedMs: cause.waitedMs } } : {};
}

/** A run sends a case cut for want of an answer again, alone (a replay reports its one case as it went). */
function aloneResends(
  settings: RunSettings,
  sent: SentCases,
  context: { readonly client: TargetClient; readonly judgeContext: JudgeContext },
): AloneResends {
  return new AloneResends({
    contract: settings.contract,
    client: context.client,
    fresh: settings.fresh,
    judgeContext: context.judgeContext,
    // A run that met only HTML pages (a gateway whose service never answered) has nothing to wait for.
    steadyWaitMs: onlyPages(sent.evidence) ? 0 : Math.min(MAX_GATEWAY_OUTAGE_WAIT_MS, 3 * settings.timeoutMs),
  });
}

/** How a failure's case is run again: its replay string (inside a replay's own path) as a command and as options. */
function replayCommandOf(
  settings: RunSettings,
  target: Target,
): (run: CaseRun, path: readonly number[], alwaysFresh: boolean) => Pick<Failure, 'replay' | 'rerun'> {
  const { replay, fresh } = settings;
  return (run, path, alwaysFresh) => {
    const rerun = rerunOptions(
      settings,
      target,
      formatReplay({
        probe: run.generated.probe.name,
        index: run.generated.index,
        path: [...(replay?.path ?? []), ...path],
        alwaysFresh: alwaysFresh || replay?.alwaysFresh === true,
        nonce: run.nonce ?? fresh.nonce,
      }),
    );
    return { replay: rerunCall(rerun), rerun };
  };
}

/** Reports each shrink step as one more case done and planned. */
function shrinkProgress(
  sent: SentCases,
  context: { readonly planned: number; readonly onProgress: Progress },
): () => void {
  let shrinkSteps = 0;
  return () =>
    context.onProgress?.({
      kind: 'case',
      done: sent.dispatched.sent + ++shrinkSteps,
      planned: context.planned + shrinkSteps,
      failed: sent.failedCases,
      phase: 'shrink',
    });
}

/** Whether a target that stopped answering is up again with none of its requests shown to stop it. */
function answersAgain({ cause }: Outage): boolean {
  return cause.kind === 'restarted' || (cause.kind === 'caused' && !cause.stoppedAgain);
}

/**
 * Whether a case hung on a request may leave its slot to the next (see `dispatch`): not against a target that
 * serves few connections, which would queue what the slot sent meanwhile.
 */
function hungCasesMayWait(settings: Pick<RunSettings, 'connectionLimit'>): boolean {
  return settings.connectionLimit === undefined;
}

/** Longest wait for a target that stopped answering mid-run to answer again (a supervisor restarting it). */
const MAX_OUTAGE_WAIT_MS = 10_000;
/** Longest wait for a service behind a gateway that answers its 502 or 504 pages meanwhile (a deploy). */
const MAX_GATEWAY_OUTAGE_WAIT_MS = 30_000;

/**
 * How long a target that stopped answering is waited for: twice the timeout, at most 10 s; behind a gateway
 * answering for it (a deploy: a new container started and checked before traffic goes to it), three times,
 * at most 30 s, since a deploy longer than the wait is judged as a crash.
 */
function outageWaitMs(cut: TargetStopped, timeoutMs: number): number {
  const behindGateway = cut.runs.some(metGatewayPage);
  return behindGateway
    ? Math.min(MAX_GATEWAY_OUTAGE_WAIT_MS, 3 * timeoutMs)
    : Math.min(MAX_OUTAGE_WAIT_MS, 2 * timeoutMs);
}

/** Whether every answer the run got was an HTML page (none from the service behind a gateway). */
function onlyPages(evidence: SentCases['evidence']): boolean {
  return evidence.answered > 0 && evidence.html === evidence.answered;
}

/** Whether a case met another protocol or a TLS failure: bytes or a handshake from the target, not silence. */
function metOtherProtocol(run: CaseRun): boolean {
  const failure = unansweredOf(run);
  return failure !== undefined && (failure === 'not-http' || isTlsFailure(failure));
}

/** Every check's result in report order: skipped ones as decided, the others shrunk and settled. */
async function settleChecks(
  settings: RunSettings,
  target: Target,
  sent: SentCases,
  context: {
    client: TargetClient;
    arbitraries: ArbitraryCache;
    judgeContext: JudgeContext;
    planned: number;
    onProgress: Progress;
    controlPlant?: PlantDraft;
  },
): Promise<{
  settled: { check: CheckDefinition | undefined; result: CheckResult }[];
  answeredAlone: UnansweredFailures | undefined;
  timeoutsAnswered?: TimeoutsAnsweredAlone;
}> {
  const { replay, fresh } = settings;
  const resends = replay === undefined ? aloneResends(settings, sent, context) : undefined;
  const replayCommand = replayCommandOf(settings, target);
  const onShrinkStep = shrinkProgress(sent, context);
  const hangs = hangShrinking(settings, {
    times: sent.answerTimes,
    timeouts: sent.evidence.transport.get('timeout') ?? 0,
  });
  const checks: { check: CheckDefinition | undefined; result: CheckResult }[] = [];
  const shrinkAnswers: ShrinkAnswers = new Map();
  for (const entry of settings.selection.ordered) {
    if ('skipReason' in entry) {
      checks.push({ check: undefined, result: entry.result });
      continue;
    }
    const result = await checkResult(sent.tallies.get(entry.check) ?? new CheckTally(entry.check), {
      ...context,
      contract: settings.contract,
      fresh,
      deadline: settings.deadline,
      replayCommand,
      shrink: replay === undefined,
      shrinkAnswers,
      onShrinkStep,
      ...(hangs ? { hangs } : {}),
      ...(resends ? { alone: { resends, concurrency: settings.concurrency } } : {}),
    });
    checks.push({ check: entry.check, result });
  }
  const timeoutsAnswered = resends?.timeoutsAnsweredAlone();
  return {
    settled: checks,
    answeredAlone: resends?.notReproduced(),
    ...(timeoutsAnswered ? { timeoutsAnswered } : {}),
  };
}

/** The cases of the probes the selected checks need; the others are generated only to claim ids in order. */
function* sentCases(cases: Iterable<GeneratedCase>, selection: CheckSelection): Generator<GeneratedCase> {
  for (const entry of cases) if (selection.sentProbes.has(entry.probe)) yield entry;
}

/** The report's notes: as text (options in backquotes), and the same notes as data. */
function notesOf(notes: readonly RunNote[]): Pick<Report, 'notes' | 'noteDetails'> {
  return { notes: notes.map((note) => note.message), noteDetails: notes };
}
