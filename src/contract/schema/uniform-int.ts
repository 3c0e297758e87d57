import fc from 'fast-check';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

/** The generator inside a fast-check `Random` (not part of its types): what `nextInt` draws from. */
interface RandomGenerator {
  next(): number;
}

const TWO_POW_32 = 4294967296;
const OFFSET = 2147483648;

/**
 * `random.nextInt(min, max)` for one range (at most 2^32 values), its bounds worked out once: the
 * same rejection sampling as pure-rand's `uniformInt` on the same generator, so the same values and
 * the same random consumed, without the wrappers and the division of each call. Generated text draws
 * two of these per character. Where the draws would differ (another fast-check or pure-rand, a
 * `Random` without its generator where expected), `nextInt` itself is called.
 */
export class UniformInt {
  private readonly size: number;
  private readonly limit: number;

  constructor(
    readonly min: number,
    readonly max: number,
  ) {
    this.size = max - min + 1;
    this.limit = this.size > 2 ? ~~(TWO_POW_32 / this.size) * this.size : TWO_POW_32;
  }

  draw(random: fc.Random): number {
    const generator = DIRECT ? generatorOf(random) : undefined;
    return generator === undefined ? random.nextInt(this.min, this.max) : this.drawFrom(generator);
  }

  /** pure-rand's `uniformIntInternal`, then `min` added, as `uniformInt` does for a range this size. */
  drawFrom(generator: RandomGenerator): number {
    let value = generator.next() + OFFSET;
    while (value >= this.limit) value = generator.next() + OFFSET;
    return (value % this.size) + this.min;
  }
}

function generatorOf(random: fc.Random): RandomGenerator | undefined {
  const generator = (random as unknown as { internalRng?: Partial<RandomGenerator> }).internalRng;
  return typeof generator?.next === 'function' ? (generator as RandomGenerator) : undefined;
}

/** Whether drawing directly gives what `nextInt` gives here: checked once, on ranges of every kind. */
function directDrawsMatch(): boolean {
  const ranges: [number, number][] = [
    [0, 0],
    [0, 1],
    [0, 9],
    [0x20, 0x7e],
    [0x7f, 0xd7ff],
    [0x10000, 0x10ffff],
    [-5, 2 ** 31 - 1],
  ];
  for (let seed = 0; seed < 8; seed++) {
    const direct = generatorOf(new fc.Random(xoroshiro128plus(seed)));
    const through = new fc.Random(xoroshiro128plus(seed));
    if (direct === undefined) return false;
    for (let draw = 0; draw < 64; draw++) {
      const [min, max] = ranges[draw % ranges.length] ?? [0, 0];
      if (new UniformInt(min, max).drawFrom(direct) !== through.nextInt(min, max)) return false;
    }
  }
  return true;
}

const DIRECT = directDrawsMatch();

/** Whether {@link UniformInt} draws from the generator directly in this process (else through `nextInt`). */
export const UNIFORM_INT_DRAWS_DIRECTLY = DIRECT;
