import fc from 'fast-check';
import type { Contract } from '../contract/index.js';
import type { ExactJson } from '../contract/schema/compiled-schema.js';
import type { ValidSamples } from './served-contract.js';

/** The seed of the values filled into answers: the same document gives the same values in every process. */
const FILL_SEED = 20261123;

/** Valid Plant and Error values generated from the contract's compiled schemas with a fixed seed. */
export function validSamples(contract: Contract): ValidSamples {
  return {
    plant: () => sampleOf(contract.compiled.plant.valid, FILL_SEED),
    error: () => sampleOf(contract.compiled.error.valid, FILL_SEED),
    answer: (answer) => sampleOf(answer.compiled.valid, FILL_SEED),
  };
}

/** A schema-valid Plant for each seed, generated from the contract's compiled Plant schema. */
export function validPlants(contract: Contract): (seed: number) => ExactJson {
  return (seed) => sampleOf(contract.compiled.plant.valid, seed) ?? null;
}

function sampleOf(arbitrary: fc.Arbitrary<ExactJson>, seed: number): ExactJson | undefined {
  return fc.sample(arbitrary, { seed, numRuns: 1 })[0];
}
