import fc from 'fast-check';
import type { Contract } from '../contract/index.js';
import type { CompiledSchema, ExactJson } from '../contract/schema/compiled-schema.js';
import type { ValidSamples } from './served-contract.js';

/** The seed of the values filled into answers: the same document gives the same values in every process. */
const FILL_SEED = 20261123;

type Compiled = { readonly compiled?: { readonly plant: CompiledSchema; readonly error: CompiledSchema } };

/** Valid Plant and Error values generated from the contract's compiled schemas with a fixed seed. */
export function validSamples(contract: Contract): ValidSamples {
  const { compiled } = contract as Contract & Compiled;
  return {
    plant: () => (compiled ? sampleOf(compiled.plant.valid, FILL_SEED) : undefined),
    error: () => (compiled ? sampleOf(compiled.error.valid, FILL_SEED) : undefined),
  };
}

/** A schema-valid Plant for each seed, generated from the contract's compiled Plant schema. */
export function validPlants(contract: Contract): (seed: number) => ExactJson {
  const { compiled } = contract as Contract & Compiled;
  return (seed) => (compiled ? (sampleOf(compiled.plant.valid, seed) ?? null) : null);
}

function sampleOf(arbitrary: fc.Arbitrary<ExactJson>, seed: number): ExactJson | undefined {
  return fc.sample(arbitrary, { seed, numRuns: 1 })[0];
}
