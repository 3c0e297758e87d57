import fc from 'fast-check';
import { ANY, OutsideShape, parseRegex, type CodePoints, type RegexNode } from './regex-parse.js';
import { ASSIGNED_IN_UNICODE_13 } from './unicode-13.js';

/**
 * Strings matching a pattern with a length chosen first, by construction: which lengths (in code
 * points) a pattern's matches can have is computed over its parts, then a string of the chosen
 * length is built part by part, each part given a length its rest can complete. Nothing is drawn
 * and thrown away, so generation always ends, and a length no match has is known, not searched.
 */

/** Longest string built this way: the length tables grow with its square in the worst case. */
export const LONGEST_CONSTRUCTED = 4096;

/** Languages read so far, by pattern: their length tables are kept with them. */
const languages = new Map<string, PatternLanguage | undefined>();

/** The strings a pattern matches anywhere (JSON Schema's unanchored search), as a shape to build from. */
export class PatternLanguage {
  private readonly tables = new Map<number, LengthTable>();

  private constructor(private readonly root: RegexNode) {}

  /** The language of a pattern, or `undefined` for a construct outside the modelled shape. */
  static of(pattern: string): PatternLanguage | undefined {
    if (!languages.has(pattern)) {
      try {
        languages.set(pattern, new PatternLanguage(wholeString(parseRegex(pattern))));
      } catch (error) {
        if (!(error instanceof OutsideShape)) throw error;
        languages.set(pattern, undefined);
      }
    }
    return languages.get(pattern);
  }

  /** The shortest match's length. */
  get shortest(): number {
    return shortestLength(this.root);
  }

  /** Lengths from `min` to `max` (at most {@link LONGEST_CONSTRUCTED}) some match has, ascending. */
  lengthsWithin(min: number, max: number): number[] {
    const cap = Math.min(max, LONGEST_CONSTRUCTED);
    if (cap < min) return [];
    const reachable = this.table(cap).lengths(this.root);
    const found: number[] = [];
    for (let length = Math.max(0, min); length <= cap; length++) if (reachable[length] === 1) found.push(length);
    return found;
  }

  /**
   * Matching strings of the given lengths (each one {@link lengthsWithin} gave), short ones more
   * often; a value shrinks toward the first length and the first characters of each class.
   */
  ofLengths(lengths: readonly number[]): fc.Arbitrary<string> {
    if (lengths.length === 0) throw new RangeError('no length to build');
    const table = this.table(Math.max(...lengths));
    return new LengthFirstString(lengths, (length, chooser) => table.build(this.root, length, chooser));
  }

  private table(cap: number): LengthTable {
    let table = this.tables.get(cap);
    if (table === undefined) {
      table = new LengthTable(cap);
      this.tables.set(cap, table);
    }
    return table;
  }
}

/**
 * A pattern string and what built it: the chosen length, the choices made part by part, and whether it was
 * drawn, shrunk from a drawn one, or built plain (the plainest character of every class, see {@link plainestOf}).
 */
interface Built {
  readonly length: number;
  readonly choices: fc.Value<number[]>;
  readonly stage: 'drawn' | 'shrunk' | 'plain';
}

/**
 * Draws as `fc.nat().chain(length => fc.array(fc.nat(), budget))` would (the same values for the same seed), but
 * shrinks length first with the same choices: a shorter string keeps what made the longer one fail (`"A" + 21
 * spaces` becomes `"A "`), where chain's shrink would redraw every character for each shorter length.
 */
class LengthFirstString extends fc.Arbitrary<string> {
  constructor(
    private readonly lengths: readonly number[],
    private readonly build: (length: number, chooser: Chooser) => string,
  ) {
    super();
  }

  generate(mrng: fc.Random, biasFactor: number | undefined): fc.Value<string> {
    const index = fc.nat().generate(mrng, biasFactor).value;
    const length = this.lengths[pickLength(index, this.lengths.length)] ?? 0;
    const choices = choicesFor(length).generate(mrng, biasFactor);
    return this.valueBuilt({ length, choices, stage: 'drawn' });
  }

  canShrinkWithoutContext(_value: unknown): _value is string {
    return false;
  }

  /**
   * A drawn string first tries the plain one of its length (`"aaaa"` for `^[a-z0-9_]+$`): one candidate
   * where a failure does not depend on the characters, which then shrinks in length alone.
   */
  shrink(value: string, context: unknown): fc.Stream<fc.Value<string>> {
    const built = context as Built;
    const shorter = this.lengths.filter((length) => length < built.length);
    if (built.stage === 'plain') {
      return fc.stream(shorter[Symbol.iterator]()).map((length) => this.valueBuilt({ ...built, length }));
    }
    const choices = choicesFor(built.length);
    const shrinks = fc
      .stream(shorter[Symbol.iterator]())
      .map((length) => this.valueBuilt({ length, choices: built.choices, stage: 'shrunk' }))
      .join(
        choices
          .shrink(built.choices.value, built.choices.context)
          .map((shrunk) => this.valueBuilt({ length: built.length, choices: shrunk, stage: 'shrunk' })),
      );
    if (built.stage !== 'drawn') return shrinks;
    const plain = this.valueBuilt({ ...built, stage: 'plain' });
    return plain.value === value ? shrinks : fc.Stream.of(plain).join(shrinks);
  }

  private valueBuilt(built: Built): fc.Value<string> {
    const chooser = built.stage === 'plain' ? new Chooser([], true) : new Chooser(built.choices.value);
    return new fc.Value(this.build(built.length, chooser), built);
  }
}

/** Choices enough for a string of `length`: a few per code point. */
function choicesFor(length: number): fc.Arbitrary<number[]> {
  const budget = 3 * length + 16;
  return fc.array(fc.nat(), { minLength: budget, maxLength: budget });
}

/** Short lengths more often: half the draws pick among the first 32. */
function pickLength(index: number, count: number): number {
  return index % 2 === 0 ? (index >>> 1) % Math.min(count, 32) : (index >>> 1) % count;
}

const ANY_TEXT: RegexNode = { kind: 'repeat', item: { kind: 'chars', set: ANY }, min: 0, max: Infinity };

/** The pattern as a whole-string shape: any text before an unanchored start and after an unanchored end. */
function wholeString(node: RegexNode): RegexNode {
  const branches = node.kind === 'choice' ? node.options : [node];
  return {
    kind: 'choice',
    options: branches.map((branch) => {
      const items = branch.kind === 'sequence' ? [...branch.items] : [branch];
      const [only] = items;
      if (items.length === 1 && only?.kind === 'choice') return wholeString(only);
      const anchoredStart = items[0]?.kind === 'start';
      if (anchoredStart) items.shift();
      const anchoredEnd = items.at(-1)?.kind === 'end';
      if (anchoredEnd) items.pop();
      if (items.some(hasAnchor)) throw new OutsideShape('an anchor inside the pattern');
      return {
        kind: 'sequence',
        items: [...(anchoredStart ? [] : [ANY_TEXT]), ...items, ...(anchoredEnd ? [] : [ANY_TEXT])],
      };
    }),
  };
}

function hasAnchor(node: RegexNode): boolean {
  switch (node.kind) {
    case 'start':
    case 'end':
      return true;
    case 'chars':
      return false;
    case 'sequence':
      return node.items.some(hasAnchor);
    case 'choice':
      return node.options.some(hasAnchor);
    case 'repeat':
      return hasAnchor(node.item);
  }
}

function shortestLength(node: RegexNode): number {
  switch (node.kind) {
    case 'start':
    case 'end':
      return 0;
    case 'chars':
      return generatable(node.set).length === 0 ? Infinity : 1;
    case 'sequence':
      return node.items.reduce((sum, item) => sum + shortestLength(item), 0);
    case 'choice':
      return Math.min(...node.options.map(shortestLength));
    case 'repeat':
      return node.min === 0 ? 0 : node.min * shortestLength(node.item);
  }
}

/**
 * Reads choices (non-negative integers) in turn; past the end, every choice is the first. A plain chooser
 * picks the plainest character of each class ({@link plainestOf}).
 */
class Chooser {
  private index = 0;
  constructor(
    private readonly choices: readonly number[],
    readonly plain = false,
  ) {}

  pick(count: number): number {
    if (count <= 1) return 0;
    return (this.choices[this.index++] ?? 0) % count;
  }

  /** One of a non-empty list. */
  among<T>(list: readonly T[]): T {
    const chosen = list[this.pick(list.length)];
    if (chosen === undefined) throw new RangeError('nothing to choose from: a length the table does not have');
    return chosen;
  }
}

type Bits = Uint8Array;

/** Which lengths up to `cap` each part can have, and how to build a part of a given length. */
class LengthTable {
  private readonly memo = new Map<RegexNode, Bits>();
  /** For a repeat: the lengths of exactly k copies, for each k computed. */
  private readonly copies = new Map<RegexNode, Bits[]>();
  /** For a sequence: the lengths of its items from i to the end, for each i. */
  private readonly suffixes = new Map<RegexNode, Bits[]>();

  constructor(private readonly cap: number) {}

  lengths(node: RegexNode): Bits {
    let bits = this.memo.get(node);
    if (bits === undefined) {
      bits = this.compute(node);
      this.memo.set(node, bits);
    }
    return bits;
  }

  private compute(node: RegexNode): Bits {
    const bits = new Uint8Array(this.cap + 1);
    switch (node.kind) {
      case 'start':
      case 'end':
        bits[0] = 1;
        return bits;
      case 'chars':
        if (generatable(node.set).length > 0 && this.cap >= 1) bits[1] = 1;
        return bits;
      case 'sequence':
        return this.suffixesOf(node)[0] ?? bits;
      case 'choice':
        for (const option of node.options) orInto(bits, this.lengths(option));
        return bits;
      case 'repeat':
        for (const [count, lengths] of this.copiesOf(node).entries()) if (count >= node.min) orInto(bits, lengths);
        return bits;
    }
  }

  private suffixesOf(node: RegexNode & { kind: 'sequence' }): Bits[] {
    let found = this.suffixes.get(node);
    if (found === undefined) {
      let after: Bits = new Uint8Array(this.cap + 1);
      after[0] = 1;
      found = [after];
      for (const item of [...node.items].reverse()) {
        after = this.sum(this.lengths(item), after);
        found.unshift(after);
      }
      this.suffixes.set(node, found);
    }
    return found;
  }

  /** Lengths of 0, 1, 2, … copies, until more copies add nothing (or cannot fit, or reach `max`). */
  private copiesOf(node: RegexNode & { kind: 'repeat' }): Bits[] {
    let found = this.copies.get(node);
    if (found === undefined) {
      const unit = this.lengths(node.item);
      let current: Bits = new Uint8Array(this.cap + 1);
      current[0] = 1;
      found = [current];
      while (found.length - 1 < node.max) {
        const next = this.sum(current, unit);
        if (next.every((bit) => bit === 0) || (found.length - 1 >= node.min && same(next, current))) break;
        found.push(next);
        current = next;
      }
      this.copies.set(node, found);
    }
    return found;
  }

  private sum(a: Bits, b: Bits): Bits {
    const result = new Uint8Array(this.cap + 1);
    const offsets: number[] = [];
    b.forEach((bit, length) => bit === 1 && offsets.push(length));
    for (let i = 0; i <= this.cap; i++) {
      if (a[i] !== 1) continue;
      for (const offset of offsets) {
        if (i + offset > this.cap) break;
        result[i + offset] = 1;
      }
    }
    return result;
  }

  /** A string of exactly `length` code points from `node`; `length` must be one it has. */
  build(node: RegexNode, length: number, chooser: Chooser): string {
    switch (node.kind) {
      case 'start':
      case 'end':
        return '';
      case 'chars':
        return String.fromCodePoint(pickCodePoint(node.set, chooser));
      case 'choice': {
        const options = node.options.filter((option) => this.lengths(option)[length] === 1);
        return this.build(chooser.among(options), length, chooser);
      }
      case 'sequence':
        return this.buildSequence(node, length, chooser);
      case 'repeat':
        return this.buildRepeat(node, length, chooser);
    }
  }

  private buildSequence(node: RegexNode & { kind: 'sequence' }, length: number, chooser: Chooser): string {
    const suffixes = this.suffixesOf(node);
    let rest = length;
    let text = '';
    for (const [index, item] of node.items.entries()) {
      const own = this.lengths(item);
      const fits: number[] = [];
      for (let part = 0; part <= rest; part++)
        if (own[part] === 1 && suffixes[index + 1]?.[rest - part] === 1) fits.push(part);
      const part = chooser.among(fits);
      text += this.build(item, part, chooser);
      rest -= part;
    }
    return text;
  }

  private buildRepeat(node: RegexNode & { kind: 'repeat' }, length: number, chooser: Chooser): string {
    const copies = this.copiesOf(node);
    const counts: number[] = [];
    for (let count = node.min; count < copies.length; count++) if (copies[count]?.[length] === 1) counts.push(count);
    // A stable table (the item can be empty) stands for every larger count too.
    if (counts.length === 0) counts.push(node.min);
    const count = chooser.among(counts);
    const unit = this.lengths(node.item);
    const reachable = (left: number, rest: number): boolean => copies[Math.min(left, copies.length - 1)]?.[rest] === 1;
    let rest = length;
    let text = '';
    for (let left = count - 1; left >= 0; left--) {
      const fits: number[] = [];
      for (let part = 0; part <= rest; part++) if (unit[part] === 1 && reachable(left, rest - part)) fits.push(part);
      const part = chooser.among(fits);
      text += this.build(node.item, part, chooser);
      rest -= part;
    }
    return text;
  }
}

function orInto(target: Bits, source: Bits): void {
  for (let i = 0; i < target.length; i++) if (source[i] === 1) target[i] = 1;
}

function same(a: Bits, b: Bits): boolean {
  return a.every((bit, i) => bit === b[i]);
}

const SURROGATES: readonly [number, number] = [0xd800, 0xdfff];
const PRINTABLE: readonly [number, number] = [0x20, 0x7e];
const usable = new WeakMap<CodePoints, { all: CodePoints; printable: CodePoints }>();

/** A set without lone surrogates (no UTF-8 for them), and its printable ASCII part. */
function generatable(set: CodePoints): CodePoints {
  return split(set).all;
}

function split(set: CodePoints): { all: CodePoints; printable: CodePoints } {
  let found = usable.get(set);
  if (found === undefined) {
    const all = set.flatMap(([low, high]): [number, number][] =>
      high < SURROGATES[0] || low > SURROGATES[1]
        ? [[low, high]]
        : (
            [
              [low, SURROGATES[0] - 1],
              [SURROGATES[1] + 1, high],
            ] as [number, number][]
          ).filter(([from, to]) => from <= to),
    );
    const printable = all
      .map(([low, high]): [number, number] => [Math.max(low, PRINTABLE[0]), Math.min(high, PRINTABLE[1])])
      .filter(([low, high]) => low <= high);
    // Code points Unicode 13 knew, when the set has some: a \p{L} letter Node knows from a later Unicode is
    // no letter to a server on Java 17, Go 1.20 or Python 3.11, which would refuse a correct value for it.
    const known = intersect(all, KNOWN_RANGES);
    found = { all: known.length > 0 ? known : all, printable };
    usable.set(set, found);
  }
  return found;
}

const KNOWN_RANGES: readonly (readonly [number, number])[] = Array.from(
  { length: ASSIGNED_IN_UNICODE_13.length / 2 },
  (_, at) => [ASSIGNED_IN_UNICODE_13[2 * at]!, ASSIGNED_IN_UNICODE_13[2 * at + 1]!] as const,
);

/** The code points in both sets of sorted, disjoint ranges. */
function intersect(a: CodePoints, b: readonly (readonly [number, number])[]): [number, number][] {
  const both: [number, number][] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    const [lowA, highA] = a[i]!;
    const [lowB, highB] = b[j]!;
    const [low, high] = [Math.max(lowA, lowB), Math.min(highA, highB)];
    if (low <= high) both.push([low, high]);
    if (highA < highB) i++;
    else j++;
  }
  return both;
}

/** Printable ASCII three times in four when the set has some; the first of the set when choices run out. */
function pickCodePoint(set: CodePoints, chooser: Chooser): number {
  if (chooser.plain) return plainestOf(set);
  const { all, printable } = split(set);
  const choice = chooser.pick(0x7fffffff);
  const from = printable.length > 0 && choice % 4 !== 3 ? printable : all;
  const size = from.reduce((total, [low, high]) => total + high - low + 1, 0);
  let index = (choice >>> 2) % size;
  for (const [low, high] of from) {
    if (index <= high - low) return low + index;
    index -= high - low + 1;
  }
  return from[0]?.[0] ?? 0;
}

/** Where a plain string's characters come from, plainest first: lowercase letters (`a` first), capitals, digits. */
const PLAIN_RANGES: readonly (readonly [number, number])[] = [
  [0x61, 0x7a],
  [0x41, 0x5a],
  [0x30, 0x39],
];

/** The plainest character of a set: the first of {@link PLAIN_RANGES} it has, else its first printable, else its first. */
function plainestOf(set: CodePoints): number {
  const { all, printable } = split(set);
  for (const [from, to] of PLAIN_RANGES) {
    for (const [low, high] of printable) if (low <= to && high >= from) return Math.max(low, from);
  }
  return printable[0]?.[0] ?? all[0]?.[0] ?? 0;
}
