import fc from 'fast-check';

/** How a {@link plainFirst} arbitrary makes a drawn string plain and shrinks it on once plain. */
export interface PlainCandidate {
  /** The plain string of a drawn one (`"aaaa"` for `"x_y!"`); `undefined` when there is none other than itself. */
  readonly plainOf: (value: string) => string | undefined;
  /** Shrinks of a plain string, from its own `context` (`undefined` for the plain string itself). */
  readonly shrinkPlain: (value: string, context: unknown) => fc.Stream<fc.Value<string>>;
  /**
   * Other plain strings offered right after the plain string, each with the context `shrinkAlso` shrinks it from: for
   * a failure that needs the value's length in another unit than its plain string keeps.
   */
  readonly alsoOf?: (value: string) => readonly fc.Value<string>[];
  readonly shrinkAlso?: (value: string, context: unknown) => fc.Stream<fc.Value<string>>;
}

/** The context of a string {@link PlainCandidate.alsoOf} offered, and of its shrinks. */
class Also {
  constructor(readonly inner: unknown) {}
}

/** What {@link PlainFirst} keeps of a draw: the inner arbitrary's context. */
class Drawn {
  constructor(readonly inner: unknown) {}
}

/** The context of a plain string and of its shrinks: the context its {@link PlainCandidate} shrinks it from. */
class Plain {
  constructor(readonly inner: unknown) {}
}

/**
 * Strings of `inner` whose first shrink of a drawn value is its plain string: one candidate where shrinking a
 * character at a time would spend one per character. Taken, it shrinks on as the candidate says; not taken (the
 * failure needs those characters), `inner` shrinks. Draws are `inner`'s, from the same random.
 */
class PlainFirst extends fc.Arbitrary<string> {
  constructor(
    private readonly inner: fc.Arbitrary<string>,
    private readonly candidate: PlainCandidate,
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
    if (context instanceof Also) {
      const shrinkAlso = this.candidate.shrinkAlso ?? (() => fc.Stream.nil<fc.Value<string>>());
      return shrinkAlso(value, context.inner).map((shrunk) => new fc.Value(shrunk.value, new Also(shrunk.context)));
    }
    if (context instanceof Plain) {
      return this.candidate
        .shrinkPlain(value, context.inner)
        .map((shrunk) => new fc.Value(shrunk.value, new Plain(shrunk.context)));
    }
    if (!(context instanceof Drawn)) return this.inner.shrink(value, context);
    const rest = this.inner.shrink(value, context.inner);
    const plain = this.candidate.plainOf(value);
    const first = plain === undefined || plain === value ? [] : [new fc.Value(plain, new Plain(undefined))];
    const also = (this.candidate.alsoOf?.(value) ?? [])
      .filter((other) => other.value !== value && other.value !== plain)
      .map((other) => new fc.Value(other.value, new Also(other.context)));
    return fc.Stream.of(...first, ...also).join(rest);
  }
}

/** Strings of `inner` whose shrinking offers the candidate's plain string first (see {@link PlainCandidate}). */
export function plainFirst(inner: fc.Arbitrary<string>, candidate: PlainCandidate): fc.Arbitrary<string> {
  return new PlainFirst(inner, candidate);
}
