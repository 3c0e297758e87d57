import { isSuccessStatus, parseExactJson, problem } from '../contract/index.js';
import type { AcceptedNewPlant } from '../contract/new-plant-request.js';
import { documentedValues, objectView } from '../contract/object-view.js';
import type { Outcome } from '../http/pipeline.js';
import type { ServedContract } from '../http/served-contract.js';
import { MOCK_PROBLEMS, mockFailure } from './answers.js';
import { nearPrism } from './near-prism.js';
import type { MockPreferences } from './prefer.js';
import { PRISM_EXCEPTION, type PrismDecision } from './prism-engine.js';

/** What shapes the answer besides Prism's decision. */
export interface AnswerContext {
  readonly served: ServedContract;
  /** The NewPlant the pipeline accepted. */
  readonly accepted: AcceptedNewPlant;
  readonly preferences: MockPreferences;
  /** Whether Prism generated the body (`--dynamic` or `Prefer: dynamic=true`). */
  readonly dynamic: boolean;
  /** The statuses the document lists for POST /plants, for messages. */
  readonly documentedStatuses: readonly string[];
  /** A schema-valid Plant for this request, used where Prism's generated one is not valid. */
  readonly generatedPlant: () => unknown;
  /** Whether the document gives the answer of this status an example of its own. */
  readonly exampled: (status: number) => boolean;
  /** The document's example Prism's `body` is a copy of, with the document's own digits (see `exactExampleText`). */
  readonly exampleText: (status: number, body: unknown) => string | undefined;
}

/** Turns Prism's decision into the mock's answer, closing the gaps between Prism and the contract. */
export function renderDecision(decision: PrismDecision, context: AnswerContext): Outcome {
  if (decision.kind === 'problem') return renderPrismProblem(decision, context);
  const { response } = decision;
  const status = response.statusCode;
  // Prism falls back to the default response's example when the asked status has none of that name.
  const { code, exampleKey } = context.preferences;
  if (code !== undefined && exampleKey !== undefined && status !== code) {
    return exampleNotThere(exampleKey, code);
  }
  if (status === 400) return forcedError();
  if (isSuccessStatus(context.served.contract.success, status) && context.preferences.exampleKey === undefined) {
    const body = context.dynamic
      ? validGeneratedPlant(response.body, context)
      : context.served.plantBody(context.accepted);
    return withSuccessHeaders({ status, body }, context);
  }
  // Without an example of the document's, Prism's body is a placeholder ({"title":"string",
  // "status":-2147483648}): a refusal of the asked status, written to its schema, says what it is.
  if (status >= 400 && context.preferences.exampleKey === undefined && !context.exampled(status)) {
    return forcedError(status);
  }
  const body = context.exampleText(status, response.body) ?? JSON.stringify(response.body ?? null);
  // A success from the document's example names the example's plant, as a generated one does.
  if (isSuccessStatus(context.served.contract.success, status))
    return withSuccessHeaders({ status, body }, context, true);
  return { status, body };
}

/**
 * Prism's generated plant when the Plant schema takes it under every reading of the document; else the compiled
 * schema's plant brought as near Prism's as the schema lets it ({@link nearPrism}), the document's own values first
 * for a member Prism got wrong.
 */
function validGeneratedPlant(body: unknown, context: AnswerContext): string {
  const { contract } = context.served;
  const written = objectView(contract.schemas.plant);
  const text = JSON.stringify(body ?? null);
  return nearPrism(contract.compiled.plant, text, context.generatedPlant, (name) =>
    documentedValues(written, name, contract.exactIntegers),
  );
}

function renderPrismProblem(decision: Extract<PrismDecision, { kind: 'problem' }>, context: AnswerContext): Outcome {
  const documented = context.documentedStatuses.join(', ');
  if (decision.status === 404 && context.preferences.code !== undefined) {
    return mockFailure(
      'unsupportedPreference',
      `Prefer: code=${context.preferences.code} asks for a status the document does not list for POST /plants; use one of ${documented}.`,
    );
  }
  const { code, exampleKey } = context.preferences;
  // Prism's NOT_FOUND once it also tried the default response (a 500, "We tried default response").
  if (code !== undefined && exampleKey !== undefined && decision.detail.includes('#NOT_FOUND')) {
    return exampleNotThere(exampleKey, code);
  }
  if (decision.status === 404 && context.preferences.exampleKey !== undefined) {
    return mockFailure(
      'unsupportedPreference',
      `Prefer: example=${context.preferences.exampleKey.slice(0, 40)} names no example of the document for this response (${decision.detail.replace(/\.$/, '')}).`,
    );
  }
  if (decision.type === PRISM_EXCEPTION && /media type/i.test(decision.detail)) {
    return mockFailure(
      'notAcceptable',
      'The Accept header is not a list of media types: accept application/json (or leave Accept out).',
    );
  }
  if (decision.status === 406) {
    return mockFailure(
      'notAcceptable',
      'The Accept header excludes application/json, the only type POST /plants answers with: accept application/json.',
    );
  }
  if (decision.status >= 500) {
    const fallback = answerWithoutPrism(context);
    if (fallback) return fallback;
  }
  return { failure: problem('unprocessable', `The mock could not answer this request: ${decision.detail}`) };
}

/** `Prefer: code=` with an `example=` the document gives another status's answer. */
function exampleNotThere(exampleKey: string, code: number): Outcome {
  return mockFailure(
    'unsupportedPreference',
    `Prefer: example=${exampleKey.slice(0, 40)} names no example of the document for the ${code} answer of POST /plants; leave code= out, or ask for the status whose example it is.`,
  );
}

/**
 * When Prism cannot build an answer (json-schema-faker and json-schema-sampler do not know every
 * keyword, e.g. `prefixItems` with `items: false`), the mock still answers what was asked for
 * with a body of its own: the echo or a plant from the compiled schema, or the forced Error.
 */
function answerWithoutPrism(context: AnswerContext): Outcome | undefined {
  const { code, exampleKey } = context.preferences;
  if (exampleKey !== undefined) return undefined;
  if (code === 400) return forcedError();
  const { success } = context.served.contract;
  if (code !== undefined && !isSuccessStatus(success, code)) return undefined;
  // No plant of Prism's to start from: the generated one with every member it may leave out left out.
  const body = context.dynamic ? validGeneratedPlant({}, context) : context.served.plantBody(context.accepted);
  return withSuccessHeaders({ status: code ?? success.status, body }, context);
}

/** A success answer with the headers the document requires on it (a 201's `Location`). */
function withSuccessHeaders(
  answer: { status: number; body: string },
  context: AnswerContext,
  madeUp = context.dynamic,
): Outcome {
  // A generated plant (or an example) is the one created: its id, where it has one, is what a Location names.
  const created = madeUp ? generatedOf(answer.body, context.accepted) : context.accepted;
  const headers = context.served.successHeaders(created);
  return headers === undefined ? answer : { ...answer, headers };
}

/** The accepted NewPlant with the generated body in place of what was sent, when that body has an id. */
function generatedOf(body: string, accepted: AcceptedNewPlant): AcceptedNewPlant {
  const parsed = parseExactJson(body);
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed) || !Object.hasOwn(parsed, 'id'))
    return accepted;
  return { ...accepted, parsed: parsed as Readonly<Record<string, unknown>> };
}

/** The documented refusal of this status, asked for with `Prefer: code=`: an Error saying why. */
function forcedError(status = 400): Outcome {
  const noun = status === 400 ? '400 Error' : `${status} answer`;
  const message = `This is the documented ${noun}, sent because the request asked for it with "Prefer: code=${status}"; the request itself was valid.`;
  if (status === 400) return mockFailure('forcedError', message);
  return { failure: { status, code: MOCK_PROBLEMS.forcedError.code, message, headers: {} } };
}
