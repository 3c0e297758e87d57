import { hash } from 'node:crypto';
import { Random } from 'fast-check';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

/**
 * The random source of one generated case: a function of the run's seed, the probe and the case's
 * index only, so case 17 is the same whether the run has 20 cases or 2000, and a replay can
 * regenerate exactly one case.
 */
export function caseRandom(seed: number, probe: string, index: number): Random {
  // One-shot `hash`: the same digest as `createHash`, without a Hash object per case.
  const digest = hash('sha256', `${seed}\u0000${probe}\u0000${index}`, 'buffer');
  return new Random(xoroshiro128plus(digest.readInt32BE(0)));
}

/**
 * fast-check's bias factor for a case: the first case of each variant fully biased (small values,
 * so a defect found there is already near minimal, even when a target that stored it defeats
 * shrinking), later ones mixed: some biased toward small and edge values, others not.
 */
export function caseBias(index: number, variants = 1): number | undefined {
  if (index < variants) return 1;
  const factors = [undefined, 2, 3, 5, 10];
  return factors[index % factors.length];
}
