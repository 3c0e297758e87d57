import {
  errorCodeOf,
  messageShapeOf,
  exactIds,
  type Exchange,
  defineCheck,
  defineSuite,
  fail,
  isJudgeable,
  isServerError,
  PASS,
  precisionPairs,
  responseJson,
  schemaFields,
  shown,
  validPlants,
  warn,
  integerSpellings,
  schemeSpellings,
  mediaTypeSpellings,
  splitBodies,
  stringEscapes,
  keepAliveAfterRefusal,
  type JudgeContext,
  type Verdict,
} from '../src/runner/suite-kit.js';
import type { Contract } from '../src/contract/index.js';

/**
 * A 400 on an exact fixed id (2^63-1, 0, ...) may be a repeat: an earlier run, or any other client of
 * a shared target, may have stored it. Excused (a warning) when the target rejects repeats and its
 * answer says "repeat" (its own repeat `error` value or message) or it holds an earlier run's plants
 * (the canary); failed when its `error` value says otherwise, or nothing says "repeat".
 */
function repeatExcuse(idMayRepeat: boolean, exchange: Exchange, context: JudgeContext): Verdict | undefined {
  if (exchange.response.status !== 400 || !idMayRepeat || context.targetRejectsRepeats !== true) return undefined;
  const code = errorCodeOf(exchange);
  if (context.repeatErrorCode !== undefined && code !== undefined && code !== context.repeatErrorCode) return undefined;
  const saysRepeat =
    (context.repeatCodeIsDistinct === true && code === context.repeatErrorCode) ||
    (context.repeatMessageShape !== undefined && messageShapeOf(exchange) === context.repeatMessageShape);
  if (!saysRepeat && context.targetHoldsEarlierRun !== true) return undefined;
  return warn(
    `A valid NewPlant with a fixed id (such as 2^63-1 or 0) was answered 400. This target rejects repeated ids and ${saysRepeat ? 'its answer says this id is already stored' : 'holds plants from an earlier plantstore run (it refused the canary plant as a repeat), which may have stored this id'}, so this is not counted as a failure. Against a target that holds no such plant, it would be.`,
  );
}

/**
 * A twin refused only for how its request is written (the scheme name's letter case, a charset on
 * the media type), judged beside its accepted first. HTTP makes both the same request, but the
 * contract writes `Bearer` and `application/json`, and clients writing those are unaffected: a warning.
 */
function refusedTwinVerdict(
  twin: { readonly scheme?: string; readonly mediaType?: string },
  status: number,
  caseExchanges: readonly Exchange[],
): Verdict | undefined {
  const first = caseExchanges.find(
    (other) =>
      other.plan.intent.kind === 'valid' &&
      other.plan.intent.scheme === undefined &&
      other.plan.intent.mediaType === undefined,
  );
  if (first?.response.status !== 200) return undefined;
  if (twin.scheme !== undefined && [400, 401, 403].includes(status)) {
    return warn(
      `A valid NewPlant sent with "Authorization: ${twin.scheme} <token>" was answered ${status}, while the same request with "Bearer" was accepted. RFC 9110 makes the scheme name case-insensitive; clients that write "Bearer", as the contract does, are unaffected.`,
    );
  }
  if (twin.mediaType !== undefined && [400, 415].includes(status)) {
    return warn(
      `A valid NewPlant sent with "Content-Type: ${twin.mediaType}" was answered ${status}, while the same request with "application/json" was accepted. RFC 9110 makes media types case-insensitive with parameters allowed, and RFC 8259 says a charset has no effect; clients that add one (jQuery, for instance) are refused.`,
    );
  }
  return undefined;
}

export const positiveAcceptance = defineCheck({
  id: 'positive-acceptance',
  title: 'Valid NewPlants with valid authentication are accepted',
  rule: 'Rule 1: when a valid NewPlant body is sent with valid authentication, the response is 200 with a Plant body.',
  probes: [
    exactIds,
    validPlants,
    precisionPairs,
    schemeSpellings,
    mediaTypeSpellings,
    stringEscapes,
    splitBodies,
    keepAliveAfterRefusal,
  ],
  judge(exchange, context, caseExchanges) {
    const { plan, response } = exchange;
    const { intent } = plan;
    // Server errors are no-server-error's finding; one defect, one failing check.
    if (
      intent.kind !== 'valid' ||
      intent.spelling !== undefined ||
      !isJudgeable(response) ||
      isServerError(response.status)
    ) {
      return undefined;
    }
    if (response.status === 200) return PASS;
    if (intent.scheme !== undefined || intent.mediaType !== undefined) {
      return refusedTwinVerdict(intent, response.status, caseExchanges);
    }
    const excuse = repeatExcuse(intent.idMayRepeat, exchange, context);
    if (excuse) return excuse;
    const note = intent.note === undefined ? '' : ` ${intent.note}`;
    const refusedToken =
      response.status === 401 || response.status === 403
        ? ' If the token you gave is right, the target refuses valid credentials; if not, fix the token and run again.'
        : '';
    return fail(
      `A valid NewPlant with the token you gave was answered ${response.status}; rule 1 says 200 with a Plant.${note}${refusedToken}`,
    );
  },
});

const plantStrings = new WeakMap<Contract, string[]>();

/** The string properties of the Plant schema: what a 200 answer carries back. */
function echoedFields(contract: Contract): string[] {
  let fields = plantStrings.get(contract);
  if (!fields) {
    fields = schemaFields(contract.schemas.plant)
      .filter((field) => field.type === 'string')
      .map((field) => field.name);
    plantStrings.set(contract, fields);
  }
  return fields;
}

export const echo = defineCheck({
  id: 'echo',
  title: 'The 200 Plant carries the name and tag sent',
  rule: 'POST /plants creates the plant sent: the 200 Plant carries its `name` and `tag` exactly (no trimming or normalisation), and no `tag` when none was sent.',
  probes: [validPlants, stringEscapes, splitBodies],
  judge(exchange, { contract, targetRejectsRepeats, targetHoldsEarlierRun }) {
    const { plan, response } = exchange;
    if (plan.intent.kind !== 'valid' || response.status !== 200 || !isJudgeable(response)) return undefined;
    // A fixed id an earlier run may have stored, on a target that answers repeats with 200: the
    // contract does not say which plant that answer carries (the stored one is a fair choice).
    const surelyNew = targetRejectsRepeats === true && targetHoldsEarlierRun !== true;
    if (plan.intent.idMayRepeat && !surelyNew) return undefined;
    const body = responseJson(exchange);
    if (!body.ok) return fail(`The 200 answer does not carry the plant sent: ${body.reason}.`);
    if (body.value === null || typeof body.value !== 'object' || Array.isArray(body.value)) {
      return fail('The 200 answer does not carry the plant sent: its body is not a JSON object.');
    }
    const plant = body.value as Record<string, unknown>;
    for (const field of echoedFields(contract)) {
      const sent = plan.intent.strings[field];
      const got = plant[field];
      if (sent === undefined && got !== undefined) {
        return fail(`No "${field}" was sent, but the 200 Plant has "${field}": ${shown(got)}.`);
      }
      if (sent !== undefined && got !== sent) {
        return fail(
          `"${field}" was sent as ${shown(sent)} (${sent.length} UTF-16 units) but came back as ${shown(got)}${typeof got === 'string' ? ` (${got.length} units)` : ''}.`,
        );
      }
    }
    return PASS;
  },
});

export const integerSpellingsCheck = defineCheck({
  id: 'integer-spellings',
  title: 'Integers written as 1.0, 1e2 or -0 are accepted as ids',
  rule: 'The id is a JSON Schema (2020-12) integer, and JSON Schema counts any number with a zero fractional part as an integer: `5.0`, `5e0`, `1.2345e4` and `-0` are valid ids.',
  probes: [integerSpellings],
  judge(exchange, context, caseExchanges) {
    const { plan, response } = exchange;
    const { intent } = plan;
    if (intent.kind !== 'valid' || intent.spelling === undefined || !isJudgeable(response)) return undefined;
    // Judged only beside a plain twin that was accepted: the spelling, not the id, must be the difference.
    const twin = caseExchanges.find(
      (other) => other.plan.intent.kind === 'valid' && other.plan.intent.spelling === undefined,
    );
    if (twin?.response.status !== 200) return undefined;
    if (response.status === 200) return PASS;
    if (response.status !== 400) return undefined;
    const excuse = repeatExcuse(intent.idMayRepeat, exchange, context);
    if (excuse) return excuse;
    return fail(
      `A valid NewPlant whose id is written ${intent.spelling} was answered 400, while the same plant with a plain id was accepted; JSON Schema counts ${intent.spelling} as an integer, so rule 1 says 200.`,
    );
  },
});

/** Valid requests: accepted, echoed, whatever the spelling of their integers. */
export default defineSuite({
  name: 'acceptance',
  description: 'Valid NewPlants with valid authentication are created and echoed.',
  checks: [positiveAcceptance, echo, integerSpellingsCheck],
});
