import fc from 'fast-check';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  discriminatedBasesAsOneOf,
  DISCRIMINATOR_VALUES,
  INHERITED_BASE,
  markDiscriminatorValues,
} from './discriminator-values.js';
import { parseExactJson, stringifyExactJson } from './exact-json.js';
import { loadContract } from './spec.js';

const SUBTYPES = fileURLToPath(
  new URL('../fixtures/documents/reduced/discriminator-subtypes-3.0.yaml', import.meta.url),
);

describe('the values of a discriminator', () => {
  it("are the mapping's keys for each branch, a bare name as its component, else the branch's own name", () => {
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    const schema = {
      oneOf: [ref('Tree'), ref('Herb'), ref('Moss')],
      discriminator: {
        propertyName: 'kind',
        mapping: { tree: '#/components/schemas/Tree', herb: 'Herb', shrub: 'Tree' },
      },
    };
    markDiscriminatorValues({ components: { schemas: { NewPlant: schema } } });
    expect(schema[DISCRIMINATOR_VALUES as keyof typeof schema]).toEqual([['tree', 'shrub'], ['herb'], ['Moss']]);
  });

  it('are not written when a branch is not a $ref, or without a discriminator', () => {
    const inline = { oneOf: [{ type: 'object' }], discriminator: { propertyName: 'kind' } };
    const plain = { oneOf: [{ $ref: '#/components/schemas/Tree' }] };
    markDiscriminatorValues([inline, plain]);
    expect(Object.hasOwn(inline, DISCRIMINATOR_VALUES)).toBe(false);
    expect(Object.hasOwn(plain, DISCRIMINATOR_VALUES)).toBe(false);
  });
});

describe('a oneOf of Jackson subtypes with a discriminator (kind any string in the base)', () => {
  it('generates only kinds the mapping lists, each with its own subtype', async () => {
    const contract = await loadContract(SUBTYPES);
    const plants = fc
      .sample(contract.compiled.newPlant.valid, { numRuns: 200, seed: 3 })
      .map((value) => parseExactJson(stringifyExactJson(value)) as Record<string, unknown>);
    expect(new Set(plants.map((plant) => plant.kind))).toEqual(new Set(['tree', 'herb']));
    for (const plant of plants) expect(Object.hasOwn(plant, plant.kind === 'tree' ? 'heightM' : 'aromatic')).toBe(true);
  });

  it('judges by either reading: a kind the mapping does not list, or two matching branches, is valid under one reading', async () => {
    const contract = await loadContract(SUBTYPES);
    const unmapped = parseExactJson('{"id":1,"name":"Oak","kind":"shrub","heightM":3}');
    expect(contract.check.newPlant(unmapped)).toEqual([]);
    expect(contract.compiled.newPlant.ambiguities(unmapped)).not.toEqual([]);
    // One kind to a server routing by the discriminator; two branches, so oneOf fails, to one validating JSON Schema.
    const both = parseExactJson('{"id":1,"name":"Oak","kind":"tree","heightM":3,"aromatic":true}');
    expect(contract.check.newPlant(both)).toEqual([]);
    expect(contract.compiled.newPlant.ambiguities(both).map(({ keyword }) => keyword)).toEqual(['oneOf']);
    const mapped = parseExactJson('{"id":1,"name":"Oak","kind":"tree","heightM":3}');
    expect(contract.compiled.newPlant.ambiguities(mapped)).toEqual([]);
    const neither = parseExactJson('{"id":1,"name":"Oak","kind":"tree"}');
    expect(contract.check.newPlant(neither).map(({ keyword }) => keyword)).toEqual(['anyOf']);
  });

  it('sends neither as an invalid body: no variant breaks the kind, none matches two branches', async () => {
    const contract = await loadContract(SUBTYPES);
    const invalid = contract.compiled.newPlant.invalid;
    expect(invalid.filter((variant) => variant.pointer === '/kind' && variant.keyword === 'enum')).toEqual([]);
    expect(invalid.filter((variant) => variant.label.includes('more than one'))).toEqual([]);
    expect(invalid.map((variant) => `${variant.keyword} ${variant.pointer}`)).toContain('maximum /heightM');
  });
});

describe('a base schema with a discriminator that its subtypes inherit through allOf (NSwag, Swashbuckle)', () => {
  const INHERITED = fileURLToPath(
    new URL('../fixtures/documents/reduced/nswag-inherited-discriminator-3.0.json', import.meta.url),
  );

  it('stands for its subtypes: valid NewPlants carry a kind the mapping lists, with its subtype', async () => {
    const contract = await loadContract(INHERITED);
    const plants = fc
      .sample(contract.compiled.newPlant.valid, { numRuns: 200, seed: 5 })
      .map((value) => parseExactJson(stringifyExactJson(value)) as Record<string, unknown>);
    expect(new Set(plants.map((plant) => plant.kind))).toEqual(new Set(['tree', 'herb']));
    for (const plant of plants.filter((each) => each.kind === 'tree'))
      expect(Object.hasOwn(plant, 'heightM')).toBe(true);
  });

  it('judges by either reading: what the base alone takes is not faulted, nor sent as an invalid body', async () => {
    const contract = await loadContract(INHERITED);
    // JSON Schema alone validates the body by the base it names (any kind, members of no subtype unchecked).
    const asBase = parseExactJson('{"id":1,"name":"Mint","kind":"herb","aromatic":[]}');
    expect(contract.check.newPlant(asBase)).toEqual([]);
    expect(contract.compiled.newPlant.ambiguities(asBase)).not.toEqual([]);
    expect(contract.check.newPlant(parseExactJson('{"id":1,"name":"Mint","kind":"shrub"}'))).toEqual([]);
    expect(contract.check.newPlant(parseExactJson('{"id":1,"name":"","kind":"herb"}'))).not.toEqual([]);
    const invalid = contract.compiled.newPlant.invalid.map((variant) => `${variant.keyword} ${variant.pointer}`);
    expect(invalid).not.toContain('type /aromatic');
    expect(invalid).toContain('minLength /name');
  });

  it("keeps the base's own members for its subtypes' allOf and for a $ref into it", () => {
    const base = { type: 'object', discriminator: { propertyName: 'kind' }, properties: { name: { type: 'string' } } };
    const parent = { $ref: '#/components/schemas/Plant' };
    const into = { $ref: '#/components/schemas/Plant/properties/name' };
    const body = { $ref: '#/components/schemas/Plant' };
    const document = {
      paths: { '/plants': { post: { requestBody: { content: { 'application/json': { schema: body } } } } } },
      components: { schemas: { Plant: base, Tree: { allOf: [parent, { required: ['heightM'] }] }, Name: into } },
    };
    discriminatedBasesAsOneOf(document);
    expect(document.components.schemas.Plant).toEqual({
      oneOf: [{ $ref: '#/components/schemas/Tree' }],
      discriminator: { propertyName: 'kind' },
      [DISCRIMINATOR_VALUES]: [['Tree']],
      [INHERITED_BASE]: base,
    });
    expect(base).not.toHaveProperty('discriminator');
    expect(parent.$ref).toBe(`#/components/schemas/Plant/${INHERITED_BASE}`);
    expect(into.$ref).toBe(`#/components/schemas/Plant/${INHERITED_BASE}/properties/name`);
    expect(body.$ref).toBe('#/components/schemas/Plant');
  });
});
