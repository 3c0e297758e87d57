// The public declarations name Node types (Buffer, node:http servers): the reference makes them
// compile in a consumer whose tsconfig sets no `types` (TypeScript 6 defaults it to []).
/// <reference types="node" preserve="true" />
/**
 * plantstore's programmatic API: everything the CLI does is available here.
 *
 * - the contract: `loadContract`, exact-integer JSON, the Error codes;
 * - the reference implementation: `createReferenceServer`;
 * - the mock for frontend work: `createMockServer`;
 * - the conformance runner: `runConformance`, its suites and report types.
 */
export * from './contract/index.js';
export { DEFAULT_BODY_LIMIT, type RunningServer } from './http/server-kit.js';
export {
  createReferenceHandler,
  createReferenceServer,
  type ReferenceServer,
  type ReferenceServerOptions,
  type RequestLogEntry,
} from './reference/server.js';
export { createMemoryStore, type PlantStore } from './reference/plant-store.js';
export { MOCK_PROBLEMS } from './mock/answers.js';
export { DEV_TOKEN } from './mock/dev-token.js';
export { createMockServer, type MockServer, type MockServerOptions } from './mock/mock-server.js';
export * from './runner/index.js';
export { runCli } from './cli/main.js';
export {
  createReporters,
  isReporterName,
  redact,
  REDACTED,
  renderHtmlReport,
  renderJsonReport,
  renderJunitReport,
  REPORTER_NAMES,
  UnknownReporterError,
  writeReports,
  type CaseProgress,
  type ProgressEvent,
  type Reporter,
  type ReporterGroup,
  type ReporterName,
  type ReporterOptions,
  type ReportOutcome,
  type RunStart,
  type TextSink,
  type WriteReportsOptions,
} from './reports/index.js';
