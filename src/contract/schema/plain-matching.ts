import fc from 'fast-check';
import { plainFirst } from './plain-first.js';

/** Characters tried in place of each one, plainest first: a shrunk match reads `"AA-aaaa"`, not `"AA-    "`. */
const PLAIN_CHARACTERS = ['a', 'A', '0'];

/** Longest match made plain: each character costs a few whole-string tests. */
const LONGEST_PLAIN = 512;

/** Shorter matches of `regex`: halves, quarters… down to single characters cut out, from the end first. */
function* shorterMatches(value: string, regex: RegExp): Generator<string> {
  const points = [...value];
  const seen = new Set<string>();
  for (let size = Math.max(1, points.length >> 1); size >= 1; size = size === 1 ? 0 : size >> 1) {
    for (let start = points.length - size; start >= 0; start -= size) {
      const text = [...points.slice(0, start), ...points.slice(start + size)].join('');
      if (seen.has(text) || !matchesWhole(regex, text)) continue;
      seen.add(text);
      yield text;
    }
  }
}

/** `value` with each character replaced by the plainest of {@link PLAIN_CHARACTERS} the regex allows there. */
export function plainMatch(value: string, regex: RegExp): string | undefined {
  const points = [...value];
  if (points.length > LONGEST_PLAIN) return undefined;
  for (const [index, point] of points.entries()) {
    for (const plain of PLAIN_CHARACTERS) {
      if (plain === point) break;
      points[index] = plain;
      if (matchesWhole(regex, points.join(''))) break;
      points[index] = point;
    }
  }
  const plain = points.join('');
  return plain === value ? undefined : plain;
}

/** A test that a global or sticky regex's `lastIndex` cannot skew. */
function matchesWhole(regex: RegExp, text: string): boolean {
  regex.lastIndex = 0;
  return regex.test(text);
}

/**
 * Matches of `regex` drawn by `inner` (all matching it), whose first shrink of a drawn value is the same string
 * with every character that can be made plain made so, the regex still matching: fast-check's `stringMatching`
 * shrinks a character toward its class's first member and free text toward spaces. Taken, it shrinks on by
 * cutting characters out where the rest still matches; not taken (the failure needs those characters), `inner`
 * shrinks.
 */
export function plainFirstMatching(inner: fc.Arbitrary<string>, regex: RegExp): fc.Arbitrary<string> {
  return plainFirst(inner, {
    plainOf: (value) => plainMatch(value, regex),
    shrinkPlain: (value) => fc.stream(shorterMatches(value, regex)).map((text) => new fc.Value(text, undefined)),
  });
}
