import { request } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract, parseExactJson, PROBLEMS, stringifyExactJson } from '../contract/index.js';
import { createReferenceServer, type ReferenceServer } from './server.js';

const TOKEN = 'reference-test-token';
let server: ReferenceServer;

beforeAll(async () => {
  server = await createReferenceServer({ tokens: [TOKEN], bodyLimit: 64 * 1024 });
});
afterAll(() => server.close());

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Sends raw bytes so that malformed requests stay malformed. */
function send(options: {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  auth?: string | null;
  base?: string;
}): Promise<Answer> {
  const url = new URL(options.path ?? '/plants', options.base ?? server.url);
  const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
  const auth = options.auth === undefined ? `Bearer ${TOKEN}` : options.auth;
  if (auth !== null) headers.authorization = auth;
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

let nextId = 1_000_000n;
const freshId = (): bigint => nextId++;

/**
 * The README's behaviour table, row by row: situation, request, status and error code. Bodies use
 * fresh ids so that rows stay independent of each other.
 */
const BEHAVIOUR: {
  situation: string;
  request: () => Parameters<typeof send>[0];
  status: number;
  code?: number;
  header?: [string, RegExp];
}[] = [
  {
    situation: 'valid NewPlant, valid token',
    request: () => ({ body: `{"id":${freshId()},"name":"Fern"}` }),
    status: 200,
  },
  {
    situation: 'id 9223372036854775807 (int64 max)',
    request: () => ({ body: '{"id":9223372036854775807,"name":"Max"}' }),
    status: 200,
  },
  {
    situation: 'id -9223372036854775808 (int64 min)',
    request: () => ({ body: '{"id":-9223372036854775808,"name":"Min"}' }),
    status: 200,
  },
  {
    situation: 'id 9007199254740993 (2^53+1)',
    request: () => ({ body: '{"id":9007199254740993,"name":"a"}' }),
    status: 200,
  },
  { situation: 'id written 770.0', request: () => ({ body: '{"id":770.0,"name":"a"}' }), status: 200 },
  { situation: 'id written 1e2', request: () => ({ body: '{"id":1e2,"name":"a"}' }), status: 200 },
  {
    situation: 'lowercase bearer scheme',
    request: () => ({ auth: `bearer ${TOKEN}`, body: `{"id":${freshId()},"name":"a"}` }),
    status: 200,
  },
  {
    situation: 'extra properties, __proto__ key',
    request: () => ({ body: `{"id":${freshId()},"name":"a","__proto__":{"x":1},"constructor":[]}` }),
    status: 200,
  },
  {
    situation: 'Content-Type with charset',
    request: () => ({
      headers: { 'content-type': 'Application/JSON; charset=UTF-8' },
      body: `{"id":${freshId()},"name":"a"}`,
    }),
    status: 200,
  },
  {
    situation: 'malformed JSON',
    request: () => ({ body: '{"id": 1,' }),
    status: 400,
    code: PROBLEMS.malformedJson.code,
  },
  {
    situation: 'body not UTF-8',
    request: () => ({ body: Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]) }),
    status: 400,
    code: PROBLEMS.malformedJson.code,
  },
  {
    situation: 'duplicate key with different values',
    request: () => ({ body: '{"id":1,"id":2,"name":"a"}' }),
    status: 400,
    code: PROBLEMS.malformedJson.code,
  },
  { situation: 'empty body', request: () => ({ body: '' }), status: 400, code: PROBLEMS.emptyBody.code },
  {
    situation: 'Content-Type text/plain',
    request: () => ({ headers: { 'content-type': 'text/plain' }, body: '{"id":1,"name":"a"}' }),
    status: 400,
    code: PROBLEMS.unsupportedMediaType.code,
  },
  {
    situation: 'charset other than UTF-8',
    request: () => ({ headers: { 'content-type': 'application/json; charset=latin1' }, body: '{"id":1,"name":"a"}' }),
    status: 400,
    code: PROBLEMS.unsupportedMediaType.code,
  },
  { situation: 'body is an array', request: () => ({ body: '[]' }), status: 400, code: PROBLEMS.notAnObject.code },
  { situation: 'id missing', request: () => ({ body: '{"name":"a"}' }), status: 400, code: PROBLEMS.missingField.code },
  { situation: 'name missing', request: () => ({ body: '{"id":1}' }), status: 400, code: PROBLEMS.missingField.code },
  {
    situation: 'id as a string',
    request: () => ({ body: '{"id":"1","name":"a"}' }),
    status: 400,
    code: PROBLEMS.wrongType.code,
  },
  {
    situation: 'tag null',
    request: () => ({ body: '{"id":1,"name":"a","tag":null}' }),
    status: 400,
    code: PROBLEMS.wrongType.code,
  },
  {
    situation: 'id 9223372036854775808 (one past max)',
    request: () => ({ body: '{"id":9223372036854775808,"name":"a"}' }),
    status: 400,
    code: PROBLEMS.invalidInteger.code,
  },
  {
    situation: 'id 1.5',
    request: () => ({ body: '{"id":1.5,"name":"a"}' }),
    status: 400,
    code: PROBLEMS.invalidInteger.code,
  },
  {
    situation: 'nesting 100,000 deep',
    request: () => ({ body: `{"id":1,"name":"a","x":${'['.repeat(20_000)}${']'.repeat(20_000)}}` }),
    status: 400,
    code: PROBLEMS.tooDeep.code,
  },
  {
    situation: 'body over the limit',
    request: () => ({ body: `{"id":1,"name":"${'a'.repeat(70 * 1024)}"}` }),
    status: 400,
    code: PROBLEMS.bodyTooLarge.code,
  },
  {
    situation: 'repeated id',
    request: () => ({ body: '{"id":9223372036854775807,"name":"again"}' }),
    status: 400,
    code: PROBLEMS.duplicateId.code,
  },
  {
    situation: 'no Authorization',
    request: () => ({ auth: null, body: '{"id":1,"name":"a"}' }),
    status: 401,
    code: PROBLEMS.missingCredentials.code,
    header: ['www-authenticate', /^Bearer/],
  },
  {
    situation: 'Basic scheme',
    request: () => ({ auth: 'Basic dXNlcjpwYXNz', body: '{"id":1,"name":"a"}' }),
    status: 401,
    code: PROBLEMS.malformedCredentials.code,
    header: ['www-authenticate', /^Bearer/],
  },
  {
    situation: 'empty bearer token',
    request: () => ({ auth: 'Bearer ', body: '{"id":1,"name":"a"}' }),
    status: 401,
    code: PROBLEMS.malformedCredentials.code,
  },
  {
    situation: 'unknown token',
    request: () => ({ auth: 'Bearer not-the-token', body: '{"id":1,"name":"a"}' }),
    status: 401,
    code: PROBLEMS.unknownToken.code,
    header: ['www-authenticate', /invalid_token/],
  },
  { situation: 'other path', request: () => ({ path: '/pets' }), status: 404, code: PROBLEMS.notFound.code },
  {
    situation: 'GET /plants',
    request: () => ({ method: 'GET' }),
    status: 405,
    code: PROBLEMS.methodNotAllowed.code,
    header: ['allow', /^POST$/],
  },
];

describe('behaviour table', () => {
  for (const row of BEHAVIOUR) {
    it(`${row.situation} → ${row.status}${row.code ? ` error ${row.code}` : ''}`, async () => {
      const answer = await send(row.request());
      expect(answer.status).toBe(row.status);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      const body = JSON.parse(answer.body) as Record<string, unknown>;
      if (row.code !== undefined) {
        expect(body.error).toBe(row.code);
        expect(typeof body.message).toBe('string');
      }
      if (row.header) expect(answer.headers[row.header[0]]).toMatch(row.header[1]);
    });
  }

  it('names the field and the problem in the message', async () => {
    const answer = await send({ body: '{"id":"7","name":"a"}' });
    expect(JSON.parse(answer.body)).toMatchObject({
      message: expect.stringMatching(/"id".*integer.*string/) as unknown,
    });
  });

  it('answers normally after hostile requests', async () => {
    await send({ body: '{"id":' + '9'.repeat(10_000) + ',"name":"a"}' });
    const answer = await send({ body: `{"id":${freshId()},"name":"still fine"}` });
    expect(answer).toMatchObject({ status: 200, body: '{"name":"still fine"}' });
  });
});

describe('properties', () => {
  let fresh: ReferenceServer;
  beforeAll(async () => {
    fresh = await createReferenceServer({ tokens: [TOKEN] });
  });
  afterAll(() => fresh.close());
  const sendFresh = (body: string): Promise<Answer> => send({ body, base: fresh.url });
  const wellFormed = fc.string({ unit: 'grapheme', maxLength: 40 });
  const contract = loadContract();

  it('answers every valid NewPlant across the int64 range and Unicode with 200 and an exact echo', async () => {
    const seen = new Set<bigint>();
    await fc.assert(
      fc.asyncProperty(
        fc.bigInt(-(2n ** 63n), 2n ** 63n - 1n).filter((id) => !seen.has(id)),
        wellFormed,
        fc.option(wellFormed, { nil: undefined }),
        async (id, name, tag) => {
          seen.add(id);
          const plant = tag === undefined ? { id, name } : { id, name, tag };
          const answer = await sendFresh(stringifyExactJson(plant));
          expect(answer.status).toBe(200);
          const echoed = JSON.parse(answer.body) as Record<string, unknown>;
          expect(echoed).toEqual(tag === undefined ? { name } : { name, tag });
          expect((await contract).check.plant(parseExactJson(answer.body))).toEqual([]);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('answers every invalid body with 400 and a schema-valid Error', async () => {
    const check = (await contract).check.error;
    const wrongValue = fc.oneof(
      fc.constant(null),
      fc.boolean(),
      fc.string(),
      fc.double(),
      fc.array(fc.nat()),
      fc.object(),
    );
    const notString = wrongValue.filter((v) => typeof v !== 'string');
    const invalidBody = fc.oneof(
      fc.record({ name: fc.string() }).map((o) => JSON.stringify(o)),
      fc.record({ id: fc.nat() }).map((o) => JSON.stringify(o)),
      fc.tuple(fc.nat(), notString).map(([id, name]) => JSON.stringify({ id, name })),
      fc
        .tuple(
          wrongValue.filter((v) => typeof v !== 'number'),
          fc.string(),
        )
        .map(([id, name]) => JSON.stringify({ id, name })),
      fc
        .double({ noInteger: true, noNaN: true, noDefaultInfinity: true })
        .map((id) => `{"id":${String(id)},"name":"a"}`),
      fc.bigInt(2n ** 63n, 2n ** 70n).map((id) => `{"id":${id},"name":"a"}`),
      fc.bigInt(-(2n ** 70n), -(2n ** 63n) - 1n).map((id) => `{"id":${id},"name":"a"}`),
      fc.string().filter((text) => {
        try {
          JSON.parse(text);
          return false;
        } catch {
          return true;
        }
      }),
      fc
        .jsonValue()
        .filter((v) => v === null || typeof v !== 'object' || Array.isArray(v))
        .map((v) => JSON.stringify(v)),
    );
    await fc.assert(
      fc.asyncProperty(invalidBody, async (body) => {
        const answer = await sendFresh(body);
        expect(answer.status).toBe(400);
        expect(check(parseExactJson(answer.body))).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});
