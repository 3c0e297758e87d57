/**
 * HTTP/1.1 as the proxy reads it off the wire (RFC 9112): message heads parsed from their bytes,
 * and where each body ends. Bodies are never re-encoded here: framing only says how many of the
 * bytes that follow a head belong to its message, and hands over the decoded content for judging.
 */
import { STATUS_CODES } from 'node:http';

/** The longest head read, as Node's own server allows (16 KiB); a longer one is refused. */
export const MAX_HEAD_BYTES = 16 * 1024;

/** A request's first line and headers, as sent. */
export interface RequestHead {
  readonly method: string;
  readonly target: string;
  /** 1 for HTTP/1.1, 0 for HTTP/1.0. */
  readonly minorVersion: number;
  /** `[name, value, name, value, …]`, names in their own letter case, in order. */
  readonly rawHeaders: string[];
}

/** A response's status line and headers, as sent. */
export interface ResponseHead {
  readonly status: number;
  readonly statusText: string;
  readonly minorVersion: number;
  readonly rawHeaders: string[];
}

const SPACE = 0x20;
const TAB = 0x09;

/** The code units an HTTP token (a header name) is made of: `[!#$%&'*+\-.^_`|~0-9A-Za-z]`, by code. */
const TOKEN_CODES = new Uint8Array(128);
for (const char of "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
  TOKEN_CODES[char.charCodeAt(0)] = 1;

/** Whether a code unit may be in an HTTP token (a header name, a method). */
export function isTokenCode(code: number): boolean {
  return code < 128 && TOKEN_CODES[code] === 1;
}

/**
 * Whether a header value may not hold this code unit (outside tab, 0x20–0x7e and 0x80–0xff): Node
 * refuses to send them, llhttp to read them.
 */
export function isInvalidValueCode(code: number): boolean {
  return (code < 0x20 && code !== TAB) || code === 0x7f || code > 0xff;
}

/** Whether a code unit may be in a request target: `[\x21-\x7e\x80-\xff]`. */
function isTargetCode(code: number): boolean {
  return (code >= 0x21 && code <= 0x7e) || (code >= 0x80 && code <= 0xff);
}

/**
 * The code units of a head the parsers read code by code: the bytes it was decoded from (latin1, one
 * code unit a byte), at least as long as the head, or its own codes when it is only text.
 */
type HeadCodes = Uint8Array | Uint16Array;

/** The code units of `text`, for a head that comes as text only (the wire's heads come with their bytes). */
function codesOf(text: string): Uint16Array {
  const codes = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i++) codes[i] = text.charCodeAt(i);
  return codes;
}

/**
 * The request line `text` starts with, up to `lineEnd`, as `/^(token+) ([\x21-\x7e\x80-\xff]+) HTTP\/1\.([01])$/`
 * reads it (the target holds no space, so each part ends where its characters do), read code by code
 * instead of a regex and its match: method and target, and the minor version; `undefined` when it is not one.
 * Codes are read from `codes` (`text`'s, and maybe more after it), none at or past `lineEnd`.
 */
export function requestLine(
  text: string,
  lineEnd: number,
  codes: HeadCodes = codesOf(text),
): [method: string, target: string, minor: number] | undefined {
  let at = 0;
  while (at < lineEnd && isTokenCode(codes[at] ?? 0)) at++;
  if (at === 0 || at === lineEnd || codes[at] !== SPACE) return undefined;
  const targetStart = at + 1;
  let end = targetStart;
  while (end < lineEnd && isTargetCode(codes[end] ?? 0)) end++;
  if (end === targetStart || lineEnd - end !== 9 || !text.startsWith(' HTTP/1.', end)) return undefined;
  const minor = text.charCodeAt(end + 8) - 0x30;
  if (minor !== 0 && minor !== 1) return undefined;
  return [text.slice(0, at), text.slice(targetStart, end), minor];
}

/**
 * The status line `text` starts with, up to `lineEnd`, as `/^HTTP\/1\.([01]) ([1-9]\d\d)(?: ([^\r\n]*))?$/`
 * reads it, code by code: minor version, status, and the reason phrase when the line has one (after a space).
 */
export function statusLine(
  text: string,
  lineEnd: number,
): [minor: number, status: number, reason: string | undefined] | undefined {
  if (lineEnd < 12 || !text.startsWith('HTTP/1.', 0) || text.charCodeAt(8) !== SPACE) return undefined;
  const minor = text.charCodeAt(7) - 0x30;
  const hundreds = text.charCodeAt(9) - 0x30;
  const tens = text.charCodeAt(10) - 0x30;
  const units = text.charCodeAt(11) - 0x30;
  if ((minor !== 0 && minor !== 1) || !(hundreds >= 1 && hundreds <= 9 && isDigitValue(tens) && isDigitValue(units)))
    return undefined;
  const status = hundreds * 100 + tens * 10 + units;
  if (lineEnd === 12) return [minor, status, undefined];
  if (text.charCodeAt(12) !== SPACE) return undefined;
  for (let at = 13; at < lineEnd; at++) {
    const code = text.charCodeAt(at);
    if (code === 0x0d || code === 0x0a) return undefined;
  }
  return [minor, status, text.slice(13, lineEnd)];
}

function isDigitValue(value: number): boolean {
  return value >= 0 && value <= 9;
}

/** The blank line that ends a head, as bytes: a string needle is encoded again on every search. */
const HEAD_END = Buffer.from('\r\n\r\n', 'latin1');

/** The index just past the blank line that ends a head in `bytes`, or -1 while it has not arrived. */
export function headEnd(bytes: Buffer): number {
  const at = bytes.indexOf(HEAD_END);
  return at < 0 ? -1 : at + 4;
}

/**
 * Parses a request head (without its blank line); a string says why it is not HTTP/1.x. `bytes`,
 * when given, are those `text` was decoded from as latin1 (they may go on past it): the header lines
 * are read off them, an indexed load a code instead of `charCodeAt` on the text, with the same result.
 */
export function parseRequestHead(text: string, bytes?: Uint8Array): RequestHead | string {
  const lineEnd = firstLineEnd(text);
  const codes = bytes ?? codesOf(text);
  const line = requestLine(text, lineEnd, codes);
  if (line === undefined) return 'not an HTTP/1.x request line';
  const rawHeaders = headerLines(text, codes, lineEnd);
  if (typeof rawHeaders === 'string') return rawHeaders;
  return { method: line[0], target: line[1], minorVersion: line[2], rawHeaders };
}

/** Parses a response head (without its blank line), as {@link parseRequestHead}; a string says why it is not HTTP/1.x. */
export function parseResponseHead(text: string, bytes?: Uint8Array): ResponseHead | string {
  const lineEnd = firstLineEnd(text);
  const line = statusLine(text, lineEnd);
  if (line === undefined) return 'not-http';
  const rawHeaders = headerLines(text, bytes ?? codesOf(text), lineEnd);
  if (typeof rawHeaders === 'string') return rawHeaders;
  const [minorVersion, status, reason] = line;
  const statusText = reason || STATUS_CODES[status] || 'unknown';
  return { status, statusText, minorVersion, rawHeaders };
}

function firstLineEnd(text: string): number {
  const end = text.indexOf('\r\n');
  return end < 0 ? text.length : end;
}

/**
 * The header lines of a head, those after the CRLF at `from`, as raw pairs, each value without the
 * spaces and tabs around it; folded or malformed lines are refused. One pass over each line: its name
 * up to the first code that is not a token's (which must be its colon), then its value up to the CRLF.
 * Codes are read from `codes` (`text`'s, and maybe more after: nothing at or past `text.length` is read).
 */
function headerLines(text: string, codes: HeadCodes, from: number): string[] | string {
  const raw: string[] = [];
  const { length } = text;
  for (let at = from + 2; at < length + 2;) {
    let colon = at;
    while (colon < length && isTokenCode(codes[colon] ?? 0)) colon++;
    if (colon === at || colon === length || codes[colon] !== 0x3a) return 'not-http';
    let end = colon + 1;
    let invalid = false;
    for (; end < length; end++) {
      const code = codes[end] ?? 0;
      if (code === 0x0d && end + 1 < length && codes[end + 1] === 0x0a) break;
      if (isInvalidValueCode(code)) invalid = true;
    }
    if (invalid) return 'unforwardable-header';
    let start = colon + 1;
    let stop = end;
    while (start < stop && (codes[start] === SPACE || codes[start] === TAB)) start++;
    while (stop > start && (codes[stop - 1] === SPACE || codes[stop - 1] === TAB)) stop--;
    raw.push(text.slice(at, colon), text.slice(start, stop));
    at = end + 2;
  }
  return raw;
}

/** The first value of a header, by its lower-case name. */
export function headerValue(raw: readonly string[], lowerName: string): string | undefined {
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] ?? '';
    if (name.length === lowerName.length && name.toLowerCase() === lowerName) return raw[i + 1];
  }
  return undefined;
}

/** Every value of a header joined as one list (`a, b`), by its lower-case name. */
function headerList(raw: readonly string[], lowerName: string): string | undefined {
  let joined: string | undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] ?? '';
    if (name.length !== lowerName.length || name.toLowerCase() !== lowerName) continue;
    joined = joined === undefined ? (raw[i + 1] ?? '') : `${joined}, ${raw[i + 1] ?? ''}`;
  }
  return joined;
}

/** How a message's body is delimited: no body, a length, chunks, or the connection's close. */
export type Framing =
  | { readonly kind: 'none' }
  | { readonly kind: 'length'; readonly length: number }
  | { readonly kind: 'chunked' }
  | { readonly kind: 'close' };

const NO_BODY: Framing = { kind: 'none' };

/** Transfer-Encoding and Content-Length of a head, as one framing; a string says why they are contradictory. */
function declaredFraming(raw: readonly string[]): Framing | string | undefined {
  const encoding = headerList(raw, 'transfer-encoding');
  const length = headerList(raw, 'content-length');
  if (encoding !== undefined) {
    if (length !== undefined) return 'both Transfer-Encoding and Content-Length';
    const codings = encoding.split(',').map((coding) => coding.trim().toLowerCase());
    return codings.at(-1) === 'chunked' ? { kind: 'chunked' } : 'close';
  }
  if (length === undefined) return undefined;
  const only = singleValue(length);
  if (only === undefined || !/^\d{1,15}$/.test(only)) return 'an invalid Content-Length';
  return { kind: 'length', length: Number(only) };
}

/** The one value of a list, the same value repeated counting as one (RFC 9112, 6.3); `undefined` when they differ. */
function singleValue(list: string): string | undefined {
  if (!list.includes(',')) return list.trim();
  const values = new Set(list.split(',').map((value) => value.trim()));
  return values.size === 1 ? values.values().next().value : undefined;
}

/** Where a request's body ends (RFC 9112, 6.3): chunks, a length, or no body. */
export function requestFraming(head: RequestHead): Framing | string {
  const framing = declaredFraming(head.rawHeaders);
  if (framing === 'close') return 'a Transfer-Encoding that does not end in chunked';
  if (typeof framing === 'string') return framing;
  return framing === undefined || (framing.kind === 'length' && framing.length === 0) ? NO_BODY : framing;
}

/** Where a response's body ends (RFC 9112, 6.3): none for HEAD, 204 and 304, else chunks, a length or the close. */
export function responseFraming(head: ResponseHead, requestMethod: string): Framing | string {
  if (requestMethod === 'HEAD' || head.status === 204 || head.status === 304) return NO_BODY;
  const framing = declaredFraming(head.rawHeaders);
  if (framing === 'close' || framing === undefined) return { kind: 'close' };
  if (typeof framing === 'string') return 'not-http';
  return framing.kind === 'length' && framing.length === 0 ? NO_BODY : framing;
}

/** Whether a connection stays open after this message (RFC 9112, 9.3). */
export function keepsAlive(raw: readonly string[], minorVersion: number): boolean {
  const connection = headerList(raw, 'connection')?.toLowerCase();
  if (connection !== undefined && /(^|,)\s*close\s*(,|$)/.test(connection)) return false;
  return minorVersion === 1 || (connection !== undefined && /(^|,)\s*keep-alive\s*(,|$)/.test(connection));
}

/** Where a body's decoded content goes, piece by piece (an object, so that no closure is made per read). */
export interface ContentSink {
  add(content: Buffer): void;
}

/** Reads a body off the wire: how many bytes of each chunk belong to it, and its decoded content. */
export interface BodyReader {
  /**
   * Takes what belongs to the body from `bytes`, passing its content to `sink`: how many bytes
   * were taken (the rest belongs to the next message), or -1 when the framing is broken.
   */
  take(bytes: Buffer, sink: ContentSink): number;
  /** The body is complete. */
  readonly done: boolean;
}

/** A reader for a body of this framing (for `close`, every byte until the connection ends). */
export function bodyReader(framing: Framing): BodyReader {
  if (framing.kind === 'chunked') return new ChunkedReader();
  if (framing.kind === 'length') return new LengthReader(framing.length);
  if (framing.kind === 'close') return { take: (bytes, sink) => (sink.add(bytes), bytes.length), done: false };
  return { take: () => 0, done: true };
}

class LengthReader implements BodyReader {
  constructor(private remaining: number) {}

  get done(): boolean {
    return this.remaining === 0;
  }

  take(bytes: Buffer, sink: ContentSink): number {
    const taken = Math.min(this.remaining, bytes.length);
    if (taken === 0) return 0;
    sink.add(taken === bytes.length ? bytes : bytes.subarray(0, taken));
    this.remaining -= taken;
    return taken;
  }
}

const CR = 0x0d;
const LF = 0x0a;

/** The chunked coding (RFC 9112, 7.1), read byte by byte across any split of its chunks. */
class ChunkedReader implements BodyReader {
  private state: 'size' | 'extension' | 'data' | 'data-end' | 'trailer-start' | 'trailer' | 'done' = 'size';
  private size = 0;
  private digits = 0;
  private remaining = 0;

  get done(): boolean {
    return this.state === 'done';
  }

  take(bytes: Buffer, sink: ContentSink): number {
    let i = 0;
    while (i < bytes.length && this.state !== 'done') {
      if (this.state === 'data') {
        const taken = Math.min(this.remaining, bytes.length - i);
        sink.add(bytes.subarray(i, i + taken));
        this.remaining -= taken;
        i += taken;
        if (this.remaining === 0) this.state = 'data-end';
        continue;
      }
      const byte = bytes[i++] ?? 0;
      if (!this.step(byte)) return -1;
    }
    return i;
  }

  /** One byte outside chunk data; false when it breaks the coding. */
  private step(byte: number): boolean {
    switch (this.state) {
      case 'size': {
        const digit = hexDigit(byte);
        if (digit >= 0 && this.digits < 12) return ((this.size = this.size * 16 + digit), ++this.digits, true);
        if (this.digits === 0) return false;
        if (byte === LF) return this.endSizeLine();
        if (byte === CR || byte === 0x3b || byte === 0x20 || byte === 0x09) return ((this.state = 'extension'), true);
        return false;
      }
      case 'extension':
        return byte === LF ? this.endSizeLine() : true;
      case 'data-end':
        if (byte === CR) return true;
        if (byte !== LF) return false;
        this.state = 'size';
        return true;
      case 'trailer-start':
        if (byte === CR) return true;
        this.state = byte === LF ? 'done' : 'trailer';
        return true;
      case 'trailer':
        if (byte === LF) this.state = 'trailer-start';
        return true;
      case 'data':
      case 'done':
        return false;
    }
  }

  private endSizeLine(): boolean {
    this.remaining = this.size;
    this.state = this.size === 0 ? 'trailer-start' : 'data';
    this.size = 0;
    this.digits = 0;
    return true;
  }
}

function hexDigit(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1;
}
