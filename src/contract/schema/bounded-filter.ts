import fc from 'fast-check';

const FALLBACK = Symbol('fallback');

/**
 * `arbitrary.filter(predicate)` that gives up after `attempts` draws and answers `fallback` (a value
 * known to pass) instead: fast-check's own filter retries without end, so one rare predicate would
 * hang a whole run. Same seed, same values; shrinking keeps to values that pass.
 */
export function boundedFilter<T>(
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => boolean,
  fallback: T,
  attempts: number,
): fc.Arbitrary<T> {
  return new BoundedFilter(arbitrary, predicate, fallback, attempts);
}

class BoundedFilter<T> extends fc.Arbitrary<T> {
  constructor(
    private readonly inner: fc.Arbitrary<T>,
    private readonly predicate: (value: T) => boolean,
    private readonly fallback: T,
    private readonly attempts: number,
  ) {
    super();
  }

  generate(random: fc.Random, biasFactor: number | undefined): fc.Value<T> {
    for (let attempt = 0; attempt < this.attempts; attempt++) {
      const drawn = this.inner.generate(random, biasFactor);
      if (this.predicate(drawn.value)) return drawn;
    }
    return new fc.Value(this.fallback, FALLBACK);
  }

  canShrinkWithoutContext(value: unknown): value is T {
    return this.inner.canShrinkWithoutContext(value) && this.predicate(value);
  }

  shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
    if (context === FALLBACK) return fc.Stream.nil();
    return this.inner.shrink(value, context).filter((smaller) => this.predicate(smaller.value));
  }
}
