/**
 * A one-pass parser for the JSON almost every body is: no duplicate keys, strings that are valid.
 * It builds what `parseExactJson` returns (objects without a prototype, every number's text handed to
 * `remember`) without lossless-json's intermediate tree. Anything else, including every error, it
 * leaves to lossless-json ({@link NOT_PLAIN}), whose results and messages stay the reference.
 */

/** Returned when the text is not plain JSON this parser takes: parse it the lossless way. */
export const NOT_PLAIN: unique symbol = Symbol('not plain JSON');

type Remember = (parent: object, key: string | number, text: string) => void;

class NotPlain extends Error {}
const NOT_PLAIN_ERROR = new NotPlain();

/** Parses `text` as strict JSON (RFC 8259) nested at most `maxDepth` deep, or {@link NOT_PLAIN}. */
export function parsePlainJson(text: string, remember: Remember, maxDepth = Infinity): unknown {
  const parser = new PlainParser(text, remember, maxDepth);
  try {
    const value = parser.value();
    parser.whitespace();
    return parser.at === text.length ? value : NOT_PLAIN;
  } catch (error) {
    if (error === NOT_PLAIN_ERROR) return NOT_PLAIN;
    throw error;
  }
}

/**
 * Where the JSON number starting at `at` ends, or -1 when none starts there: the longest match of
 * `-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?` at `at`, read code by code (a sticky regex costs a
 * match array and a substring per number). A fraction or exponent without its digits is not part of it.
 */
export function numberEnd(text: string, at: number): number {
  let end = at;
  if (text.charCodeAt(end) === 0x2d) end++;
  const first = text.charCodeAt(end);
  if (first === 0x30) end++;
  else if (first >= 0x31 && first <= 0x39) end = digitsEnd(text, end + 1);
  else return -1;
  if (text.charCodeAt(end) === 0x2e && isDigit(text.charCodeAt(end + 1))) end = digitsEnd(text, end + 2);
  const e = text.charCodeAt(end);
  if (e === 0x65 || e === 0x45) {
    const sign = text.charCodeAt(end + 1);
    const digits = sign === 0x2b || sign === 0x2d ? end + 2 : end + 1;
    if (isDigit(text.charCodeAt(digits))) end = digitsEnd(text, digits + 1);
  }
  return end;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function digitsEnd(text: string, at: number): number {
  let end = at;
  while (isDigit(text.charCodeAt(end))) end++;
  return end;
}

class PlainParser {
  at = 0;
  private depth = 0;

  constructor(
    private readonly text: string,
    private readonly remember: Remember,
    private readonly maxDepth: number,
  ) {}

  whitespace(): void {
    let code = this.text.charCodeAt(this.at);
    while (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) code = this.text.charCodeAt(++this.at);
  }

  /** A value; a number inside an object or array is remembered under its parent and key. */
  value(parent?: object, key?: string | number): unknown {
    this.whitespace();
    const code = this.text.charCodeAt(this.at);
    if (code === 0x22) return this.string();
    if (code === 0x7b) return this.object();
    if (code === 0x5b) return this.array();
    if (code === 0x74) return this.literal('true', true);
    if (code === 0x66) return this.literal('false', false);
    if (code === 0x6e) return this.literal('null', null);
    return this.number(parent, key);
  }

  object(): Record<string, unknown> {
    const object = Object.create(null) as Record<string, unknown>;
    this.enter();
    this.whitespace();
    if (this.text.charCodeAt(this.at) === 0x7d) return (this.leave(), object);
    for (;;) {
      this.whitespace();
      if (this.text.charCodeAt(this.at) !== 0x22) throw NOT_PLAIN_ERROR;
      const key = this.string();
      // Whether a repeat has the same value is lossless-json's to decide.
      if (Object.hasOwn(object, key)) throw NOT_PLAIN_ERROR;
      this.whitespace();
      if (this.text.charCodeAt(this.at++) !== 0x3a) throw NOT_PLAIN_ERROR;
      object[key] = this.value(object, key);
      if (this.separator(0x7d)) return (this.depth--, object);
    }
  }

  array(): unknown[] {
    const array: unknown[] = [];
    this.enter();
    this.whitespace();
    if (this.text.charCodeAt(this.at) === 0x5d) return (this.leave(), array);
    for (;;) {
      array.push(this.value(array, array.length));
      if (this.separator(0x5d)) return (this.depth--, array);
    }
  }

  /** Past an opening bracket, one level deeper: deeper than allowed is for the caller to judge. */
  private enter(): void {
    this.at++;
    if (++this.depth > this.maxDepth) throw NOT_PLAIN_ERROR;
  }

  /** Past the closing bracket of an empty object or array. */
  private leave(): void {
    this.at++;
    this.depth--;
  }

  /** After a member: true at the closing bracket, false after a comma. */
  private separator(closing: number): boolean {
    this.whitespace();
    const code = this.text.charCodeAt(this.at++);
    if (code === closing) return true;
    if (code !== 0x2c) throw NOT_PLAIN_ERROR;
    return false;
  }

  string(): string {
    const { text } = this;
    const start = this.at;
    let at = start + 1;
    let escaped = false;
    // Code by code: a quote ends the string, a backslash's next character is skipped unread (JSON.parse
    // of the whole string judges the escape), a control character or the text's end is not plain JSON.
    for (;;) {
      const code = text.charCodeAt(at);
      if (code === 0x22) {
        this.at = at + 1;
        return escaped ? this.escapedString(start) : text.slice(start + 1, at);
      }
      if (code === 0x5c) {
        escaped = true;
        at += 2;
      } else if (code >= 0x20) {
        at++;
      } else {
        // A control character, or past the end (NaN).
        throw NOT_PLAIN_ERROR;
      }
    }
  }

  private escapedString(start: number): string {
    try {
      return JSON.parse(this.text.slice(start, this.at)) as string;
    } catch {
      throw NOT_PLAIN_ERROR;
    }
  }

  private literal<T>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.at)) throw NOT_PLAIN_ERROR;
    this.at += word.length;
    return value;
  }

  private number(parent: object | undefined, key: string | number | undefined): number {
    const end = numberEnd(this.text, this.at);
    if (end < 0) throw NOT_PLAIN_ERROR;
    const text = this.text.slice(this.at, end);
    this.at = end;
    if (parent !== undefined && key !== undefined) this.remember(parent, key, text);
    const value = Number(text);
    if (Number.isFinite(value)) return value;
    return value > 0 ? Number.MAX_VALUE : -Number.MAX_VALUE;
  }
}
