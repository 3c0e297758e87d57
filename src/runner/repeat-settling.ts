import { hash } from 'node:crypto';
import { isRefusalStatus, isSuccessStatus, numberText, parseExactJson, type Contract } from '../contract/index.js';
import { plansAt } from './cases.js';
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

/** A warning settled as a failure; `nonce`: the one its requests' fresh ids came from, for its replay string. */
export type SettledRepeat = Counterexample & { readonly nonce: string };

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
): Promise<SettledRepeat | undefined> {
  const { generated } = run;
  const index = verdict.exchangeIndex;
  // The case's own nonce when it was sent again after an outage: its replay string names that one.
  const caseNonce = run.nonce ?? options.fresh.nonce;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    // Each attempt as a replay string (`~`, a nonce) renders it, so a failure settled then is replayed byte for
    // byte: the first with the case's nonce, another (its id was taken too) with one of its own.
    const nonce = attempt === 0 ? caseNonce : attemptNonce(caseNonce, attempt);
    const fresh = nonce === options.fresh.nonce ? options.fresh : createFreshIds(nonce);
    const plans = plansAt(generated, generated.value.value, [], true, { contract: options.contract, fresh });
    const exchanges = await sendSequence(options.client, plans);
    const resent = exchanges[index];
    if (resent === undefined || !isRefusalStatus(options.contract.refusal, resent.response.status)) return undefined;
    const control = controlFor(resent.plan, options);
    if (control === undefined) return undefined;
    const [answer] = await sendSequence(options.client, [control]);
    if (answer === undefined || !isSuccessStatus(options.contract.success, answer.response.status)) continue;
    const settled = judgedAsFresh(check, run, [...exchanges, answer], index, options.judgeContext);
    return settled === undefined ? undefined : { ...settled, nonce };
  }
  return undefined;
}

/** The nonce of a later settling attempt: derived from the case's, so each attempt's ids differ and are named. */
function attemptNonce(nonce: string, attempt: number): string {
  return hash('sha256', `${nonce}\u0000repeat-settling:${attempt}`, 'hex').slice(0, 16);
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
  const idOf = (key: string) => (typeof body === 'object' && body !== null ? idText(body, key) : undefined);
  // Claiming nothing: a claim now, between checks, would move the ids of shrink candidates sent after it.
  return plainPlantWithId(options.contract, alwaysFreshIds(options.fresh), idOf, options.controlPlant);
}

/**
 * An integer member as JSON text: its digits as written (a double rounds an id past 2^53, which left every such
 * warning unsettled), or a safe integer spelled otherwise (`5.0`) as `String` writes it; else `undefined`.
 */
function idText(body: object, key: string): string | undefined {
  const text = numberText(body, key);
  if (text !== undefined && /^-?(?:0|[1-9]\d*)$/.test(text)) return text;
  const value = (body as Record<string, unknown>)[key];
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
