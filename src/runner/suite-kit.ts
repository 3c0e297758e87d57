/**
 * Everything a suite module needs to declare checks: `defineSuite`, `defineCheck`, verdicts, the
 * exchange helpers and the probes. The built-in suites import this, never the runner's `run.ts`;
 * the runner in turn never imports the suites, but receives them (`runConformance({ suites })`).
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
  isGatewayAnswer,
  isJsonMediaType,
  isJudgeable,
  isMediaType,
  mediaTypeEssence,
  saysJson,
  isLargeBody,
  isClientError,
  isServerError,
  isSuccess,
  isThrottled,
  messageShapeOf,
  saysRepeat,
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
export { plantIdSlots } from './generate/new-plant.js';
