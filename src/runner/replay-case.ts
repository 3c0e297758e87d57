import type { Contract } from '../contract/index.js';
import { plansAt, type ArbitraryCache, type GeneratedCase } from './cases.js';
import { ConformanceOptionsError } from './errors.js';
import type { FreshIds } from './generate/fresh-ids.js';
import type { ReplaySpec } from './replay.js';
import { followShrinkPath } from './shrink.js';

/** The exact case a replay string names: the generated case, then its recorded shrink path. */
export function replayCase(
  spec: ReplaySpec,
  generated: readonly GeneratedCase[],
  inputs: { contract: Contract; fresh: FreshIds; arbitraries: ArbitraryCache },
): GeneratedCase {
  const original = generated.find((entry) => entry.probe.name === spec.probe && entry.index === spec.index);
  if (!original) {
    throw new ConformanceOptionsError(
      `\`replay\` names case ${spec.probe} #${spec.index}, which this seed and \`runs\` do not generate: use the \`seed\` and \`runs\` printed with the failure.`,
      'replay',
    );
  }
  if (spec.path.length === 0 && !spec.alwaysFresh) return original;
  const value = followShrinkPath(inputs.arbitraries(original.probe, original.index), original.value, spec.path);
  if (!value)
    throw new ConformanceOptionsError(
      `\`replay\` shrink path ${spec.path.join('.')} does not exist for this case.`,
      'replay',
    );
  const plans = plansAt(original, value.value, spec.path, spec.alwaysFresh, inputs);
  return { ...original, value, plans };
}
