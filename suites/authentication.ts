import {
  authProbes,
  defineCheck,
  defineSuite,
  fail,
  isJudgeable,
  isServerError,
  isSuccess,
  PASS,
  warn,
} from '../src/runner/suite-kit.js';
import { requestKind } from '../src/runner/defects.js';

export const authEnforced = defineCheck({
  id: 'auth-enforced',
  title: 'Requests without a valid bearer token are refused',
  rule: 'Authentication 1–2: the whole interface is secured with bearerAuth; every request carries `Authorization: Bearer <ACCESS_TOKEN>`. A missing, malformed, foreign-scheme or wrong credential is never answered 2xx (400, 401 and 403 are all accepted).',
  probes: [authProbes],
  notApplicable({ auth, operationPath }) {
    if (auth === 'none')
      return `Not applicable: the document declares no authentication for POST ${operationPath}, so no credential is refused.`;
    if (auth === 'optional')
      return `Not applicable: the document lets POST ${operationPath} be called without a credential (an empty security requirement), so no credential is refused.`;
    return undefined;
  },
  judge({ plan, response }, { contract }) {
    // A document that declares no security, or allows anonymous calls, refuses nothing for a credential.
    if (contract.auth === 'none' || contract.auth === 'optional') return undefined;
    if (plan.intent.kind !== 'auth' || !isJudgeable(response) || isServerError(response.status)) return undefined;
    if (!isSuccess(response.status)) return PASS;
    if (plan.intent.lenient) {
      return warn(
        `A request with ${plan.intent.what} was answered ${response.status}: the token was right, but the header is not "Bearer <token>". Lenient parsing rather than an open door; a client sending the scheme is unaffected.`,
      );
    }
    return fail(
      `A request with ${plan.intent.what} was answered ${response.status}; bearerAuth secures every request.`,
      { defect: `${requestKind(plan, true)} accepted` },
    );
  },
});

/** Bearer authentication guards the operation. */
export default defineSuite({
  name: 'authentication',
  description: 'No plant is created without a valid bearer token.',
  checks: [authEnforced],
});
