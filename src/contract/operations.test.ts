import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  documentedResponse,
  findOperation,
  listOperations,
  PATH_ITEM_METHODS,
  plantsPathOf,
  responseKeyFor,
  summariseList,
} from './operations.js';

const document = {
  paths: {
    '/plants/{id}': { get: {}, delete: {}, parameters: [] },
    '/plants': { post: {}, get: {}, summary: 'not an operation' },
    '/a': { trace: {}, put: {} },
  },
  webhooks: { plantAdded: { post: {} }, audit: { put: {}, get: {} } },
};

describe('listOperations', () => {
  it('lists every other operation by path then method, then webhooks by name', () => {
    expect(listOperations(document, { path: '/plants', method: 'post' })).toEqual([
      'PUT /a',
      'TRACE /a',
      'GET /plants',
      'GET /plants/{id}',
      'DELETE /plants/{id}',
      'webhook audit (GET)',
      'webhook audit (PUT)',
      'webhook plantAdded (POST)',
    ]);
  });

  it('lists the callbacks of every operation, the tested one included, after the webhooks', () => {
    const onAdded = { '{$request.body#/callbackUrl}': { post: {}, put: {} } };
    const withCallbacks = {
      paths: {
        '/plants': { post: { callbacks: { onAdded } }, get: { callbacks: { onAdded, audit: { x: { get: {} } } } } },
      },
      webhooks: { zebra: { post: {} } },
    };
    expect(listOperations(withCallbacks, { path: '/plants', method: 'post' })).toEqual([
      'GET /plants',
      'webhook zebra (POST)',
      'callback audit (GET)',
      'callback onAdded (POST)',
      'callback onAdded (PUT)',
    ]);
  });

  it('is empty for a document with only the tested operation', () => {
    expect(listOperations({ paths: { '/plants': { post: {} } } }, { path: '/plants', method: 'post' })).toEqual([]);
  });
});

describe('findOperation', () => {
  it('finds POST /plants with its pointer', () => {
    expect(findOperation(document, '/plants', 'post')).toEqual({ found: {}, pointer: '/paths/~1plants/post' });
  });

  it('says the path has no post and what the document declares instead', () => {
    const result = findOperation({ paths: { '/plants': { get: {} } } }, '/plants', 'post');
    expect(result).toEqual({
      missing:
        'The document has no POST /plants operation, the one plantstore tests (paths → /plants has no post; it declares GET /plants).',
    });
  });

  it('says when the path is absent and the document declares no operation', () => {
    expect(findOperation({ paths: {} }, '/plants', 'post')).toEqual({
      missing:
        'The document has no POST /plants operation, the one plantstore tests (paths has no /plants; it declares no operation at all).',
    });
  });
});

describe('plantsPathOf', () => {
  const post = { post: { responses: {} } };
  it('is /plants when the document has it, else the one POST path below a fixed prefix', () => {
    expect(plantsPathOf({ paths: { '/plants': post, '/api/plants': post } })).toBe('/plants');
    expect(plantsPathOf({ paths: { '/api/v1/plants': post, '/api/v1/plants/{id}': post } })).toBe('/api/v1/plants');
  });

  it('is the path with its trailing slash when only it declares POST, below a prefix too; /plants when both do', () => {
    expect(plantsPathOf({ paths: { '/plants/': post } })).toBe('/plants/');
    expect(plantsPathOf({ paths: { '/plants': { get: { responses: {} } }, '/plants/': post } })).toBe('/plants/');
    expect(plantsPathOf({ paths: { '/api/plants/': post } })).toBe('/api/plants/');
    expect(plantsPathOf({ paths: { '/plants': post, '/plants/': post } })).toBe('/plants');
  });

  it('is /plants (so missing, and named) for two such paths, a templated prefix or no POST', () => {
    expect(plantsPathOf({ paths: { '/v1/plants': post, '/v2/plants': post } })).toBe('/plants');
    expect(plantsPathOf({ paths: { '/{tenant}/plants': post } })).toBe('/plants');
    expect(plantsPathOf({ paths: { '/api/plants': { get: { responses: {} } } } })).toBe('/plants');
  });
});

describe('responseKeyFor', () => {
  it('takes the status, else its range, else default, in that order whatever the keys order', () => {
    const keys = ['default', '4XX', '404', '200'];
    expect(responseKeyFor(keys, 404)).toBe('404');
    expect(responseKeyFor(keys, 409)).toBe('4XX');
    expect(responseKeyFor(keys, 500)).toBe('default');
    expect(responseKeyFor(['200'], 500)).toBeUndefined();
  });

  it('reads a range only as OpenAPI writes it, upper-case', () => {
    expect(responseKeyFor(['4xx', 'default'], 422)).toBe('default');
    expect(responseKeyFor(['2XX', '4XXX', 'x4XX'], 422)).toBeUndefined();
  });
});

describe('documentedResponse', () => {
  it('is the response object of the key that answers the status, a lower-case range included', () => {
    const problem = { description: 'a problem' };
    const operation = {
      responses: { '200': { description: 'ok' }, '4XX': problem, default: { description: 'other' } },
    };
    expect(documentedResponse(operation, 404)).toBe(problem);
    expect(documentedResponse(operation, 500)).toEqual({ description: 'other' });
  });

  it('passes over a key whose response is no object, and an operation without responses', () => {
    expect(documentedResponse({ responses: { '404': null, default: { description: 'd' } } }, 404)).toEqual({
      description: 'd',
    });
    expect(documentedResponse({}, 200)).toBeUndefined();
  });
});

describe('summariseList', () => {
  it('joins with "and" and counts what it leaves out', () => {
    expect(summariseList(['a'], 3)).toBe('a');
    expect(summariseList(['a', 'b', 'c'], 3)).toBe('a, b and c');
    expect(summariseList(['a', 'b', 'c', 'd', 'e'], 3)).toBe('a, b, c and 2 more');
  });
});

describe('listOperations, as a law', () => {
  const methods = fc.subarray([...PATH_ITEM_METHODS]);
  const pathItems = fc.dictionary(
    fc.constantFrom('/plants', '/plants/{id}', '/a', '/B', '/plants/'),
    methods.map((chosen) => Object.fromEntries(chosen.map((method) => [method, {}]))),
  );
  const webhooks = fc.dictionary(
    fc.string({ minLength: 1, maxLength: 4 }),
    methods.map((chosen) => Object.fromEntries(chosen.map((method) => [method, {}]))),
    { maxKeys: 3 },
  );

  it('names each declared operation once, never POST /plants, in a stable sorted order', () => {
    fc.assert(
      fc.property(pathItems, webhooks, (paths, hooks) => {
        const listed = listOperations({ paths, webhooks: hooks }, { path: '/plants', method: 'post' });
        const declared = Object.entries(paths).flatMap(([path, item]) =>
          Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
        );
        const hooked = Object.entries(hooks).flatMap(([name, item]) =>
          Object.keys(item).map((method) => `webhook ${name} (${method.toUpperCase()})`),
        );
        expect([...listed].sort()).toEqual([...declared.filter((name) => name !== 'POST /plants'), ...hooked].sort());
        const reversed = { paths: Object.fromEntries(Object.entries(paths).reverse()), webhooks: hooks };
        expect(listOperations(reversed, { path: '/plants', method: 'post' })).toEqual(listed);
        const operations = listed.filter((name) => !name.startsWith('webhook '));
        expect(listed.slice(0, operations.length)).toEqual(operations);
      }),
      { numRuns: 200, seed: 5 },
    );
  });
});
