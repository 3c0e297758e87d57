/**
 * The conformance runner: `runConformance` judges any Plant Store implementation against the
 * contract with property-based cases, and resolves to a {@link Report}. Suites are built with
 * `defineSuite` / `defineCheck` from the probes (kinds of generated cases) exported here.
 */
export { runConformance } from './run.js';
export { DEFAULTS as CONFORMANCE_DEFAULTS, type ConformanceOptions, type RunProgress } from './options.js';
export { ConformanceOptionsError, TargetUnreachableError } from './errors.js';
export { formatReplay, parseReplay, type ReplaySpec } from './replay.js';
export { curlLine } from './http/curl.js';
export * from './suite-kit.js';
export {
  isIncomplete,
  reportExitCode,
  type CheckId,
  type CheckResult,
  type CheckStatus,
  type Failure,
  type RecordedRequest,
  type RecordedResponse,
  type Report,
} from './report.js';
export { BUILT_IN_SUITES } from '../../suites/index.js';
