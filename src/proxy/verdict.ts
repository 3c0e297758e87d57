import { handSentObject } from '../../suites/acceptance.js';
import { BUILT_IN_SUITES } from '../../suites/index.js';
import type { CheckDefinition, JudgeContext } from '../runner/check.js';
import type { Exchange } from '../runner/http/client.js';
import { judgeExchange, type ExchangeVerdict } from '../runner/judge-exchange.js';
import type { InferredIntent } from './intent.js';

/**
 * The built-in checks whose judge needs one exchange and nothing the proxy cannot know. Left out:
 * repeated-id and integer-spellings (they judge a sequence of requests). positive-acceptance is judged
 * only where one exchange settles it (see {@link acceptedAsOneExchangeShows}).
 */
export const PROXY_CHECK_IDS = [
  'positive-acceptance',
  'documented-status',
  'response-schema',
  'content-type',
  'echo',
  'negative-rejection',
  'auth-enforced',
  'no-server-error',
] as const;

/** The built-in check definitions the proxy judges with, in report order. */
export function proxyChecks(): CheckDefinition[] {
  const wanted = new Set<string>(PROXY_CHECK_IDS);
  return BUILT_IN_SUITES.flatMap((suite) => suite.checks)
    .filter((check) => wanted.has(check.id))
    .map((check) => (check.id === 'positive-acceptance' ? acceptedAsOneExchangeShows(check) : check));
}

/**
 * positive-acceptance judged on the answers one exchange settles: the document's success passes, and a
 * valid NewPlant answered with another 2xx or a 3xx (201 where the document gives 200) fails as in
 * `plantstore test`, since no id stored before the proxy started and no wrong token explains a success.
 * A refusal or a server error is left unjudged: the proxy cannot tell those causes apart (its own
 * fresh-id-accepted warns where the session shows enough; no-server-error judges a 5xx).
 */
function acceptedAsOneExchangeShows(check: CheckDefinition): CheckDefinition {
  return {
    ...check,
    judge(exchange, context, caseExchanges) {
      const { status } = exchange.response;
      if (status < 200 || status > 399) return undefined;
      return check.judge(exchange, context, caseExchanges);
    },
  };
}

/** Checks that still judge an answer to a body over the cap: its form and status, never its content. */
const OVER_CAP_CHECKS = new Set(['content-type', 'no-server-error', 'documented-status']);

/** One POST /plants exchange judged: the server's verdicts and the client's side. */
export interface JudgedExchange {
  readonly exchange: Exchange;
  readonly verdicts: readonly ExchangeVerdict[];
  readonly clientBreak?: string;
  /** The request body was over the cap: only the answer's form was judged. */
  readonly overCap: boolean;
  /** The upstream answered before the request body's end: only the answer's form was judged. */
  readonly bodyCut?: boolean;
  /** What the answer's Content-Encoding kept from judging (see {@link AnswerCoding}). */
  readonly coding?: string;
}

/**
 * An answer's Content-Encoding the proxy could not undo: `note` says why; `formOnly` when its body could
 * not be read at all (a coding the proxy does not know), so only the answer's form is judged.
 */
export interface AnswerCoding {
  readonly note: string;
  readonly formOnly: boolean;
}

/** Judges one exchange with the checks that apply to what the request was. */
export function judgeObserved(
  exchange: Exchange,
  inferred: InferredIntent,
  overCap: boolean,
  checks: readonly CheckDefinition[],
  context: JudgeContext,
  bodyCut = false,
  coding?: AnswerCoding,
): JudgedExchange {
  const formOnly = overCap || bodyCut || coding?.formOnly === true;
  const applicable = formOnly ? checks.filter((check) => OVER_CAP_CHECKS.has(check.id)) : checks;
  // The request was parsed once, to read its intent: the echo check compares that value.
  if (inferred.sent !== undefined) handSentObject(exchange.plan, inferred.sent);
  const verdicts = judgeExchange(exchange, applicable, context);
  const { clientBreak } = inferred;
  if (coding !== undefined) return { exchange, verdicts, overCap, clientBreak, bodyCut, coding: coding.note };
  return bodyCut ? { exchange, verdicts, overCap, clientBreak, bodyCut } : { exchange, verdicts, overCap, clientBreak };
}

/** Whether anything in the verdicts is worth keeping: a failure, a warning or the client's break. */
export function hasFindings(judged: JudgedExchange): boolean {
  return judged.clientBreak !== undefined || judged.verdicts.some(({ verdict }) => verdict.outcome !== 'pass');
}

/** The verdicts as one line of text: which side broke the contract, and why. */
export function verdictText(judged: JudgedExchange): string {
  const parts: string[] = [];
  for (const { check, verdict } of judged.verdicts) {
    if (verdict.outcome === 'fail') parts.push(`server broke the contract [${check.id}]: ${verdict.reason ?? ''}`);
  }
  if (judged.clientBreak !== undefined) parts.push(`client broke the contract: ${judged.clientBreak}`);
  for (const { check, verdict } of judged.verdicts) {
    if (verdict.outcome === 'warn') parts.push(`server warning [${check.id}]: ${verdict.reason ?? ''}`);
  }
  if (judged.overCap) parts.push("the body was over the judging cap: streamed whole, only the answer's form judged");
  else if (judged.bodyCut === true)
    parts.push(
      "the upstream answered before the request body's end, which it was not sent: only the answer's form judged",
    );
  if (judged.coding !== undefined) parts.push(judged.coding);
  return parts.length === 0 ? 'conforms' : parts.join(' | ');
}

/** The `Plantstore-Violations` value: which side broke which rule, in ASCII, no reasons. */
export function annotation(judged: JudgedExchange): string {
  const server = judged.verdicts
    .filter(({ verdict }) => verdict.outcome === 'fail')
    .map(({ check }) => `server:${check.id}`);
  const client = judged.clientBreak === undefined ? [] : [`client:${judged.exchange.plan.intent.kind}`];
  const all = [...server, ...client];
  return all.length === 0 ? 'none' : all.join(', ');
}
