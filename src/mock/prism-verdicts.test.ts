import { createRequire } from 'node:module';
import { getHttpOperationsFromSpec, type PrismHttpComponents } from '@stoplight/prism-http';
import type { IHttpOperation } from '@stoplight/types';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadContract, type Contract } from '../contract/index.js';
import {
  inputVerdictKey,
  isShapeOnlySchema,
  memoizedInputValidation,
  memoizedSecurityCheck,
  memoizedValidator,
  securityVerdictKey,
} from './prism-verdicts.js';

type Validator = PrismHttpComponents['validateInput'];
type Element = Parameters<Validator>[0]['element'];

const prism = createRequire(import.meta.url)('@stoplight/prism-http/dist/validator/index.js') as {
  validateInput: Validator;
};

let contract: Contract;
let operation: IHttpOperation;

async function operationOf(document: object): Promise<IHttpOperation> {
  const [found] = await getHttpOperationsFromSpec(structuredClone(document));
  if (!found) throw new Error('no operation');
  return found;
}

function request(body: unknown, authorization = 'Bearer secret-token'): Element {
  return {
    method: 'post',
    url: { path: '/plants' },
    headers: { 'content-type': 'application/json', authorization },
    body,
  };
}

/** Prism's own request validation, counting how often it is really asked. */
function countedPrism(): { validate: Validator; calls: () => number } {
  let calls = 0;
  return {
    validate: (options) => {
      calls++;
      return prism.validateInput(options);
    },
    calls: () => calls,
  };
}

function messages(verdict: ReturnType<Validator>): string {
  return verdict._tag === 'Left' ? verdict.left.map((diagnostic) => diagnostic.message).join('; ') : '';
}

beforeAll(async () => {
  contract = await loadContract();
  operation = await operationOf(contract.document);
});

describe('memoised request validation', () => {
  it('asks Prism once per body shape and answers later requests of that shape with their own element', () => {
    const prismCalls = countedPrism();
    const validate = memoizedValidator(prismCalls.validate, inputVerdictKey);
    const first = request({ id: 1, name: 'Fern' });
    const second = request({ id: 2, name: 'Ivy' });
    expect(validate({ resource: operation, element: first })).toEqual({ _tag: 'Right', right: first });
    expect(validate({ resource: operation, element: second })).toEqual({ _tag: 'Right', right: second });
    expect(prismCalls.calls()).toBe(1);
  });

  it('takes the verdict for a new body shape from Prism', () => {
    const prismCalls = countedPrism();
    const validate = memoizedValidator(prismCalls.validate, inputVerdictKey);
    validate({ resource: operation, element: request({ id: 1, name: 'Fern' }) });
    const tagged = validate({ resource: operation, element: request({ id: 1, name: 'Fern', tag: 'fern' }) });
    expect(tagged._tag).toBe('Right');
    expect(prismCalls.calls()).toBe(2);
  });

  it('never serves an invalid shape from a valid entry', () => {
    const validate = memoizedInputValidation();
    expect(validate({ resource: operation, element: request({ id: 1, name: 'Fern' }) })._tag).toBe('Right');
    expect(messages(validate({ resource: operation, element: request({ id: 1 }) }))).toMatch(/name/);
    expect(messages(validate({ resource: operation, element: request({ id: 1, name: 7 }) }))).toMatch(/string/);
    expect(messages(validate({ resource: operation, element: request({ id: '1', name: 'Fern' }) }))).toMatch(/integer/);
  });

  it('lets Prism judge every body whose verdict could depend on a value', () => {
    const prismCalls = countedPrism();
    const validate = memoizedValidator(prismCalls.validate, inputVerdictKey);
    for (const id of [1.5, 2 ** 60, 1.5]) validate({ resource: operation, element: request({ id, name: 'Fern' }) });
    validate({ resource: operation, element: request({ id: 1, name: 'Fern', tag: { nested: true } }) });
    validate({ resource: operation, element: request({ id: 1, name: 'Fern', tag: { nested: true } }) });
    expect(prismCalls.calls()).toBe(5);
  });

  it('stands aside when the schema constrains values: a long name is judged after a short one passed', async () => {
    const document = structuredClone(contract.document) as {
      components: { schemas: { Plant: { properties: { name: Record<string, unknown> } } } };
    };
    document.components.schemas.Plant.properties.name.maxLength = 5;
    const strict = await operationOf(document);
    expect(inputVerdictKey(strict, request({ id: 1, name: 'Fern' }))).toBeUndefined();
    const validate = memoizedInputValidation();
    expect(validate({ resource: strict, element: request({ id: 1, name: 'Fern' }) })._tag).toBe('Right');
    expect(messages(validate({ resource: strict, element: request({ id: 1, name: 'Monstera' }) }))).toMatch(/name/);
  });

  it('keeps at most its limit of verdicts per operation, forgetting the oldest first', () => {
    const prismCalls = countedPrism();
    const validate = memoizedValidator(prismCalls.validate, inputVerdictKey, 2);
    const shapes = [{ id: 1, name: 'a' }, { id: 1, name: 'a', tag: 't' }, { id: 1 }];
    for (const body of shapes) validate({ resource: operation, element: request(body) });
    validate({ resource: operation, element: request(shapes[2]) });
    expect(prismCalls.calls()).toBe(3);
    validate({ resource: operation, element: request(shapes[0]) });
    expect(prismCalls.calls()).toBe(4);
  });
});

describe('which schemas judge by shape alone', () => {
  it("accepts the contract's NewPlant as Prism reads it (types, presence, int64 within ±(2^53-1))", () => {
    expect(operation.request?.body?.contents?.every((content) => isShapeOnlySchema(content.schema))).toBe(true);
  });

  it.each([
    { type: 'string', maxLength: 3 },
    { type: 'string', enum: ['a'] },
    { type: 'string', pattern: '^a' },
    { type: 'string', format: 'email' },
    { type: 'integer', minimum: 0 },
    { type: 'integer', format: 'int32' },
    { properties: { id: { $ref: '#/x' } } },
    { allOf: [{ type: 'object' }, { const: 1 }] },
  ])('refuses %j', (schema) => {
    expect(isShapeOnlySchema(schema)).toBe(false);
  });
});

describe('memoised security check', () => {
  it('keys a bearer header by its scheme word, never by its credentials', () => {
    const key = securityVerdictKey(operation, request({}, 'Bearer secret-token'));
    expect(key).toBe(securityVerdictKey(operation, request({}, 'Bearer other')));
    expect(key).not.toContain('secret');
    expect(securityVerdictKey(operation, request({}, 'bearer secret-token'))).not.toBe(key);
  });

  it('gives each header form the verdict Prism gives it', () => {
    const check = memoizedSecurityCheck();
    const verdict = (authorization: string): string =>
      check({ resource: operation, element: request({}, authorization) })._tag;
    expect([
      verdict('Bearer a'),
      verdict('Bearer b'),
      verdict('Basic a'),
      verdict('Bearer'),
      verdict('Bearer c'),
    ]).toEqual(['Right', 'Right', 'Left', 'Left', 'Right']);
  });

  it('lets Prism judge operations with other schemes', async () => {
    const document = structuredClone(contract.document) as {
      components: { securitySchemes: { bearerAuth: Record<string, unknown> } };
    };
    document.components.securitySchemes.bearerAuth = { type: 'http', scheme: 'basic' };
    const basic = await operationOf(document);
    expect(securityVerdictKey(basic, request({}, 'Basic a'))).toBeUndefined();
  });
});
