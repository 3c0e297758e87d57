import { problem, type NewPlant } from '../contract/index.js';
import { mockProblemAnswer, problemAnswer, type MockAnswer } from './answers.js';
import type { MockPreferences } from './prefer.js';
import { PRISM_EXCEPTION, type PrismDecision } from './prism-engine.js';

/** What shapes the answer besides Prism's decision. */
export interface AnswerContext {
  /** The plant as the contract read it: exact id, name and tag as sent. */
  readonly plant: NewPlant;
  readonly preferences: MockPreferences;
  /** Whether Prism generated the body (`--dynamic` or `Prefer: dynamic=true`). */
  readonly dynamic: boolean;
  /** The statuses openapi.yaml documents for POST /plants, for messages. */
  readonly documentedStatuses: readonly string[];
}

const SAFE_INTEGER = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * The body Prism validates: the fields its schema constrains, with an id it can hold. Prism bounds
 * int64 to ±(2^53-1) and reads numbers as doubles; the contract has already judged the exact id,
 * so Prism gets one of the same sign within its bounds. Extra properties are left out: the schema
 * allows any, so they cannot change Prism's verdict.
 */
export function prismSafeBody(plant: NewPlant): Record<string, unknown> {
  const id = plant.id > SAFE_INTEGER ? SAFE_INTEGER : plant.id < -SAFE_INTEGER ? -SAFE_INTEGER : plant.id;
  return plant.tag === undefined
    ? { id: Number(id), name: plant.name }
    : { id: Number(id), name: plant.name, tag: plant.tag };
}

/** Turns Prism's decision into the mock's answer, closing the gaps between Prism and the contract. */
export function renderDecision(decision: PrismDecision, context: AnswerContext): MockAnswer {
  if (decision.kind === 'problem') return renderPrismProblem(decision, context);
  const { response, violations } = decision;
  if (violations.length > 0) {
    // Prism's 400 carries a sample Error; the violations are the part a person needs.
    return problemAnswer(problem('constraintViolated', `Invalid NewPlant: ${violations.slice(0, 5).join('; ')}.`));
  }
  if (response.statusCode === 400) {
    return mockProblemAnswer(
      'forcedError',
      'This is the documented 400 Error, sent because the request asked for it with "Prefer: code=400"; the request itself was valid.',
    );
  }
  if (response.statusCode === 200 && !context.dynamic && context.preferences.exampleKey === undefined) {
    const { name, tag } = context.plant;
    return { status: 200, body: JSON.stringify(tag === undefined ? { name } : { name, tag }), headers: {} };
  }
  return { status: response.statusCode, body: JSON.stringify(response.body ?? null), headers: {} };
}

function renderPrismProblem(decision: Extract<PrismDecision, { kind: 'problem' }>, context: AnswerContext): MockAnswer {
  const documented = context.documentedStatuses.join(', ');
  if (decision.status === 404 && context.preferences.code !== undefined) {
    return mockProblemAnswer(
      'unsupportedPreference',
      `Prefer: code=${context.preferences.code} asks for a status openapi.yaml does not document for POST /plants; use one of ${documented}.`,
    );
  }
  if (decision.status === 404 && context.preferences.exampleKey !== undefined) {
    return mockProblemAnswer(
      'unsupportedPreference',
      `Prefer: example=${context.preferences.exampleKey.slice(0, 40)} names no example of openapi.yaml for this response (${decision.detail.replace(/\.$/, '')}).`,
    );
  }
  if (decision.type === PRISM_EXCEPTION && /media type/i.test(decision.detail)) {
    return mockProblemAnswer(
      'notAcceptable',
      'The Accept header is not a list of media types: accept application/json (or leave Accept out).',
    );
  }
  if (decision.status === 406) {
    return mockProblemAnswer(
      'notAcceptable',
      'The Accept header excludes application/json, the only type POST /plants answers with: accept application/json.',
    );
  }
  if (decision.status === 401) {
    return problemAnswer(
      problem('malformedCredentials', 'The Authorization header must be "Authorization: Bearer <token>".'),
    );
  }
  return problemAnswer(problem('unprocessable', `The mock could not answer this request: ${decision.detail}`));
}
