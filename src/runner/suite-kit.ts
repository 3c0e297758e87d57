/**
 * Everything a suite module needs to declare checks: `defineSuite`, `defineCheck`, verdicts, the
 * exchange helpers and the probes. Suites import this (not the runner's index), so loading the
 * built-in suites never runs into the runner itself.
 */
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
} from './check.js';
export type { Exchange } from './http/client.js';
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
} from './judge.js';
export {
  defineProbe,
  PLANTS_PATH,
  type Intent,
  type PlannedRequest,
  type PlanContext,
  type Probe,
  type WrittenAs,
} from './probe.js';
export * from './probes/index.js';
export { schemaFields, type SchemaField } from './generate/schema-fields.js';
