import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { caseBias, caseRandom } from '../../runner/generate/case-random.js';
import {
  asciiArbitrary,
  asciiString,
  codePointArbitrary,
  codePointLength,
  codePointString,
  composedCodePointArbitrary,
  textArbitrary,
} from './text.js';

/** The first shrinks of a value, depth first along the first candidate, as values. */
function shrinkPath(arbitrary: fc.Arbitrary<string>, value: fc.Value<string>, steps: number): string[][] {
  const path: string[][] = [];
  let current: fc.Value<string> | undefined = value;
  for (let step = 0; step < steps && current !== undefined; step++) {
    const candidates: fc.Value<string>[] = [...arbitrary.shrink(current.value, current.context).take(8)];
    path.push(candidates.map((candidate) => candidate.value));
    current = candidates[candidates.length - 1];
  }
  return path;
}

describe('codePointArbitrary', () => {
  const direct = (unit: fc.Arbitrary<string>): fc.Arbitrary<string> => fc.string({ unit, maxLength: 300, size: 'max' });

  it('draws the values and consumes the random exactly as the composed oneof/map unit does', () => {
    for (let index = 0; index < 200; index++) {
      const fast = caseRandom(3, 'text', index);
      const composed = caseRandom(3, 'text', index);
      const bias = caseBias(index);
      expect(direct(codePointArbitrary).generate(fast, bias).value).toBe(
        direct(composedCodePointArbitrary).generate(composed, bias).value,
      );
      expect(fast.nextInt(0, 1_000_000)).toBe(composed.nextInt(0, 1_000_000));
    }
  });

  const shrinks = (value: string, context?: unknown): string[] => [
    ...codePointArbitrary.shrink(value, context).map((shrunk) => shrunk.value),
  ];

  it('shrinks a character first to a plain letter: a, then é for what only non-ASCII shows', () => {
    expect(shrinks('~')[0]).toBe('a');
    expect(shrinks('\u007f').slice(0, 2)).toEqual(['a', 'é']);
    expect(shrinks('\ue000').slice(0, 3)).toEqual(['a', 'é', 'ａ']);
    expect(shrinks('𐀀').slice(0, 3)).toEqual(['a', 'é', '🌱']);
    expect(shrinks('a')).toEqual([]);
  });

  it('keeps a character that matters within its own range, shrunk toward its plainest member', () => {
    expect(shrinks('\u0000')).toEqual(['a']);
    expect(shrinks('\u001f').slice(0, 2)).toEqual(['a', '\u0000']);
    expect(shrinks('🌱')).toEqual(['a', 'é']);
    // Below a, '<' shrinks up toward it, not down toward the range's minimum (a space).
    expect(shrinks('<')).toEqual(['a', 'N', 'E', '@', '>', '=']);
  });

  it('shrinks a drawn character as the same character without a context', () => {
    for (let index = 0; index < 50; index++) {
      const drawn = codePointArbitrary.generate(caseRandom(5, 'unit', index), caseBias(index));
      expect(shrinks(drawn.value, drawn.context)).toEqual(shrinks(drawn.value));
    }
  });

  it('ends a shrink on a candidate that fails, never past it', () => {
    // A failure needing a character outside ASCII: é is the plainest such, and shrinking stops there.
    const nonAscii = (text: string): boolean => [...text].some((character) => character > '\u007f');
    let current = { value: '忢', context: undefined as unknown };
    for (let step = 0; step < 40; step++) {
      const next = [...codePointArbitrary.shrink(current.value, current.context)].find((shrunk) =>
        nonAscii(shrunk.value),
      );
      if (next === undefined) break;
      current = next;
    }
    expect(current.value).toBe('é');
  });
});

describe('codePointString', () => {
  const constraints = [
    { maxLength: 2000, size: 'max' as const },
    { minLength: 3, maxLength: 40 },
    { minLength: 5, maxLength: 5 },
    { maxLength: 0 },
    // Longer than the unit buffer starts and than one String.fromCharCode call takes.
    { minLength: 4500, maxLength: 6000 },
  ];

  it('draws the values and consumes the random exactly as fast-check strings of the unit do', () => {
    for (const constraint of constraints) {
      const fastArbitrary = codePointString(constraint);
      const composedArbitrary = fc.string({ ...constraint, unit: codePointArbitrary });
      for (let index = 0; index < 100; index++) {
        const fast = caseRandom(11, JSON.stringify(constraint), index);
        const composed = caseRandom(11, JSON.stringify(constraint), index);
        const bias = caseBias(index);
        expect(fastArbitrary.generate(fast, bias).value).toBe(composedArbitrary.generate(composed, bias).value);
        expect(fast.nextInt(0, 1_000_000)).toBe(composed.nextInt(0, 1_000_000));
      }
    }
  });

  it('shrinks a drawn string first to as many plain a, then its unit-keeping forms, then along the path of fast-check strings of the unit', () => {
    const fastArbitrary = codePointString({ minLength: 2, maxLength: 12 });
    const composedArbitrary = fc.string({ minLength: 2, maxLength: 12, unit: codePointArbitrary });
    for (let index = 0; index < 20; index++) {
      const fast = fastArbitrary.generate(caseRandom(13, 'shrink', index), caseBias(index));
      const composed = composedArbitrary.generate(caseRandom(13, 'shrink', index), caseBias(index));
      const [first, ...all] = [...fastArbitrary.shrink(fast.value, fast.context).take(11)];
      const composedShrinks = [...composedArbitrary.shrink(composed.value, composed.context).take(8)];
      // Plain a's and one character repeated, as long in UTF-16 units or UTF-8 bytes: none, one or two.
      const forms = [0, 1, 2].find((count) =>
        all.slice(count, count + 8).every((shrunk, at) => shrunk.value === composedShrinks[at]?.value),
      );
      for (const form of all.slice(0, forms ?? 0)) expect(form.value).toMatch(/^a*([^\0-\x7f])\1*$/u);
      const rest = all.slice(forms ?? 0, (forms ?? 0) + 8);
      const plain = 'a'.repeat(codePointLength(fast.value));
      const after = fast.value === plain ? [first, ...rest].slice(0, 8) : rest;
      if (fast.value !== plain) expect(first?.value).toBe(plain);
      expect(after.map((shrunk) => shrunk?.value)).toEqual([
        ...composedArbitrary
          .shrink(composed.value, composed.context)
          .take(8)
          .map((shrunk) => shrunk.value),
      ]);
      const last = after[after.length - 1];
      if (last !== undefined) {
        const composedLast = [...composedArbitrary.shrink(composed.value, composed.context).take(8)].pop();
        if (composedLast === undefined) throw new Error('no composed shrink');
        expect(shrinkPath(fastArbitrary, last, 5)).toEqual(shrinkPath(composedArbitrary, composedLast, 5));
      }
    }
  });

  it('shrinks a plain string of a in length alone, within the length limits', () => {
    const arbitrary = codePointString({ minLength: 3, maxLength: 400, size: 'max' });
    const drawn = arbitrary.generate(caseRandom(17, 'plain', 0), undefined);
    const [plain] = [...arbitrary.shrink(drawn.value, drawn.context).take(1)];
    if (plain === undefined) throw new Error('no shrink');
    const shorter = [...arbitrary.shrink(plain.value, plain.context)];
    expect(shorter.length).toBeGreaterThan(0);
    for (const shrunk of shorter) {
      expect(shrunk.value).toMatch(/^a{3,}$/);
      expect(shrunk.value.length).toBeLessThan(plain.value.length);
    }
  });
});

describe('asciiString', () => {
  it('draws the values and consumes the random exactly as fast-check grapheme-ascii strings do', () => {
    for (const constraint of [{ maxLength: 20 }, { minLength: 7, maxLength: 7 }]) {
      const ours = asciiString(constraint);
      const theirs = fc.string({ ...constraint, unit: 'grapheme-ascii' });
      for (let index = 0; index < 100; index++) {
        const fast = caseRandom(19, JSON.stringify(constraint), index);
        const composed = caseRandom(19, JSON.stringify(constraint), index);
        const bias = caseBias(index);
        expect(ours.generate(fast, bias).value).toBe(theirs.generate(composed, bias).value);
        expect(fast.nextInt(0, 1_000_000)).toBe(composed.nextInt(0, 1_000_000));
      }
    }
  });

  it('shrinks a character toward a, where grapheme-ascii shrinks toward a space', () => {
    expect([...asciiArbitrary.shrink('~', undefined).map((shrunk) => shrunk.value)][0]).toBe('a');
    const drawn = asciiString({ minLength: 5, maxLength: 5 }).generate(caseRandom(19, 'plain', 1), undefined);
    const [first] = [...asciiString({ minLength: 5, maxLength: 5 }).shrink(drawn.value, drawn.context).take(1)];
    expect(drawn.value).not.toBe('aaaaa');
    expect(first?.value).toBe('aaaaa');
  });
});

describe('a string a server counts in other units than code points', () => {
  /** The counterexamples fast-check's greedy shrinking (the runner's) ends on, over seeds, for a length check. */
  const shrunk = (fits: (text: string) => boolean): string[] =>
    [1, 2, 3, 4, 5, 42].flatMap((seed) => {
      const found = fc.check(fc.property(textArbitrary(1, 32), fits), { seed, numRuns: 300 });
      return found.counterexample === null ? [] : [found.counterexample[0]];
    });

  it("shrinks to plain a's and its widest character when UTF-8 bytes are counted (Python len(s.encode()), Go len(s))", () => {
    const found = shrunk((text) => new TextEncoder().encode(text).length <= 32);
    expect(found.length).toBeGreaterThan(0);
    for (const text of found) {
      expect(text).toMatch(/^a+[^a]$/u);
      expect(new TextEncoder().encode(text).length).toBeGreaterThan(32);
    }
  });

  it("shrinks to plain a's and one character past U+FFFF when UTF-16 units are counted (JavaScript's length)", () => {
    const found = shrunk((text) => text.length <= 32);
    expect(found.length).toBeGreaterThan(0);
    for (const text of found) expect(text).toMatch(/^a+[\u{10000}-\u{10ffff}]$/u);
  });
});
