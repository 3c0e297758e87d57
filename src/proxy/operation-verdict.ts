import { isUtf8 } from 'node:buffer';
import { parseExactJson } from '../contract/index.js';
import { isJsonEssence, mediaTypeEssence, meetsMediaType } from '../contract/media-types.js';
import { cookiesOf, queryOf } from '../contract/parameters.js';
import type { CompiledSchema } from '../contract/index.js';
import type { CheckDefinition, JudgeContext, Verdict } from '../runner/check.js';
import type { Exchange } from '../runner/http/client.js';
import type { ExchangeVerdict } from '../runner/judge-exchange.js';
import type { Intent, PlannedRequest } from '../runner/probe.js';
import type { RecordedRequest } from '../runner/report.js';
import {
  answerFor,
  documentedKeys,
  type DescribedAnswer,
  type DocumentOperation,
  type MatchedOperation,
} from './document-operations.js';
import { recordedResponse, type ObservedResponse } from './exchange.js';
import { bearerReading, type ObservedRequest } from './intent.js';
import type { JudgedExchange } from './verdict.js';
import { headerValue } from './wire.js';

/** What judging an operation's exchange needs besides the exchange. */
export interface OperationJudging {
  /** The checks the proxy judges with, by id: their verdicts land in their tallies. */
  readonly checks: ReadonlyMap<string, CheckDefinition>;
  readonly context: JudgeContext;
  /** PLANTSTORE_TOKEN, when set: a bearer token other than it is a wrong credential. */
  readonly knownToken: string | undefined;
}

/** How the client broke the operation's request, as the runner names a request's kind. */
interface ClientBreak {
  readonly intent: Intent;
  /** `sent no Authorization header`. */
  readonly said: string;
}

/**
 * Judges one exchange of an operation the document defines besides POST /plants: the request against the
 * operation's security, parameters (path ones too) and body (the client's side), the answer against the responses
 * the document gives it: status, Content-Type, body schema with exact integers, required headers (the server's).
 */
export function judgeOperation(
  matched: MatchedOperation,
  url: string,
  request: ObservedRequest & { readonly method: string },
  response: ObservedResponse,
  judging: OperationJudging,
): JudgedExchange {
  const { operation } = matched;
  const breaks = clientBreaks(matched, request, judging.knownToken);
  const plan: PlannedRequest = {
    method: request.method,
    path: new URL(url).pathname,
    auth: bearerReading(request.authorization, judging.knownToken).auth,
    contentType: request.contentType,
    body: request.bodyBytes === 0 ? null : request.body.toString('utf8'),
    intent: breaks[0]?.intent ?? { kind: 'unpredictable', what: `a request of ${operation.name}` },
  };
  const recorded = recordedRequest(url, request, operation);
  // An answer over the judging cap is a long list, not a flood: its body is left unjudged (`truncated`), not failed.
  const exchange: Exchange = { plan, request: recorded, response: recordedResponse({ ...response, truncated: false }) };
  const clientBreak = breaks.length === 0 ? undefined : breaks.map(({ said }) => said).join('; and ');
  const verdicts = answerVerdicts(operation, exchange, response, judging, clientBroke(breaks));
  return { exchange, verdicts, overCap: false, clientBreak };
}

/** The request as reports record it: the credential as `$PLANTSTORE_TOKEN`, only the declared parameters' headers. */
function recordedRequest(
  url: string,
  request: ObservedRequest & { readonly method: string },
  operation: DocumentOperation,
): RecordedRequest {
  const sent = operation.parameters?.sent(request.target, request.rawHeaders);
  const headers: Record<string, string> = { ...sent?.headers };
  if (request.contentType !== undefined) headers['content-type'] = request.contentType;
  if (request.authorization !== undefined) {
    const scheme = /^\s*(\S+)\s+\S/.exec(request.authorization)?.[1];
    headers.authorization = scheme === undefined ? '$PLANTSTORE_TOKEN' : `${scheme} $PLANTSTORE_TOKEN`;
  }
  const target = sent === undefined || sent.query === '' ? url : `${url}?${sent.query}`;
  const { method } = request;
  const body = request.bodyBytes === 0 ? null : request.body.toString('utf8');
  const recorded: RecordedRequest = { method, url: target, headers, body };
  if (body === null || isUtf8(request.body)) return recorded;
  return { ...recorded, bodyBase64: request.body.toString('base64') };
}

/** Every way the request breaks the operation: its credential, then its parameters, then its body. */
function clientBreaks(
  matched: MatchedOperation,
  request: ObservedRequest,
  knownToken: string | undefined,
): ClientBreak[] {
  const breaks: ClientBreak[] = [];
  const credential = credentialBreak(matched.operation, request, knownToken);
  if (credential !== undefined) breaks.push({ intent: { kind: 'auth', what: credential }, said: `sent ${credential}` });
  const parameter = matched.operation.parameters?.broken(request.target, request.rawHeaders, matched.pathTexts);
  if (parameter !== undefined) {
    const { what } = parameter;
    const intent: Intent = parameter.lenient
      ? { kind: 'unpredictable', what }
      : { kind: 'invalid-parameter', what, parameter: parameter.parameter };
    breaks.push({ intent, said: `sent a request with ${what}` });
  }
  const body = bodyBreak(matched.operation, request);
  if (body !== undefined) breaks.push(body);
  return breaks;
}

/**
 * Why the request meets none of the operation's security alternatives, or `undefined`: a bearer scheme (OAuth 2
 * and OpenID Connect alike) as POST /plants reads one, Basic by its scheme word, an API key by its presence where
 * the scheme puts it. Mutual TLS and unknown schemes are taken as met (the proxy cannot see them).
 */
function credentialBreak(
  operation: DocumentOperation,
  request: ObservedRequest,
  knownToken: string | undefined,
): string | undefined {
  const { security } = operation;
  if (security.length === 0 || security.some(({ auth }) => auth === 'optional')) return undefined;
  const bearer = bearerReading(request.authorization, knownToken).problem;
  const met = (name: string): boolean => schemeMet(operation.schemes[name], request, bearer === undefined);
  if (security.some(({ schemes }) => schemes.every(met))) return undefined;
  if (bearer !== undefined && security.some(({ auth }) => auth === 'bearer' || auth === 'oauth2')) return bearer.what;
  return `no credential for ${security.map(({ schemes }) => schemes.join(' and ')).join(' or ')}`;
}

function schemeMet(scheme: unknown, request: ObservedRequest, bearerMet: boolean): boolean {
  if (scheme === null || typeof scheme !== 'object') return true;
  const { type, scheme: httpScheme, in: place, name } = scheme as Record<string, unknown>;
  if (type === 'oauth2' || type === 'openIdConnect') return bearerMet;
  if (type === 'http') {
    const word = typeof httpScheme === 'string' ? httpScheme.toLowerCase() : '';
    if (word === 'bearer') return bearerMet;
    return new RegExp(`^\\s*${word}\\s+\\S`, 'i').test(request.authorization ?? '');
  }
  if (type !== 'apiKey' || typeof name !== 'string') return true;
  if (place === 'query') return queryOf(request.target).has(name);
  if (place === 'cookie') return cookiesOf(headerValue(request.rawHeaders, 'cookie')).has(name);
  return headerValue(request.rawHeaders, name.toLowerCase()) !== undefined;
}

/** How the body breaks the operation's requestBody: missing when required, another media type, or its schema. */
function bodyBreak(operation: DocumentOperation, request: ObservedRequest): ClientBreak | undefined {
  const { body } = operation;
  if (body === undefined) return undefined;
  const { name } = operation;
  if (request.bodyBytes === 0) {
    if (!body.required) return undefined;
    const what = `no body, which ${name} requires`;
    return { intent: { kind: 'invalid-body', what }, said: `sent ${what}` };
  }
  const { contentType } = request;
  const types = body.mediaTypes.join(', ');
  if (contentType === undefined) {
    const what = 'a body without Content-Type';
    return { intent: { kind: 'media-type', what, missing: true }, said: `sent ${what}; ${name} takes ${types}` };
  }
  if (!meetsMediaType(contentType, body.mediaTypes)) {
    const what = `Content-Type "${contentType.slice(0, 60)}"`;
    return { intent: { kind: 'media-type', what }, said: `sent ${what}; ${name} takes ${types}` };
  }
  if (request.overCap || request.bodyCut === true) return undefined;
  const problem = jsonProblem(body.compiledFor(contentType), contentType, request.body);
  if (problem === undefined) return undefined;
  const what = `a body that ${problem}`;
  return { intent: { kind: 'invalid-body', what }, said: `sent ${what}` };
}

/** Why a JSON body breaks its schema (`is not JSON`, `breaks its schema: field "id" must be …`), else `undefined`. */
function jsonProblem(compiled: CompiledSchema | undefined, contentType: string, bytes: Buffer): string | undefined {
  if (compiled === undefined || !isJsonEssence(mediaTypeEssence(contentType))) return undefined;
  let value: unknown;
  try {
    value = parseExactJson(bytes.toString('utf8'));
  } catch {
    return 'is not JSON';
  }
  const [first] = compiled.check(value);
  return first === undefined ? undefined : `breaks its schema: ${first.message}`;
}

/** Whether the client broke the request surely (not a value lenient servers read as valid). */
function clientBroke(breaks: readonly ClientBreak[]): boolean {
  return breaks.some(({ intent }) => intent.kind !== 'unpredictable');
}

/** A failure of one check: its reason and its defect (no value of the exchange in it). */
interface Failing {
  readonly id: string;
  readonly reason: string;
  readonly defect: string;
}

/**
 * The server's verdicts (`refusable`: the client broke the request, so a 4xx answer to it is not judged): no-server-error as for POST /plants (a 5xx, a dropped or cut answer: nothing else judged),
 * then documented-status, content-type and response-schema (body and required headers), one verdict per check.
 */
function answerVerdicts(
  operation: DocumentOperation,
  exchange: Exchange,
  response: ObservedResponse,
  judging: OperationJudging,
  refusable: boolean,
): ExchangeVerdict[] {
  const noServerError = judging.checks.get('no-server-error');
  const first = noServerError?.judge(exchange, judging.context, [exchange]);
  if (first?.outcome === 'fail' || response.status === 0 || response.status >= 500)
    return noServerError && first ? [{ check: noServerError, verdict: first }] : [];
  const verdicts: ExchangeVerdict[] = noServerError && first ? [{ check: noServerError, verdict: first }] : [];
  // A request the client broke, refused with a 4xx: the refusal is the client's doing, whatever its status or form
  // (Flask's converters answer an id `abc` with their HTML 404 page before the handler that writes the Error runs).
  if (refusable && response.status >= 400) return verdicts;
  const answer = answerFor(operation, response.status);
  // As for POST /plants: a credential refused (401, 403) where one is asked is always an answer HTTP allows; the
  // proxy cannot tell a wrong token from a right one the server refused unless PLANTSTORE_TOKEN is set.
  if (answer === undefined && operation.security.length > 0 && (response.status === 401 || response.status === 403))
    return verdicts;
  const failing: Failing[] =
    answer === undefined
      ? [undocumented(operation, response.status)]
      : [...formFailures(operation, answer, exchange, response), ...headerFailures(operation, answer, exchange)];
  const judged =
    answer === undefined ? ['documented-status'] : ['documented-status', 'content-type', 'response-schema'];
  for (const id of judged) {
    const check = judging.checks.get(id);
    if (check === undefined) continue;
    const failed = failing.find((failure) => failure.id === id);
    const verdict: Verdict = failed
      ? { outcome: 'fail', reason: failed.reason, defect: failed.defect }
      : { outcome: 'pass' };
    verdicts.push({ check, verdict });
  }
  return verdicts;
}

function undocumented(operation: DocumentOperation, status: number): Failing {
  return {
    id: 'documented-status',
    reason: `The target answered ${status} to ${operation.name}, which the document does not document for it (it documents ${documentedKeys(operation)}).`,
    defect: `status ${status} undocumented for ${operation.name}`,
  };
}

/** The answer's Content-Type and body against the response the document gives its status. */
function formFailures(
  operation: DocumentOperation,
  answer: DescribedAnswer,
  exchange: Exchange,
  response: ObservedResponse,
): Failing[] {
  const { status } = response;
  const where = `the document's ${answer.key} response of ${operation.name}`;
  const noBodyAllowed = exchange.plan.method === 'HEAD' || status === 204 || status === 304;
  const bytes = response.body ?? Buffer.alloc(0);
  const contentType = exchange.response.headers['content-type'];
  if (answer.mediaTypes.length === 0) {
    if (bytes.length === 0 || noBodyAllowed) return [];
    const reason = `The ${status} answer has a body (${bytes.length} bytes${contentType === undefined ? '' : `, ${contentType}`}), which ${where} does not give: it describes no content.`;
    return [
      {
        id: 'content-type',
        reason,
        defect: `a body on the ${answer.key} answer of ${operation.name}, which describes none`,
      },
    ];
  }
  if (bytes.length === 0) {
    if (noBodyAllowed || answer.compiled === undefined) return [];
    const reason = `The ${status} answer has no body; ${where} gives one (${answer.mediaTypes.join(', ')}).`;
    return [{ id: 'response-schema', reason, defect: `an empty ${answer.key} answer of ${operation.name}` }];
  }
  if (contentType === undefined || !meetsMediaType(contentType, answer.mediaTypes)) {
    const sent = contentType === undefined ? 'no Content-Type' : `Content-Type "${contentType.slice(0, 60)}"`;
    const reason = `The ${status} answer has ${sent}; ${where} is ${answer.mediaTypes.join(', ')}.`;
    return [
      {
        id: 'content-type',
        reason,
        defect: `${sent === 'no Content-Type' ? 'no' : 'another'} Content-Type on the ${answer.key} answer of ${operation.name}`,
      },
    ];
  }
  if (response.truncated) return [];
  const problem = jsonProblem(answer.compiledFor(contentType), contentType, bytes);
  if (problem === undefined) return [];
  const reason = `The ${status} answer's body ${problem.replace('breaks its schema', `breaks ${where}'s schema`)}.`;
  return [
    {
      id: 'response-schema',
      reason,
      defect: `the ${answer.key} answer of ${operation.name} ${problem.replace(/, got .*$/s, '')}`,
    },
  ];
}

/** The response's required headers, present and valid under their schemas. */
function headerFailures(operation: DocumentOperation, answer: DescribedAnswer, exchange: Exchange): Failing[] {
  const { status, headers } = exchange.response;
  for (const header of answer.headers) {
    const value = headers[header.name.toLowerCase()];
    const problem = value === undefined ? undefined : header.problem(value);
    if (value === undefined && !header.required) continue;
    if (value !== undefined && problem === undefined) continue;
    const what =
      value === undefined ? `has no ${header.name} header` : `has a ${header.name} header that ${problem ?? ''}`;
    const reason = `The ${status} answer of ${operation.name} ${what}; the document's ${answer.key} response ${value === undefined ? 'requires it' : 'gives its schema'}.`;
    return [
      {
        id: 'response-schema',
        reason,
        defect: `the ${answer.key} answer of ${operation.name} ${value === undefined ? `lacks ${header.name}` : `breaks ${header.name}'s schema`}`,
      },
    ];
  }
  return [];
}
