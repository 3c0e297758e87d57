import fc from 'fast-check';
import type { ExactJson } from './compiled-schema.js';

/**
 * The valid values a site's value sits in, outermost first, and how a value is put into them: the
 * parts of `Site.whole`, which generates `parents` in this order, then the value, then puts it there.
 */
export interface Frame {
  readonly parents: readonly fc.Arbitrary<ExactJson>[];
  put(parents: readonly ExactJson[], value: ExactJson): ExactJson;
}

/** The frame of a value that is the whole value. */
export const NO_FRAME: Frame = { parents: [], put: (_parents, value) => value };

/** A frame one level deeper: inside values of `parent`, put there by `put`. */
export function frameInside(
  frame: Frame,
  parent: fc.Arbitrary<ExactJson>,
  put: (parent: ExactJson, value: ExactJson) => ExactJson,
): Frame {
  return {
    parents: [...frame.parents, parent],
    put: (parents, value) => frame.put(parents.slice(0, -1), put(parents[parents.length - 1] as ExactJson, value)),
  };
}

/** A run of `fc.sample`: the random and bias factor it hands the arbitrary. */
interface SampleRun {
  readonly random: fc.Random;
  readonly biasFactor: number | undefined;
}

/** An arbitrary that records what `fc.sample` hands it, so the same runs can be replayed by parts. */
class RunRecorder extends fc.Arbitrary<SampleRun> {
  generate(random: fc.Random, biasFactor: number | undefined): fc.Value<SampleRun> {
    return new fc.Value({ random: random.clone(), biasFactor }, undefined);
  }

  canShrinkWithoutContext(_value: unknown): _value is SampleRun {
    return false;
  }

  shrink(): fc.Stream<fc.Value<SampleRun>> {
    return fc.Stream.nil();
  }
}

const runsBySize = new Map<number, readonly SampleRun[]>();

function sampleRuns(tries: number, seed: number): readonly SampleRun[] {
  const key = seed * 1024 + tries;
  let runs = runsBySize.get(key);
  if (runs === undefined) {
    runs = fc.sample(new RunRecorder(), { numRuns: tries, seed });
    runsBySize.set(key, runs);
  }
  return runs;
}

/** A frame's parent values in each run, and the random as it stands after drawing them. */
interface ParentDraw {
  readonly parents: readonly ExactJson[];
  readonly after: fc.Random;
  readonly biasFactor: number | undefined;
}

const drawsByFrame = new WeakMap<readonly fc.Arbitrary<ExactJson>[], Map<number, readonly ParentDraw[]>>();

function parentDraws(frame: Frame, tries: number, seed: number): readonly ParentDraw[] {
  let bySize = drawsByFrame.get(frame.parents);
  if (bySize === undefined) {
    bySize = new Map();
    drawsByFrame.set(frame.parents, bySize);
  }
  const key = seed * 1024 + tries;
  let draws = bySize.get(key);
  if (draws === undefined) {
    draws = sampleRuns(tries, seed).map(({ random, biasFactor }) => {
      const after = random.clone();
      const parents = frame.parents.map((parent) => parent.generate(after, biasFactor).value);
      return { parents, after, biasFactor };
    });
    bySize.set(key, draws);
  }
  return draws;
}

/**
 * `fc.sample(whole(leaf), { numRuns: tries, seed })` for the `whole` a frame describes (a tuple of
 * its parents and the leaf, mapped by `put`), with the parents drawn once per frame instead of once
 * per leaf: every candidate of a site meets the same parent values, so only its leaf is drawn.
 */
export function sampleInFrame(frame: Frame, leaf: fc.Arbitrary<ExactJson>, tries: number, seed = 42): ExactJson[] {
  return parentDraws(frame, tries, seed).map(({ parents, after, biasFactor }) =>
    frame.put(parents, leaf.generate(after.clone(), biasFactor).value),
  );
}
