import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../contract/index.js';
import { fileURLToPath } from 'node:url';
import type { PlantId, PlantStore } from '../../reference/plant-store.js';
import { createReferenceServer } from '../../reference/server.js';
import { runConformance } from '../../index.js';
import { createFreshIds } from './fresh-ids.js';
import { exactShape, slotEdges } from './id-slots.js';
import {
  idSlotOf,
  newPlantArbitrary,
  plantIdSlots,
  renderIfValid,
  renderPlant,
  withIdShape,
  type PlantDraft,
} from './new-plant.js';

const TOKEN = 'exact-edges-token-4c1d';
const NAME_PATTERN = fileURLToPath(new URL('../../fixtures/documents/02-name-pattern.yaml', import.meta.url));
const MEASURES = fileURLToPath(new URL('../../fixtures/documents/05-measures.yaml', import.meta.url));

/** A store that accepts every id and keeps each one it was handed: the ids of the valid NewPlants that reached it. */
function recordingStore(): PlantStore & { readonly ids: Set<PlantId> } {
  const ids = new Set<PlantId>();
  return { ids, add: (id) => (ids.add(id), true) };
}

async function edgesNotSent(spec: string | undefined, seed: number): Promise<bigint[]> {
  const contract = await loadContract(spec);
  // The reference stores a plant by its `id`: the edges of that slot are what the store can count.
  const slot = plantIdSlots(contract).find((candidate) => candidate.key === 'id');
  if (slot === undefined) throw new Error('the document has no integer id');
  const store = recordingStore();
  const reference = await createReferenceServer({ tokens: [TOKEN], store, ...(spec === undefined ? {} : { spec }) });
  try {
    await runConformance({ seed, baseUrl: reference.url, token: TOKEN, ...(spec === undefined ? {} : { spec }) });
  } finally {
    await reference.close();
  }
  return slotEdges(slot).filter((edge) => !store.ids.has(edge));
}

describe('exact edge ids', () => {
  it('are each sent in a default run of the seed document', async () => {
    expect(await edgesNotSent(undefined, 1)).toEqual([]);
  });

  // The name's pattern refuses the escaped name with a solidus: that rewrite is rendered, refused, and
  // the plain body sent instead, which must carry the exact id the refused render drew.
  it.each([1, 2])('are each sent in a default run when rewrites are refused (name pattern, seed %i)', async (seed) => {
    expect(await edgesNotSent(NAME_PATTERN, seed)).toEqual([]);
  });

  // trayCount, an integer declared before the id, must not take the id's edges.
  it('are each sent for the id when another integer property is declared before it', async () => {
    expect(await edgesNotSent(MEASURES, 1)).toEqual([]);
  });
});

describe('renderIfValid', () => {
  const EDGE = 2n ** 63n - 1n;

  async function edgeDraft() {
    const contract = await loadContract(NAME_PATTERN);
    const [drawn] = fc.sample(newPlantArbitrary(contract), { seed: 5, numRuns: 1 });
    const found = drawn === undefined ? undefined : idSlotOf(drawn);
    if (drawn === undefined || found === undefined) throw new Error('no draft with an id');
    return { contract, draft: withIdShape(drawn, found.index, exactShape(EDGE)) };
  }

  it('sends the exact id a refused rewrite drew in the plain body instead, and in any later render of the case', async () => {
    const { contract, draft } = await edgeDraft();
    const fresh = createFreshIds('0123456789abcdef');
    const refused = new Map([['name', '"not a Capitalised name/"']]);
    const { rendered, rewritten } = renderIfValid(contract, draft, fresh, 'string-escape:0:', refused);
    expect(rewritten).toBe(false);
    expect(rendered.ids).toEqual([EDGE]);
    expect(renderPlant(draft, fresh, 'string-escape:0:').ids).toEqual([EDGE]);
  });

  it('still sends an exact id once per run: another case drawing it gets fresh bits', async () => {
    const { contract, draft } = await edgeDraft();
    const fresh = createFreshIds('0123456789abcdef');
    expect(renderIfValid(contract, draft, fresh, 'one', new Map()).rendered.ids).toEqual([EDGE]);
    expect(renderPlant(draft, fresh, 'two').ids).not.toEqual([EDGE]);
  });
});

describe('an id the document writes as a string', () => {
  /** The seed document with its `id` as a string of the given schema (proto3's JSON int64, a uuid). */
  function stringIdContract(id: object) {
    const plant = { type: 'object', required: ['id', 'name'], properties: { id, name: { type: 'string' } } };
    const error = {
      type: 'object',
      required: ['error', 'message'],
      properties: { error: { type: 'integer' }, message: { type: 'string' } },
    };
    return plantContract(plant, error);
  }

  it.each([
    ['format int64', { type: 'string', format: 'int64' }, /^\d+$/],
    ['format uuid', { type: 'string', format: 'uuid' }, /^00000000-0000-4000-8000-[0-9a-f]{12}$/],
  ])(
    'gets one of the run own values per case (%s): distinct, valid, the same for the same case',
    async (_name, id, shape) => {
      const contract = await stringIdContract(id);
      const fresh = createFreshIds('text-ids');
      const drafts = fc.sample(newPlantArbitrary(contract), { seed: 3, numRuns: 200 });
      const sent = drafts.map(
        (draft, index) => JSON.parse(renderPlant(draft, fresh, `case:${index}`).text) as { id: string },
      );
      expect(new Set(sent.map((body) => body.id)).size).toBe(200);
      for (const body of sent) expect(body.id).toMatch(shape);
      expect(drafts.map((draft, index) => renderPlant(draft, fresh, `case:${index}`).text)).toEqual(
        sent.map((body) => JSON.stringify(body)),
      );
      expect(drafts.every((draft, index) => !renderPlant(draft, fresh, `case:${index}`).idMayRepeat)).toBe(true);
    },
  );

  it.each([
    ['minimum 1', { type: 'number', minimum: 1 }],
    ['format int64', { type: 'number', format: 'int64', minimum: 1 }],
  ])('gets a fresh integer per case for an id written as a number (NestJS: %s)', async (_name, id) => {
    const contract = await stringIdContract(id);
    const fresh = createFreshIds('number-ids');
    const drafts = fc.sample(newPlantArbitrary(contract), { seed: 3, numRuns: 200 });
    const sent = drafts.map((draft, index) => renderPlant(draft, fresh, `case:${index}`).text);
    const ids = sent.map((text) => /"id":([^,}]*)/.exec(text)?.[1] ?? '');
    expect(new Set(ids).size).toBe(200);
    for (const text of ids) expect(text).toMatch(/^[1-9]\d*$/);
  });

  it.each([
    [
      'oneOf integer or digits',
      {
        oneOf: [
          { type: 'integer', minimum: 1 },
          { type: 'string', pattern: '^[1-9][0-9]*$' },
        ],
      },
    ],
    ['type [integer, string]', { type: ['integer', 'string'], format: 'int64' }],
    ['no type at all', { description: 'any identifier' }],
  ])('gets one of the run own values per case for an id of either kind (%s)', async (_name, id) => {
    const contract = await stringIdContract(id);
    const fresh = createFreshIds('union-ids');
    const drafts = fc.sample(newPlantArbitrary(contract), { seed: 3, numRuns: 200 });
    const sent = drafts.map((draft, index) => renderPlant(draft, fresh, `case:${index}`).text);
    const ids = sent.map((text) => /"id":("[^"]*"|[^,}]*)/.exec(text)?.[1] ?? '');
    expect(new Set(ids).size).toBe(200);
  });

  it('keeps the drawn id, and says it may repeat, when no value of its own fits the schema', async () => {
    const contract = await stringIdContract({ type: 'string', enum: ['a', 'b'] });
    const [draft] = fc.sample(newPlantArbitrary(contract), { seed: 3, numRuns: 1 });
    const rendered = renderPlant(draft as PlantDraft, createFreshIds('text-ids'), 'case:0');
    expect(['a', 'b']).toContain((JSON.parse(rendered.text) as { id: string }).id);
    expect(rendered.idMayRepeat).toBe(true);
  });
});

describe('a slot the document constrains beside other properties', () => {
  it('keeps the drawn value where a fresh one breaks an if/then on another member (tag cactus: water every 14+ days)', async () => {
    // Before, a fresh `waterEveryDays: 7` went out beside `tag: cactus`, whose `then` asks 14 or more: serve --spec
    // refused 'valid' NewPlants of such a document (HD13's f16, NOT CONFORMANT at every seed).
    const plant = {
      type: 'object',
      required: ['id', 'name'],
      properties: {
        id: { type: 'integer', format: 'int64' },
        name: { type: 'string' },
        tag: { type: 'string', enum: ['cactus', 'fern'] },
        waterEveryDays: { type: 'integer', minimum: 1, maximum: 30 },
      },
      if: { properties: { tag: { const: 'cactus' } }, required: ['tag'] },
      then: { properties: { waterEveryDays: { minimum: 14 } } },
    };
    const error = { type: 'object', required: ['error', 'message'], properties: { message: { type: 'string' } } };
    const contract = await plantContract(plant, error);
    const fresh = createFreshIds('conditional');
    const drafts = fc.sample(newPlantArbitrary(contract), { seed: 5, numRuns: 300 });
    const sent = drafts.map((draft, index) => renderPlant(draft, fresh, `case:${index}`));
    const bodies = sent.map((rendered) => JSON.parse(rendered.text) as Record<string, unknown>);
    const cacti = bodies.filter((body) => body.tag === 'cactus' && typeof body.waterEveryDays === 'number');
    expect(cacti.length).toBeGreaterThan(0);
    expect(cacti.filter((body) => (body.waterEveryDays as number) < 14)).toEqual([]);
    // The id stays fresh: one value per case.
    expect(new Set(sent.map((rendered) => rendered.ids[0])).size).toBe(sent.length);
  });
});

/** The contract of a one-operation document whose NewPlant and Plant are `plant` and whose Error is `error`. */
async function plantContract(plant: object, error: object) {
  const directory = mkdtempSync(join(tmpdir(), 'plantstore-new-plant-'));
  const spec = join(directory, 'openapi.json');
  const json = (schema: object) => ({ description: 'a body', content: { 'application/json': { schema } } });
  writeFileSync(
    spec,
    JSON.stringify({
      openapi: '3.1.0',
      info: { title: 'Plant Store', version: '1' },
      paths: {
        '/plants': { post: { requestBody: json(plant), responses: { '200': json(plant), '400': json(error) } } },
      },
    }),
  );
  try {
    return await loadContract(spec);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
