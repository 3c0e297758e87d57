import { describe, expect, it } from 'vitest';
import { documentPointer, isWritten, pointerSegments } from './document-pointer.js';

const document = {
  paths: {
    '/plants': {
      post: {
        requestBody: { $ref: '#/components/requestBodies/NewPlant' },
        responses: { '200': { content: { 'application/json': { schema: { $ref: 'plant.yaml#/Plant' } } } } },
      },
    },
  },
  components: {
    requestBodies: {
      NewPlant: { content: { 'application/json': { schema: { $ref: '#/components/schemas/NewPlant' } } } },
    },
    schemas: {
      NewPlant: { allOf: [{ $ref: '#/components/schemas/Plant' }, { properties: { id: { type: 'integer' } } }] },
      Plant: {
        properties: {
          tag: { type: 'string', pattern: 'x' },
          children: { items: { $ref: '#/components/schemas/Plant' } },
        },
      },
      Sibling: { $ref: '#/components/schemas/Plant', description: 'kept beside the $ref' },
    },
  },
};
const body = '/paths/~1plants/post/requestBody/content/application~1json/schema';

describe('documentPointer', () => {
  it('follows $refs to where a keyword of a dereferenced schema is written', () => {
    expect(documentPointer(document, '', `${body}/allOf/0/properties/tag/pattern`)).toBe(
      '/components/schemas/Plant/properties/tag/pattern',
    );
    expect(documentPointer(document, '', `${body}/allOf/1/properties/id/type`)).toBe(
      '/components/schemas/NewPlant/allOf/1/properties/id/type',
    );
  });

  it('finds a place of the allOf-merged schema in the branch that writes it', () => {
    expect(documentPointer(document, '', `${body}/properties/tag/pattern`)).toBe(
      '/components/schemas/Plant/properties/tag/pattern',
    );
    expect(documentPointer(document, '', `${body}/properties/id`)).toBe(
      '/components/schemas/NewPlant/allOf/1/properties/id',
    );
    expect(isWritten(document, documentPointer(document, '', `${body}/properties/nowhere`))).toBe(false);
  });

  it('follows a recursive schema around its cycle', () => {
    expect(documentPointer(document, '/components/schemas/Plant', '/properties/children/items/properties/tag')).toBe(
      '/components/schemas/Plant/properties/tag',
    );
  });

  it('keeps a keyword written beside a $ref where it is, and names another file with its fragment', () => {
    expect(documentPointer(document, '/components/schemas/Sibling', '/description')).toBe(
      '/components/schemas/Sibling/description',
    );
    const response = '/paths/~1plants/post/responses/200/content/application~1json/schema';
    expect(documentPointer(document, response, '/properties/name')).toBe('plant.yaml#/Plant/properties/name');
  });
});

describe('documentPointer through a $ref the reader moved into allOf (a $ref beside keywords)', () => {
  const written = {
    components: {
      schemas: {
        Tag: { type: 'string', enum: ['herb', 'tree'] },
        Short: { maxLength: 3 },
        NewPlant: {
          properties: {
            tag: { $ref: '#/components/schemas/Tag', maxLength: 3, allOf: [{ $ref: '#/components/schemas/Short' }] },
          },
        },
      },
    },
  };
  it('maps allOf/0 to the schema the $ref names and allOf/n to the written allOf/n-1', () => {
    // Before: allOf/0/enum was looked for in the Tag as "allOf" and fell back to the dereferenced pointer.
    const tag = '/components/schemas/NewPlant/properties/tag';
    expect(documentPointer(written, '', `${tag}/allOf/0/enum`)).toBe('/components/schemas/Tag/enum');
    expect(documentPointer(written, '', `${tag}/allOf/1/maxLength`)).toBe('/components/schemas/Short/maxLength');
    expect(documentPointer(written, '', `${tag}/maxLength`)).toBe(`${tag}/maxLength`);
  });
});

describe('pointerSegments', () => {
  it('unescapes ~1 and ~0, and URI escapes only in a # fragment', () => {
    expect(pointerSegments('/a~1b/c~0d/%7B')).toEqual(['a/b', 'c~d', '%7B']);
    expect(pointerSegments('#/paths/~1plants~1%7Bid%7D')).toEqual(['paths', '/plants/{id}']);
    expect(pointerSegments('')).toEqual([]);
  });
});
