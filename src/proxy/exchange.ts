import { isUtf8 } from 'node:buffer';
import type { Exchange } from '../runner/http/client.js';
import { PARSED_RESPONSE, recordedBody, type ParseKeeping, type ParsedBody } from '../runner/judge.js';
import type { PlannedRequest } from '../runner/probe.js';
import type { RecordedRequest, RecordedResponse } from '../runner/report.js';
import type { InferredIntent, ObservedRequest } from './intent.js';
import type { ParameterReader } from './parameters.js';

/** What came back from the upstream for one request, as the proxy forwarded it. */
export interface ObservedResponse {
  /** 0 when no HTTP answer arrived. */
  readonly status: number;
  /** `[name, value, name, value, …]` as the upstream sent them. */
  readonly rawHeaders: readonly string[];
  /** The body's first bytes, up to the judging cap. */
  readonly body: Buffer | null;
  readonly truncated: boolean;
  readonly transportError?: string;
  readonly durationMs: number;
}

/**
 * The `Exchange` the runner would have recorded for this request and answer: the plan (intent,
 * credential described, body as text), the request as curl would send it again (the credential as
 * `$PLANTSTORE_TOKEN`, no other header that may carry a secret, the document's parameters as sent), and
 * the response.
 */
export function observedExchange(
  url: string,
  request: ObservedRequest,
  inferred: InferredIntent,
  response: ObservedResponse,
  parameters?: ParameterReader,
): Exchange {
  const body = request.body.length === 0 && request.bodyBytes === 0 ? null : request.body.toString('utf8');
  const plan: PlannedRequest = {
    method: 'POST',
    path: '/plants',
    auth: inferred.auth,
    contentType: request.contentType,
    body,
    intent: inferred.intent,
  };
  const recorded = recordedResponse(response);
  const exchange = new ObservedExchange(plan, recorded, url, request, inferred, parameters);
  if (inferred.sent !== undefined && recorded.bodyBase64 === undefined && answersWithRequestBytes(request, response))
    exchange[PARSED_RESPONSE] = { ok: true, value: inferred.sent };
  return exchange;
}

/**
 * Whether the answer's body is the request's, byte for byte, and so reads as the same JSON: what a
 * server echoing a compact body whole sends (serve, on a document whose Plant declares each member sent,
 * in the order sent; the bundled Plant has no `id`). The request was read from these bytes as UTF-8
 * (its value is `inferred.sent`), and the answer's text is the same, except that reading the request
 * drops a leading byte-order mark (TextDecoder) and the answer's text keeps it: such bodies are parsed.
 */
function answersWithRequestBytes(request: ObservedRequest, response: ObservedResponse): boolean {
  const { body } = response;
  if (body === null || response.truncated || body.length !== request.body.length) return false;
  const byteOrderMark = body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf;
  return !byteOrderMark && body.equals(request.body);
}

/**
 * An exchange whose recorded request (for reports) is built when first read: the checks judge the
 * plan and the response. A class, not an object literal with a getter, which V8 builds tens of times
 * slower; `request` is on the prototype, so copy it with {@link plainExchange} before walking its keys.
 */
class ObservedExchange implements Exchange, ParseKeeping {
  private recorded: RecordedRequest | undefined;
  /** The answer's parse, kept here rather than in `responseJson`'s `WeakMap`. */
  [PARSED_RESPONSE]: ParsedBody | null = null;

  constructor(
    readonly plan: PlannedRequest,
    readonly response: RecordedResponse,
    private readonly url: string,
    private readonly observed: ObservedRequest,
    private readonly inferred: InferredIntent,
    private readonly parameters: ParameterReader | undefined,
  ) {}

  get request(): RecordedRequest {
    const { url, observed, inferred, plan, parameters } = this;
    return (this.recorded ??= recordedRequest(url, observed, inferred, plan.body, parameters));
  }
}

/** The exchange as a plain object of its three parts (what redaction and reports walk). */
export function plainExchange(exchange: Exchange): Exchange {
  return { plan: exchange.plan, request: exchange.request, response: exchange.response };
}

function recordedRequest(
  url: string,
  request: ObservedRequest,
  inferred: InferredIntent,
  body: string | null,
  parameters: ParameterReader | undefined,
): RecordedRequest {
  const sent = parameters?.sent(request.target, request.rawHeaders);
  const headers: Record<string, string> = { ...sent?.headers };
  if (request.contentType !== undefined) headers['content-type'] = request.contentType;
  const { auth } = inferred;
  if (auth.kind === 'token') headers.authorization = `${auth.scheme} $PLANTSTORE_TOKEN`;
  if (auth.kind === 'token-variant') headers.authorization = '$PLANTSTORE_TOKEN';
  const target = sent === undefined || sent.query === '' ? url : `${url}?${sent.query}`;
  const recorded: RecordedRequest = { method: 'POST', url: target, headers, body };
  if (body === null || isUtf8(request.body)) return recorded;
  return { ...recorded, bodyBase64: request.body.toString('base64') };
}

/** The answer as reports record it: headers as `headerRecord` reads them, the body as text. */
export function recordedResponse(response: ObservedResponse): RecordedResponse {
  const status = response.status;
  const headers = headerRecord(response.rawHeaders);
  const durationMs = Math.round(response.durationMs * 10) / 10;
  const { truncated, transportError } = response;
  const body = recordedBody(response.body, truncated);
  if (!truncated && transportError === undefined && body.bodyBase64 === undefined)
    return { status, headers, body: body.body, durationMs };
  return {
    status,
    headers,
    ...body,
    ...(truncated ? { truncated: true } : {}),
    ...(transportError === undefined ? {} : { transportError }),
    durationMs,
  };
}

/** Raw headers as a recorded response keeps them: lower-case names, a repeated one's values joined by ", ". */
function headerRecord(raw: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = lowerCaseNameAt(i >> 1, raw[i] ?? '');
    const value = raw[i + 1] ?? '';
    const existing = headers[name];
    headers[name] = existing === undefined ? value : `${existing}, ${value}`;
  }
  return headers;
}

/** The names of the last answer's first headers, by position, and their lower-case forms. */
const NAMES_AT: string[] = [];
const LOWER_CASE_AT: string[] = [];
const PLACES_KEPT = 32;

/**
 * `name.toLowerCase()` for the name at `place` in an answer's headers: an upstream sends the same names
 * in the same order, and comparing a name with the last one there costs less than hashing it for a `Map`.
 */
function lowerCaseNameAt(place: number, name: string): string {
  if (name === NAMES_AT[place]) return LOWER_CASE_AT[place] ?? name.toLowerCase();
  const lower = lowerCaseName(name);
  if (place < PLACES_KEPT) {
    NAMES_AT[place] = name;
    LOWER_CASE_AT[place] = lower;
  }
  return lower;
}

/** Header names seen lately, each with its lower-case form (an upstream sends the same few on every answer). */
const LOWER_CASE_NAMES = new Map<string, string>();
const REMEMBERED_NAMES = 64;

/**
 * `name.toLowerCase()`, remembered: each answer's names are new strings cut from its head, and an object
 * keyed by a new string must find it in V8's string table; the remembered form is found there at once.
 */
function lowerCaseName(name: string): string {
  let lower = LOWER_CASE_NAMES.get(name);
  if (lower === undefined) {
    lower = name.toLowerCase();
    if (LOWER_CASE_NAMES.size >= REMEMBERED_NAMES) LOWER_CASE_NAMES.clear();
    LOWER_CASE_NAMES.set(name, lower);
  }
  return lower;
}
