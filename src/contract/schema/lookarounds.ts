/**
 * Patterns with lookaround assertions (`^(?!\s).*(?<!\s)$`, `^(?=.*[a-z])[a-z0-9]+$`): fast-check's
 * `stringMatching` and the length model cannot build them. An assertion matches no characters, so the
 * pattern without it matches a superset of the same strings; values are generated from that and kept
 * when the real pattern matches them (hypothesis-jsonschema's way with what it cannot construct).
 */

const OPENERS = ['(?=', '(?!', '(?<=', '(?<!'] as const;

/** The pattern with every lookaround group (and a quantifier on one) removed; `undefined` when it has none. */
export function withoutLookarounds(source: string): string | undefined {
  let out = '';
  let index = 0;
  let inClass = false;
  let removed = false;
  while (index < source.length) {
    const char = source[index] ?? '';
    if (char === '\\') {
      out += source.slice(index, index + 2);
      index += 2;
      continue;
    }
    if (inClass) {
      if (char === ']') inClass = false;
      out += char;
      index += 1;
      continue;
    }
    if (char === '[') {
      inClass = true;
      out += char;
      index += 1;
      continue;
    }
    if (OPENERS.some((opener) => source.startsWith(opener, index))) {
      index = afterQuantifier(source, closingParen(source, index) + 1);
      removed = true;
      continue;
    }
    out += char;
    index += 1;
  }
  return removed ? out : undefined;
}

/** The index of the `)` closing the group opened at `open`; the end of the text when it is unclosed. */
function closingParen(source: string, open: number): number {
  let depth = 0;
  let inClass = false;
  for (let index = open; index < source.length; index += 1) {
    const char = source[index];
    if (char === '\\') {
      index += 1;
    } else if (inClass) {
      if (char === ']') inClass = false;
    } else if (char === '[') {
      inClass = true;
    } else if (char === '(') {
      depth += 1;
    } else if (char === ')') {
      depth -= 1;
      if (depth === 0) return index;
    }
  }
  return source.length;
}

/** Past a quantifier (`*`, `+`, `?`, `{2}`, `{1,3}`, each maybe lazy) starting at `index`, if there is one. */
function afterQuantifier(source: string, index: number): number {
  const quantifier = /^(?:[*+?]|\{\d+(?:,\d*)?\})\??/.exec(source.slice(index));
  return index + (quantifier?.[0].length ?? 0);
}
