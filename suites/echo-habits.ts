import { CUT_AT_NUL, TRIMMED } from '../src/runner/defects.js';

export { CUT_AT_NUL, TRIMMED };

/**
 * Changes a server makes to every string it echoes, whatever the field: a reader's or writer's habit
 * (Django REST framework's `CharField` trimming, Perl's strict UTF-8 encoder under Mojolicious, cJSON's C
 * strings), so one root cause, one finding, named without the field. `undefined` for any other difference.
 */
export function stringHabit(sent: unknown, got: unknown): string | undefined {
  if (typeof sent !== 'string' || typeof got !== 'string' || sent === got) return undefined;
  if (cutAtNul(sent, got)) return CUT_AT_NUL;
  if (trimmedOf(sent, got)) return TRIMMED;
  if (got === sent.replace(NONCHARACTER, '\uFFFD')) return NONCHARACTERS_REPLACED;
  if (nonAsciiReplaced(sent, got)) return NON_ASCII_REPLACED;
  if (
    got.includes('&') &&
    got.replace(HTML_ENTITY, (entity) => ENTITY_CHARS.get(entity.toLowerCase()) ?? entity) === sent
  )
    return HTML_ESCAPED;
  return undefined;
}

/**
 * Whether `got` is `sent` as a server's own code changes a string (a habit above, another letter case, another
 * Unicode normalisation form, a cut to a length of at least 3 code points): what no plant stored by an earlier
 * run would show by chance, so it is judged even where the answer may carry a stored plant.
 */
export function changedByServer(sent: string, got: string): boolean {
  if (sent === got) return false;
  if (stringHabit(sent, got) !== undefined) return true;
  if (sent.toLowerCase() === got.toLowerCase() || sent.toUpperCase() === got.toUpperCase()) return true;
  if (NORMALISATION_FORMS.some((form) => sent.normalize(form) === got.normalize(form))) return true;
  return [...got].length >= 3 && sent.startsWith(got);
}

const NORMALISATION_FORMS = ['NFC', 'NFKC'] as const;

export const NONCHARACTERS_REPLACED = 'noncharacters in strings written as U+FFFD';
export const NON_ASCII_REPLACED = 'characters beyond ASCII in strings written as "?" (a charset other than UTF-8)';
export const HTML_ESCAPED = 'strings HTML-escaped (& < > " \' written as entities)';

/**
 * The entities HTML escapers write for `& < > " '`: named (`&amp;`, `&quot;`, `&apos;`), decimal (Go's
 * html/template `&#34;` `&#39;`, PHP's `&#039;`) and hexadecimal (Python's html.escape `&#x27;`).
 */
const ENTITY_CHARS = new Map<string, string>();
for (const [char, name] of [
  ['&', 'amp'],
  ['<', 'lt'],
  ['>', 'gt'],
  ['"', 'quot'],
  ["'", 'apos'],
] as const) {
  const code = char.charCodeAt(0);
  ENTITY_CHARS.set(`&${name};`, char);
  for (const zeros of ['', '0', '00']) {
    ENTITY_CHARS.set(`&#${zeros}${code};`, char);
    ENTITY_CHARS.set(`&#x${zeros}${code.toString(16)};`, char);
  }
}
const HTML_ENTITY = /&#?[a-z0-9]+;/gi;

/**
 * What the trimming functions of common stacks cut: JavaScript's `trim` (`\s`, U+FEFF included), Python's
 * `str.strip` (U+001C..U+001F and U+0085 too), Go's `strings.TrimSpace`, Java's `trim` (every character up
 * to U+0020). Each cuts fewer than all of these, so what is cut is judged, not what is left.
 */
// eslint-disable-next-line no-control-regex -- control characters are what Java's trim and Python's strip cut
const CUT = /^[\s\u0000-\u0020\u0085]*$/;

// eslint-disable-next-line no-control-regex -- the characters CUT judges, at either end
const CUT_ENDS = /^[\s\u0000-\u0020\u0085]+|[\s\u0000-\u0020\u0085]+$/g;

/** What JavaScript's `trim`, Python's `strip`, Go's `TrimSpace` and Java's `trim` all cut. */
const EVERY_TRIM = /^[\t\n\v\f\r ]$/;

/** A JSON string token, and the colon after it when it names a member. */
const STRING_TOKEN = /"(?:[^"\\]|\\.)*"(\s*:)?/g;

/**
 * The JSON text with the whitespace at the ends of every string value cut (member names kept), as a
 * reader that trims what it reads sees it (pydantic's `str_strip_whitespace`); `undefined` when no
 * string changes or the text is not JSON.
 */
export function trimmedJsonText(text: string): string | undefined {
  // An invalid body may not be JSON at all: its strings are not known.
  try {
    JSON.parse(text);
  } catch {
    return undefined;
  }
  let changed = false;
  const trimmed = text.replace(STRING_TOKEN, (token, colon: string | undefined) => {
    if (colon !== undefined) return token;
    const value = JSON.parse(token) as string;
    const cut = value.replace(CUT_ENDS, '');
    if (cut === value) return token;
    changed = true;
    return JSON.stringify(cut);
  });
  return changed ? trimmed : undefined;
}

/** Whether `got` is `sent` with some of the whitespace at its start, its end or both cut off. */
function trimmedOf(sent: string, got: string): boolean {
  for (let at = sent.indexOf(got); at >= 0; at = sent.indexOf(got, at + 1)) {
    const [before, after] = [sent.slice(0, at), sent.slice(at + got.length)];
    // A cut that left whitespace every trimmer cuts at that end is a cut to a length, not trimming.
    const leftCuttable =
      (before !== '' && EVERY_TRIM.test(got[0] ?? '')) || (after !== '' && EVERY_TRIM.test(got.at(-1) ?? ''));
    if (CUT.test(before) && CUT.test(after) && !leftCuttable) return true;
    if (got === '') return false;
  }
  return false;
}

// eslint-disable-next-line no-control-regex -- every character beyond ASCII, a surrogate pair as one
const BEYOND_ASCII = /[^\u0000-\u007f]/gu;
const UTF8 = new TextEncoder();
const WIDTHS: readonly ((char: string) => number)[] = [
  () => 1,
  (char) => char.length,
  (char) => UTF8.encode(char).length,
];

/**
 * Whether `got` is `sent` with every character beyond ASCII written as `?` or U+FFFD: once a code point or a
 * UTF-16 unit (an encoder of an ASCII charset: Java's `getBytes()` under LANG=POSIX), or once a UTF-8 byte (the
 * body read in such a charset: Java's `new String(bytes)`). Every string of every field shows it alike.
 */
function nonAsciiReplaced(sent: string, got: string): boolean {
  if (sent.search(BEYOND_ASCII) < 0) return false;
  return ['?', '\uFFFD'].some((mark) =>
    WIDTHS.some((width) => sent.replace(BEYOND_ASCII, (char) => mark.repeat(width(char))) === got),
  );
}

/**
 * Whether `got` is `sent` up to its first U+0000: a C string's end (cJSON's `valuestring`, `strlen`, `%s`). Judged
 * before trimming: a cut there that leaves only whitespace behind (`"\u0000"` echoed `""`) is the same cut, and
 * naming it trimming would make a second finding of one habit (Java's `trim`, which cuts U+0000 as it cuts spaces,
 * shows itself at the start of a string, where a C string keeps everything).
 */
function cutAtNul(sent: string, got: string): boolean {
  const at = sent.indexOf('\u0000');
  return at >= 0 && got === sent.slice(0, at);
}

/** Unicode noncharacters: U+FDD0..U+FDEF and the last two code points of every plane (U+FFFE, U+10FFFF). */
const NONCHARACTER =
  /[\uFDD0-\uFDEF\uFFFE\uFFFF]|[\uD83F\uD87F\uD8BF\uD8FF\uD93F\uD97F\uD9BF\uD9FF\uDA3F\uDA7F\uDABF\uDAFF\uDB3F\uDB7F\uDBBF\uDBFF][\uDFFE\uDFFF]/g;
