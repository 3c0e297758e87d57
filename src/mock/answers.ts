import type { Outcome } from '../http/pipeline.js';

/**
 * Failure classes only the mock has, each with its own stable int32 code (the 4000s, beside the
 * contract's 1000s–3000s), answered as the document's 400 Error.
 */
export const MOCK_PROBLEMS = {
  forcedError: { code: 4001, status: 400, title: 'The documented error, asked for with Prefer: code=400' },
  unsupportedPreference: { code: 4002, status: 400, title: 'Prefer asks for something openapi.yaml does not have' },
  notAcceptable: { code: 4003, status: 400, title: 'Accept excludes application/json, the only documented type' },
} as const satisfies Record<string, { code: number; status: number; title: string }>;

/** A failure class of the mock, e.g. `forcedError`. */
export type MockProblemKind = keyof typeof MOCK_PROBLEMS;

/** The answer to a failure class of the mock: a 400 Error whose message says what to do. */
export function mockFailure(kind: MockProblemKind, message: string): Outcome {
  const { code, status } = MOCK_PROBLEMS[kind];
  return { failure: { status, code, message, headers: {} } };
}
