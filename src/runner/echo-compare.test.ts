import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadContract, parseExactJson, type JsonSchema } from '../contract/index.js';
import { TEST_DOCUMENTS } from '../http/spec-following.case.js';
import { echoedProperties, firstDifference, located } from './echo-compare.js';

function difference(sent: string, got: string): string | undefined {
  const a = parseExactJson(`{"v":${sent}}`) as object;
  const b = parseExactJson(`{"v":${got}}`) as object;
  return firstDifference(located(a, 'v'), located(b, 'v'), '/v');
}

describe('echo comparison', () => {
  it('compares numbers by exact value: spellings of one value are equal, digits beyond 2^53 count', () => {
    expect(difference('1.0', '1')).toBeUndefined();
    expect(difference('1e2', '100')).toBeUndefined();
    expect(difference('-0', '0')).toBeUndefined();
    expect(difference('0.10', '1e-1')).toBeUndefined();
    expect(difference('9007199254740993', '9007199254740992')).toBe('/v');
    expect(difference('9223372036854775807', '9223372036854775807')).toBeUndefined();
  });

  it('names the first place where arrays and objects differ, and ignores key order', () => {
    expect(difference('{"a":1,"b":[1,2]}', '{"b":[1,2],"a":1}')).toBeUndefined();
    expect(difference('{"a":1,"b":[1,2]}', '{"a":1,"b":[1,3]}')).toBe('/v/b/1');
    expect(difference('[1,2]', '[1]')).toBe('/v');
    expect(difference('{"a":1}', '{"a":1,"c":2}')).toBe('/v');
  });

  it('compares strings code unit for code unit and never equates types', () => {
    expect(difference('"Fern"', '"Fern "')).toBe('/v');
    expect(difference('"1"', '1')).toBe('/v');
    expect(difference('null', 'false')).toBe('/v');
    expect(difference('true', 'true')).toBeUndefined();
  });
});

describe('echo comparison with the schema of the value sent', () => {
  const at = (sent: string, got: string, schema: JsonSchema): string | undefined => {
    const a = parseExactJson(`{"v":${sent}}`) as object;
    const b = parseExactJson(`{"v":${got}}`) as object;
    return firstDifference(located(a, 'v'), located(b, 'v'), '/v', schema);
  };
  const care = { type: 'object', properties: { water: { type: 'object', properties: { ml: { type: 'integer' } } } } };

  it('lets a member the schema neither declares nor constrains go missing, at any depth and in array items', () => {
    expect(at('{"water":{"ml":5,"x":1},"y":{}}', '{"water":{"ml":5}}', care)).toBeUndefined();
    const photos = { type: 'array', items: { type: 'object', properties: { url: { type: 'string' } } } };
    expect(at('[{"url":"a","constructor":""}]', '[{"url":"a"}]', photos)).toBeUndefined();
  });

  it('still compares every declared member, every member an additionalProperties schema or pattern takes, and extras', () => {
    expect(at('{"water":{"ml":5}}', '{"water":{}}', care)).toBe('/v/water');
    expect(at('{"water":{"ml":5,"x":1}}', '{"water":{"ml":5,"x":2}}', care)).toBe('/v/water/x');
    expect(at('{"a":"1"}', '{}', { type: 'object', additionalProperties: { type: 'string' } })).toBe('/v');
    expect(at('{"x-a":"1"}', '{}', { type: 'object', patternProperties: { '^x-': {} } })).toBe('/v');
    expect(at('{"water":{"ml":5}}', '{"water":{"ml":5},"light":"low"}', care)).toBe('/v');
    expect(at('{"water":{"ml":5,"x":1}}', '{"water":{"ml":5}}', { type: 'object' })).toBe('/v/water');
  });

  it('lets a declared member not sent come back as null or, when it has a default, filled', () => {
    const light = { type: 'object', properties: { light: { type: 'string', default: 'medium' }, note: {} } };
    expect(at('{}', '{"light":"medium"}', light)).toBeUndefined();
    expect(at('{}', '{"note":null}', light)).toBeUndefined();
    expect(at('{}', '{"note":"x"}', light)).toBe('/v');
    expect(at('{"light":"low"}', '{"light":"medium"}', light)).toBe('/v/light');
  });
});

describe('echoed properties', () => {
  it('are the Plant properties a NewPlant declares; defaults come from the document, which the canonical schema drops', async () => {
    const contract = await loadContract(TEST_DOCUMENTS.nullable);
    const { echoed, defaulted } = echoedProperties(contract);
    expect(echoed).toEqual(['name', 'tag']);
    expect([...defaulted]).toEqual(['kind']);
  });
});

describe('Plant properties the server must fill', () => {
  it('a property the Plant requires and the NewPlant may leave out may be filled when not sent', async () => {
    const contract = await loadContract('src/fixtures/documents/reduced/plant-requires-optional-3.1.yaml');
    // Before, echo failed serve --spec itself: 'No "kind" was sent, but the 200 Plant has "kind": "plant".'
    expect([...echoedProperties(contract).defaulted].sort()).toEqual(['kind', 'size']);
  });
});

describe('echo comparison of a value with itself', () => {
  it('finds no difference between a parsed value and itself, nor between two parses of one text (property)', () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.constantFrom(undefined, { type: 'object' }, { type: 'array', items: {} }),
        (value, schema) => {
          const text = `{"v":${JSON.stringify(value) ?? 'null'}}`;
          const once = parseExactJson(text) as object;
          const again = parseExactJson(text) as object;
          expect(firstDifference(located(once, 'v'), located(once, 'v'), '/v', schema)).toBeUndefined();
          expect(firstDifference(located(once, 'v'), located(again, 'v'), '/v', schema)).toBeUndefined();
        },
      ),
      { numRuns: 1000, seed: 19 },
    );
  });

  it('finds no difference between equal strings, booleans or nulls: what the echo check skips comparing', () => {
    for (const value of ['', 'Fern', '\ud800', true, false, null]) {
      const text = `{"v":${JSON.stringify(value)}}`;
      const sent = parseExactJson(text) as object;
      const got = parseExactJson(text) as object;
      expect(firstDifference(located(sent, 'v'), located(got, 'v'), '/v')).toBeUndefined();
    }
    // Numbers are not such values: one double, two different digit strings.
    expect(difference('9007199254740993', '9007199254740992')).toBe('/v');
  });
});

describe('echo of a nested member the Plant does not declare where the NewPlant does', () => {
  it("lets an offshoot's id go missing when the Plant's offshoots are Plants without one, and compares the rest", async () => {
    const contract = await loadContract('src/fixtures/documents/reduced/recursive-offshoots-3.1.yaml');
    const schema = echoedProperties(contract).schemas.get('offshoots');
    const at = (sent: string, got: string): string | undefined =>
      firstDifference(
        located(parseExactJson(`{"v":${sent}}`) as object, 'v'),
        located(parseExactJson(`{"v":${got}}`) as object, 'v'),
        '/offshoots',
        schema,
      );
    expect(at('[{"id":0,"name":""}]', '[{"name":""}]')).toBeUndefined();
    expect(
      at('[{"id":0,"name":"a","offshoots":[{"id":1,"name":"b"}]}]', '[{"name":"a","offshoots":[{"name":"b"}]}]'),
    ).toBeUndefined();
    expect(at('[{"id":0,"name":"a"}]', '[{"name":"b"}]')).toBe('/offshoots/0/name');
    expect(at('[{"id":0,"name":"a"}]', '[{"id":1,"name":"a"}]')).toBe('/offshoots/0/id');
  });
});

describe("echo of a number the Plant writes as a string (pydantic's Decimal)", () => {
  it('takes the same number written as a string where the Plant takes no number, and only there', async () => {
    // Before: FastAPI's own answer ("price": "12.50" for 12.5) was faulted as "price" not echoed as sent.
    const contract = await loadContract('src/fixtures/documents/reduced/fastapi-decimal-3.1.json');
    const schema = echoedProperties(contract).schemas.get('price');
    const at = (sent: string, got: string): string | undefined =>
      firstDifference(
        located(parseExactJson(`{"v":${sent}}`) as object, 'v'),
        located(parseExactJson(`{"v":${got}}`) as object, 'v'),
        '/price',
        schema,
      );
    expect(at('12.5', '"12.50"')).toBeUndefined();
    expect(at('0', '"0"')).toBeUndefined();
    expect(at('12.5', '"12.51"')).toBe('/price');
    expect(at('"3.10"', '"3.1"')).toBe('/price');
    expect(difference('12.5', '"12.5"')).toBe('/v');
  });
});

describe('a writeOnly property of a Plant shared by request and answer', () => {
  const SHARED = new URL('../fixtures/documents/reduced/shared-plant-write-only-3.1.yaml', import.meta.url);

  it('is never expected back, and an answer carrying it back breaks the Plant', async () => {
    const contract = await loadContract(fileURLToPath(SHARED));
    expect(echoedProperties(contract).echoed).toEqual(['name', 'tag']);
    const answer = (extra: string) =>
      contract.check.plant(parseExactJson(`{"id":1,"name":"a","createdAt":"2026-01-01T00:00:00Z"${extra}}`));
    expect(answer('')).toEqual([]);
    expect(answer(',"supplierCode":"SUP-0001"').map((violation) => violation.field)).toEqual(['supplierCode']);
  });
});
