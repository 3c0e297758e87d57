/**
 * A reader of ECMAScript regular expressions (Unicode mode, as ajv compiles `pattern`) into the
 * shape needed to build matching strings by construction: sets of code points, sequences,
 * alternatives, repetitions and the two anchors. Look-arounds, back-references and word boundaries
 * are outside that shape: reading them throws {@link OutsideShape}.
 */

/** Inclusive code point ranges, sorted and disjoint. */
export type CodePoints = readonly (readonly [number, number])[];

export type RegexNode =
  | { readonly kind: 'chars'; readonly set: CodePoints }
  | { readonly kind: 'sequence'; readonly items: readonly RegexNode[] }
  | { readonly kind: 'choice'; readonly options: readonly RegexNode[] }
  | { readonly kind: 'repeat'; readonly item: RegexNode; readonly min: number; readonly max: number }
  | { readonly kind: 'start' }
  | { readonly kind: 'end' };

/** A construct the constructive generator does not model (the caller falls back to sampling). */
export class OutsideShape extends Error {
  override readonly name = 'OutsideShape';
}

const MAX_CODE_POINT = 0x10ffff;
export const ANY: CodePoints = [[0, MAX_CODE_POINT]];
const LINE_TERMINATORS: CodePoints = [
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
];
const DIGITS: CodePoints = [[0x30, 0x39]];
const WORD: CodePoints = [
  [0x30, 0x39],
  [0x41, 0x5a],
  [0x5f, 0x5f],
  [0x61, 0x7a],
];
const SPACE: CodePoints = normalise([
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
]);

/** Sorted, merged ranges. */
export function normalise(ranges: readonly (readonly [number, number])[]): CodePoints {
  const sorted = [...ranges].filter(([low, high]) => low <= high).sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [low, high] of sorted) {
    const last = merged.at(-1);
    if (last !== undefined && low <= last[1] + 1) last[1] = Math.max(last[1], high);
    else merged.push([low, high]);
  }
  return merged;
}

/** Every code point not in `set`. */
export function complement(set: CodePoints): CodePoints {
  const result: [number, number][] = [];
  let next = 0;
  for (const [low, high] of normalise(set)) {
    if (low > next) result.push([next, low - 1]);
    next = high + 1;
  }
  if (next <= MAX_CODE_POINT) result.push([next, MAX_CODE_POINT]);
  return result;
}

const propertySets = new Map<string, CodePoints>();

/** A `\p{…}` set, found by asking the engine about every code point once per process. */
function propertySet(source: string): CodePoints {
  let set = propertySets.get(source);
  if (set === undefined) {
    const regex = new RegExp(`^${source}$`, 'u');
    const ranges: [number, number][] = [];
    for (let code = 0; code <= MAX_CODE_POINT; code++) {
      if (code === 0xd800) code = 0xe000;
      if (!regex.test(String.fromCodePoint(code))) continue;
      const last = ranges.at(-1);
      if (last !== undefined && last[1] === code - 1) last[1] = code;
      else ranges.push([code, code]);
    }
    set = ranges;
    propertySets.set(source, set);
  }
  return set;
}

/** Reads a pattern already known to compile with the `u` flag. */
export function parseRegex(source: string): RegexNode {
  const reader = new Reader(source);
  const node = reader.alternatives();
  if (!reader.done()) throw new OutsideShape(`unexpected ${reader.peek()}`);
  return node;
}

class Reader {
  private index = 0;
  private readonly points: string[];

  constructor(source: string) {
    this.points = [...source];
  }

  done(): boolean {
    return this.index >= this.points.length;
  }

  peek(offset = 0): string {
    return this.points[this.index + offset] ?? '';
  }

  private next(): string {
    return this.points[this.index++] ?? '';
  }

  alternatives(): RegexNode {
    const options = [this.sequence()];
    while (this.peek() === '|') {
      this.index++;
      options.push(this.sequence());
    }
    return options.length === 1 ? (options[0] as RegexNode) : { kind: 'choice', options };
  }

  private sequence(): RegexNode {
    const items: RegexNode[] = [];
    while (!this.done() && this.peek() !== '|' && this.peek() !== ')') items.push(this.quantified(this.atom()));
    return items.length === 1 ? (items[0] as RegexNode) : { kind: 'sequence', items };
  }

  private quantified(item: RegexNode): RegexNode {
    let bounds: [number, number] | undefined;
    const mark = this.peek();
    if (mark === '*') bounds = [0, Infinity];
    else if (mark === '+') bounds = [1, Infinity];
    else if (mark === '?') bounds = [0, 1];
    if (bounds !== undefined) this.index++;
    else if (mark === '{') bounds = this.braces();
    if (bounds === undefined) return item;
    if (this.peek() === '?') this.index++;
    return { kind: 'repeat', item, min: bounds[0], max: bounds[1] };
  }

  private braces(): [number, number] {
    const rest = this.points.slice(this.index).join('');
    const found = /^\{(\d+)(,(\d*))?\}/.exec(rest);
    if (found === null) throw new OutsideShape('a brace that is not a quantifier');
    this.index += [...found[0]].length;
    const min = Number(found[1]);
    const max = found[2] === undefined ? min : found[3] === '' ? Infinity : Number(found[3]);
    return [min, max];
  }

  private atom(): RegexNode {
    const char = this.next();
    if (char === '^') return { kind: 'start' };
    if (char === '$') return { kind: 'end' };
    if (char === '.') return { kind: 'chars', set: complement(LINE_TERMINATORS) };
    if (char === '[') return { kind: 'chars', set: this.bracket() };
    if (char === '(') return this.group();
    if (char === '\\') return { kind: 'chars', set: this.escape(false) };
    return { kind: 'chars', set: single(char.codePointAt(0) ?? 0) };
  }

  private group(): RegexNode {
    if (this.peek() === '?') {
      const kind = this.peek(1);
      if (kind === ':') this.index += 2;
      else if (kind === '<' && this.peek(2) !== '=' && this.peek(2) !== '!') {
        while (!this.done() && this.next() !== '>');
      } else throw new OutsideShape('a look-around');
    }
    const inner = this.alternatives();
    if (this.next() !== ')') throw new OutsideShape('an unclosed group');
    return inner;
  }

  private bracket(): CodePoints {
    const negated = this.peek() === '^';
    if (negated) this.index++;
    const ranges: (readonly [number, number])[] = [];
    while (!this.done() && this.peek() !== ']') {
      const low = this.classAtom();
      if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== '') {
        this.index++;
        const from = singleCode(low);
        const to = singleCode(this.classAtom());
        if (from === undefined || to === undefined) throw new OutsideShape('a range between classes');
        ranges.push([from, to]);
      } else ranges.push(...low);
    }
    if (this.next() !== ']') throw new OutsideShape('an unclosed class');
    const set = normalise(ranges);
    return negated ? complement(set) : set;
  }

  private classAtom(): CodePoints {
    const char = this.next();
    if (char === '\\') return this.escape(true);
    return single(char.codePointAt(0) ?? 0);
  }

  private escape(inClass: boolean): CodePoints {
    const char = this.next();
    const classes: Record<string, CodePoints> = { d: DIGITS, w: WORD, s: SPACE };
    const named = classes[char.toLowerCase()];
    if (named !== undefined) return char === char.toLowerCase() ? named : complement(named);
    if (char === 'p' || char === 'P') {
      const end = this.points.indexOf('}', this.index);
      const body = this.points.slice(this.index, end + 1).join('');
      this.index = end + 1;
      return propertySet(`\\${char}${body}`);
    }
    if (char === 'b' && inClass) return single(0x08);
    if (char === 'b' || char === 'B' || char === 'k' || /[1-9]/.test(char))
      throw new OutsideShape('a word boundary or a back-reference');
    const controls: Record<string, number> = { t: 9, n: 10, v: 11, f: 12, r: 13, '0': 0 };
    const control = controls[char];
    if (control !== undefined) return single(control);
    if (char === 'c') return single((this.next().codePointAt(0) ?? 0) % 32);
    if (char === 'x') return single(this.hex(2));
    if (char === 'u') return single(this.unicodeEscape());
    return single(char.codePointAt(0) ?? 0);
  }

  private hex(digits: number): number {
    const text = this.points.slice(this.index, this.index + digits).join('');
    this.index += digits;
    return parseInt(text, 16);
  }

  private unicodeEscape(): number {
    if (this.peek() === '{') {
      const end = this.points.indexOf('}', this.index);
      const code = parseInt(this.points.slice(this.index + 1, end).join(''), 16);
      this.index = end + 1;
      return code;
    }
    const high = this.hex(4);
    const pairs = high >= 0xd800 && high <= 0xdbff && this.peek() === '\\' && this.peek(1) === 'u';
    if (!pairs) return high;
    const saved = this.index;
    this.index += 2;
    const low = this.hex(4);
    if (low >= 0xdc00 && low <= 0xdfff) return (high - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
    this.index = saved;
    return high;
  }
}

/** The one code point of a set of one, else `undefined`. */
function singleCode(set: CodePoints): number | undefined {
  const [only, more] = set;
  return only !== undefined && more === undefined && only[0] === only[1] ? only[0] : undefined;
}

function single(code: number): CodePoints {
  return [[code, code]];
}
