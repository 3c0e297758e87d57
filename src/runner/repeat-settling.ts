import { isRefusalStatus, isSuccessStatus, parseExactJson, type Contract } from '../contract/index.js';
import { caseSalt, plansAt } from './cases.js';
import type { CheckDefinition, JudgeContext } from './check.js';
import { sendSequence, type CaseRun } from './execute.js';
import { alwaysFreshIds, createFreshIds, type FreshIds } from './generate/fresh-ids.js';
import type { Exchange, TargetClient } from './http/client.js';
import type { PlantDraft } from './generate/new-plant.js';
import type { PlannedRequest } from './probe.js';
import type { Counterexample } from './shrink.js';
import { plainPlantWithId } from './target.js';
import { judgeCase, type CaseVerdict } from './verdicts.js';

/** How many other ids a refused plant is sent with before its warning is left as it is. */
const ATTEMPTS = 3;
/** How many warned cases of a check are settled (each costs up to two requests per attempt). */
export const MAX_SETTLED = 6;

export interface RepeatSettlingOptions {
  readonly contract: Contract;
  readonly client: TargetClient;
  readonly fresh: FreshIds;
  readonly judgeContext: JudgeContext;
  /** The valid NewPlant the target accepted in the preflight: the control, with the refused plant's id. */
  readonly controlPlant?: PlantDraft;
}

/**
 * Whether a warned case is a valid NewPlant refused with an id an earlier run may have stored: the
 * warning a target holding an earlier run's plants gets for every such refusal, a defect's included.
 */
export function isRepeatWarning(run: CaseRun, verdict: CaseVerdict, contract: Contract): boolean {
  const exchange = run.exchanges[verdict.exchangeIndex];
  const intent = exchange?.plan.intent;
  return (
    verdict.outcome === 'warn' &&
    intent?.kind === 'valid' &&
    intent.idMayRepeat === true &&
    isRefusalStatus(contract.refusal, exchange?.response.status ?? 0)
  );
}

/**
 * Settles a refusal warned of as a possible repeat ({@link isRepeatWarning}) by asking the target: the
 * same plant is sent again with other ids; accepted, the refusal was the repeat. Refused again, a plain
 * NewPlant (the preflight's kind, which the target accepts) goes at once with the same id: accepted, that id
 * was free, so the plant was refused for what it holds, and the check judges it as on a target holding
 * nothing (a failure; its curl line sends the refused plant, which a fresh target refuses as well, and its
 * reason tells of the control). Refused too, the id was taken: another id is tried.
 * `undefined`: the warning stands (accepted, or nothing conclusive).
 */
export async function settleRepeatWarning(
  check: CheckDefinition,
  run: CaseRun,
  verdict: CaseVerdict,
  options: RepeatSettlingOptions,
): Promise<Counterexample | undefined> {
  const { generated } = run;
  const index = verdict.exchangeIndex;
  // The case's own nonce when it was sent again after an outage: its replay string names that one.
  const fresh = run.nonce === undefined ? options.fresh : createFreshIds(run.nonce);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    // First as its replay string (`~`) renders it, so a failure settled then is replayed byte for byte; another
    // try (its id was taken too) needs other ids, which no replay string names.
    const plans =
      attempt === 0
        ? plansAt(generated, generated.value.value, [], true, { contract: options.contract, fresh })
        : generated.probe.plan(generated.value.value, {
            contract: options.contract,
            fresh: alwaysFreshIds(fresh),
            salt: `${caseSalt(generated.probe, generated.index, [])}:repeat-settling:${attempt}`,
          });
    const exchanges = await sendSequence(options.client, plans);
    const resent = exchanges[index];
    if (resent === undefined || !isRefusalStatus(options.contract.refusal, resent.response.status)) return undefined;
    const control = controlFor(resent.plan, options);
    if (control === undefined) return undefined;
    const [answer] = await sendSequence(options.client, [control]);
    if (answer === undefined || !isSuccessStatus(options.contract.success, answer.response.status)) continue;
    return judgedAsFresh(check, run, [...exchanges, answer], index, options.judgeContext);
  }
  return undefined;
}

/** A plain NewPlant carrying the id the plan's body carries, or `undefined` when the body holds none. */
function controlFor(plan: PlannedRequest, options: RepeatSettlingOptions): PlannedRequest | undefined {
  if (plan.body === null) return undefined;
  let body: unknown;
  try {
    body = parseExactJson(plan.body);
  } catch {
    return undefined;
  }
  const idOf = (key: string) => idText((body as Record<string, unknown>)[key]);
  // Claiming nothing: a claim now, between checks, would move the ids of shrink candidates sent after it.
  return plainPlantWithId(options.contract, alwaysFreshIds(options.fresh), idOf, options.controlPlant);
}

/** An id as `parseExactJson` reads it (a safe integer as a number, a larger one as a bigint), as JSON text. */
function idText(value: unknown): string | undefined {
  if (typeof value === 'bigint') return value.toString();
  return typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : undefined;
}

/**
 * The case judged as on a target that holds nothing of an earlier run: the refused plant's id is known
 * free (the control with it was accepted right after), so its refusal is not excused as a repeat.
 */
function judgedAsFresh(
  check: CheckDefinition,
  run: CaseRun,
  exchanges: Exchange[],
  index: number,
  context: JudgeContext,
): Counterexample | undefined {
  const refused = exchanges[index]!;
  const intent = refused.plan.intent.kind === 'valid' ? { ...refused.plan.intent, idMayRepeat: false } : undefined;
  if (intent === undefined) return undefined;
  const judged = exchanges.map((exchange, at) =>
    at === index ? { ...exchange, plan: { ...exchange.plan, intent } } : exchange,
  );
  const verdict = judgeCase(check, judged, { ...context, targetHoldsEarlierRun: false });
  if (verdict?.outcome !== 'fail') return undefined;
  const control = exchanges[exchanges.length - 1]!;
  const reason = `${verdict.reason ?? ''} (Not a repeat: a plain NewPlant sent with the same id right after was answered ${control.response.status}, so that id was free.)`;
  return { value: run.generated.value, path: [], exchanges, verdict: { ...verdict, reason }, alwaysFresh: true };
}
