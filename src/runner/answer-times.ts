/** Buckets per doubling of the time: each bucket's upper bound is 2^(1/4), about 19%, above the last. */
const BUCKETS_PER_DOUBLING = 4;
const BUCKETS = 80;

/**
 * How long complete answers took, counted in buckets (so memory stays flat however many): enough to say
 * under which time most of them came, which the slowest single answer does not (a connection the kernel
 * accepted only on its SYN's retransmission, a second late, is one of a few).
 */
export class AnswerTimes {
  private readonly buckets = new Uint32Array(BUCKETS);
  count = 0;

  add(ms: number): void {
    const index = Math.ceil(BUCKETS_PER_DOUBLING * Math.log2(Math.max(0, ms) + 1));
    this.buckets[Math.min(BUCKETS - 1, index)]!++;
    this.count++;
  }

  /** A time under which at least `fraction` of the answers came (the bound of its bucket); 0 with none. */
  quantile(fraction: number): number {
    if (this.count === 0) return 0;
    const wanted = Math.ceil(fraction * this.count);
    let seen = 0;
    for (let index = 0; index < BUCKETS; index++) {
      seen += this.buckets[index]!;
      if (seen >= wanted) return 2 ** (index / BUCKETS_PER_DOUBLING) - 1;
    }
    return 2 ** ((BUCKETS - 1) / BUCKETS_PER_DOUBLING) - 1;
  }
}
