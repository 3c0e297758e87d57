import { describe, expect, it } from 'vitest';
import { documentReadings } from './document-readings.js';

const plant = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string' }, secret: { type: 'string', readOnly: true, writeOnly: true } },
};

describe('documentReadings', () => {
  it('names a property both readOnly and writeOnly, which travels neither way, and says 3.0 forbids it', () => {
    const [reading, ...rest] = documentReadings(
      [{ schema: plant, location: '#/components/schemas/Plant' }],
      'openapi-3.0',
    );
    expect(rest).toEqual([]);
    expect(reading?.pointer).toBe('#/components/schemas/Plant/properties/secret');
    expect(reading?.reading).toContain('travels neither way');
    expect(reading?.reading).toContain('OpenAPI 3.0 forbids');
    const [in31] = documentReadings([{ schema: plant, location: '#/components/schemas/Plant' }], 'openapi-3.1');
    expect(in31?.reading).not.toContain('OpenAPI 3.0 forbids');
  });

  it('names a required member its object does not declare (a misspelt name), but not one an allOf part or a pattern declares', () => {
    // Before: nothing was said, and test sent "colour" with values of every type as valid NewPlants.
    const misspelt = { type: 'object', required: ['name', 'colour'], properties: { name: {}, color: {} } };
    const readings = documentReadings([{ schema: misspelt, location: '#/components/schemas/NewPlant' }], 'openapi-3.0');
    expect(readings.map((r) => r.pointer)).toEqual(['#/components/schemas/NewPlant/required']);
    expect(readings[0]?.reading).toMatch(/^`colour` required but not declared in `properties`/);
    const composed = { allOf: [{ properties: { colour: {} } }, { required: ['colour'], properties: { name: {} } }] };
    const patterned = { required: ['x-colour'], properties: {}, patternProperties: { '^x-': {} } };
    for (const schema of [composed, patterned]) {
      expect(documentReadings([{ schema, location: '#/components/schemas/NewPlant' }], 'openapi-3.1')).toEqual([]);
    }
  });

  it("names enum values their own type refuses, but not null under 3.0's nullable nor an integer under number", () => {
    // Before: nothing was said; 3 and null were silently never valid under type string.
    const tag = { type: 'string', enum: ['herb', 3, null] };
    const [reading, ...rest] = documentReadings([{ schema: tag, location: '#/components/schemas/Tag' }], 'openapi-3.1');
    expect(rest).toEqual([]);
    expect(reading?.pointer).toBe('#/components/schemas/Tag/enum');
    expect(reading?.reading).toMatch(/^`enum` lists 3, null, which its own `type` \(string\) refuses/);
    const fine = [
      { type: 'string', nullable: true, enum: ['herb', null] },
      { type: 'number', enum: [1, 2.5] },
    ];
    for (const schema of fine) {
      expect(documentReadings([{ schema, location: '#/components/schemas/Tag' }], 'openapi-3.0')).toEqual([]);
    }
  });

  it("names \\p{Alpha}, \\p{Lower} and \\p{Upper} in a pattern, Unicode in ECMA-262 and ASCII in Java's regex", () => {
    // Before: nothing was said, and a Jakarta @Pattern server refusing "é" failed positive-acceptance unexplained.
    const name = { type: 'string', pattern: '^\\p{Upper}\\p{Lower}+$' };
    const [reading, ...rest] = documentReadings(
      [{ schema: name, location: '#/components/schemas/Name' }],
      'openapi-3.0',
    );
    expect(rest).toEqual([]);
    expect(reading?.pointer).toBe('#/components/schemas/Name');
    expect(reading?.reading).toMatch(/^`\\p\{Upper\}`, `\\p\{Lower\}` in a pattern: read as ECMA-262/);
    expect(reading?.reading).toContain('write [A-Z], [a-z] to mean ASCII');
    const unicode = { type: 'string', pattern: '^\\p{L}+$' };
    expect(documentReadings([{ schema: unicode, location: '#/components/schemas/Name' }], 'openapi-3.1')).toEqual([]);
  });

  it('names a 3.0 `type: array` without `items`, which OpenAPI 3.0 requires, read as items of any value; not in 3.1', () => {
    // Before: validate said nothing, and items of every type were sent as valid (HD13's faulty q12).
    const tags = {
      type: 'object',
      properties: { tags: { type: 'array', maxItems: 3 }, ok: { type: 'array', items: {} } },
    };
    const [reading, ...rest] = documentReadings(
      [{ schema: tags, location: '#/components/schemas/NewPlant' }],
      'openapi-3.0',
    );
    expect(rest).toEqual([]);
    expect(reading?.pointer).toBe('#/components/schemas/NewPlant/properties/tags');
    expect(reading?.reading).toMatch(/^`type: array` without `items`, which OpenAPI 3.0 requires/);
    expect(documentReadings([{ schema: tags, location: '#/components/schemas/NewPlant' }], 'openapi-3.1')).toEqual([]);
  });

  it('names bounds beside type [integer, string] (.NET 10), which leave the string unbounded, but not a format alone', () => {
    // Before: nothing was said of "5000" being valid under minimum 1, maximum 100, which ASP.NET's [Range] refuses.
    const shelf = {
      type: ['integer', 'string'],
      pattern: '^-?(?:0|[1-9]\\d*)$',
      format: 'int32',
      minimum: 1,
      maximum: 100,
    };
    const [reading, ...rest] = documentReadings(
      [{ schema: shelf, location: '#/components/schemas/Shelf' }],
      'openapi-3.1',
    );
    expect(rest).toEqual([]);
    expect(reading?.pointer).toBe('#/components/schemas/Shelf');
    expect(reading?.reading).toMatch(/^`minimum`, `maximum` beside `type: \[integer, string\]` bound the number only/);
    const fine = [
      { type: ['integer', 'null'], minimum: 1 },
      { type: ['integer', 'string'], pattern: '^[0-9]+$', format: 'int64' },
    ];
    for (const schema of fine) {
      expect(documentReadings([{ schema, location: '#/components/schemas/Shelf' }], 'openapi-3.1')).toEqual([]);
    }
  });

  it('says nothing of a property that is only readOnly or only writeOnly', () => {
    const one = { type: 'object', properties: { a: { readOnly: true }, b: { writeOnly: true } } };
    expect(documentReadings([{ schema: one, location: '#/x' }], 'openapi-3.0')).toEqual([]);
  });

  it("names Swagger 2.0's x-nullable left in an OpenAPI 3 document, unless the schema lets null in another way", () => {
    const tag = { type: 'object', properties: { tag: { type: 'string', 'x-nullable': true } } };
    const [reading] = documentReadings([{ schema: tag, location: '#/P' }], 'openapi-3.0');
    expect(reading?.pointer).toBe('#/P/properties/tag');
    expect(reading?.reading).toContain('write `nullable: true`');
    const both = { type: 'object', properties: { tag: { type: 'string', nullable: true, 'x-nullable': true } } };
    expect(documentReadings([{ schema: both, location: '#/P' }], 'openapi-3.0')).toEqual([]);
    const typed = { type: 'object', properties: { tag: { type: ['string', 'null'], 'x-nullable': true } } };
    expect(documentReadings([{ schema: typed, location: '#/P' }], 'openapi-3.1')).toEqual([]);
  });

  it("names 3.1's contentEncoding: base64, whose valid values are sent as base64 and other text neither sent nor faulted", () => {
    const photo = { type: 'object', properties: { photo: { type: 'string', contentEncoding: 'base64' } } };
    const [reading, ...rest] = documentReadings([{ schema: photo, location: '#/p' }], 'openapi-3.1');
    expect(rest).toEqual([]);
    expect(reading).toMatchObject({ pointer: '#/p/properties/photo' });
    expect(reading?.reading).toContain('neither sent nor faulted');
    expect(documentReadings([{ schema: photo, location: '#/p' }], 'openapi-3.0')).toEqual([]);
  });

  it("names pydantic's constraint names (ge, le, gt, lt, multiple_of) written where JSON Schema's keywords belong", () => {
    // pydantic 2 writes them so when a BeforeValidator stands before Field(...) in Annotated; before, nothing was
    // said, and test sent id 0 as a valid NewPlant to a FastAPI server that refuses it (its own document allows it).
    const newPlant = {
      type: 'object',
      properties: {
        id: { type: 'integer', title: 'Id', ge: 1, le: 9007199254740991 },
        price: { anyOf: [{ type: 'number', gt: 0, multiple_of: 0.5 }, { type: 'null' }] },
        ge: { type: 'string' },
        fine: { type: 'integer', minimum: 1, ge: 1 },
        text: { type: 'string', lt: 'not a number' },
      },
    };
    const readings = documentReadings([{ schema: newPlant, location: '#/components/schemas/NewPlant' }], 'openapi-3.1');
    expect(readings.map((r) => r.pointer)).toEqual([
      '#/components/schemas/NewPlant/properties/id',
      '#/components/schemas/NewPlant/properties/price/anyOf/0',
    ]);
    expect(readings[0]?.reading).toMatch(/^`ge: 1`, `le: 9007199254740991` are pydantic's names/);
    expect(readings[0]?.reading).toContain('write `minimum`, `maximum`');
    expect(readings[1]?.reading).toContain('write `exclusiveMinimum`, `multipleOf`');
  });
  it('quotes a pydantic bound beyond 2^53 as the document writes it, not as the double it was read as', () => {
    // Before, the int64 edges of a FastAPI id read `ge: -9223372036854776000`, `le: 9223372036854776000`.
    const id = { type: 'integer', ge: -(2 ** 63), le: 2 ** 63 };
    const exact = new Map([
      [
        id,
        new Map([
          ['ge', -9223372036854775808n],
          ['le', 9223372036854775807n],
        ]),
      ],
    ]);
    const newPlant = { type: 'object', properties: { id } };
    const readings = documentReadings([{ schema: newPlant, location: '#/NewPlant' }], 'openapi-3.1', exact);
    expect(readings[0]?.reading).toMatch(/^`ge: -9223372036854775808`, `le: 9223372036854775807` are pydantic's/);
  });
  it('names 3.0 nullable beside a oneOf without type or a null branch, whose readings differ', () => {
    const kind = { nullable: true, oneOf: [{ type: 'string' }, { type: 'integer' }] };
    const nullEnum = { nullable: true, oneOf: [{ type: 'string' }, { enum: [null] }] };
    const newPlant = { type: 'object', properties: { kind, nullEnum } };
    const readings = documentReadings([{ schema: newPlant, location: '#/NewPlant' }], 'openapi-3.0');
    expect(readings.map((r) => r.pointer)).toEqual(['#/NewPlant/properties/kind']);
    expect(readings[0]?.reading).toMatch(/^`nullable: true` beside an `anyOf`\/`oneOf` without `type` reads two ways/);
  });
  it("names 3.0's boolean exclusive bounds left in a 3.1 document, read as 3.0 reads them", () => {
    const id = { type: 'integer', minimum: 5, exclusiveMinimum: true };
    const newPlant = { type: 'object', properties: { id, size: { type: 'integer', exclusiveMaximum: 10 } } };
    const readings = documentReadings([{ schema: newPlant, location: '#/NewPlant' }], 'openapi-3.1');
    expect(readings.map((r) => r.pointer)).toEqual(['#/NewPlant/properties/id']);
    expect(readings[0]?.reading).toMatch(/^`exclusiveMinimum: true` is OpenAPI 3.0's form/);
    expect(readings[0]?.reading).toContain('write `exclusiveMinimum: 5`');
    expect(documentReadings([{ schema: newPlant, location: '#/NewPlant' }], 'openapi-3.0')).toEqual([]);
  });
  it('names 3.0 nullable beside an allOf whose part refuses null (Swashbuckle, TypeSpec), not one whose parts take it', () => {
    const pot = { type: 'object', properties: { size: { type: 'integer' } } };
    const swashbuckle = { nullable: true, allOf: [pot] };
    const typeSpec = { type: 'object', nullable: true, allOf: [pot] };
    const union = { nullable: true, allOf: [{ anyOf: [pot, { type: 'string' }] }] };
    const nullablePart = { nullable: true, allOf: [{ ...pot, nullable: true }] };
    const untypedPart = { type: 'string', nullable: true, allOf: [{ minLength: 1 }] };
    const newPlant = { type: 'object', properties: { swashbuckle, typeSpec, union, nullablePart, untypedPart } };
    const readings = documentReadings([{ schema: newPlant, location: '#/NewPlant' }], 'openapi-3.0');
    expect(readings.map((r) => r.pointer.replace('#/NewPlant/properties/', ''))).toEqual([
      'swashbuckle',
      'typeSpec',
      'union',
    ]);
    expect(readings[0]?.reading).toMatch(
      /^`nullable: true` beside an `allOf` \(or a `\$ref`\) whose schema refuses null/,
    );
  });
});
