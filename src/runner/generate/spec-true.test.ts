import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadContract, parseExactJson, type Contract } from '../../contract/index.js';
import { BUILT_IN_SUITES } from '../../../suites/index.js';
import { createArbitraryCache, generateCases } from '../cases.js';
import { selectChecks } from '../selection.js';
import { createFreshIds } from './fresh-ids.js';
import { isValidNewPlant } from './new-plant.js';

const folder = mkdtempSync(join(tmpdir(), 'plantstore-spec-true-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const bearer = { components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } } };

/** A Plant Store document with the given NewPlant, Plant and Error schemas. */
function document(openapi: '3.0.3' | '3.1.0', newPlant: object, plant: object, error?: object): string {
  const json = (schema: object) => ({ content: { 'application/json': { schema } } });
  const text = JSON.stringify({
    openapi,
    info: { title: 'Plant Store', version: '1.0.0' },
    security: [{ bearerAuth: [] }],
    paths: {
      '/plants': {
        post: {
          operationId: 'addPlant',
          requestBody: { required: true, ...json({ $ref: '#/components/schemas/NewPlant' }) },
          responses: {
            '200': { description: 'plant', ...json(plant) },
            '400': {
              description: 'error',
              ...json(
                error ?? {
                  type: 'object',
                  required: ['error', 'message'],
                  properties: { error: { type: 'integer', format: 'int32' }, message: { type: 'string' } },
                },
              ),
            },
          },
        },
      },
    },
    components: { ...bearer.components, schemas: { NewPlant: newPlant } },
  });
  const file = join(folder, `doc-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, text);
  return file;
}

const constrained = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name'],
  properties: {
    id: { type: 'integer', format: 'int64', minimum: 1, maximum: 1000000 },
    name: { type: 'string', minLength: 1, maxLength: 20 },
    code: { type: 'string', pattern: '^[A-Z]{3}-[0-9]{2,4}$' },
    tag: { type: 'string', enum: ['cactus', 'fern', 'palm'] },
    price: { type: 'number', minimum: 0, exclusiveMaximum: 10000, multipleOf: 0.01 },
    labels: { type: 'array', items: { type: 'string', maxLength: 8 }, maxItems: 4, uniqueItems: true },
    care: {
      type: 'object',
      required: ['water'],
      properties: {
        water: { type: 'string', enum: ['daily', 'weekly'] },
        light: { type: 'integer', minimum: 0, maximum: 10 },
      },
    },
  },
};

/** A 3.0.3 NewPlant of HY7's yardstick: `\\p{L}` names, int32 ids above an exclusive 0, a closed nested object. */
const lettersAndCare = {
  type: 'object',
  required: ['id', 'name'],
  properties: {
    id: { type: 'integer', format: 'int32', minimum: 0, exclusiveMinimum: true },
    name: { type: 'string', minLength: 1, maxLength: 20, pattern: '^\\p{L}+( \\p{L}+)*$' },
    tag: { type: 'string', nullable: true, maxLength: 12 },
    height: { type: 'number', minimum: 0, maximum: 100, multipleOf: 0.5 },
    care: {
      type: 'object',
      additionalProperties: false,
      required: ['water'],
      properties: {
        water: { type: 'integer', minimum: 1, maximum: 30 },
        light: { type: 'string', enum: ['shade', 'partial', 'full'] },
      },
    },
  },
};

/** A 3.1 NewPlant of HY7's yardstick: arrays (unique strings, objects with required members), `const`, `dependentRequired`, formats. */
const arraysAndFormats = {
  type: 'object',
  required: ['id', 'name'],
  dependentRequired: { purchasedOn: ['sellerEmail'] },
  properties: {
    id: { type: 'integer', format: 'int64' },
    name: { type: 'string', minLength: 1, maxLength: 30 },
    kind: { const: 'plant' },
    tags: { type: 'array', minItems: 1, maxItems: 5, uniqueItems: true, items: { type: 'string', minLength: 1 } },
    pots: {
      type: 'array',
      maxItems: 3,
      items: {
        type: 'object',
        required: ['size', 'material'],
        properties: {
          size: { type: 'integer', minimum: 5, maximum: 60 },
          material: { type: 'string', enum: ['clay', 'plastic', 'ceramic'] },
        },
      },
    },
    purchasedOn: { type: 'string', format: 'date' },
    sellerEmail: { type: 'string', format: 'email' },
    batch: { type: 'string', format: 'uuid' },
  },
};

const DOCUMENTS: Record<string, () => string> = {
  'letters and a closed care 3.0': () =>
    document('3.0.3', lettersAndCare, { type: 'object', required: ['name'], properties: lettersAndCare.properties }),
  'arrays and formats 3.1': () =>
    document('3.1.0', arraysAndFormats, {
      type: 'object',
      required: ['name'],
      properties: arraysAndFormats.properties,
    }),
  'constrained 3.1': () =>
    document('3.1.0', constrained, { type: 'object', required: ['name'], properties: constrained.properties }),
  'nullable 3.0': () =>
    document(
      '3.0.3',
      {
        type: 'object',
        required: ['id', 'name'],
        properties: {
          id: { type: 'integer', format: 'int64', minimum: 0, exclusiveMinimum: true },
          name: { type: 'string', maxLength: 30 },
          tag: { type: 'string', nullable: true },
        },
      },
      {
        type: 'object',
        required: ['name'],
        properties: { name: { type: 'string' }, tag: { type: 'string', nullable: true } },
      },
    ),
  'recursive 3.1': () =>
    document(
      '3.1.0',
      {
        type: 'object',
        required: ['id', 'name'],
        properties: {
          id: { type: 'integer', format: 'int64', exclusiveMinimum: 0 },
          name: { type: 'string', maxLength: 12 },
          parent: { $ref: '#/components/schemas/NewPlant' },
        },
      },
      { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
    ),
  'type arrays 3.1': () =>
    document(
      '3.1.0',
      {
        type: 'object',
        required: ['id', 'name'],
        properties: { id: { type: 'integer' }, name: { type: 'string' }, tag: { type: ['string', 'null'] } },
      },
      {
        type: 'object',
        required: ['name'],
        properties: { name: { type: 'string' }, tag: { type: ['string', 'null'] } },
      },
    ),
};

function plansOf(contract: Contract, seed: number) {
  const { allProbes } = selectChecks(BUILT_IN_SUITES);
  const inputs = {
    contract,
    seed,
    runs: 60,
    fresh: createFreshIds('law'),
    arbitraries: createArbitraryCache(contract),
  };
  return generateCases(allProbes, inputs).flatMap((generated) =>
    generated.plans.map((plan) => ({ probe: generated.probe.name, plan })),
  );
}

describe.each(Object.entries(DOCUMENTS))('generation follows the document (%s)', (_name, write) => {
  it('sends only valid NewPlants as valid and only invalid ones as invalid bodies', async () => {
    const contract = await loadContract(write());
    const plans = plansOf(contract, 7);
    for (const { probe, plan } of plans) {
      if (plan.body === null) continue;
      const { kind } = plan.intent;
      // A media-type case sent as a form (`id=5&name=Fern`) carries the NewPlant in that encoding, not as JSON.
      const form = kind === 'media-type' && plan.intent.what.endsWith('the NewPlant as a form');
      if (kind === 'valid' || kind === 'valid-variant' || (kind === 'media-type' && !form) || kind === 'auth') {
        expect(isValidNewPlant(contract, plan.body), `${probe} (${kind}): ${plan.body.slice(0, 300)}`).toBe(true);
      }
      if (kind === 'invalid-body') {
        expect(isValidNewPlant(contract, plan.body), `${plan.intent.what}: ${plan.body.slice(0, 300)}`).toBe(false);
      }
    }
  });

  it('breaks every keyword of the document at least once per run, and names it', async () => {
    const contract = await loadContract(write());
    const whats = plansOf(contract, 3)
      .map(({ plan }) => plan.intent)
      .flatMap((intent) => (intent.kind === 'invalid-body' ? [intent.what] : []));
    for (const variant of contract.compiled.newPlant.invalid) {
      expect(
        whats.some((what) => what.includes(`keyword ${variant.keyword}`)),
        `${variant.keyword} at ${variant.pointer}`,
      ).toBe(true);
    }
  });
});

describe('generation on a constrained document', () => {
  it('sends every valid boundary at least once: the longest name, every enum value, the id range ends', async () => {
    const contract = await loadContract(DOCUMENTS['constrained 3.1']?.() ?? '');
    const bodies = plansOf(contract, 5)
      .filter(({ plan }) => plan.intent.kind === 'valid' && plan.body !== null)
      .map(({ plan }) => parseExactJson(plan.body ?? '{}') as Record<string, unknown>);
    const tags = new Set(bodies.map((body) => body.tag));
    expect([...tags]).toEqual(expect.arrayContaining(['cactus', 'fern', 'palm']));
    expect(bodies.some((body) => typeof body.name === 'string' && [...body.name].length === 20)).toBe(true);
    expect(bodies.some((body) => body.id === 1)).toBe(true);
    expect(bodies.some((body) => body.id === 1000000)).toBe(true);
  });
});
