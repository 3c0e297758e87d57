/**
 * What a `pattern` that ECMA-262 cannot read borrows from another regular expression language, with how
 * JSON Schema (whose `pattern` is ECMA-262) writes it; `undefined` when no such borrowing is recognised.
 * Documents generated from Python, Java or Go code carry their validators' patterns over as written.
 */
export function foreignRegexHint(pattern: string): string | undefined {
  for (const [shape, hint] of FOREIGN) if (shape.test(pattern)) return hint;
  return undefined;
}

const FOREIGN: readonly (readonly [RegExp, string])[] = [
  [
    /\(\?[aiLmsux]+\)/,
    'an inline flag such as (?i) is Python, Java or PCRE syntax: ECMA-262 has none, so spell the cases out ([A-Za-z])',
  ],
  [/\(\?P[<=>]/, "(?P<name>…) is Python's named group: ECMA-262 writes (?<name>…)"],
  [/\(\?#/, 'a (?#…) comment is Python, Java or PCRE syntax: remove it'],
  [/\\[AzZ]/, '\\A, \\z and \\Z are Python, Java or PCRE anchors: ECMA-262 writes ^ and $'],
  [/\[\[:[a-z]+:\]\]/, 'a POSIX class such as [[:alpha:]] is not ECMA-262: write the class ([A-Za-z], or \\p{L})'],
  [
    /--(?:\[|\\[pPq])|\\q\{/,
    "a class subtraction ([\\p{L}--[a-z]]) or \\q{…} is ECMA-262's v flag, which a JSON Schema pattern (read with the u flag) does not have: write the class without it ([^\\P{L}a-z] for letters but a-z)",
  ],
  [/&&\[/, "a class intersection ([a-z&&[^q]]) is Java's: ECMA-262 has none, so list the class ([a-pr-z])"],
  [/\\[hHR]/, '\\h, \\H and \\R are Java or PCRE escapes: ECMA-262 writes [ \\t] or \\s, and \\r?\\n'],
  [
    /\\[pP]\{(?:Is|In|java)\w+\}/,
    "\\p{IsAlphabetic}, \\p{InGreek} and \\p{javaLowerCase} are Java's property names: ECMA-262 writes \\p{Alphabetic}, \\p{Script=Greek} and \\p{Ll} (a block has no name there: list its range)",
  ],
  [
    /\\[pP]\{(?:Alnum|Punct|Graph|Print|Blank|Cntrl|XDigit|Digit|Space)\}/,
    "\\p{Punct} and its kin are Java's POSIX classes (ASCII only): ECMA-262 writes the class ([!-/:-@[-`{-~], [0-9A-Za-z], [0-9])",
  ],
  [
    /\\x\{[0-9A-Fa-f]+\}/,
    "\\x{e9} is Java's, PCRE's or Perl's code point escape: ECMA-262 writes \\u{e9} (or \\u00e9)",
  ],
  // A quantifier after a quantifier; a `}` closing \p{…}, \u{…} or \x{…} is no quantifier.
  [
    /(?:[*+?]|(?<!\\[pPux])\{\d+(?:,\d*)?\})[+]/,
    "a possessive quantifier (a++) is Java's or PCRE's: ECMA-262 has none, write a+",
  ],
];
