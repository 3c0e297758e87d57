/**
 * Plain-text renderings of recorded exchanges, shared by the console, JUnit and HTML reporters.
 * Text from a target is hostile: control characters, bidi overrides and lone surrogates are shown
 * as `<U+XXXX>` so they can neither drive a terminal nor hide in a report, and long bodies are cut.
 */
import type { Failure, RecordedRequest, RecordedResponse } from '../runner/report.js';

// Control characters (C0, DEL, C1), format characters (zero-width, bidi marks and overrides, soft
// hyphen, BOM, tag characters), private-use characters (a terminal draws most as nothing, so a name
// of U+E000 looked like ""), line/paragraph separators, the noncharacters U+FFFE/FFFF of every plane
// and lone surrogates.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cs}\p{Zl}\p{Zp}\p{Noncharacter_Code_Point}]/gu;
const INVISIBLE_KEEP_LINES = /[^\P{Cc}\n\t]|[\p{Cf}\p{Co}\p{Cs}\p{Zl}\p{Zp}\p{Noncharacter_Code_Point}]/gu;

/** `text` with invisible and terminal-driving characters spelled `<U+XXXX>`; newlines kept if asked. */
export function printable(text: string, options: { keepLines?: boolean } = {}): string {
  const pattern = options.keepLines === true ? INVISIBLE_KEEP_LINES : INVISIBLE;
  return text.replace(
    pattern,
    (char) => `<U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}>`,
  );
}

/** `text` cut to at most `max` UTF-16 units (never inside a surrogate pair), saying how much was cut. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max);
  if (isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
  return `${text.slice(0, end)}… (${text.length - end} more characters)`;
}

/** One line of at most `max` characters (an ellipsis marks a cut), for tables and messages. */
export function oneLine(text: string, max: number): string {
  const flat = printable(text.replace(/\s*\n\s*/g, ' ').trim());
  if (flat.length <= max) return flat;
  let end = Math.max(0, max - 1);
  if (isHighSurrogate(flat.charCodeAt(end - 1))) end -= 1;
  return `${flat.slice(0, end)}…`;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

/** Limits for rendering an exchange. */
export interface ExchangeLimits {
  /** Longest body shown, in UTF-16 units. */
  readonly maxBody: number;
}

/** The request as an HTTP-like text block: request line, headers, blank line, body. */
export function requestText(request: RecordedRequest, limits: ExchangeLimits): string {
  const lines = [`${printable(request.method)} ${printable(request.url)}`, ...headerLines(request.headers)];
  if (request.body !== null) lines.push('', bodyText(request.body, limits));
  if (request.bodyBase64 !== undefined)
    lines.push(`(not UTF-8; exact bytes as base64: ${truncate(request.bodyBase64, limits.maxBody)})`);
  return lines.join('\n');
}

/** The response as an HTTP-like text block, or what went wrong at the transport level. */
export function responseText(response: RecordedResponse, limits: ExchangeLimits): string {
  const timing = `after ${Math.round(response.durationMs)} ms`;
  const lines =
    response.status === 0
      ? [`no HTTP response (${printable(response.transportError ?? 'unknown transport error')}) ${timing}`]
      : [`HTTP ${response.status} ${timing}`, ...headerLines(response.headers)];
  if (response.status !== 0 && response.transportError !== undefined) {
    lines.push(`(transport error: ${printable(response.transportError)})`);
  }
  if (response.body !== null) lines.push('', bodyText(response.body, limits));
  if (response.truncated === true) lines.push('(body cut short by the runner: the target sent more)');
  return lines.join('\n');
}

/** A failure as text: reason, request, response, curl line and replay command. */
export function failureText(failure: Failure, limits: ExchangeLimits): string {
  return [
    `Reason: ${printable(failure.reason, { keepLines: true })}`,
    '',
    'Request:',
    requestText(failure.request, limits),
    '',
    'Response:',
    responseText(failure.response, limits),
    '',
    // One command a line (a case of several requests has several); no command holds a raw newline or tab.
    `curl: ${printable(failure.curl, { keepLines: true })}`,
    `replay: ${printable(failure.replay)}`,
    ...(failure.candidates ?? []).flatMap((candidate, index) => [
      `candidate ${index + 1} curl: ${printable(candidate.curl, { keepLines: true })}`,
      `candidate ${index + 1} replay: ${printable(candidate.replay)}`,
    ]),
  ].join('\n');
}

function headerLines(headers: Readonly<Record<string, string>>): string[] {
  return Object.entries(headers).map(([name, value]) => `${printable(name)}: ${printable(value)}`);
}

function bodyText(body: string, limits: ExchangeLimits): string {
  if (body === '') return '(empty body)';
  return printable(truncate(body, limits.maxBody), { keepLines: true });
}

/** `count` and the noun, plural unless the count is one: `1 case`, `3 cases`. */
export function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
