import { describe, expect, it } from 'vitest';
import { loadContract } from './spec.js';

const DOCUMENT = 'src/fixtures/documents/reduced/created-location-3.0.yaml';

describe('the success response headers of a document', () => {
  it('are read from the success response with whether each is required, Content-Type left out as OpenAPI says', async () => {
    const { successHeaders } = await loadContract(DOCUMENT);
    expect(successHeaders.map(({ name, required }) => [name, required])).toEqual([
      ['Location', true],
      ['X-Rate-Limit-Remaining', false],
    ]);
  });

  it('judge a value against its schema, a number or boolean spelled in the header as in JSON', async () => {
    const [location, remaining] = (await loadContract(DOCUMENT)).successHeaders;
    expect(location?.problem('/api/plants/12')).toBeUndefined();
    expect(location?.problem('http://[bad')).toMatch(/format "uri-reference"/);
    expect(remaining?.problem('17')).toBeUndefined();
    expect(remaining?.problem('-1')).toMatch(/>= 0/);
    expect(remaining?.problem('many')).toMatch(/must be an integer/);
  });

  it('are none for the bundled document', async () => {
    expect((await loadContract()).successHeaders).toEqual([]);
  });
});
