import { performance } from 'node:perf_hooks';
import { compileSchema, loadContract, stringifyExactJson, type CompiledSchema } from '../src/contract/index.js';
import { caseBias, caseRandom } from '../src/runner/generate/case-random.js';

/** A NewPlant as a demanding vendor writes it: every kind of constraint at once. */
export const CONSTRAINED_NEW_PLANT = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'care'],
  properties: {
    id: { type: 'integer', format: 'int64', minimum: 1, maximum: 4503599627370496 },
    name: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[A-Z][a-z]+( [a-z]+)*$' },
    tag: { type: 'string', enum: ['cactus', 'fern', 'palm', 'succulent'] },
    price: { type: 'number', minimum: 0, exclusiveMaximum: 100000, multipleOf: 0.01 },
    sku: { type: 'string', format: 'uuid' },
    planted: { type: 'string', format: 'date' },
    labels: { type: 'array', items: { type: 'string', minLength: 1, maxLength: 12 }, maxItems: 5, uniqueItems: true },
    care: {
      type: 'object',
      additionalProperties: false,
      required: ['water'],
      properties: {
        water: { type: 'string', enum: ['daily', 'weekly', 'monthly'] },
        light: { type: ['integer', 'null'], minimum: 0, maximum: 10 },
      },
    },
  },
} as const;

/** Values generated and written as JSON per second, for `seconds`, with the run's own random per value. */
function throughput(compiled: CompiledSchema, seconds: number): number {
  const until = performance.now() + seconds * 1000;
  let count = 0;
  while (performance.now() < until) {
    for (let batch = 0; batch < 100; batch++, count++) {
      const value = compiled.valid.generate(caseRandom(1, 'bench', count), caseBias(count));
      stringifyExactJson(value.value);
    }
  }
  return Math.round(count / seconds);
}

/** Generation throughput (valid values/s) for the seed's NewPlant and for a heavily constrained one. */
export async function benchGeneration({ quick }: { quick: boolean }): Promise<Record<string, number>> {
  const seconds = quick ? 1 : 5;
  const contract = await loadContract();
  const constrained = compileSchema(CONSTRAINED_NEW_PLANT, { dialect: 'openapi-3.1', subject: 'a NewPlant' });
  return {
    seedNewPlantValuesPerSecond: throughput(contract.compiled.newPlant, seconds),
    constrainedNewPlantValuesPerSecond: throughput(constrained, seconds),
    constrainedInvalidVariants: constrained.invalid.length,
    constrainedBoundaries: constrained.boundaries.length,
  };
}
