import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findBodies } from './body-schemas.js';

const schema = { type: 'object' };
const pointer = '/paths/~1plants/post';

function operation(requestTypes: readonly string[], errorStatuses: readonly string[] = ['400']) {
  const content = (types: readonly string[]) => Object.fromEntries(types.map((type) => [type, { schema }]));
  return {
    requestBody: { content: content(requestTypes) },
    responses: {
      '200': { description: 'Plant', content: content(['application/json']) },
      ...Object.fromEntries(errorStatuses.map((status) => [status, { content: content(['application/json']) }])),
    },
  };
}

describe('findBodies', () => {
  it('prefers application/json, then it with parameters, then a +json type, whatever the order of the keys', () => {
    const types = ['text/plain', 'application/xml', 'application/vnd.plant+json', 'application/json; charset=utf-8'];
    fc.assert(
      fc.property(fc.shuffledSubarray(types, { minLength: 1 }), fc.boolean(), (chosen, withPlain) => {
        const keys = withPlain ? [...chosen, 'Application/JSON'] : chosen;
        const found = findBodies(operation(keys), pointer, 'POST /plants').newPlant;
        const expected = withPlain
          ? 'Application/JSON'
          : ['application/json; charset=utf-8', 'application/vnd.plant+json'].find((type) => chosen.includes(type));
        if (expected === undefined) expect(found).toMatch(/^The request body of POST \/plants has no JSON media type/);
        else expect(found).toMatchObject({ mediaType: expected, schema });
      }),
      { numRuns: 100, seed: 3 },
    );
  });

  it('takes the Error schema from 400, else 4XX (in any case), else default, else any JSON, and says which', () => {
    const status = (statuses: string[]) => {
      const error = findBodies(operation(['application/json'], statuses), pointer, 'POST /plants').error;
      return typeof error === 'string' ? error : error.status;
    };
    expect(status(['default', '4XX', '400'])).toBe('400');
    expect(status(['default', '4xx'])).toBe('4xx');
    expect(status(['default'])).toBe('default');
    expect(status(['404'])).toBe('400');
    const none = findBodies(operation(['application/json'], ['404']), pointer, 'POST /plants').error;
    expect(none).toMatchObject({ schema: {}, status: '400', undocumented: true, pointer: `${pointer}/responses` });
    // Goa labels its refusals application/vnd.goa.error, with no JSON type: the refusals keep that label.
    const goa = { '400': { description: 'bad_request', content: { 'application/vnd.goa.error': { schema } } } };
    expect(findBodies({ responses: goa }, pointer, 'POST /plants').error).toMatchObject({
      mediaType: 'application/vnd.goa.error',
      undocumented: true,
    });
  });

  it('takes the Plant from 200, else 201, else the lowest other 2xx with a JSON schema, else 2XX, and says which', () => {
    const json = { content: { 'application/json': { schema } } };
    const success = (responses: Record<string, unknown>) => {
      const plant = findBodies({ requestBody: json, responses }, pointer, 'POST /plants').plant;
      return typeof plant === 'string' ? plant : plant.status;
    };
    expect(success({ '2XX': json, '202': json, '201': json, '200': json })).toBe('200');
    expect(success({ '2XX': json, '202': json, '201': json })).toBe('201');
    expect(success({ '2XX': json, '203': json, '202': json, '201': { description: 'no body' } })).toBe('202');
    expect(success({ '2XX': json, '204': { description: 'none' } })).toBe('2XX');
    expect(success({ '200': { description: 'no body' }, '201': json })).toMatch(/^The 200 response of .* no JSON/);
    expect(success({ '204': { description: 'none' }, '400': json })).toBe(
      'POST /plants documents no success response with a Plant: no 200, and no 2xx response with a JSON schema ' +
        '(204 carries none; looked under /paths/~1plants/post/responses; it documents 204, 400); ' +
        'plantstore expects the created Plant there.',
    );
  });
});

describe('a boolean schema (3.1)', () => {
  const answering = (written: boolean) => ({
    requestBody: { content: { 'application/json': { schema } } },
    responses: { '200': { content: { 'application/json': { schema: written } } } },
  });

  it('true is any JSON, as {} is: the 200 answer is found, not "no schema"', () => {
    expect(findBodies(answering(true), pointer, 'POST /plants').plant).toMatchObject({ schema: {}, status: '200' });
  });

  it('false is refused as what no value satisfies, where it is written', () => {
    expect(findBodies(answering(false), pointer, 'POST /plants').plant).toBe(
      'The 200 response of POST /plants is the schema false for application/json, which no value satisfies (at /paths/~1plants/post/responses/200/content/application~1json/schema): write the schema its bodies meet, or true for any JSON.',
    );
  });
});
