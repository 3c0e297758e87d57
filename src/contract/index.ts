/**
 * The contract: `openapi.yaml` loaded once, its schemas compiled, exact-integer JSON, the Error
 * shapes and codes, and bearer authentication. The reference server, the mock and the runner all
 * use this module; it imports none of them.
 */
export { createBearerCheck, type BearerCheck } from './auth.js';
export {
  DEFAULT_MAX_DEPTH,
  JsonDepthError,
  JsonSyntaxError,
  nestingDepth,
  numberText,
  parseExactJson,
  stringifyExactJson,
} from './exact-json.js';
export { exactInteger, INT32, INT64, integerProblem, type IntegerFormat } from './integers.js';
export { checkMediaType, readNewPlant, type NewPlant, type NewPlantResult } from './new-plant-request.js';
export { PACKAGE_ROOT, PACKAGE_VERSION } from './package-files.js';
export { operationPath, requestPath, routeProblem } from './route.js';
export { calledPlantsPath } from './operations.js';
export { errorBody, problem, PROBLEMS, type Problem, type ProblemKind } from './problems.js';
export {
  describeValue,
  refusesNullAt,
  type JsonSchema,
  type SchemaCheck,
  type Violation,
  type ViolationKind,
} from './schemas.js';
export { takesBearerToken, type ContractAuth } from './security.js';
export { isSuccessStatus, type SuccessStatus } from './success-status.js';
export type { ResponseHeader } from './response-headers.js';
export { carriesError, isRefusalStatus, type RefusalStatus } from './refusal-status.js';
export { type DocumentedAnswer, type DocumentedAnswers, type UncheckedAnswer } from './documented-answers.js';
export {
  operationParameters,
  parameterCheck,
  requiredParameterValues,
  type ParameterSource,
  type OperationParameter,
  type ParameterValues,
} from './parameters.js';
export { type ParameterPlace } from './parameter-declarations.js';
export {
  ContractError,
  DEFAULT_SPEC_PATH,
  inspectDocument,
  loadContract,
  OPERATION,
  validateDocument,
  type Contract,
  type DocumentInspection,
  type DocumentProblem,
} from './spec.js';
export * from './schema/index.js';
