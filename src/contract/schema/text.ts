import fc from 'fast-check';
import { plainFirst } from './plain-first.js';
import { UniformInt } from './uniform-int.js';

/**
 * Strings that break naive implementations: empty, whitespace-edged, NUL and other controls,
 * combining marks, right-to-left and zero-width characters, astral code points, JSON and HTML
 * metacharacters. Always well-formed UTF-16: a lone surrogate has no UTF-8 encoding, so targets
 * in other languages legitimately replace it, which would look like an echo failure.
 */
export const AWKWARD_TEXT: readonly string[] = [
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
const WHITESPACE = [' ', '  ', '\t', '\n', '\r\n', '\u00a0', '\u3000'];

/** Longest long string, in code points: keeps every valid body under 32 KiB even if all escape to \uXXXX. */
export const LONG_TEXT_MAX = 2000;

/**
 * The code point ranges of {@link codePointArbitrary}, their weights, and how a character of each shrinks: first to
 * each of `before` (plainer characters outside the range: `a`, then `é` for a failure any non-ASCII character
 * shows), then within the range toward `plainest`, so a shrunk string reads `"aaaa"` wherever the character does
 * not matter, and keeps the one that does (a NUL, an astral `🌱`) where it does.
 */
const CODE_POINT_RANGES: readonly {
  readonly min: number;
  readonly max: number;
  readonly weight: number;
  readonly plainest: number;
  readonly before: readonly number[];
}[] = [
  { min: 0x20, max: 0x7e, weight: 4, plainest: 0x61, before: [] },
  { min: 0, max: 0x1f, weight: 1, plainest: 0, before: [0x61] },
  { min: 0x7f, max: 0xd7ff, weight: 2, plainest: 0xe9, before: [0x61] },
  { min: 0xe000, max: 0xffff, weight: 1, plainest: 0xff41, before: [0x61, 0xe9] },
  { min: 0x10000, max: 0x10ffff, weight: 2, plainest: 0x1f331, before: [0x61, 0xe9] },
];

/** The unit as fast-check composes it: what {@link CodePointArbitrary} draws like (it shrinks otherwise). */
const composedCodePoint: fc.Arbitrary<string> = fc
  .oneof(...CODE_POINT_RANGES.map(({ min, max, weight }) => ({ arbitrary: fc.integer({ min, max }), weight })))
  .map((codePoint) => String.fromCodePoint(codePoint));

/** What {@link CodePointArbitrary} keeps of a draw, to rebuild the composed unit's shrink context. */
class CodePointDraw {
  constructor(
    readonly selectedIndex: number,
    readonly codePoint: number,
    readonly bias: number | undefined,
  ) {}
}

/** A shrunk character within its range: the offset from the range's plainest member, and the offset's context. */
class InRange {
  constructor(
    readonly index: number,
    readonly offset: unknown,
  ) {}
}

/** A character shrunk to one of a range's `before`: nothing plainer left to try. */
const SETTLED = Symbol('settled');

/**
 * {@link composedCodePoint} drawn directly: the same draws from the same random, so the same values,
 * without its per-character `oneof` and `map` wrappers (long strings are most of generation's CPU).
 * Shrinking goes toward plain characters (see {@link CODE_POINT_RANGES}), not toward each range's minimum
 * as the composed unit's integers would (`"\u007f𐀀 \ue000"`).
 */
class CodePointArbitrary extends fc.Arbitrary<string> {
  private readonly ranges = CODE_POINT_RANGES.map(({ min, max }) => fc.integer({ min, max }));
  private readonly cumulated = CODE_POINT_RANGES.map((_, index) =>
    CODE_POINT_RANGES.slice(0, index + 1).reduce((sum, range) => sum + range.weight, 0),
  );
  private readonly totalWeight = this.cumulated[this.cumulated.length - 1] ?? 0;
  /** The `nextInt` draws of the `oneof` and of each range's unbiased `fc.integer`. */
  private readonly rangeDraw = new UniformInt(0, this.totalWeight - 1);
  private readonly codePointDraws = CODE_POINT_RANGES.map(({ min, max }) => new UniformInt(min, max));
  /** Each range as offsets from its plainest member, for shrinking. */
  private readonly offsets = CODE_POINT_RANGES.map(({ min, max, plainest }) =>
    fc.integer({ min: min - plainest, max: max - plainest }),
  );

  generate(random: fc.Random, biasFactor: number | undefined): fc.Value<string> {
    const index = this.drawRange(random);
    const codePoint = this.drawCodePoint(index, random, biasFactor);
    return new fc.Value(String.fromCodePoint(codePoint), new CodePointDraw(index, codePoint, biasFactor));
  }

  /** Which range the `oneof` picks. */
  drawRange(random: fc.Random): number {
    const selected = this.rangeDraw.draw(random);
    let index = 0;
    while (selected >= (this.cumulated[index] ?? Infinity)) index++;
    return index;
  }

  /** A code point of a range, as `fc.integer` draws it (unbiased, it is one `nextInt`: no value made). */
  drawCodePoint(index: number, random: fc.Random, biasFactor: number | undefined): number {
    const range = this.ranges[index];
    const draw = this.codePointDraws[index];
    if (range === undefined || draw === undefined) throw new Error('no code point range selected');
    return biasFactor === undefined ? draw.draw(random) : range.generate(random, biasFactor).value;
  }

  /** As the composed unit answers (never, without an unmapper): fast-check's strings of the unit draw by it. */
  canShrinkWithoutContext(value: unknown): value is string {
    return composedCodePoint.canShrinkWithoutContext(value);
  }

  shrink(value: string, context: unknown): fc.Stream<fc.Value<string>> {
    if (context === SETTLED) return fc.Stream.nil();
    const codePoint = value.codePointAt(0) ?? 0;
    if (context instanceof InRange) return this.withinRange(context.index, codePoint, context.offset);
    const index = context instanceof CodePointDraw ? context.selectedIndex : rangeOf(codePoint);
    const range = index === undefined ? undefined : CODE_POINT_RANGES[index];
    if (index === undefined || range === undefined) return fc.Stream.nil();
    const plainer = range.before
      .filter((candidate) => candidate !== codePoint)
      .map((candidate) => new fc.Value(String.fromCodePoint(candidate), SETTLED));
    return fc.Stream.of(...plainer).join(this.withinRange(index, codePoint, undefined));
  }

  /** Shrinks toward the range's plainest member, as `fc.integer` shrinks the offset from it toward 0. */
  private withinRange(index: number, codePoint: number, offset: unknown): fc.Stream<fc.Value<string>> {
    const range = CODE_POINT_RANGES[index];
    const offsets = this.offsets[index];
    if (range === undefined || offsets === undefined) return fc.Stream.nil();
    return offsets
      .shrink(codePoint - range.plainest, offset)
      .map(
        (shrunk) =>
          new fc.Value(String.fromCodePoint(shrunk.value + range.plainest), new InRange(index, shrunk.context)),
      );
  }
}

/** The index of the range holding a code point, if any. */
function rangeOf(codePoint: number): number | undefined {
  const index = CODE_POINT_RANGES.findIndex(({ min, max }) => codePoint >= min && codePoint <= max);
  return index < 0 ? undefined : index;
}

/** The unit, typed as itself: {@link CodePointString} draws code points from it without making values. */
const codePointUnit = new CodePointArbitrary();

/**
 * One Unicode scalar value from every plane, weighted toward printable ASCII and controls. (fast-check's
 * own `binary` unit builds a table of the whole range on first use, which costs a second per process.)
 */
export const codePointArbitrary: fc.Arbitrary<string> = codePointUnit;

/** The same unit composed of fast-check's `oneof` and `map`, for tests that pin the two draw alike. */
export const composedCodePointArbitrary: fc.Arbitrary<string> = composedCodePoint;

/** What {@link CodePointString} keeps of a draw: the random before it, to redraw it for shrinking. */
class StringDraw {
  constructor(
    readonly random: fc.Random,
    readonly bias: number | undefined,
  ) {}
}

/** The lengths fast-check's array of a composed string draws from, when its internals are as expected. */
function arrayLengths(composed: fc.Arbitrary<string>): { min: number; max: number; biasedMax: number } | undefined {
  const array = (composed as unknown as { arb?: Record<string, unknown> }).arb;
  const { minLength: min, maxGeneratedLength: max, cachedBiasedMaxLength: biasedMax, setBuilder } = array ?? {};
  if (typeof min !== 'number' || typeof max !== 'number' || typeof biasedMax !== 'number') return undefined;
  return setBuilder === undefined ? { min, max, biasedMax } : undefined;
}

/**
 * `fc.string({ unit: codePointArbitrary, ... })` drawn directly: the same draws from the same random
 * (the length as fast-check's array draws it, then each code point), so the same values, without a
 * fast-check value per character. Shrinking redraws the composed string from the random it started with.
 */
class CodePointString extends fc.Arbitrary<string> {
  constructor(
    private readonly composed: fc.Arbitrary<string>,
    private readonly lengths: { min: number; max: number; biasedMax: number },
  ) {
    super();
  }

  generate(random: fc.Random, biasFactor: number | undefined): fc.Value<string> {
    const start = random.clone();
    const [length, itemBias] = this.drawLength(random, biasFactor);
    const units = codeUnits(length);
    let count = 0;
    for (let index = 0; index < length; index++) {
      const codePoint = codePointUnit.drawCodePoint(codePointUnit.drawRange(random), random, itemBias);
      if (codePoint < 0x10000) {
        units[count++] = codePoint;
      } else {
        units[count++] = 0xd800 + ((codePoint - 0x10000) >> 10);
        units[count++] = 0xdc00 + ((codePoint - 0x10000) & 0x3ff);
      }
    }
    return new fc.Value(textOf(units, count), new StringDraw(start, biasFactor));
  }

  /** The length and the items' bias factor, drawn as fast-check's `ArrayArbitrary.generate` draws them. */
  private drawLength(random: fc.Random, biasFactor: number | undefined): [number, number | undefined] {
    const { min, max, biasedMax } = this.lengths;
    if (biasFactor === undefined) return [random.nextInt(min, max), undefined];
    if (min === max) return [random.nextInt(min, max), biasFactor];
    const unbiased = random.nextInt(1, biasFactor) !== 1;
    if (unbiased) return [random.nextInt(min, max), undefined];
    const itemsOnly = random.nextInt(1, biasFactor) !== 1;
    return [random.nextInt(min, itemsOnly ? max : biasedMax), biasFactor];
  }

  canShrinkWithoutContext(value: unknown): value is string {
    return this.composed.canShrinkWithoutContext(value);
  }

  shrink(value: string, context: unknown): fc.Stream<fc.Value<string>> {
    if (!(context instanceof StringDraw)) return this.composed.shrink(value, context);
    const drawn = this.composed.generate(context.random.clone(), context.bias);
    return this.composed.shrink(drawn.value, drawn.context);
  }
}

/** The character a shrunk string is made of where the character does not matter. */
const PLAIN = 'a';

/**
 * Strings of `inner` whose first shrink of a drawn value is the same length in plain `a`s: one candidate where
 * shrinking a character at a time would spend one per character (a name cut at 255 is 256 of them, past the
 * runner's budget). Taken, it shrinks on in length alone, as strings of `a` within `constraints`.
 */
function plainAsFirst(
  inner: fc.Arbitrary<string>,
  constraints: { minLength?: number; maxLength?: number },
): fc.Arbitrary<string> {
  const plain = fc.string({ minLength: constraints.minLength, maxLength: constraints.maxLength, unit: asciiArbitrary });
  const limits = { min: constraints.minLength ?? 0, max: constraints.maxLength ?? Infinity };
  return plainFirst(inner, {
    plainOf: (value) => PLAIN.repeat(codePointLength(value)),
    shrinkPlain: (value, context) => plain.shrink(value, context),
    alsoOf: (value) => unitKeepingPlains(value, limits),
    shrinkAlso: (value, context) => unitKeepingShrinks(value, context as UnitForm, limits),
  });
}

/** A string of plain `a`s then `count` times `wide`, a character counting `weight` units where `a` counts one. */
interface UnitForm {
  readonly wide: string;
  readonly weight: number;
  readonly count: number;
}

/**
 * Plain `a`s and the character that matters, as long as `value` in UTF-16 units (its first character past U+FFFF)
 * and in UTF-8 bytes (its widest character), as few of it as the length limits allow: a server counting lengths in
 * those units (JavaScript's `length`, Python's `len(s.encode())`, Go's `len(s)`) fails on these as on `value`,
 * where the all-`a` plain string, as long in code points only, passes. None for ASCII or a lone surrogate.
 */
function unitKeepingPlains(value: string, limits: { min: number; max: number }): fc.Value<string>[] {
  const characters = Array.from(value);
  if (characters.every((character) => character < '\u0080')) return [];
  if (characters.some((character) => character.length === 1 && /[\ud800-\udfff]/.test(character))) return [];
  const widest = characters.reduce((wide, character) => (utf8Bytes(character) > utf8Bytes(wide) ? character : wide));
  const astral = characters.find((character) => character.length === 2);
  const bytes = characters.reduce((sum, character) => sum + utf8Bytes(character), 0);
  const forms = [
    ...(astral === undefined ? [] : [{ wide: astral, weight: 2, units: value.length }]),
    { wide: widest, weight: utf8Bytes(widest), units: bytes },
  ].map(({ wide, weight, units }) => {
    // The fewest wide characters that keep the code points within the maximum.
    const count = Math.max(1, Math.ceil((units - limits.max) / (weight - 1)));
    return { form: { wide, weight, count }, plains: units - count * weight };
  });
  return forms
    .filter(({ form, plains }) => plains >= 0 && fitsLimits(plains + form.count, limits))
    .map(({ form, plains }) => new fc.Value(PLAIN.repeat(plains) + form.wide.repeat(form.count), form));
}

/**
 * Shrinks of a {@link UnitForm} string: one wide character fewer for as many `a`s as its UTF-8 bytes or UTF-16 units
 * (the same length in that unit), then half its `a`s, then one `a` fewer; each within the length limits.
 */
function unitKeepingShrinks(
  value: string,
  form: UnitForm,
  limits: { min: number; max: number },
): fc.Stream<fc.Value<string>> {
  const plains = value.length - form.wide.length * form.count;
  const candidates: [number, number][] = [];
  // As many `a`s as the character's UTF-8 bytes, then as its UTF-16 units: a form of one unit may show the other's.
  const widths = [...new Set([utf8Bytes(form.wide), form.wide.length])];
  if (form.count > 1) candidates.push(...widths.map((width): [number, number] => [plains + width, form.count - 1]));
  if (plains > 1) candidates.push([Math.floor(plains / 2), form.count]);
  if (plains > 0) candidates.push([plains - 1, form.count]);
  return fc.Stream.of(
    ...candidates
      .filter(([a, count]) => fitsLimits(a + count, limits))
      .map(([a, count]) => new fc.Value(PLAIN.repeat(a) + form.wide.repeat(count), { ...form, count })),
  );
}

function fitsLimits(codePoints: number, limits: { min: number; max: number }): boolean {
  return codePoints >= limits.min && codePoints <= limits.max;
}

/** How many bytes UTF-8 writes a character (a code point) with. */
function utf8Bytes(character: string): number {
  const code = character.codePointAt(0) ?? 0;
  return code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
}

/**
 * fast-check's `grapheme-ascii` unit (printable ASCII, drawn as its `mapToConstant` draws: the same values for
 * the same random), shrinking toward `a` as {@link codePointArbitrary} does, not toward a space.
 */
class AsciiUnit extends fc.Arbitrary<string> {
  private readonly index = fc.nat({ max: 0x7e - 0x20 });

  generate(random: fc.Random, biasFactor: number | undefined): fc.Value<string> {
    return new fc.Value(String.fromCharCode(0x20 + this.index.generate(random, biasFactor).value), undefined);
  }

  canShrinkWithoutContext(value: unknown): value is string {
    return typeof value === 'string' && value.length === 1 && value >= ' ' && value <= '~';
  }

  shrink(value: string, context: unknown): fc.Stream<fc.Value<string>> {
    return codePointUnit.shrink(value, context);
  }
}

/** Printable ASCII characters, drawn as `fc.string({ unit: 'grapheme-ascii' })` draws them, shrinking toward `a`. */
export const asciiArbitrary: fc.Arbitrary<string> = new AsciiUnit();

/** Strings of {@link asciiArbitrary} (fast-check's `string` constraints), whose shrinking starts with plain `a`s. */
export function asciiString(constraints: { minLength?: number; maxLength?: number }): fc.Arbitrary<string> {
  return plainAsFirst(fc.string({ ...constraints, unit: asciiArbitrary }), constraints);
}

/** The UTF-16 units of the string being drawn, reused: a draw is made in one piece, never interleaved. */
let unitBuffer = new Uint16Array(2 * LONG_TEXT_MAX);

/** Room for the units of `codePoints` code points. */
function codeUnits(codePoints: number): Uint16Array {
  if (unitBuffer.length < 2 * codePoints) unitBuffer = new Uint16Array(2 * codePoints);
  return unitBuffer;
}

/** Units per `String.fromCharCode` call: far below any engine's limit on arguments. */
const UNITS_PER_CALL = 8192;

/**
 * The first `count` units as one string, made at once: appending a character at a time built a chain
 * of a thousand string pieces for each long string, which cost more to make and to serialise.
 */
function textOf(units: Uint16Array, count: number): string {
  let text = '';
  for (let from = 0; from < count; from += UNITS_PER_CALL) {
    const part = units.subarray(from, Math.min(count, from + UNITS_PER_CALL));
    text += String.fromCharCode.apply(null, part as unknown as number[]);
  }
  return text;
}

/**
 * Strings of {@link codePointArbitrary} (fast-check's `string` constraints), drawn directly where fast-check allows;
 * shrinking starts with plain `a`s.
 */
export function codePointString(constraints: {
  minLength?: number;
  maxLength?: number;
  size?: fc.SizeForArbitrary;
}): fc.Arbitrary<string> {
  const composed = fc.string({ ...constraints, unit: codePointArbitrary });
  const lengths = arrayLengths(composed);
  return plainAsFirst(lengths === undefined ? composed : new CodePointString(composed, lengths), constraints);
}

/** Length of a string in code points, as JSON Schema counts it. */
export function codePointLength(text: string): number {
  let length = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) index++;
    length++;
  }
  return length;
}

/**
 * Any text of `minLength` to `maxLength` code points, weighted toward awkward text. Lengths are met by
 * construction, so shrinking keeps them.
 */
export function textArbitrary(minLength = 0, maxLength?: number): fc.Arbitrary<string> {
  const cap = maxLength ?? Math.max(LONG_TEXT_MAX, minLength);
  const fits = (text: string): boolean => {
    const length = codePointLength(text);
    return length >= minLength && length <= cap;
  };
  const shortMax = Math.min(cap, Math.max(minLength, 40));
  const arbitraries: fc.WeightedArbitrary<string>[] = [
    {
      arbitrary: asciiString({ minLength, maxLength: Math.min(cap, Math.max(minLength, 20)) }).filter(fits),
      weight: 3,
    },
    { arbitrary: codePointString({ minLength, maxLength: shortMax }), weight: 3 },
    // No minLength beyond the schema's: a long counterexample must be able to shrink to a short one.
    {
      arbitrary: codePointString({
        minLength,
        maxLength: Math.max(minLength, Math.min(cap, LONG_TEXT_MAX)),
        size: 'max',
      }),
      weight: 2,
    },
  ];
  const awkward = AWKWARD_TEXT.filter(fits);
  const limits = { minLength, maxLength: cap };
  if (awkward.length > 0) {
    arbitraries.push({ arbitrary: plainAsFirst(fc.constantFrom(...awkward), limits), weight: 3 });
  }
  const coreMin = Math.max(0, minLength - 2);
  const coreMax = Math.min(38, cap - 2);
  if (coreMax >= coreMin && minLength <= 40) {
    const core = codePointString({ minLength: coreMin, maxLength: coreMax });
    const edged = fc
      .tuple(fc.constantFrom(...WHITESPACE), core, fc.constantFrom(...WHITESPACE))
      .map(([before, middle, after]) => before + middle + after)
      .filter(fits);
    arbitraries.push({ arbitrary: plainAsFirst(edged, limits), weight: 2 });
  }
  return fc.oneof(...arbitraries);
}
