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
  type Exchange,
  type Verdict,
} from '../src/runner/suite-kit.js';
import type { Contract } from '../src/contract/index.js';
import { requestKind, undeclaredAuthDefect } from '../src/runner/defects.js';

export const authEnforced = defineCheck({
  id: 'auth-enforced',
  title: 'Requests without a valid bearer token are refused',
  rule: 'Authentication 1–2: the whole interface is secured with bearerAuth; every request carries `Authorization: Bearer <ACCESS_TOKEN>`. A missing, malformed, foreign-scheme or wrong credential is never answered 2xx (400, 401 and 403 are all accepted). Where a document lets POST /plants be called without a credential (`security: []`, or an empty requirement among its alternatives), a valid NewPlant with no Authorization header is not refused with 401 or 403.',
  probes: [authProbes],
  judge(exchange, { contract }, caseExchanges) {
    const { plan, response } = exchange;
    if (plan.intent.kind !== 'auth' || !isJudgeable(response) || isServerError(response.status)) return undefined;
    if (contract.auth === 'none' || contract.auth === 'optional') return anonymousVerdict(exchange, contract);
    if (!isSuccess(response.status)) return PASS;
    if (plan.intent.lenient) {
      return warn(
        `A request with ${plan.intent.what} was answered ${response.status}: the token was right, but the header is not "Bearer <token>". Lenient parsing rather than an open door; a client sending the scheme is unaffected.`,
      );
    }
    return fail(
      `A request with ${plan.intent.what} was answered ${response.status}; bearerAuth secures every request.${afterRightToken(exchange, caseExchanges)}`,
      { defect: `${requestKind(plan, true)} accepted` },
    );
  },
});

/**
 * Why a credential accepted right after the right token on the same connection may be refused on a fresh one:
 * the case's curl line sends both (`--next`), which a single request would not reproduce.
 */
function afterRightToken(exchange: Exchange, caseExchanges: readonly Exchange[]): string {
  const at = caseExchanges.indexOf(exchange);
  const before = at > 0 ? caseExchanges[at - 1] : undefined;
  if (!exchange.plan.sameConnection || before?.plan.intent.kind !== 'valid') return '';
  return " It was sent on one keep-alive connection right after a valid NewPlant with the right token (the curl line sends both). Accepted on a connection of its own too (the curl line's second request alone), the target compares the token ignoring case (Java's equalsIgnoreCase on the whole header, a case-insensitive collation); refused there, the HTTP parser handed back the header it cached from the request before, matched ignoring case (Jetty 9.4's default header cache; HttpConfiguration.setHeaderCacheSize(0) turns it off).";
}

/**
 * On a document that lets POST /plants be called without a credential: a valid NewPlant sent with no
 * Authorization header must not be refused for it. Only that case is judged: a wrong token sent anyway
 * may fairly be refused where anonymous calls are allowed (OAuth servers do).
 */
function anonymousVerdict({ plan, request, response }: Exchange, contract: Contract): Verdict | undefined {
  const { status } = response;
  if (plan.auth.kind !== 'none') return undefined;
  if (isSuccess(status)) return PASS;
  if (status !== 401 && status !== 403) return undefined;
  const why =
    contract.auth === 'none'
      ? 'the document declares no authentication for it'
      : 'the document lets it be called without a credential (an empty security requirement)';
  return fail(
    `A valid NewPlant sent with no Authorization header was answered ${status}; ${why}, so POST ${contract.operationPath} must not demand one.`,
    { defect: undeclaredAuthDefect(contract.auth, status, request.headers) },
  );
}

/** Bearer authentication guards the operation. */
export default defineSuite({
  name: 'authentication',
  description: 'No plant is created without a valid bearer token.',
  checks: [authEnforced],
});
