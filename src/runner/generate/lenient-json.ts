import type { JsonSchema } from '../../contract/index.js';
import { objectView } from '../../contract/object-view.js';

/**
 * What real-world JSON parsers accept that JSON (RFC 8259) or the schema does not, applied anywhere
 * in a valid body's text:
 * - Python's `json`: `NaN`, `Infinity`, `-Infinity`; `true` is an int (bool subclasses int);
 * - Go's `encoding/json`: keys matched case-insensitively (`"NAME"` fills `name`); `null` into a
 *   non-pointer field is a no-op (the zero value stays);
 * - Jackson (Spring): scalars coerced (`"12"` read as 12, `12` as "12", `1.5` truncated to 1), `null`
 *   read as 0 for primitives;
 * - ASP.NET Core's System.Text.Json web defaults: numbers read from strings, keys case-insensitive;
 * - Gson lenient mode and JSON5-style parsers: comments, trailing commas, single quotes, unquoted keys,
 *   leading `+`, leading zeros, hexadecimal numbers;
 * - hand-written scanners: raw control characters and unknown escapes inside strings.
 */

/** A rewrite of a valid body's text; `place` picks which of its candidate places. */
export interface TextMutation {
  readonly what: string;
  apply(text: string, place: number): string;
}

interface Token {
  readonly kind: 'string' | 'number' | 'open' | 'close' | 'literal';
  readonly start: number;
  readonly end: number;
  /** For strings: followed by `:`. */
  readonly key: boolean;
  /** Nesting depth of the container holding the token (1: the top-level object). */
  readonly depth: number;
}

/** The tokens of a JSON text (assumed well-formed), without recursion. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i] ?? '';
    if (char === '"') {
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      let next = end + 1;
      while (/\s/.test(text[next] ?? '')) next++;
      tokens.push({ kind: 'string', start: i, end: end + 1, key: text[next] === ':', depth });
      i = end;
    } else if (char === '{' || char === '[') {
      depth++;
      tokens.push({ kind: 'open', start: i, end: i + 1, key: false, depth });
    } else if (char === '}' || char === ']') {
      tokens.push({ kind: 'close', start: i, end: i + 1, key: false, depth });
      depth--;
    } else if (/[-0-9]/.test(char)) {
      let end = i + 1;
      while (/[-+.eE0-9]/.test(text[end] ?? '')) end++;
      tokens.push({ kind: 'number', start: i, end, key: false, depth });
      i = end - 1;
    } else if (/[a-z]/.test(char)) {
      let end = i + 1;
      while (/[a-z]/.test(text[end] ?? '')) end++;
      tokens.push({ kind: 'literal', start: i, end, key: false, depth });
      i = end - 1;
    }
  }
  return tokens;
}

function splice(text: string, start: number, end: number, insert: string): string {
  return text.slice(0, start) + insert + text.slice(end);
}

/**
 * A mutation at one of the tokens `pick` selects; without any, the construct goes into a new first
 * member, `"plantstore": <fallback>` (or the member itself, written `member:...`): the body stays
 * invalid either way, since none of these is JSON.
 */
function atToken(
  what: string,
  pick: (token: Token, tokens: readonly Token[], index: number) => boolean,
  rewrite: (text: string, token: Token) => string,
  fallback: string,
): TextMutation {
  return {
    what,
    apply(text, place) {
      const tokens = tokenize(text);
      const candidates = tokens.filter((token, index) => pick(token, tokens, index));
      const chosen = candidates[place % Math.max(1, candidates.length)];
      if (chosen) return rewrite(text, chosen);
      const open = text.indexOf('{');
      const member = fallback.startsWith('member:') ? fallback.slice(7) : `"plantstore": ${fallback}`;
      return open < 0
        ? fallback
        : splice(text, open + 1, open + 1, `${member}${text.trim().endsWith('{}') ? '' : ','}`);
    },
  };
}

const isValueString = (token: Token): boolean => token.kind === 'string' && !token.key;

/**
 * One label for `NaN`, `Infinity` and `-Infinity` wherever they stand: a parser that reads one reads the others
 * (Python's `json`, Jackson's ALLOW_NON_NUMERIC_NUMBERS, JSON5), one root cause and one fix, so one finding.
 */
const NON_FINITE = 'NaN or Infinity in place of a number';

/** Lenient-parser rewrites that break JSON's grammar, anywhere in the body. */
export function syntaxMutations(): TextMutation[] {
  return [
    atToken(
      'a trailing comma before a closing bracket',
      (token, tokens, index) => token.kind === 'close' && tokens[index - 1]?.kind !== 'open',
      (text, token) => splice(text, token.start, token.start, ','),
      '[1,]',
    ),
    atToken(
      'a /* comment */ inside the JSON',
      (token) => token.kind === 'open',
      (text, token) => splice(text, token.end, token.end, '/* plantstore */'),
      '/* plantstore */ 1',
    ),
    atToken(
      NON_FINITE,
      (token) => token.kind === 'number',
      (text, token) => splice(text, token.start, token.end, 'NaN'),
      'NaN',
    ),
    atToken(
      NON_FINITE,
      (token) => token.kind === 'number',
      (text, token) => splice(text, token.start, token.end, text[token.start] === '-' ? '-Infinity' : 'Infinity'),
      'Infinity',
    ),
    // A server that checks each declared member's type refuses a NaN id; only a member of its own shows that
    // the parser took it. The numbers above are the id alone in most bodies, so this one is sent every run.
    atToken(
      NON_FINITE,
      () => false,
      (text) => text,
      'NaN',
    ),
    atToken(
      'a number with a leading +',
      (token) => token.kind === 'number',
      (text, token) => {
        const at = text[token.start] === '-' ? token.start + 1 : token.start;
        return splice(text, at, at, '+');
      },
      '+1',
    ),
    atToken(
      'a number with a leading zero',
      (token) => token.kind === 'number',
      (text, token) => {
        const at = text[token.start] === '-' ? token.start + 1 : token.start;
        return splice(text, at, at, '0');
      },
      '01',
    ),
    atToken(
      'a hexadecimal number',
      (token) => token.kind === 'number',
      (text, token) => splice(text, token.start, token.end, text[token.start] === '-' ? '-0x1F' : '0x1F'),
      '0x1F',
    ),
    atToken(
      'a single-quoted string',
      isValueString,
      (text, token) =>
        splice(text, token.start, token.end, `'${text.slice(token.start + 1, token.end - 1).replaceAll("'", "\\'")}'`),
      "'x'",
    ),
    atToken(
      'an unquoted key',
      (token) => token.kind === 'string' && token.key,
      (text, token) => splice(text, token.start, token.end, unquotedKey(text.slice(token.start + 1, token.end - 1))),
      'member:plantstore: 1',
    ),
    atToken(
      'a raw control character (TAB) inside a string (JSON requires \\t)',
      // In a value: in a member name it renames the member, and a body lacking "name" is refused for that.
      // After an escape (`\/`): aeson 2.0 refuses a raw control character only in a string of plain ASCII
      // without escapes, and takes it in any other (a Haskell server was CONFORMANT at 1 seed of 3).
      isValueString,
      (text, token) => splice(text, token.end - 1, token.end - 1, '\\/\t'),
      '"a\\/\tb"',
    ),
    atToken(
      'an unknown escape \\x41 inside a string',
      isValueString,
      (text, token) => splice(text, token.end - 1, token.end - 1, '\\x41'),
      '"\\x41"',
    ),
  ];
}

function unquotedKey(key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : `k${key.replace(/[^A-Za-z0-9_$]/g, '')}`;
}

function typesOf(schema: JsonSchema): string[] {
  const { type } = schema;
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((item): item is string => typeof item === 'string') : [];
}

/**
 * Property values lenient parsers coerce into the declared type (checked against the document later). Labels say
 * what was sent, not which parser reads it (the module comment says that): a label shows against every stack.
 */
const COERCED: Record<string, readonly (readonly [string, string])[]> = {
  integer: [
    ['"12"', 'the numeric string "12"'],
    ['true', 'true'],
    ['null', 'null'],
    ['1.5', 'the fraction 1.5'],
  ],
  number: [
    ['"1.5"', 'the numeric string "1.5"'],
    ['true', 'true'],
    ['null', 'null'],
  ],
  string: [
    ['12', 'the number 12'],
    ['false', 'false'],
    ['null', 'null'],
  ],
  boolean: [
    ['"true"', 'the string "true"'],
    ['1', 'the number 1'],
    ['null', 'null'],
  ],
};

/** One rewrite of a top-level property: its value replaced, or its key written in another letter case. */
export interface PropertyRewrite {
  readonly field: string;
  /** The JSON text of the new value, or `undefined` for a key rename. */
  readonly json?: string;
  /** For a key rename: the key written instead. */
  readonly renamedTo?: string;
  readonly what: string;
}

/** Per-property rewrites lenient parsers accept, from the NewPlant's declared types and required keys. */
export function propertyRewrites(schema: JsonSchema): PropertyRewrite[] {
  const { properties, required } = objectView(schema);
  const rewrites: PropertyRewrite[] = [];
  for (const [field, property] of properties) {
    for (const type of typesOf(property)) {
      for (const [json, why] of COERCED[type] ?? []) rewrites.push({ field, json, what: `"${field}" set to ${why}` });
    }
    const upper = field.toUpperCase();
    if (required.has(field) && upper !== field && !properties.has(upper)) {
      rewrites.push({
        field,
        renamedTo: upper,
        what: `required "${field}" written as "${upper}"`,
      });
    }
  }
  return rewrites;
}

/** Lenient rewrites of the document's NewPlant that are text mutations (key renames). */
export function lenientMutations(schema: JsonSchema): TextMutation[] {
  return propertyRewrites(schema)
    .filter((rewrite) => rewrite.renamedTo !== undefined)
    .map((rewrite) => ({ what: rewrite.what, apply: (text: string) => renameKey(text, rewrite) }));
}

function renameKey(text: string, rewrite: PropertyRewrite): string {
  const quoted = JSON.stringify(rewrite.field);
  const token = tokenize(text).find(
    (candidate) =>
      candidate.kind === 'string' &&
      candidate.key &&
      candidate.depth === 1 &&
      text.slice(candidate.start, candidate.end) === quoted,
  );
  if (!token) return text;
  return splice(text, token.start, token.end, JSON.stringify(rewrite.renamedTo ?? rewrite.field));
}
