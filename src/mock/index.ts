/**
 * The mock for frontend work: Prism decides every answer from `openapi.yaml`, a thin `node:http`
 * layer makes the answers follow the contract (exact int64, Error bodies, real bearer auth, CORS).
 */
export { MOCK_PROBLEMS, type MockAnswer, type MockProblemKind } from './answers.js';
export { createMockHandler, type MockHandlerSettings } from './mock-handler.js';
export { DEV_TOKEN } from './dev-token.js';
export { createMockServer, type MockServer, type MockServerOptions } from './mock-server.js';
export { parsePrefer, type MockPreferences, type PreferResult } from './prefer.js';
export { createPrismEngine, type PrismDecision, type PrismEngine, type PrismQuestion } from './prism-engine.js';
