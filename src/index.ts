// The public declarations name Node types (Buffer, node:http servers): the reference makes them
// compile in a consumer whose tsconfig sets no `types` (TypeScript 6 defaults it to []).
/// <reference types="node" preserve="true" />
/**
 * plantstore's programmatic API: everything the CLI does is available here, by name.
 *
 * - the contract: `loadContract`, the schema compiler, exact-integer JSON, the Error codes, redaction;
 * - the reference implementation: `createReferenceServer`;
 * - the mock for frontend work: `createMockServer` (Prism loads only when a mock starts);
 * - the proxy in front of a real implementation: `createProxyServer`;
 * - the conformance runner: `runConformance`, the built-in suites, what a suite is made of, reporters.
 *
 * The list is explicit and recorded in api/plantstore.api.md, which `npm test` compares against.
 */
import type { MockServer, MockServerOptions } from './mock/mock-server.js';
import { ConformanceOptionsError } from './runner/errors.js';
import { WHOLE_NUMBER_OPTIONS, type ConformanceOptions, type OptionName } from './runner/options.js';
import type { Report } from './runner/report.js';
import { runConformance as runSuites } from './runner/run.js';

// The contract.
export {
  ContractError,
  DEFAULT_SPEC_PATH,
  JsonDepthError,
  JsonSyntaxError,
  loadContract,
  PACKAGE_VERSION,
  parseExactJson,
  PROBLEMS,
  stringifyExactJson,
  type Contract,
  type DocumentProblem,
  type Problem,
  type ProblemKind,
  type Violation,
  type ViolationKind,
} from './contract/index.js';
export { redact, redactValue, REDACTED, type Secrets } from './contract/secrets.js';
export { compileSchema, UnsupportedSchemaError, type CompiledSchema, type ExactJson } from './contract/schema/index.js';

// The servers.
export type { RunningServer, RequestLogEntry } from './http/server-kit.js';
export {
  createReferenceHandler,
  createReferenceServer,
  type ReferenceServer,
  type ReferenceServerOptions,
} from './reference/server.js';
export { createMemoryStore, type PlantStore } from './reference/plant-store.js';
export { MOCK_PROBLEMS } from './mock/answers.js';
export { DEV_TOKEN } from './mock/dev-token.js';
export type { MockServer, MockServerOptions } from './mock/mock-server.js';

// The runner.
export { DEFAULTS as CONFORMANCE_DEFAULTS, type ConformanceOptions, type OptionName } from './runner/options.js';
export { ConformanceOptionsError, TargetUnreachableError } from './runner/errors.js';
export type { CaseProgress, Reporter, RunEvent, RunStart } from './runner/events.js';
export { renderOptionNames } from './runner/option-text.js';
export {
  type BaselineComparison,
  type CheckId,
  type CheckResult,
  type CheckStatus,
  type CouldNotJudge,
  type Failure,
  type FailureCandidate,
  type Finding,
  type RecordedRequest,
  type RecordedResponse,
  type Report,
  type Rerun,
  type RunNote,
  type RunVerdict,
} from './runner/report.js';

// What suites are made of.
export {
  defineCheck,
  defineSuite,
  fail,
  PASS,
  warn,
  type CheckDefinition,
  type JudgeContext,
  type Suite,
  type Verdict,
  type VerdictDetails,
} from './runner/check.js';
export type { Exchange } from './runner/http/client.js';
export {
  errorCodeOf,
  hasSeveralValues,
  isJsonMediaType,
  isJudgeable,
  isLargeBody,
  isServerError,
  isSuccess,
  isThrottled,
  messageShapeOf,
  responseJson,
  shown,
  type ParsedBody,
} from './runner/judge.js';
export type { FreshIds } from './runner/generate/fresh-ids.js';
export {
  defineProbe,
  PLANTS_PATH,
  type Intent,
  type PlanContext,
  type PlannedRequest,
  type Probe,
  type WrittenAs,
} from './runner/probe.js';
export {
  authProbes,
  boundaryPlants,
  exactIds,
  integerSpellings,
  invalidBodies,
  keepAliveAfterRefusal,
  mediaTypeSpellings,
  precisionPairs,
  repeatedIds,
  schemeSpellings,
  splitBodies,
  stringEscapes,
  unpairedSurrogates,
  validPlants,
  wrongMediaTypes,
} from './runner/probes/index.js';
export { schemaFields, type SchemaField } from './runner/generate/schema-fields.js';

// Reports.
export { isIncomplete, reportExitCode } from './reports/outcome.js';
export {
  createReporters,
  isReporterName,
  renderHtmlReport,
  renderJsonReport,
  renderJunitReport,
  REPORTER_NAMES,
  UnknownReporterError,
  writeReports,
  type ReporterGroup,
  type ReporterName,
  type ReporterOptions,
  type ReportOutcome,
  type TextSink,
  type WriteReportsOptions,
} from './reports/index.js';

// The proxy judges with the suites' checks, so it too comes after what suites are made of.
export { createProxyServer, type ProxyOptions, type ProxyServer } from './proxy/server.js';

// The built-in suites come last: a suite of the user's listed in suites/index.ts imports this entry
// back, and finds everything above already loaded.
import { BUILT_IN_SUITES } from '../suites/index.js';
export { BUILT_IN_SUITES };

// The command line, callable from code.
export { runCli } from './cli/main.js';
export type { CliIo } from './cli/command.js';

/**
 * Runs the conformance suites against a Plant Store implementation and resolves to the report:
 * the built-in suites unless `options.suites` names others, the embedded reference unless
 * `options.baseUrl` names a target. Problems of the target are findings inside the report; only an
 * unreachable target (`TargetUnreachableError`) or contradictory options (`ConformanceOptionsError`)
 * reject.
 */
export async function runConformance(options: ConformanceOptions = {}): Promise<Report> {
  refuseOutOfRange(options);
  return runSuites({ ...options, suites: options.suites ?? BUILT_IN_SUITES });
}

// The CLI's parser bounds these flags; given in code they reached undici (concurrency -2: 'invalid
// connections') or the generator (runs NaN: every check skipped) as they were, and a seed of 1.5 was
// reported with a replay line the CLI refuses.
function refuseOutOfRange(options: ConformanceOptions): void {
  for (const [name, [min, max]] of Object.entries(WHOLE_NUMBER_OPTIONS)) {
    const value = options[name as keyof typeof WHOLE_NUMBER_OPTIONS];
    if (value === undefined || (Number.isInteger(value) && value >= min && value <= max)) continue;
    throw new ConformanceOptionsError(
      `\`${name}\` must be a whole number from ${min} to ${max}, got ${String(value)}.`,
      name as OptionName,
    );
  }
}

/**
 * Starts the mock for frontend work (see `MockServerOptions`). Prism, which decides the mock's
 * examples and negotiation, loads on the first call, so importing plantstore never loads it.
 */
export async function createMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const mock = await import('./mock/mock-server.js');
  return mock.createMockServer(options);
}
