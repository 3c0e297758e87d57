import fc from 'fast-check';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { ContractError, loadContract, parseExactJson, stringifyExactJson, type Contract } from '../contract/index.js';
import { exactJsonText, readNewPlantBody, type AcceptedNewPlant } from '../contract/new-plant-request.js';
import { serveContract } from './served-contract.js';
import { TEST_DOCUMENTS } from './spec-following.case.js';
import { validSamples } from './valid-samples.js';

const utf8 = new TextEncoder();

function accept(contract: Contract, text: string): AcceptedNewPlant {
  const read = readNewPlantBody(contract.check.newPlant, utf8.encode(text));
  if (!read.ok) throw new Error(read.problem.message);
  return read;
}

describe('the Plant projection of the seed document', () => {
  it('is name and tag in the Plant schema order, exactly as sent, id left out', async () => {
    const contract = await loadContract();
    const served = serveContract(contract, validSamples(contract));
    expect(served.plantBody(accept(contract, '{"tag":"t\\u00e9 ","id":7,"name":" F"}'))).toBe(
      '{"name":" F","tag":"té "}',
    );
    expect(served.plantBody(accept(contract, '{"id":9223372036854775807,"name":"F","x":1}'))).toBe('{"name":"F"}');
    expect(served.errorBody({ code: 1005, message: 'm' })).toBe('{"error":1005,"message":"m"}');
  });

  it("writes an Error whose error enumerates texts (gRPC's INVALID_ARGUMENT) with the one naming the status", async () => {
    // Before, validate, serve and mock refused such a document ('field "error" must be a string, got a number').
    const contract = await loadContract(
      fileURLToPath(new URL('./test-documents/error-code-enum-3.1.yaml', import.meta.url)),
    );
    const served = serveContract(contract, validSamples(contract));
    expect(served.errorBody({ code: 1011, message: 'm' })).toBe('{"error":"INVALID_ARGUMENT","message":"m"}');
    expect(served.errorBody({ code: 1001, message: 'm' }, 401)).toBe('{"error":"UNAUTHENTICATED","message":"m"}');
  });
});

describe('the labels of the answers', () => {
  it("are the document's media types for the Plant and the Error, plain JSON saying UTF-8", async () => {
    const seed = await loadContract();
    const served = serveContract(seed, validSamples(seed));
    expect([served.plantContentType, served.errorContentType]).toEqual([
      'application/json; charset=utf-8',
      'application/json; charset=utf-8',
    ]);
    const problems = { ...seed, mediaTypes: { ...seed.mediaTypes, error: 'application/problem+json' } };
    const vendor = serveContract(problems, validSamples(problems));
    expect([vendor.plantContentType, vendor.errorContentType]).toEqual([
      'application/json; charset=utf-8',
      'application/problem+json',
    ]);
    // Goa's refusals, documented with no JSON type (so with no Error schema), keep their label; a range is JSON.
    const goa = { ...seed, mediaTypes: { ...seed.mediaTypes, error: 'application/vnd.goa.error' } };
    expect(serveContract(goa, validSamples(goa)).errorContentType).toBe('application/vnd.goa.error');
    const range = { ...seed, mediaTypes: { ...seed.mediaTypes, error: '*/*' } };
    expect(serveContract(range, validSamples(range)).errorContentType).toBe('application/json; charset=utf-8');
  });
});

describe('the Plant projection of a constrained document', () => {
  let contract: Contract;
  beforeAll(async () => {
    contract = await loadContract(TEST_DOCUMENTS.constrained);
  });

  it('echoes every Plant property sent exactly, fills the required ones not sent, and is a valid Plant', () => {
    const served = serveContract(contract, validSamples(contract));
    const plantProperties = ['id', 'name', 'tag', 'care', 'labels', 'potted', 'createdAt'];
    fc.assert(
      fc.property(contract.compiled.newPlant.valid, (plant) => {
        const text = stringifyExactJson(plant);
        const sent = parseExactJson(text) as Record<string, unknown>;
        const answer = parseExactJson(served.plantBody(accept(contract, text))) as Record<string, unknown>;
        expect(contract.check.plant(answer)).toEqual([]);
        for (const name of plantProperties.filter((p) => p in sent)) {
          expect(exactJsonText(answer, name)).toBe(exactJsonText(sent, name));
        }
        expect(Object.keys(answer).every((name) => name in sent || name === 'createdAt')).toBe(true);
      }),
      { numRuns: 200, seed: 7 },
    );
  });

  it('writes Errors with the required code the document adds, from its enum', () => {
    const served = serveContract(contract, validSamples(contract));
    const body = parseExactJson(served.errorBody({ code: 1011, message: 'Invalid NewPlant.' }));
    expect(contract.check.error(body)).toEqual([]);
    expect(body).toMatchObject({ error: 1011, message: 'Invalid NewPlant.' });
  });

  it('names the operations the document declares besides POST /plants', () => {
    expect(serveContract(contract, validSamples(contract)).notServed).toEqual(['GET /plants', 'DELETE /plants/{id}']);
  });
});

describe('the Plant projection of a document whose NewPlant gives defaults', () => {
  it('fills a required Plant property the request left out with the NewPlant default it means', async () => {
    const contract = await loadContract(
      fileURLToPath(new URL('../fixtures/documents/reduced/request-defaults-3.1.yaml', import.meta.url)),
    );
    const served = serveContract(contract, validSamples(contract));
    expect(served.plantBody(accept(contract, '{"id":7,"name":"Fern"}'))).toBe(
      '{"name":"Fern","source":"nursery","quantity":1}',
    );
    expect(served.plantBody(accept(contract, '{"id":8,"name":"Fern","source":"seed","quantity":3}'))).toBe(
      '{"name":"Fern","source":"seed","quantity":3}',
    );
  });
});

describe('the Plant members filled from the document', () => {
  it("keeps the digits of a default or example beyond 2^53 (the parsers' doubles round them)", async () => {
    // Before, `example: 9007199254740993` was read as the double 9007199254740992, which its `minimum` refuses,
    // so the fill fell back to a generated value; a `const` default came out as 9223372036854775808.
    const contract = await loadContract(
      fileURLToPath(new URL('./test-documents/long-integer-annotations-3.1.yaml', import.meta.url)),
    );
    const served = serveContract(contract, validSamples(contract));
    expect(served.plantBody(accept(contract, '{"id":7,"name":"Fern"}'))).toBe(
      '{"name":"Fern","batch":9007199254740993,"lot":9223372036854775807}',
    );
  });
});

describe('the Plant projection of a value the Plant types otherwise', () => {
  it("writes a number sent where the Plant takes a string as that string (pydantic's Decimal), as written", async () => {
    // Before: serve and mock echoed 0 where FastAPI's Plant takes only a string, and test faulted their answers.
    const contract = await loadContract(
      fileURLToPath(new URL('../fixtures/documents/reduced/fastapi-decimal-3.1.json', import.meta.url)),
    );
    const served = serveContract(contract, validSamples(contract));
    const body = (text: string): Record<string, unknown> =>
      JSON.parse(served.plantBody(accept(contract, text))) as Record<string, unknown>;
    expect(body('{"id":7,"name":"Fern","price":12.50}').price).toBe('12.50');
    expect(body('{"id":7,"name":"Fern","price":0}').price).toBe('0');
    expect(body('{"id":7,"name":"Fern","price":"3.10"}').price).toBe('3.10');
    expect(body('{"id":7,"name":"Fern","price":null}').price).toBeNull();
    const answer = served.plantBody(accept(contract, '{"id":7,"name":"Fern","price":1e2}'));
    expect(contract.check.plant(JSON.parse(answer))).toEqual([]);
  });
});

describe('the Plant projection of an id the Plant bounds otherwise', () => {
  it('echoes an id beyond 2^53 the Plant takes, judged by its text (it was left out as refused)', async () => {
    const contract = await loadContract(
      fileURLToPath(new URL('./test-documents/plant-id-minimum-3.0.yaml', import.meta.url)),
    );
    const served = serveContract(contract, validSamples(contract));
    const answer = served.plantBody(accept(contract, '{"id":9223372036854775807,"name":"o"}'));
    expect(answer).toContain('"id":9223372036854775807');
    expect(contract.check.plant(parseExactJson(answer))).toEqual([]);
  });

  it('answers an id sent that the Plant refuses (0 under its minimum 1) with a valid one, never outside the document', async () => {
    // Before: the id was left out, and the Plant requires it: serve and mock answered '{"name":"o"}'.
    const contract = await loadContract(
      fileURLToPath(new URL('./test-documents/plant-id-minimum-3.0.yaml', import.meta.url)),
    );
    const served = serveContract(contract, validSamples(contract));
    for (const sent of ['{"id":0,"name":"o"}', '{"id":-9223372036854775808,"name":"o"}']) {
      const answer = served.plantBody(accept(contract, sent));
      expect(answer).toMatch(/^\{"id":[1-9]\d*,"name":"o"\}$/);
      expect(contract.check.plant(parseExactJson(answer))).toEqual([]);
    }
    expect(served.plantBody(accept(contract, '{"id":1,"name":"o"}'))).toBe('{"id":1,"name":"o"}');
  });
});

describe('the Plant projection of a null sent', () => {
  it('leaves out a null the Plant refuses (a nullable NewPlant tag, a plain Plant tag) and echoes one it takes', async () => {
    const requestOnly = await loadContract(
      fileURLToPath(new URL('../fixtures/documents/reduced/nullable-request-only-3.0.yaml', import.meta.url)),
    );
    const served = serveContract(requestOnly, validSamples(requestOnly));
    expect(served.plantBody(accept(requestOnly, '{"id":7,"name":"Fern","tag":null}'))).toBe('{"name":"Fern"}');
    const nullable = await loadContract(
      fileURLToPath(new URL('../fixtures/documents/08-nullable-3.0.yaml', import.meta.url)),
    );
    const echoing = serveContract(nullable, validSamples(nullable));
    expect(echoing.plantBody(accept(nullable, '{"id":7,"name":"Fern","tag":null}'))).toContain('"tag":null');
  });
});

describe('the request media type', () => {
  it('is application/json for the seed, and the JSON type a document declares instead', async () => {
    const seed = await loadContract();
    expect(serveContract(seed, validSamples(seed)).mediaType).toBe('application/json');
    const vendor = await loadContract(TEST_DOCUMENTS.vendorMediaType);
    expect(serveContract(vendor, validSamples(vendor)).mediaType).toBe('application/vnd.plant+json');
  });
});

describe("a document whose Error schema refuses plantstore's Error bodies", () => {
  it('is refused at startup, naming the Error schema and the rule', async () => {
    const contract = await loadContract(TEST_DOCUMENTS.errorRefuses);
    expect(() => serveContract(contract, validSamples(contract))).toThrow(ContractError);
    expect(() => serveContract(contract, validSamples(contract))).toThrow(/Error schema.*message/);
  });
});

describe('an Error whose `error` enumerates HTTP statuses (ogen, oapi-codegen)', () => {
  it('is served: error the status of the answer (the refusal status where that is not listed), a valid Error', async () => {
    const contract = await loadContract(
      fileURLToPath(new URL('../fixtures/documents/reduced/error-status-enum-3.0.yaml', import.meta.url)),
    );
    // Before: ContractError 'field "error" must be equal to one of the allowed values'.
    const served = serveContract(contract, validSamples(contract));
    const refusal = served.errorBody({ code: 1005, message: 'Invalid NewPlant: field "id" is required but missing.' });
    expect(JSON.parse(refusal)).toMatchObject({
      error: 400,
      message: 'Invalid NewPlant: field "id" is required but missing.',
    });
    expect(contract.check.error(parseExactJson(refusal))).toEqual([]);
    const unauthorized = served.errorBody({ code: 2001, message: 'm' }, 401);
    expect(JSON.parse(unauthorized)).toMatchObject({ error: 401 });
    expect(contract.check.error(parseExactJson(unauthorized))).toEqual([]);
    const unlisted = served.errorBody({ code: 1002, message: 'm' }, 413);
    expect(contract.check.error(parseExactJson(unlisted))).toEqual([]);
  });
});

describe("a NestJS document's Error: {statusCode, message, error: the reason phrase}", () => {
  it('is served: statusCode the status, error the reason phrase, message the sentence', async () => {
    const contract = await loadContract(
      fileURLToPath(new URL('../fixtures/documents/reduced/nestjs-http-error-3.0.json', import.meta.url)),
    );
    // Before: ContractError 'field "error" must be a string, got a number'.
    const served = serveContract(contract, validSamples(contract));
    const body = served.errorBody({ code: 1005, message: 'Invalid NewPlant: field "id" is required but missing.' });
    expect(JSON.parse(body)).toEqual({
      statusCode: 400,
      message: 'Invalid NewPlant: field "id" is required but missing.',
      error: 'Bad Request',
    });
    expect(contract.check.error(parseExactJson(body))).toEqual([]);
    expect(JSON.parse(served.errorBody({ code: 2001, message: 'm' }, 401))).toMatchObject({
      statusCode: 401,
      error: 'Unauthorized',
    });
  });
});

describe('an Error whose message is no free sentence', () => {
  const reduced = (name: string) => fileURLToPath(new URL(`../fixtures/documents/reduced/${name}`, import.meta.url));

  it("is served with the text tsoa's ValidateErrorJSON lists there (message: enum [Validation failed])", async () => {
    // Before: ContractError 'field "message" must be equal to one of the allowed values'.
    const contract = await loadContract(reduced('tsoa-validate-error-3.0.json'));
    const body = serveContract(contract, validSamples(contract)).errorBody({ code: 1005, message: 'Invalid.' });
    expect(JSON.parse(body)).toMatchObject({ message: 'Validation failed', details: {} });
    expect(contract.check.error(parseExactJson(body))).toEqual([]);
  });

  it("is served as a list of the sentence in a DRF map of lists ({field: [msg]}), without the contract's error code", async () => {
    // Before: ContractError 'field "error" must be an array, got a number'.
    const contract = await loadContract(reduced('drf-error-map-3.0.yaml'));
    const body = serveContract(contract, validSamples(contract)).errorBody({ code: 1005, message: 'Invalid.' });
    expect(JSON.parse(body)).toEqual({ message: ['Invalid.'] });
    expect(contract.check.error(parseExactJson(body))).toEqual([]);
  });
});

describe("FastAPI's HTTPValidationError", () => {
  it('carries the refusal as FastAPI does: detail, a list of {loc, msg, type} naming the field', async () => {
    const contract = await loadContract(
      fileURLToPath(new URL('./test-documents/fastapi-generated-3.0.json', import.meta.url)),
    );
    const served = serveContract(contract, validSamples(contract));
    const message = 'Invalid NewPlant: field "name" is required but missing.';
    const body = JSON.parse(served.errorBody({ code: 1005, message })) as Record<string, unknown>;
    // Before: {"error":1005,"message":…} alone, which a client reading detail[0].msg shows as nothing.
    expect(body.detail).toEqual([{ loc: ['body', 'name'], msg: message, type: 'missing' }]);
    expect(body).toMatchObject({ error: 1005, message });
    expect(contract.check.error(parseExactJson(JSON.stringify(body)))).toEqual([]);
    const malformed: unknown = JSON.parse(
      served.errorBody({ code: 1001, message: 'The request body is not valid JSON.' }),
    );
    expect(malformed).toMatchObject({ detail: [{ loc: ['body'], type: 'json_invalid' }] });
  });
});
