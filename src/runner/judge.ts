import { isUtf8 } from 'node:buffer';
import { numberText, parseExactJson } from '../contract/index.js';
import { isJsonEssence, mediaTypeEssence as essenceOf } from '../contract/media-types.js';
import type { JudgeContext } from './check.js';
import type { Exchange } from './http/client.js';
import type { PlannedRequest } from './probe.js';
import type { RecordedResponse } from './report.js';

/**
 * Helpers checks share to read an exchange. They judge only by the contract and HTTP: no status,
 * code or message this project happens to choose is ever expected of a target.
 */

/** 429 and 503 say the target is throttling or unavailable: notes about the run, not findings. */
export function isThrottled(response: RecordedResponse): boolean {
  return response.status === 429 || response.status === 503;
}

/** 502 and 504 are a gateway's answers: the service behind it failed or did not answer. */
export function isGatewayAnswer(response: Pick<RecordedResponse, 'status'>): boolean {
  return response.status === 502 || response.status === 504;
}

/**
 * How a request went without an answer of the service itself: its transport failure, else a gateway's
 * status (`status 502`); `undefined` when the service answered.
 */
export function unansweredHow(response: RecordedResponse): string | undefined {
  return response.transportError ?? (isGatewayAnswer(response) ? `status ${response.status}` : undefined);
}

/** An HTTP answer arrived completely and is not throttling: something a check can judge. */
export function isJudgeable(response: RecordedResponse): boolean {
  return response.status !== 0 && response.transportError === undefined && !isThrottled(response);
}

/** True for a 2xx status. */
export function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

/**
 * An answer's body as reports record it: its text (`null` when none arrived), and its bytes in base64 when they are
 * not UTF-8, which a JSON text must be ({@link parseBody}). A cut body may end inside a character: only a whole one is
 * known not to be UTF-8.
 */
export function recordedBody(bytes: Buffer | null, truncated: boolean): Pick<RecordedResponse, 'body' | 'bodyBase64'> {
  if (bytes === null) return { body: null };
  const body = bytes.toString('utf8');
  return truncated || isUtf8(bytes) ? { body } : { body, bodyBase64: bytes.toString('base64') };
}

/** True for a 4xx status: the target refused the request (why, the status and body say). */
export function isClientError(status: number): boolean {
  return status >= 400 && status <= 499;
}

/** True for a 5xx status. */
export function isServerError(status: number): boolean {
  return status >= 500 && status !== 503;
}

/** The parsed response body, or why it is not JSON. */
export type ParsedBody =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly reason: string };

const parsed = new WeakMap<RecordedResponse, ParsedBody>();

/**
 * Where an exchange may keep the parse of its own response ({@link ParseKeeping}): the proxy's do, so
 * judging one takes no `WeakMap` entry. Other exchanges have theirs kept beside them, by response.
 */
export const PARSED_RESPONSE: unique symbol = Symbol('parsed response');

/**
 * An exchange that keeps its response's parse itself: `null` until {@link responseJson} parses it, or
 * what its maker knows the parse to be (the proxy's, for an answer whose bytes are the request's).
 */
export interface ParseKeeping {
  [PARSED_RESPONSE]: ParsedBody | null;
}

/** Parses the response body exactly (numbers keep their digits), once per response. */
export function responseJson(exchange: Exchange): ParsedBody {
  const { response } = exchange;
  const keeping = exchange as Exchange & Partial<ParseKeeping>;
  const kept = keeping[PARSED_RESPONSE];
  if (kept === null) return (keeping[PARSED_RESPONSE] = parseBody(response));
  if (kept !== undefined) return kept;
  let result = parsed.get(response);
  if (!result) {
    result = parseBody(response);
    parsed.set(response, result);
  }
  return result;
}

function parseBody(response: RecordedResponse): ParsedBody {
  if (response.truncated) return { ok: false, reason: 'the body was cut at the size limit' };
  if (response.body === null || response.body.trim() === '') return { ok: false, reason: 'the body is empty' };
  if (response.bodyBase64 !== undefined)
    return { ok: false, reason: 'the body is not JSON (its bytes are not UTF-8, which a JSON text is: RFC 8259, 8.1)' };
  try {
    return { ok: true, value: parseExactJson(response.body) };
  } catch (error) {
    return { ok: false, reason: `the body is not JSON (${error instanceof Error ? error.message : String(error)})` };
  }
}

/** `application/json` in any letter case, with or without parameters (RFC 9110 media types). */
export function isJsonMediaType(contentType: string | undefined): boolean {
  return isMediaType(contentType, 'application/json');
}

/**
 * Whether a Content-Type is of the media type whose essence a document gives (`application/problem+json`
 * for a `content` key `application/problem+json; charset=utf-8`): one value, the same type and subtype
 * in any letter case, any parameters (RFC 9110, 8.3.1).
 */
export function isMediaType(contentType: string | undefined, essence: string): boolean {
  if (contentType === undefined) return false;
  const reading = readingOf(contentType);
  return !reading.several && reading.essence === essence;
}

/** A media type's essence (see the contract's `mediaTypeEssence`), worked out once per distinct value. */
export function mediaTypeEssence(mediaType: string): string {
  return readingOf(mediaType).essence;
}

/** Whether a Content-Type says JSON: `application/json` or a `+json` type, any parameters. */
export function saysJson(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const reading = readingOf(contentType);
  return !reading.several && reading.json;
}

/**
 * Whether a Content-Type holds more than one value: repeated header lines arrive joined by commas,
 * and the field takes a single media type (RFC 9110, 8.3); a comma inside a quoted parameter is fine.
 */
export function hasSeveralValues(contentType: string): boolean {
  return readingOf(contentType).several;
}

/** What one Content-Type value says: whether it holds several values, its essence, and whether that says JSON. */
interface ContentTypeReading {
  readonly several: boolean;
  readonly essence: string;
  readonly json: boolean;
}

/** Readings of the first distinct values, kept: a target answers with a few, and every exchange asks. */
const readings = new Map<string, ContentTypeReading>();
const READINGS_KEPT = 64;

/**
 * The last two values read and their readings, compared before the `Map`: an answer's Content-Type is a
 * new string each time, which a `Map` must hash, and judging one asks about it and the document's type.
 */
let lastValue: string | undefined;
let lastReading: ContentTypeReading | undefined;
let otherValue: string | undefined;
let otherReading: ContentTypeReading | undefined;

function readingOf(contentType: string): ContentTypeReading {
  if (contentType === lastValue && lastReading !== undefined) return lastReading;
  if (contentType === otherValue && otherReading !== undefined) return otherReading;
  const reading = mapReadingOf(contentType);
  otherValue = lastValue;
  otherReading = lastReading;
  lastValue = contentType;
  lastReading = reading;
  return reading;
}

function mapReadingOf(contentType: string): ContentTypeReading {
  let reading = readings.get(contentType);
  if (reading === undefined) {
    const essence = essenceOf(contentType);
    reading = {
      several: contentType.replace(/"(?:[^"\\]|\\.)*"/g, '""').includes(','),
      essence,
      json: isJsonEssence(essence),
    };
    if (readings.size < READINGS_KEPT) readings.set(contentType, reading);
  }
  return reading;
}

/** A value for a message: JSON, cut to a readable length. */
export function shown(value: unknown, max = 80): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : String(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The `error` value of a 400 Error body exactly as written, or `undefined` when there is none. */
export function errorCodeOf(exchange: Exchange): string | undefined {
  const body = errorObjectOf(exchange);
  const value = body?.error;
  if (body === undefined || typeof value !== 'number') return undefined;
  return numberText(body, 'error') ?? String(value);
}

/** The answer's body when it is a JSON object (an Error, if the target keeps the contract). */
function errorObjectOf(exchange: Exchange): Record<string, unknown> | undefined {
  const body = responseJson(exchange);
  if (!body.ok || body.value === null || typeof body.value !== 'object') return undefined;
  return body.value as Record<string, unknown>;
}

/**
 * The `message` of an Error answer (an RFC 9457 problem's `detail`) with every number written `#`: the same for two answers that say
 * the same thing about different ids ("A plant with id # already exists").
 */
export function messageShapeOf(exchange: Exchange): string | undefined {
  const body = errorObjectOf(exchange);
  // An RFC 9457 problem (ASP.NET Core, Spring's ProblemDetail) says it in `detail`, FastAPI's HTTPException too.
  const message = typeof body?.message === 'string' ? body.message : body?.detail;
  return typeof message === 'string' && message.trim() !== '' ? message.replace(/-?\d+/g, '#') : undefined;
}

/** Bodies above this may meet a server's size limit: the contract shows none, HTTP answers them 413. */
export const LARGE_BODY_BYTES = 16 * 1024;

/** Whether a request's body is large enough that a 413 is HTTP's fair answer to it. */
export function isLargeBody(plan: PlannedRequest): boolean {
  return plan.body !== null && Buffer.byteLength(plan.body) > LARGE_BODY_BYTES;
}

/**
 * Whether an answer is the target's own to a repeated id, as the preflight learned it: its distinct `error` value,
 * or its repeat message.
 */
export function saysRepeat(exchange: Exchange, context: JudgeContext): boolean {
  if (context.repeatCodeIsDistinct === true && errorCodeOf(exchange) === context.repeatErrorCode) return true;
  return context.repeatMessageShape !== undefined && messageShapeOf(exchange) === context.repeatMessageShape;
}
