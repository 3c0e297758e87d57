/**
 * The mock for frontend work: the project's request pipeline judges each request as the reference
 * does (exact int64, Error bodies, real bearer auth, CORS); Prism decides what only it decides.
 */
export { MOCK_PROBLEMS, mockFailure, type MockProblemKind } from './answers.js';
export { createMockHandler, type MockHandlerSettings } from './mock-handler.js';
export { DEV_TOKEN } from './dev-token.js';
export { createMockServer, type MockServer, type MockServerOptions } from './mock-server.js';
export { parsePrefer, type MockPreferences, type PreferResult } from './prefer.js';
export { createPrismEngine, type PrismDecision, type PrismEngine, type PrismQuestion } from './prism-engine.js';
