import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { loadContract, PACKAGE_ROOT, parseExactJson, stringifyExactJson } from '../contract/index.js';
import { captureIo } from '../fixtures/cli-io.js';
import { runCli } from './main.js';

const dir = mkdtempSync(join(tmpdir(), 'plantstore-validate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, document: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, typeof document === 'string' ? document : stringify(document));
  return file;
}

async function validate(file: string): Promise<{ code: number; out: string; err: string }> {
  const io = captureIo();
  const code = await runCli(['validate', file], io);
  return { code, out: io.out(), err: io.err() };
}

const json = (schema: unknown) => ({ 'application/json': { schema } });
const ok = { responses: { '200': { description: 'ok' } } };
const plant = { type: 'object', required: ['name'], properties: { name: { type: 'string' }, tag: { type: 'string' } } };
const error = {
  type: 'object',
  required: ['error', 'message'],
  properties: { error: { type: 'integer', format: 'int32' }, message: { type: 'string' } },
};

function document(post: Record<string, unknown>, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: { title: 'Plant Store', version: '1' },
    paths: {
      '/plants': {
        post: {
          requestBody: { content: json({ ...plant, properties: { ...plant.properties, id: { type: 'integer' } } }) },
          responses: {
            '200': { description: 'Plant', content: json(plant) },
            '400': { description: 'Error', content: json(error) },
          },
          ...post,
        },
        get: ok,
      },
      '/plants/{id}': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        delete: ok,
      },
    },
    ...extra,
  };
}

describe('plantstore validate', () => {
  it("names the operation by the document's operationId, and only when it has one", async () => {
    const named = write('named.yaml', document({ operationId: 'createPlant' }));
    expect((await validate(named)).out).toContain('  tested: POST /plants (createPlant): NewPlant');
    const unnamed = write('unnamed.yaml', document({}));
    expect((await validate(unnamed)).out).toContain('  tested: POST /plants: NewPlant');
  });

  it('names the status the Plant comes with: 201 where the document writes 201 Created', async () => {
    const responses = {
      '201': { description: 'Created', content: json(plant) },
      '400': { description: 'Error', content: json(error) },
    };
    expect((await validate(write('created.yaml', document({ responses })))).out).toContain(
      '  tested: POST /plants: NewPlant, Plant (201) and Error (400) as application/json',
    );
  });

  it('names the other refusals judged by schemas of their own, and those it cannot judge, with why', async () => {
    const responses = {
      '200': { description: 'ok', content: json(plant) },
      '400': { description: 'Error', content: json(error) },
      '401': { description: 'Unauthorized', content: json({ type: 'object', required: ['detail'] }) },
      '403': { description: 'Forbidden', content: json({ allOf: [false] }) },
      '415': { description: 'Not JSON', content: { 'text/plain': { schema: { type: 'string' } } } },
    };
    const { code, out } = await validate(write('answers.yaml', document({ responses }, { openapi: '3.1.0' })));
    expect(code).toBe(0);
    const lines = out.split('\n');
    expect(lines).toContain('  other refusals, judged by their own schemas: 401 (application/json)');
    expect(lines.find((line) => line.startsWith('  not judged:'))).toMatch(
      /^ {2}not judged: the bodies of 403 answers: the 403 response schema's "allOf" cannot be honoured/,
    );
  });

  it('says which other refusals are judged by the Error schema itself (a default written with it) and which by their own', async () => {
    const responses = {
      '200': { description: 'ok', content: json(plant) },
      '400': { description: 'Error', content: json({ $ref: '#/components/schemas/Error' }) },
      '409': { description: 'Conflict', content: json(error) },
      '401': { description: 'Unauthorized', content: json({ type: 'object', required: ['detail'] }) },
      default: { description: 'Unexpected', content: json({ $ref: '#/components/schemas/Error' }) },
    };
    const file = write('default-error.yaml', document({ responses }, { components: { schemas: { Error: error } } }));
    const lines = (await validate(file)).out.split('\n');
    expect(lines).toContain('  other refusals, judged by their own schemas: 401 (application/json)');
    // A copy of the Error written inline (409) is the Error too.
    expect(lines).toContain(
      '  other refusals, judged by the Error schema as 400 is: 409 (application/json), default (any other 4xx, application/json)',
    );
  });

  it('lists the header, query and cookie parameters of the operation, required ones marked', async () => {
    const parameters = [
      { name: 'X-Request-ID', in: 'header', required: true, schema: { type: 'string', format: 'uuid' } },
      { name: 'Accept', in: 'header', required: true, schema: { type: 'string' } },
      { name: 'dryRun', in: 'query', schema: { type: 'boolean' } },
    ];
    expect((await validate(write('parameters.yaml', document({ parameters })))).out).toContain(
      '  parameters: X-Request-ID (header, required), dryRun (query); test sends the required ones, serve and mock check them',
    );
  });

  it('says no parameter is sent on valid requests when none is required', async () => {
    const parameters = [{ name: 'X-Request-Id', in: 'header', schema: { type: 'string', format: 'uuid' } }];
    expect((await validate(write('optional-parameters.yaml', document({ parameters })))).out).toContain(
      '  parameters: X-Request-Id (header); none is required: test sends them only with values their schemas refuse, serve and mock check them',
    );
  });

  it('says where a schema reads two ways, at the place the document writes it, and nowhere else', async () => {
    const tag = { type: 'string', enum: ['fern', 'herb'], nullable: true };
    const withNamed = (nullable: unknown) => {
      const named = { type: 'object', properties: { nullable, kind: { type: 'string', nullable: true } } };
      const properties = { ...plant.properties, tag, id: { type: 'integer' }, named };
      return { schemas: { NewPlant: { ...plant, properties } } };
    };
    const requestBody = { content: json({ $ref: '#/components/schemas/NewPlant' }) };
    const readingLines = async (name: string, doc: unknown) => {
      const { code, out } = await validate(write(name, doc));
      expect(code).toBe(0);
      return out.split('\n').filter((line) => line.startsWith('  read as:'));
    };
    const open30 = document({ requestBody }, { components: withNamed({ type: 'boolean' }) });
    expect(await readingLines('open-3.0.yaml', open30)).toEqual([
      '  read as: /components/schemas/NewPlant/properties/tag: `nullable: true` beside an `enum` without null reads two ways in OpenAPI 3.0; null is neither sent nor faulted here (list null in the enum to allow it, or remove `nullable`)',
    ]);
    // In 3.1 a property may be called `nullable` and be the schema `true`: that is no keyword.
    const stray31 = { ...document({ requestBody }, { components: withNamed(true) }), openapi: '3.1.0' };
    const lines = await readingLines('stray-3.1.yaml', stray31);
    expect(lines.map((line) => line.split(': `')[0])).toEqual([
      '  read as: /components/schemas/NewPlant/properties/tag',
      '  read as: /components/schemas/NewPlant/properties/named/properties/kind',
    ]);
    expect(lines[0]).toContain('`nullable: true` is no keyword of OpenAPI 3.1; read as null allowed');
  });

  it('summarises a valid document: what is tested, how, and what is not', async () => {
    const file = write('valid.yaml', document({}, { servers: [{ url: 'https://api.example.com/v2' }] }));
    expect(await validate(file)).toEqual({
      code: 0,
      err: '',
      out: [
        `${file}: valid OpenAPI 3.0.3 document, 3 operations`,
        '  tested: POST /plants: NewPlant, Plant (200) and Error (400) as application/json; no authentication',
        '  its first server is at /v2: include that path in --base-url (requests go to <base-url>/plants)',
        '  not tested: GET /plants and DELETE /plants/{id}',
        '',
      ].join('\n'),
    });
  });

  it('takes the document as --spec too, as test, serve and mock do, but one document only', async () => {
    const file = write('as-spec.yaml', document({}));
    const positional = await validate(file);
    const io = captureIo();
    expect(await runCli(['validate', '--spec', file], io)).toBe(0);
    expect(io.out()).toBe(positional.out);
    const both = captureIo();
    expect(await runCli(['validate', '--spec', file, file], both)).toBe(2);
    expect(both.err()).toContain('one file at a time');
  });

  it('reports every problem that would stop test or serve, and exits 1', async () => {
    const post = { requestBody: undefined, responses: { '204': { description: 'made' } } };
    const file = write('three-problems.yaml', document(post));
    const { code, out, err } = await validate(file);
    expect({ code, out }).toEqual({ code: 1, out: '' });
    expect(err.split('\n')).toEqual([
      `${file} cannot be used (2 problems):`,
      expect.stringMatching(/^ {2}at \/paths\/~1plants\/post: POST \/plants has no request body/),
      expect.stringMatching(
        /^ {2}at \/paths\/~1plants\/post: POST \/plants documents no success response with a Plant: .*\(204 carries none; looked/,
      ),
      '',
    ]);
  });

  it('reports what serve and mock would refuse at startup: an Error schema refusing their Error bodies', async () => {
    const narrow = { ...error, properties: { ...error.properties, error: { type: 'integer', maximum: 10 } } };
    const responses = {
      '200': { description: 'Plant', content: json(plant) },
      '400': { description: 'Error', content: json(narrow) },
    };
    const { code, err } = await validate(write('narrow-error.yaml', document({ responses })));
    expect(code).toBe(1);
    expect(err).toMatch(/cannot be used \(a problem\):\n {2}The document's Error schema refuses the Error bodies/);
  });

  it('refuses Swagger 2.0, saying how to convert it', async () => {
    const file = write('swagger.yaml', { swagger: '2.0', info: { title: 'x', version: '1' }, paths: {} });
    const { code, err } = await validate(file);
    expect(code).toBe(1);
    expect(err.startsWith(`${file} is a Swagger 2.0 (OpenAPI 2.0) document`)).toBe(true);
    expect(err.split('\n')).toHaveLength(2);
    expect(err).toContain(`npx swagger2openapi ${file} -o openapi.yaml`);
  });

  it('names authentication and other media types in the summary', async () => {
    const post = {
      security: [{ key: [] }],
      responses: {
        '200': { description: 'Plant', content: { 'application/json; charset=utf-8': { schema: plant } } },
        default: { description: 'Error', content: json(error) },
      },
    };
    const flows = { clientCredentials: { tokenUrl: 'https://id.example.com/token', scopes: {} } };
    const components = { components: { securitySchemes: { key: { type: 'oauth2', flows } } } };
    const { code, out } = await validate(write('oauth2.yaml', document(post, components)));
    expect(code).toBe(0);
    expect(out).toContain(
      'NewPlant as application/json, Plant (200) as application/json; charset=utf-8 and Error (default) as application/json; oauth2 authentication (key)',
    );
    // An API key is no bearer token: test would refuse the document, so validate does.
    const apiKey = { components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } } } };
    const refused = await validate(write('api-key.yaml', document(post, apiKey)));
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/authenticates with an API key \(key\), but plantstore sends bearer tokens only/);
  });
});

describe('the law: a document validate accepts loads for test, serve and mock, and generates', () => {
  const documents = join(PACKAGE_ROOT, 'src', 'fixtures', 'documents');
  const files = readdirSync(documents).filter((name) => /\.(ya?ml|json)$/.test(name));

  it('holds for every document of the fixture library', { timeout: 120_000 }, async () => {
    expect(files.length).toBeGreaterThan(0);
    for (const name of files) {
      const file = join(documents, name);
      const { code, err } = await validate(file);
      if (code !== 0) {
        expect({ name, code, err }).toMatchObject({ name, code: 1 });
        continue;
      }
      const contract = await loadContract(file);
      for (const [which, compiled] of Object.entries(contract.compiled)) {
        for (const value of fc.sample(compiled.valid, { numRuns: 5, seed: 9 })) {
          expect(compiled.check(parseExactJson(stringifyExactJson(value))), `${name}: ${which}`).toEqual([]);
        }
      }
    }
  });
});

describe('plantstore validate URL', () => {
  it('validates a document served over http, and exits 2 when it cannot be fetched', async () => {
    const { createServer } = await import('node:http');
    const text = stringify(document({}));
    const server = createServer((request, response) => {
      response.writeHead(request.url === '/openapi.yaml' ? 200 : 404).end(text);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      const valid = await validate(`http://127.0.0.1:${port}/openapi.yaml`);
      expect(valid).toMatchObject({ code: 0, err: '' });
      expect(valid.out).toMatch(
        /^http:\/\/127\.0\.0\.1:\d+\/openapi\.yaml: valid OpenAPI 3\.0\.3 document, 3 operations\n/,
      );
      expect(await validate(`http://127.0.0.1:${port}/gone.yaml`)).toMatchObject({
        code: 2,
        err: `plantstore validate: cannot read http://127.0.0.1:${port}/gone.yaml: the server answered 404 Not Found\n`,
      });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('test, serve and mock refuse what validate refuses, with the same sentences and exit 2', () => {
  it('holds for Swagger 2.0 and for a POST /plants without a request body', async () => {
    const swagger = write('refused-swagger.yaml', { swagger: '2.0', info: { title: 'x', version: '1' }, paths: {} });
    const bodiless = write('refused-bodiless.yaml', document({ requestBody: undefined }));
    for (const file of [swagger, bodiless]) {
      const validated = await validate(file);
      expect(validated.code).toBe(1);
      for (const command of ['test', 'serve', 'mock']) {
        const io = captureIo({ PLANTSTORE_TOKEN: 'validate-law-token' });
        const args = command === 'test' ? [command, '--spec', file] : [command, '--spec', file, '--port', '0'];
        expect(await runCli(args, io)).toBe(2);
        expect(io.err()).toBe(`plantstore ${command}: ${validated.err}`);
      }
    }
  });
});
