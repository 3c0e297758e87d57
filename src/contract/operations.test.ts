import { describe, expect, it } from 'vitest';
import { findOperation, listOperations, summariseList } from './operations.js';

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

describe('summariseList', () => {
  it('joins with "and" and counts what it leaves out', () => {
    expect(summariseList(['a'], 3)).toBe('a');
    expect(summariseList(['a', 'b', 'c'], 3)).toBe('a, b and c');
    expect(summariseList(['a', 'b', 'c', 'd', 'e'], 3)).toBe('a, b, c and 2 more');
  });
});
