import fc from 'fast-check';

/**
 * Strings that break naive implementations: empty, whitespace-edged, NUL and other controls,
 * combining marks, right-to-left and zero-width characters, astral code points, JSON and HTML
 * metacharacters. Always well-formed UTF-16: a lone surrogate has no UTF-8 encoding, so targets
 * in other languages legitimately replace it, which would look like an echo failure.
 */
const AWKWARD = [
  '',
  ' ',
  '  padded  ',
  '\t\n',
  '\u0000',
  'a\u0000b',
  '\u0007\u001b[31m',
  'e\u0301',
  '\u202eRTL\u202c',
  'שלום',
  '\u200b',
  '\ufeff',
  '\u2028\u2029',
  '🌱',
  '𝔘𝔫𝔦',
  '👩‍👩‍👧',
  '"quoted" \\ back\\slash',
  '<script>alert(1)</script>',
  'null',
  '0',
  '\u{10ffff}',
];

/** Whitespace a trimming implementation would eat. */
const whitespace = fc.constantFrom(' ', '  ', '\t', '\n', '\r\n', '\u00a0', '\u3000');

/** Longest long string, in code points: keeps every valid body under 32 KiB even if all escape to \uXXXX. */
export const LONG_TEXT_MAX = 2000;

/**
 * One Unicode scalar value from every plane, weighted toward printable ASCII and controls. (fast-check's
 * own `binary` unit builds a table of the whole range on first use, which costs a second per process.)
 */
export const codePointArbitrary: fc.Arbitrary<string> = fc
  .oneof(
    { arbitrary: fc.integer({ min: 0x20, max: 0x7e }), weight: 4 },
    { arbitrary: fc.integer({ min: 0, max: 0x1f }), weight: 1 },
    { arbitrary: fc.integer({ min: 0x7f, max: 0xd7ff }), weight: 2 },
    { arbitrary: fc.integer({ min: 0xe000, max: 0xffff }), weight: 1 },
    { arbitrary: fc.integer({ min: 0x10000, max: 0x10ffff }), weight: 2 },
  )
  .map((codePoint) => String.fromCodePoint(codePoint));

/** Any text the contract allows for `name` and `tag` (any JSON string), weighted toward awkward ones. */
export function plantTextArbitrary(): fc.Arbitrary<string> {
  const anyUnicode = fc.string({ unit: codePointArbitrary, maxLength: 40 });
  const graphemes = fc.string({ unit: 'grapheme', maxLength: 20 });
  const edged = fc.tuple(whitespace, anyUnicode, whitespace).map(([before, core, after]) => before + core + after);
  // No minLength: a long counterexample must be able to shrink to a short one.
  const long = fc.string({ unit: codePointArbitrary, maxLength: LONG_TEXT_MAX, size: 'max' });
  return fc.oneof(
    { arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 20 }), weight: 3 },
    { arbitrary: fc.constantFrom(...AWKWARD), weight: 3 },
    { arbitrary: anyUnicode, weight: 3 },
    { arbitrary: graphemes, weight: 2 },
    { arbitrary: edged, weight: 2 },
    { arbitrary: long, weight: 2 },
  );
}
