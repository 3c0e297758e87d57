import { createInstance, getHttpOperationsFromSpec } from '@stoplight/prism-http';
import type { IHttpConfig, IHttpOperationConfig, IHttpRequest, IHttpResponse } from '@stoplight/prism-http';
import type { IHttpOperation } from '@stoplight/types';
import { OPERATION, type Contract } from '../contract/index.js';
import { memoizedMocker, memoizedRouter, silentLogger } from './prism-components.js';
import {
  BoundedMemo,
  inputVerdictKey,
  memoizedInputValidation,
  memoizedSecurityCheck,
  securityVerdictKey,
  VERDICTS_KEPT,
} from './prism-verdicts.js';

/** What the mock asks Prism for one request: the validated body and the caller's preferences. */
export interface PrismQuestion {
  /** A lower-case `Authorization` header that Prism's bearer check can read (`Bearer <token>`). */
  readonly authorization: string;
  readonly accept: string | undefined;
  /** The parsed body, with an id Prism's validator can hold (see `prismSafeBody`). */
  readonly body: unknown;
  readonly preferences: Partial<Pick<IHttpOperationConfig, 'code' | 'exampleKey' | 'dynamic' | 'seed'>>;
}

/** Prism's decision: a response built from the spec, or a problem Prism raised (status and detail). */
export type PrismDecision =
  | {
      readonly kind: 'response';
      readonly response: IHttpResponse;
      /** Request violations Prism found (empty when it judged the request valid). */
      readonly violations: readonly string[];
    }
  | { readonly kind: 'problem'; readonly status: number; readonly type: string; readonly detail: string };

/** The `type` of a problem Prism threw instead of returning. */
export const PRISM_EXCEPTION = 'prism-exception';

/** Prism, prepared once: the one operation resolved, one instance, asked once per request. */
export interface PrismEngine {
  decide(question: PrismQuestion): Promise<PrismDecision>;
}

/** No validation of Prism's own output: it is generated from the very schema it would be checked against. */
const BASE_CONFIG = {
  validateRequest: true,
  validateResponse: false,
  checkSecurity: true,
  errors: false,
  upstreamProxy: undefined,
  isProxy: false,
} as const;

/**
 * Converts the contract's document into Prism's operations once and keeps the instance: Prism's
 * validators are cached by schema identity, so reusing the same operation objects compiles nothing
 * after the first request.
 */
export async function createPrismEngine(contract: Contract, dynamic: boolean): Promise<PrismEngine> {
  // getHttpOperationsFromSpec dereferences in place: give it a copy.
  const operations = await getHttpOperationsFromSpec(structuredClone(contract.document));
  const operation = operations.find((op) => op.method === OPERATION.method && op.path === OPERATION.path);
  if (!operation) throw new Error(`Prism found no ${OPERATION.method.toUpperCase()} ${OPERATION.path} operation`);
  const resources: IHttpOperation[] = [withoutEmptyParameterLists(operation)];
  const prism = createInstance(
    { ...BASE_CONFIG, mock: { dynamic } },
    {
      logger: silentLogger,
      route: memoizedRouter(),
      mock: memoizedMocker(),
      validateInput: memoizedInputValidation(),
      validateSecurity: memoizedSecurityCheck(),
    },
  );

  const [resource] = resources as [IHttpOperation];
  const decisions = new BoundedMemo<PrismDecision>(VERDICTS_KEPT);

  async function ask(input: IHttpRequest, config: IHttpConfig): Promise<PrismDecision> {
    let result: Awaited<ReturnType<ReturnType<typeof prism.request>>>;
    try {
      result = await prism.request(input, resources, config)();
    } catch (error) {
      // Prism throws instead of answering on some inputs (an Accept header that is no media type).
      const detail = error instanceof Error ? error.message : String(error);
      return { kind: 'problem', status: 500, type: PRISM_EXCEPTION, detail };
    }
    if (result._tag === 'Right') {
      const { output, validations } = result.right;
      return { kind: 'response', response: output, violations: validations.input.map((v) => v.message) };
    }
    const failure = result.left as Error & { status?: number; detail?: string };
    return {
      kind: 'problem',
      status: failure.status ?? 500,
      type: failure.name,
      detail: failure.detail ?? failure.message,
    };
  }

  return {
    async decide(question) {
      const input: IHttpRequest = {
        method: OPERATION.method,
        url: { path: OPERATION.path },
        // The layer has already required application/json; without a Content-Length Prism skips its
        // 415 check, which would say the same each time, and still picks the content by media type.
        headers: {
          authorization: question.authorization,
          'content-type': 'application/json',
          ...(question.accept === undefined ? {} : { accept: question.accept }),
        },
        body: question.body,
      };
      const mock = { dynamic, ...definedOnly(question.preferences) };
      const key = mock.dynamic ? undefined : staticDecisionKey(resource, input, mock);
      const known = key === undefined ? undefined : decisions.get(key);
      if (known) return known;
      // A fresh mock object every time: Prism writes the Accept media types into it.
      const decision = await ask(input, { ...BASE_CONFIG, mock });
      if (key !== undefined && decision.kind === 'response' && decision.violations.length === 0) {
        decisions.set(key, decision);
      }
      return decision;
    },
  };
}

/**
 * The class of a request whose static (not generated) answer Prism has already decided: the same
 * classes for its request validation and security check (see prism-verdicts.ts), the same Accept,
 * and the same preferred status and example. Prism's router, validators and static mocker give
 * every request of one class the same decision; only a decision without violations is kept, so an
 * invalid request is always judged afresh. Undefined when a part cannot vouch, or with callbacks.
 */
function staticDecisionKey(
  resource: IHttpOperation,
  input: IHttpRequest,
  mock: NonNullable<IHttpConfig['mock']>,
): string | undefined {
  if (resource.callbacks?.length) return undefined;
  const body = inputVerdictKey(resource, input);
  const security = securityVerdictKey(resource, input);
  if (body === undefined || security === undefined) return undefined;
  // NUL appears in neither part key (JSON escapes it, and it is not whitespace), so it separates them.
  const accept = input.headers?.accept;
  return `${body}\0${security}\0${JSON.stringify(accept ?? null)}${mock.code ?? ''}\0${JSON.stringify(mock.exampleKey ?? null)}`;
}

/**
 * The operation without its empty header, query, path and cookie parameter lists: Prism validates
 * each list it is given (parsing the path template every time) even when there is nothing to check.
 */
function withoutEmptyParameterLists(operation: IHttpOperation): IHttpOperation {
  const request = operation.request;
  if (!request) return operation;
  const kept = Object.fromEntries(
    Object.entries(request).filter(([, value]) => !(Array.isArray(value) && value.length === 0)),
  );
  return { ...operation, request: kept };
}

function definedOnly<T extends object>(record: T): Partial<T> {
  const defined: Partial<T> = {};
  for (const name of Object.keys(record) as (keyof T)[]) if (record[name] !== undefined) defined[name] = record[name];
  return defined;
}
