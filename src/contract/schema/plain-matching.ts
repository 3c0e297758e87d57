import fc from 'fast-check';

/** Characters tried in place of each one, plainest first: a shrunk match reads `"AA-aaaa"`, not `"AA-    "`. */
const PLAIN_CHARACTERS = ['a', 'A', '0'];

/** Longest match made plain: each character costs a few whole-string tests. */
const LONGEST_PLAIN = 512;

/** What {@link PlainFirstMatching} keeps of a draw: the inner arbitrary's context. */
class Drawn {
  constructor(readonly inner: unknown) {}
}

/** The context of a plain match: it shrinks on in length alone, staying plain. */
const PLAIN = Symbol('plain');

/**
 * Strings of `inner` (all matching `regex`) whose first shrink of a drawn value is the same string with every
 * character that can be made plain made so, the regex still matching: fast-check's `stringMatching` shrinks a
 * character toward its class's first member and free text toward spaces. Taken, it shrinks on by cutting
 * characters out where the rest still matches; not taken (the failure needs those characters), `inner` shrinks.
 */
class PlainFirstMatching extends fc.Arbitrary<string> {
  constructor(
    private readonly inner: fc.Arbitrary<string>,
    private readonly regex: RegExp,
  ) {
    super();
  }

  generate(random: fc.Random, biasFactor: number | undefined): fc.Value<string> {
    const drawn = this.inner.generate(random, biasFactor);
    return new fc.Value(drawn.value, new Drawn(drawn.context));
  }

  canShrinkWithoutContext(value: unknown): value is string {
    return this.inner.canShrinkWithoutContext(value);
  }

  shrink(value: string, context: unknown): fc.Stream<fc.Value<string>> {
    if (context === PLAIN) return fc.stream(this.shorter(value)).map((text) => new fc.Value(text, PLAIN));
    if (!(context instanceof Drawn)) return this.inner.shrink(value, context);
    const plain = plainMatch(value, this.regex);
    const rest = this.inner.shrink(value, context.inner);
    return plain === undefined ? rest : fc.Stream.of(new fc.Value(plain, PLAIN)).join(rest);
  }

  /** Shorter matches: halves, quarters… down to single characters cut out, from the end first. */
  private *shorter(value: string): Generator<string> {
    const points = [...value];
    const seen = new Set<string>();
    for (let size = Math.max(1, points.length >> 1); size >= 1; size = size === 1 ? 0 : size >> 1) {
      for (let start = points.length - size; start >= 0; start -= size) {
        const text = [...points.slice(0, start), ...points.slice(start + size)].join('');
        if (seen.has(text) || !matchesWhole(this.regex, text)) continue;
        seen.add(text);
        yield text;
      }
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

/** Matches of `regex` drawn by `inner`, shrinking first to plain `a`s where the regex allows them. */
export function plainFirstMatching(inner: fc.Arbitrary<string>, regex: RegExp): fc.Arbitrary<string> {
  return new PlainFirstMatching(inner, regex);
}
