import { describe, expect, it } from 'vitest';
import { condenseSchemaErrors } from './schema-error-problems.js';

describe('condenseSchemaErrors', () => {
  it('says why a media type with both example and examples is refused, where ajv says only "must NOT be valid"', () => {
    const media = { schema: { type: 'object' }, example: { id: 1 }, examples: { one: { value: { id: 2 } } } };
    const raw = {
      openapi: '3.0.3',
      paths: { '/plants': { post: { requestBody: { content: { 'application/json': media } } } } },
    };
    const at = '/paths/~1plants/post/requestBody/content/application~1json';
    const [problem] = condenseSchemaErrors([{ instancePath: at, message: 'must NOT be valid' }], raw, undefined);
    expect(problem?.pointer).toBe(at);
    expect(problem?.message).toBe(
      'must NOT be valid (OpenAPI allows example or examples here, not both: keep one, e.g. move the example into examples)',
    );
  });

  it('adds nothing to "must NOT be valid" elsewhere', () => {
    const raw = { openapi: '3.0.3', components: { schemas: { A: { type: 'object' } } } };
    const [problem] = condenseSchemaErrors(
      [{ instancePath: '/components/schemas/A', message: 'must NOT be valid' }],
      raw,
      undefined,
    );
    expect(problem?.message).toBe('must NOT be valid');
  });
});
