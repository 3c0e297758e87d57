import fc from 'fast-check';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { parseExactJson, stringifyExactJson } from './exact-json.js';
import { ContractError, DEFAULT_SPEC_PATH, inspectDocument, loadContract } from './spec.js';

const dir = mkdtempSync(join(tmpdir(), 'plantstore-spec-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let written = 0;
/** Writes a document as YAML (or JSON, for a `.json` name) and returns its path. */
function write(document: unknown, extension: 'yaml' | 'json' = 'yaml'): string {
  written += 1;
  const file = join(dir, `doc-${written}.${extension}`);
  writeFileSync(file, extension === 'json' ? JSON.stringify(document, null, 2) : stringify(document));
  return file;
}

const json = (schema: unknown) => ({ 'application/json': { schema } });
const schemas = {
  NewPlant: {
    type: 'object',
    required: ['name', 'id'],
    properties: {
      name: { type: 'string', minLength: 1 },
      tag: { type: 'string' },
      id: { type: 'integer', format: 'int64' },
    },
  },
  Plant: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, tag: { type: 'string' } } },
  Error: {
    type: 'object',
    required: ['error', 'message'],
    properties: { error: { type: 'integer', format: 'int32' }, message: { type: 'string' } },
  },
};

/** A Plant Store document; `post` replaces parts of POST /plants, `extra` adds top-level fields. */
function plantStore(
  version: string,
  post: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  return {
    openapi: version,
    info: { title: 'Plant Store', version: '1.0.0' },
    paths: {
      '/plants': {
        post: {
          operationId: 'addPlant',
          requestBody: { required: true, content: json(ref('NewPlant')) },
          responses: {
            '200': { description: 'Plant', content: json(ref('Plant')) },
            '400': { description: 'Error', content: json(ref('Error')) },
          },
          ...post,
        },
      },
    },
    components: { schemas },
    ...extra,
  };
}

async function problemsOf(file: string): Promise<string[]> {
  const inspection = await inspectDocument(file);
  return inspection.problems.map(({ pointer, message }) => (pointer === '' ? message : `at ${pointer}: ${message}`));
}

describe('loadContract', () => {
  it('loads the bundled document: OpenAPI 3.1, bearer, nothing else declared, the 400 Error', async () => {
    const contract = await loadContract();
    expect(contract).toMatchObject({
      source: DEFAULT_SPEC_PATH,
      version: '3.1.0',
      dialect: 'openapi-3.1',
      operationId: 'addPlant',
      auth: 'bearer',
      authSchemes: ['bearerAuth'],
      otherOperations: [],
      errorStatus: '400',
      basePath: '',
      mediaTypes: { newPlant: 'application/json', plant: 'application/json', error: 'application/json' },
    });
    expect(contract.check.newPlant({ id: 1, name: 'Fern' })).toEqual([]);
    expect(contract.check.newPlant({ name: 'Fern' })).not.toEqual([]);
    expect(await loadContract()).toBe(contract);
  });

  it('loads an OpenAPI 3.0 YAML document in the 3.0 dialect, nullable fields included', async () => {
    const document = plantStore('3.0.3');
    const nullable = {
      ...schemas.Plant,
      properties: { ...schemas.Plant.properties, tag: { type: 'string', nullable: true } },
    };
    (document.components as { schemas: Record<string, unknown> }).schemas = { ...schemas, Plant: nullable };
    const contract = await loadContract(write(document));
    expect(contract).toMatchObject({ dialect: 'openapi-3.0', version: '3.0.3', auth: 'none' });
    expect(contract.check.plant({ name: 'Fern', tag: null })).toEqual([]);
  });

  it("takes null where drf-spectacular's nullable choice field lists NullEnum beside its choices", async () => {
    const contract = await loadContract(
      fileURLToPath(new URL('../fixtures/documents/reduced/drf-null-enum-3.0.yaml', import.meta.url)),
    );
    expect(contract.check.newPlant(parseExactJson('{"id":1,"name":"Fern","tag":null}'))).toEqual([]);
    expect(contract.check.newPlant(parseExactJson('{"id":1,"name":"Fern","tag":""}'))).toEqual([]);
    expect(contract.check.plant(parseExactJson('{"id":1,"name":"Fern","tag":null}'))).toEqual([]);
    expect(contract.check.newPlant(parseExactJson('{"id":1,"name":"Fern","tag":"palm"}'))).not.toEqual([]);
  });

  it('applies the keywords beside a $ref in a 3.1 document together with the schema it names', async () => {
    const contract = await loadContract(
      fileURLToPath(new URL('../fixtures/documents/reduced/ref-siblings-3.1.yaml', import.meta.url)),
    );
    // Before: the sibling `required: [id]` replaced the Plant's `required: [name]`, so a NewPlant without a name passed.
    expect(contract.check.newPlant(parseExactJson('{"id":1}')).map((v) => v.message)).toEqual([
      'field "name" is required but missing',
    ]);
    expect(contract.check.newPlant(parseExactJson('{"name":"Fern"}')).map((v) => v.message)).toEqual([
      'field "id" is required but missing',
    ]);
    expect(contract.check.newPlant(parseExactJson('{"id":1,"name":"Fern","tag":null}'))).toEqual([]);
    expect(contract.check.newPlant(parseExactJson(`{"id":1,"name":"${'a'.repeat(41)}"}`))).not.toEqual([]);
    expect(contract.check.newPlant(parseExactJson('{"id":1,"name":""}'))).not.toEqual([]);
    expect(contract.check.newPlant(parseExactJson('{"id":1,"name":"Fern","x":1}'))).not.toEqual([]);
  });

  it('applies the keywords beside a $ref in a 3.0 document with the schema it names, and says so where they are written', async () => {
    const file = fileURLToPath(new URL('../fixtures/documents/reduced/ref-siblings-3.0.yaml', import.meta.url));
    const contract = await loadContract(file);
    // Before: swagger-parser let each sibling replace the named schema's member, so NewPlant's `required: [id]` and
    // `properties: {id}` dropped the Plant's `required: [name]` and its name: {"id":1} was sent as a valid NewPlant.
    expect(contract.check.newPlant(parseExactJson('{"id":1}')).map((v) => v.message)).toEqual([
      'field "name" is required but missing',
    ]);
    expect(contract.check.newPlant(parseExactJson('{"name":"Fern"}')).map((v) => v.message)).toEqual([
      'field "id" is required but missing',
    ]);
    expect(contract.check.newPlant(parseExactJson(`{"id":1,"name":"${'a'.repeat(41)}"}`))).not.toEqual([]);
    expect(contract.check.newPlant(parseExactJson('{"id":1,"name":""}'))).not.toEqual([]);
    expect(contract.check.newPlant(parseExactJson('{"id":1,"name":"Fern","tag":null}'))).toEqual([]);
    expect(contract.check.newPlant(parseExactJson('{"id":1,"name":"Fern","tag":"palm"}'))).not.toEqual([]);
    const { readings = [] } = await inspectDocument(file);
    expect(readings.filter((r) => r.reading.includes('beside a `$ref`')).map((r) => r.pointer)).toEqual([
      '/components/schemas/NewPlant',
      '/components/schemas/Plant/properties/name',
    ]);
  });

  it.each(['3.0.3', '3.1.0'])(
    'applies the keywords beside a $ref written in another file of a %s document with the schema it names',
    async (version) => {
      // Before: the other file's `NewPlant: {$ref: '#/Plant', required: [id]}` was read as required [id] alone.
      const plantFile = join(dir, `split-plant-${version}.yaml`);
      writeFileSync(
        plantFile,
        stringify({
          Plant: {
            type: 'object',
            required: ['name'],
            properties: { id: { type: 'integer' }, name: { type: 'string' } },
          },
          NewPlant: { $ref: '#/Plant', required: ['id'] },
        }),
      );
      const document = plantStore(version);
      const post = (document.paths as Record<string, { post: { requestBody: unknown } }>)['/plants']!.post;
      post.requestBody = { required: true, content: json({ $ref: `./split-plant-${version}.yaml#/NewPlant` }) };
      const file = write(document);
      const contract = await loadContract(file);
      expect(contract.check.newPlant(parseExactJson('{"id":1}')).map((v) => v.message)).toEqual([
        'field "name" is required but missing',
      ]);
      expect(contract.check.newPlant(parseExactJson('{"name":"Fern"}')).map((v) => v.message)).toEqual([
        'field "id" is required but missing',
      ]);
      const { readings = [] } = await inspectDocument(file);
      const siblings = readings.filter((r) => r.reading.includes('beside a `$ref`')).map((r) => r.pointer);
      expect(siblings).toEqual(version === '3.0.3' ? [`split-plant-${version}.yaml#/NewPlant`] : []);
    },
  );

  it('reads 3.0 nullable beside a $ref to an object (Swashbuckle-like) as open: null neither sent nor faulted', async () => {
    // openapi-core refuses null there (3.0 ignores a $ref's siblings; nullable works within one Schema Object),
    // ASP.NET and kin-openapi take it. Before, swagger-parser's copy made it the Pot's own: null sent as valid.
    const pot = { type: 'object', required: ['size'], properties: { size: { type: 'integer', minimum: 1 } } };
    const document = plantStore('3.0.3');
    const newPlant = {
      ...schemas.NewPlant,
      properties: { ...schemas.NewPlant.properties, pot: { $ref: '#/components/schemas/Pot', nullable: true } },
    };
    document.components = { ...(document.components as object), schemas: { ...schemas, NewPlant: newPlant, Pot: pot } };
    const file = write(document);
    const contract = await loadContract(file);
    expect(contract.check.newPlant(parseExactJson('{"id":1,"name":"a","pot":null}'))).toEqual([]);
    expect(contract.check.newPlant(parseExactJson('{"id":1,"name":"a","pot":{"size":0}}'))).not.toEqual([]);
    const pots = fc
      .sample(contract.compiled.newPlant.valid, { numRuns: 200, seed: 3 })
      .flatMap((value) => (value !== null && typeof value === 'object' && 'pot' in value ? [value.pot] : []));
    expect(pots.length).toBeGreaterThan(0);
    expect(pots).not.toContain(null);
    const { readings = [] } = await inspectDocument(file);
    expect(readings.map((r) => r.reading).filter((r) => r.includes('`allOf` (or a `$ref`)'))).toHaveLength(1);
  });

  it.each(['3.0.3', '3.1.0'])(
    "leaves `required: true` beside the $ref of a request body or parameter (%s) to that object, not a schema's",
    async (version) => {
      // Before (3.1 since ref siblings were read as allOf, 3.0 after abe41ca): 'must have required property content'.
      const document = plantStore(version);
      const post = (document.paths as Record<string, { post: Record<string, unknown> }>)['/plants']!.post;
      const components = {
        schemas,
        requestBodies: { NewPlant: post.requestBody },
        parameters: { Trace: { name: 'X-Trace', in: 'header', schema: { type: 'string' } } },
      };
      post.requestBody = { $ref: '#/components/requestBodies/NewPlant', required: true };
      post.parameters = [{ $ref: '#/components/parameters/Trace', required: true }];
      expect(await problemsOf(write({ ...document, components }))).toEqual([]);
    },
  );

  it('reads null at the root of the NewPlant as no NewPlant, keeps null inside it, and says so', async () => {
    const file = fileURLToPath(new URL('../fixtures/documents/reduced/nswag-nullable-body-3.0.yaml', import.meta.url));
    const contract = await loadContract(file);
    // Before: null was a valid NewPlant, and test crashed reading its id ("Cannot read properties of null").
    expect(contract.check.newPlant(parseExactJson('null'))).not.toEqual([]);
    expect(contract.check.newPlant(parseExactJson('{"id":1,"name":"Fern","tag":null}'))).toEqual([]);
    const sample = fc.sample(contract.compiled.newPlant.valid, { numRuns: 50, seed: 1 });
    expect(sample.every((value) => value !== null && typeof value === 'object')).toBe(true);
    const { readings = [] } = await inspectDocument(file);
    expect(readings.map((r) => r.reading).filter((text) => text.includes('root of the NewPlant'))).toHaveLength(1);
  });

  it('takes a 3.1 license with a name only, which OpenAPI 3.1 allows, and still refuses one with both identifier and url', async () => {
    const withLicense = (license: object) =>
      write(plantStore('3.1.0', {}, { info: { title: 'Plant Store', version: '1.0.0', license } }));
    // Before: "must have required property 'identifier'; must have required property 'url'; ..." (swagger-parser's 2021 schema).
    expect(await problemsOf(withLicense({ name: 'MIT' }))).toEqual([]);
    expect(await problemsOf(withLicense({ name: 'MIT', identifier: 'MIT' }))).toEqual([]);
    expect(await problemsOf(withLicense({ name: 'MIT', identifier: 'MIT', url: 'https://mit.edu' }))).not.toEqual([]);
  });

  it('follows a 3.1 $ref that names a schema by its $id and $anchor', async () => {
    const contract = await loadContract(
      fileURLToPath(new URL('../fixtures/documents/reduced/schema-anchors-3.1.yaml', import.meta.url)),
    );
    // Before: refused with `Invalid $ref pointer "newPlant". Pointers must begin with "#/"`.
    const messages = (text: string) => contract.check.newPlant(parseExactJson(text)).map((v) => v.message);
    expect(messages('{"id":1,"name":"Fern","tag":"cactus"}')).toEqual([]);
    expect(messages('{"name":"Fern"}')).toEqual(['field "id" is required but missing']);
    expect(messages('{"id":0,"name":"Fern"}')).not.toEqual([]);
    expect(messages(`{"id":1,"name":"${'a'.repeat(41)}"}`)).not.toEqual([]);
    expect(messages('{"id":1,"name":"Fern","tag":"rose"}')).not.toEqual([]);
    expect(contract.check.plant(parseExactJson('{"tag":"fern"}'))).not.toEqual([]);
  });

  it.each([
    [
      'springdoc-float-3.0.yaml',
      'price',
      (text: string) =>
        /^-?\d*\.?\d*$/.test(text) && text.replace(/[-.]/g, '').replace(/^0+/, '').replace(/0+$/, '').length <= 6,
    ],
    [
      'nswag-guid-3.0.json',
      'batchId',
      (text: string) => text === 'null' || /^"[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}"$/i.test(text),
    ],
  ])('sends, in %s, each valid %s as the declared format holds it', async (file, member, holds) => {
    const contract = await loadContract(
      fileURLToPath(new URL(`../fixtures/documents/reduced/${file}`, import.meta.url)),
    );
    const texts = fc.sample(contract.compiled.newPlant.valid, { numRuns: 200, seed: 11 }).flatMap((value) => {
      const match = new RegExp(`"${member}":("[^"]*"|[^,}]+)`).exec(stringifyExactJson(value));
      return match?.[1] === undefined ? [] : [match[1]];
    });
    expect(texts.length).toBeGreaterThan(10);
    expect(texts.filter((text) => !holds(text))).toEqual([]);
  });

  it('loads an OpenAPI 3.1 JSON document, a later patch release too', async () => {
    const contract = await loadContract(write(plantStore('3.1.7'), 'json'));
    expect(contract).toMatchObject({ dialect: 'openapi-3.1', version: '3.1.7' });
    expect(contract.document.openapi).toBe('3.1.7');
  });

  it('honours an integer bound beyond 2^53 exactly as written, though parsers round it', async () => {
    const document = plantStore('3.1.0');
    const id = { type: 'integer', maximum: 1 };
    (document.components as { schemas: Record<string, unknown> }).schemas.NewPlant = {
      ...schemas.NewPlant,
      properties: { ...schemas.NewPlant.properties, id },
    };
    const file = write(document, 'json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"maximum": 1', '"maximum": 9007199254740993'));
    const { check } = (await loadContract(file)).compiled.newPlant;
    expect(check(parseExactJson('{"name":"a","id":9007199254740993}'))).toEqual([]);
    expect(check(parseExactJson('{"name":"a","id":9007199254740994}'))).not.toEqual([]);
  });

  it.each(['yaml', 'json'] as const)(
    'honours an integer bound beyond 2^53 written in another file of the document (%s)',
    async (extension) => {
      const split = mkdtempSync(join(dir, 'split-exact-'));
      const newPlant = {
        ...schemas.NewPlant,
        properties: { ...schemas.NewPlant.properties, id: { type: 'integer', maximum: 1 } },
      };
      const text = (extension === 'json' ? JSON.stringify : stringify)({ ...schemas, NewPlant: newPlant });
      writeFileSync(
        join(split, `schemas.${extension}`),
        text.replace(/"?maximum"?:\s?1\b/, '"maximum": 9007199254740993'),
      );
      const body = (name: string) => json({ $ref: `./schemas.${extension}#/${name}` });
      const post = {
        requestBody: { content: body('NewPlant') },
        responses: {
          '200': { description: 'Plant', content: body('Plant') },
          '400': { description: 'Error', content: body('Error') },
        },
      };
      const document = {
        openapi: '3.1.0',
        info: { title: 'Plant Store', version: '1' },
        paths: { '/plants': { post } },
      };
      writeFileSync(join(split, 'openapi.yaml'), stringify(document));
      const { check } = (await loadContract(join(split, 'openapi.yaml'))).compiled.newPlant;
      expect(check(parseExactJson('{"name":"a","id":9007199254740993}'))).toEqual([]);
      expect(check(parseExactJson('{"name":"a","id":9007199254740994}')).map((v) => v.keyword)).toEqual(['maximum']);
    },
  );

  it('loads a recursive schema as a cyclic object', async () => {
    const tree = {
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string' },
        children: { type: 'array', items: { $ref: '#/components/schemas/Tree' } },
      },
    };
    const document = plantStore('3.1.0', {
      requestBody: { content: json({ $ref: '#/components/schemas/Tree' }) },
    });
    (document.components as { schemas: Record<string, unknown> }).schemas = { ...schemas, Tree: tree };
    const contract = await loadContract(write(document));
    const loaded = contract.schemas.newPlant as { properties: { children: { items: unknown } } };
    expect(loaded.properties.children.items).toBe(loaded);
    expect(contract.check.newPlant({ name: 'a', children: [{ name: 'b', children: [] }] })).toEqual([]);
    expect(contract.check.newPlant({ name: 'a', children: [{ children: [] }] })).not.toEqual([]);
  });

  it('lists the other operations and webhooks, sorted, and records the first server path', async () => {
    const document = plantStore(
      '3.1.0',
      {},
      {
        servers: [{ url: 'https://api.example.com/v1' }],
        webhooks: { newPlant: { post: { responses: { '200': { description: 'ok' } } } } },
      },
    );
    const paths = document.paths as Record<string, Record<string, unknown>>;
    const ok = { responses: { '200': { description: 'ok' } } };
    paths['/plants'] = { ...paths['/plants'], get: ok };
    paths['/plants/{id}'] = {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
      delete: ok,
      get: ok,
    };
    const contract = await loadContract(write(document));
    expect(contract.otherOperations).toEqual([
      'GET /plants',
      'GET /plants/{id}',
      'DELETE /plants/{id}',
      'webhook newPlant (POST)',
    ]);
    expect(contract.basePath).toBe('/v1');
  });

  it('takes a JSON media type with parameters or a +json suffix, and says which', async () => {
    const post = {
      requestBody: { content: { 'application/json; charset=utf-8': { schema: schemas.NewPlant } } },
      responses: {
        '200': {
          description: 'Plant',
          content: { 'text/plain': {}, 'application/vnd.plant+json': { schema: schemas.Plant } },
        },
        '400': { description: 'Error', content: { 'application/problem+json': { schema: schemas.Error } } },
      },
    };
    const contract = await loadContract(write(plantStore('3.0.3', post)));
    expect(contract.mediaTypes).toEqual({
      newPlant: 'application/json; charset=utf-8',
      plant: 'application/vnd.plant+json',
      error: 'application/problem+json',
    });
    expect(contract.locations.newPlant).toBe(
      '/paths/~1plants/post/requestBody/content/application~1json; charset=utf-8/schema',
    );
  });

  it('takes the Error schema from a 4XX response, else the default one, and says which', async () => {
    const error = { description: 'Error', content: json(schemas.Error) };
    const plant = { description: 'Plant', content: json(schemas.Plant) };
    const fourXX = await loadContract(write(plantStore('3.1.0', { responses: { '200': plant, '4XX': error } })));
    expect(fourXX.errorStatus).toBe('4XX');
    const fallback = await loadContract(write(plantStore('3.1.0', { responses: { '200': plant, default: error } })));
    expect(fallback.errorStatus).toBe('default');
    expect(fallback.locations.error).toBe('/paths/~1plants/post/responses/default/content/application~1json/schema');
  });

  it('reads an OpenAPI 3.0 http scheme written Bearer beside a bearerFormat as bearer', async () => {
    const securitySchemes = { jwt: { type: 'http', scheme: 'Bearer', bearerFormat: 'JWT' } };
    const document = plantStore('3.0.3', {}, { security: [{ jwt: [] }] });
    const file = write({ ...document, components: { schemas, securitySchemes } });
    expect(await problemsOf(file)).toEqual([]);
    expect((await loadContract(file)).auth).toBe('bearer');
  });

  it("reads an http bearer scheme carrying an API key's name and in (Litestar's JWTAuth) as bearer, in 3.0 and 3.1", async () => {
    // Before: 'at /components/securitySchemes/jwt: must NOT have unevaluated properties' stopped every command.
    const jwt = { type: 'http', scheme: 'Bearer', name: 'Authorization', in: 'header', bearerFormat: 'JWT' };
    for (const version of ['3.0.3', '3.1.0']) {
      const document = plantStore(version, {}, { security: [{ jwt: [] }] });
      const file = write({ ...document, components: { schemas, securitySchemes: { jwt } } });
      expect(await problemsOf(file)).toEqual([]);
      expect((await loadContract(file)).auth).toBe('bearer');
    }
  });

  it('names a NewPlant schema declaring no property (postman-to-openapi: an object with an example only)', async () => {
    // Before: nothing was said, and `{}` went as a valid NewPlant to a server that requires id and name.
    const body = { type: 'object', example: { id: 1, name: 'Boston fern' } };
    const post = { requestBody: { required: true, content: json(body) } };
    const inspected = await inspectDocument(write(plantStore('3.0.3', post)));
    expect(inspected.problems).toEqual([]);
    expect(inspected.readings).toEqual([
      {
        pointer: '/paths/~1plants/post/requestBody/content/application~1json/schema',
        reading: expect.stringMatching(/^the NewPlant schema declares no property/) as unknown,
      },
    ]);
    expect((await inspectDocument(write(plantStore('3.0.3')))).readings).toEqual([]);
  });

  it('throws one ContractError listing every problem', async () => {
    const file = write(plantStore('3.1.0', { requestBody: undefined, responses: { '201': { description: 'made' } } }));
    const failure = await loadContract(file).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ContractError);
    expect((failure as ContractError).problems).toHaveLength(2);
    expect((failure as ContractError).message).toMatch(
      /cannot be used \(2 problems\):\n {2}at \/paths\/~1plants\/post: /,
    );
  });
});

describe('inspectDocument', () => {
  it('names every schema construct it cannot honour, once, where the document writes it', async () => {
    const tag = { type: 'string', pattern: '(?<=a)b' };
    const plant = {
      ...schemas.Plant,
      properties: { ...schemas.Plant.properties, tag, stakes: { type: 'array', unevaluatedItems: false } },
    };
    const newPlant = {
      allOf: [{ $ref: '#/components/schemas/Plant' }, { required: ['id'], properties: { id: { type: 'integer' } } }],
    };
    const document = plantStore('3.1.0');
    (document.components as { schemas: Record<string, unknown> }).schemas = {
      ...schemas,
      Plant: plant,
      NewPlant: newPlant,
    };
    const problems = await problemsOf(write(document));
    expect(problems.sort()).toEqual([
      expect.stringMatching(
        /^at \/components\/schemas\/Plant\/properties\/stakes\/unevaluatedItems: the NewPlant schema's "unevaluatedItems" cannot be honoured: unevaluatedItems is not supported; use items\. /,
      ),
      expect.stringMatching(
        /^at \/components\/schemas\/Plant\/properties\/tag\/pattern: the NewPlant schema's "pattern" cannot be honoured: .*rewrite or remove it/,
      ),
    ]);
  });

  it('names a refused construct in another file of the document, through $refs across files', async () => {
    const split = mkdtempSync(join(dir, 'split-'));
    const body = (name: string) => json({ $ref: `./schemas.yaml#/${name}` });
    const newPlant = {
      ...schemas.NewPlant,
      properties: { ...schemas.NewPlant.properties, tag: { type: 'string', pattern: '(?<=a)b' } },
    };
    writeFileSync(join(split, 'schemas.yaml'), stringify({ ...schemas, NewPlant: newPlant }));
    const responses = {
      '200': { description: 'Plant', content: body('Plant') },
      '400': { description: 'Error', content: body('Error') },
    };
    writeFileSync(
      join(split, 'paths.yaml'),
      stringify({
        plants: { post: { requestBody: { $ref: './openapi.yaml#/components/requestBodies/NewPlant' }, responses } },
      }),
    );
    const document = {
      openapi: '3.0.3',
      info: { title: 'Plant Store', version: '1' },
      paths: { '/plants': { $ref: './paths.yaml#/plants' } },
      components: { requestBodies: { NewPlant: { content: body('NewPlant') } } },
    };
    writeFileSync(join(split, 'openapi.yaml'), stringify(document));
    expect(await problemsOf(join(split, 'openapi.yaml'))).toEqual([
      expect.stringMatching(
        /^at schemas\.yaml#\/NewPlant\/properties\/tag\/pattern: the NewPlant schema's "pattern" cannot be honoured/,
      ),
    ]);
  });

  it('refuses a JSON Schema dialect other than 2020-12, for the document or a schema', async () => {
    const document = plantStore('3.1.0', {}, { jsonSchemaDialect: 'http://json-schema.org/draft-07/schema#' });
    const draft7 = { $schema: 'http://json-schema.org/draft-07/schema#', ...schemas.Plant };
    (document.components as { schemas: Record<string, unknown> }).schemas = { ...schemas, Plant: draft7 };
    expect(await problemsOf(write(document))).toEqual([
      expect.stringMatching(
        /^at \/jsonSchemaDialect: The document declares the JSON Schema dialect "http:\/\/json-schema\.org\/draft-07\/schema#"; plantstore reads/,
      ),
      expect.stringMatching(
        /^at \/components\/schemas\/Plant\/\$schema: The Plant schema declares the JSON Schema dialect/,
      ),
    ]);
    const base = plantStore('3.1.0', {}, { jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base' });
    expect(await problemsOf(write(base))).toEqual([]);
  });

  it('refuses Swagger 2.0 with how to convert it, and nothing else', async () => {
    const file = write({ swagger: '2.0', info: { title: 'x', version: '1' }, paths: {} });
    expect(await problemsOf(file)).toEqual([
      expect.stringMatching(/is a Swagger 2\.0 \(OpenAPI 2\.0\) document.*swagger2openapi/),
    ]);
  });

  it('names a missing POST /plants and what the document declares instead', async () => {
    const document = plantStore('3.1.0');
    document.paths = { '/plants': { get: { responses: { '200': { description: 'ok' } } } } };
    expect(await problemsOf(write(document))).toEqual([
      'at /paths: The document has no POST /plants operation, the one plantstore tests (paths → /plants has no post; it declares GET /plants).',
    ]);
  });

  it('takes POST /plants/ with its trailing slash as the operation when the document writes only that, below a prefix too', async () => {
    const document = plantStore('3.1.0');
    const paths = document.paths as Record<string, unknown>;
    const slashed = await inspectDocument(write({ ...document, paths: { '/plants/': paths['/plants'] } }));
    expect(slashed.problems).toEqual([]);
    expect(slashed.contract).toMatchObject({ operationPath: '/plants/', basePath: '' });
    const prefixed = await inspectDocument(write({ ...document, paths: { '/api/v1/plants/': paths['/plants'] } }));
    expect(prefixed.contract).toMatchObject({ operationPath: '/api/v1/plants/', basePath: '/api/v1' });
    const both = await inspectDocument(
      write({ ...document, paths: { '/plants/': paths['/plants'], '/plants': paths['/plants'] } }),
    );
    expect(both.contract?.operationPath).toBe('/plants');
  });

  it('names a missing request body and 200 schema, each where it looked', async () => {
    const post = {
      requestBody: undefined,
      responses: { '200': { description: 'no content' }, '404': { description: 'gone' } },
    };
    const at = 'at /paths/~1plants/post: ';
    expect(await problemsOf(write(plantStore('3.0.3', post)))).toEqual([
      `${at}POST /plants has no request body (looked for requestBody at /paths/~1plants/post); plantstore sends a NewPlant there.`,
      `${at}The 200 response of POST /plants has no JSON media type (looked for application/json, application/json with ` +
        'parameters, or a type ending in +json under /paths/~1plants/post/responses/200/content; it lists no media type).',
    ]);
  });

  it('reads an operation documenting no refusal body as any JSON Error, and says so (drf-spectacular, NestJS)', async () => {
    // Before: refused ('documents no Error schema'), so drf-spectacular's default output could not be tested at all.
    const created = { description: 'Plant', content: json({ $ref: '#/components/schemas/Plant' }) };
    const post = { responses: { '201': created, '400': { description: 'Bad Request' } } };
    const inspected = await inspectDocument(write(plantStore('3.0.3', post)));
    expect(inspected.problems).toEqual([]);
    expect(inspected.contract?.schemas.error).toEqual({});
    expect(inspected.contract?.refusal.status).toBe(400);
    expect(inspected.readings).toEqual([
      {
        pointer: '/paths/~1plants/post',
        reading: expect.stringMatching(
          /^no Error schema: none of the 400, 4XX, default and 422 responses has a JSON schema/,
        ) as unknown,
      },
    ]);
  });

  it('names a request body with no JSON media type, and a JSON media type with no schema', async () => {
    const post = {
      requestBody: { content: { 'application/xml': { schema: schemas.NewPlant }, 'application/json': {} } },
    };
    expect(await problemsOf(write(plantStore('3.1.0', post)))).toEqual([
      'at /paths/~1plants/post: The request body of POST /plants has no schema for application/json ' +
        '(looked at /paths/~1plants/post/requestBody/content/application~1json/schema).',
    ]);
  });

  it('lists OpenAPI validation problems and still finds what plantstore misses', async () => {
    const document = plantStore('3.1.0', { requestBody: undefined });
    document.info = { title: 'no version' };
    expect(await problemsOf(write(document))).toEqual([
      "at /info: must have required property 'version'",
      expect.stringContaining('POST /plants has no request body'),
    ]);
  });

  it("names a schema's violation once, where the document writes it, without the oneOf cascade above it", async () => {
    const document = plantStore('3.0.3');
    const nullableName = {
      ...schemas.Plant,
      properties: { ...schemas.Plant.properties, name: { type: ['string', 'null'] } },
    };
    document.components = { schemas: { ...schemas, Plant: nullableName } };
    expect(await problemsOf(write(document))).toEqual([
      'at /components/schemas/Plant/properties/name/type: must be string; must be equal to one of the allowed values ' +
        '(a list of types is OpenAPI 3.1: in 3.0.3 write one type, with `nullable: true` for null, or declare `openapi: 3.1.0`)',
    ]);
  });

  it('names a security requirement whose scheme the document does not declare, at the requirement', async () => {
    const post = { security: [{ bearerAuth: [] }, { jwt: [] }] };
    const components = { schemas, securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } };
    expect(await problemsOf(write(plantStore('3.1.0', post, { components })))).toEqual([
      'at /paths/~1plants/post/security/1: the security requirement names "jwt", which components.securitySchemes does not ' +
        'declare (it declares bearerAuth): name a declared scheme, or declare "jwt" (an http bearer scheme for plantstore).',
    ]);
  });

  it('says a file that is not JSON or YAML, or holds no object, is not a document', async () => {
    const broken = join(dir, 'broken.yaml');
    writeFileSync(broken, 'openapi: 3.1.0\n  info: [\n');
    expect(await problemsOf(broken)).toEqual([expect.stringMatching(/broken\.yaml is neither JSON nor YAML: /)]);
    const json = join(dir, 'broken.json');
    writeFileSync(json, '{"openapi": "3.1.0", "info": {"title": "x"}} }');
    expect(await problemsOf(json)).toEqual([
      expect.stringContaining(
        `${json} is neither JSON nor YAML: Unexpected non-whitespace character after JSON at position 45`,
      ),
    ]);
    const twice = join(dir, 'twice.yaml');
    writeFileSync(twice, 'openapi: 3.1.0\ninfo:\n  title: Plant Store\n  version: 1.0.0\n  title: again\n');
    // Before: 'twice.yaml is neither JSON nor YAML: Map keys must be unique at line 5, column 3:' (no key, a dangling colon).
    expect(await problemsOf(twice)).toEqual([
      `${twice} is not valid YAML: the key "title" is written twice in one mapping (line 5, column 3); YAML allows each key once: keep one.`,
    ]);
    const escaped = join(dir, 'escaped.yaml');
    writeFileSync(escaped, 'openapi: 3.1.0\ninfo: {title: P, version: "1"}\nx-pattern: "^\\d{3}$"\n');
    // Before: 'escaped.yaml is neither JSON nor YAML: Invalid escape sequence \d at line 3, column 14:'.
    expect(await problemsOf(escaped)).toEqual([
      `${escaped} is not valid YAML: \\d inside double quotes is no YAML escape (line 3, column 14); write the text in single quotes, which keep every backslash ('…\\d…'), or double the backslash ("…\\\\d…").`,
    ]);
    const commented = join(dir, 'commented.json');
    writeFileSync(
      commented,
      '{\n  // generated\n  "openapi": "3.1.0", "info": {"title": "x", "version": "1"}, "paths": {}\n}\n',
    );
    // Before: 'is not an OpenAPI document: it has no "openapi" field' (YAML read '// generated "openapi"' as one key).
    expect(await problemsOf(commented)).toEqual([
      `${commented} is not valid JSON: line 2 holds a comment (// generated), which JSON does not allow: remove the comments.`,
    ]);
    const list = join(dir, 'list.json');
    writeFileSync(list, '[1, 2]');
    expect(await problemsOf(list)).toEqual([`${list} is not an OpenAPI document: it holds a list, not an object.`]);
  });

  it('reads a document from an http URL, and says why one cannot be read', async () => {
    const { createServer } = await import('node:http');
    const text = stringify(plantStore('3.1.0'));
    const server = createServer((request, response) => {
      response.writeHead(request.url === '/openapi.yaml' ? 200 : 404).end(text);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      const inspection = await inspectDocument(`http://127.0.0.1:${port}/openapi.yaml`);
      expect(inspection.problems).toEqual([]);
      await expect(inspectDocument(`http://127.0.0.1:${port}/gone.yaml`)).rejects.toThrow(
        `cannot read http://127.0.0.1:${port}/gone.yaml: the server answered 404 Not Found`,
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    // A port nothing listens on (its server closed before any request): fetch's own message is only "fetch failed".
    const unused = createServer();
    await new Promise<void>((resolve) => unused.listen(0, '127.0.0.1', resolve));
    const unusedPort = (unused.address() as { port: number }).port;
    await new Promise((resolve) => unused.close(resolve));
    await expect(inspectDocument(`http://127.0.0.1:${unusedPort}/openapi.yaml`)).rejects.toThrow(
      `cannot read http://127.0.0.1:${unusedPort}/openapi.yaml: nothing listens there (connection refused)`,
    );
  });

  it('throws "cannot read" for a file that is not there', async () => {
    await expect(inspectDocument(join(dir, 'missing.yaml'))).rejects.toThrow(
      /^cannot read .*missing\.yaml: no such file$/,
    );
  });
});
