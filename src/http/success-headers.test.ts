import { describe, expect, it } from 'vitest';
import { loadContract } from '../contract/index.js';
import { createSuccessHeaders } from './success-headers.js';

const DOCUMENT = 'src/fixtures/documents/reduced/required-response-headers-3.1.yaml';
const accepted = { plant: { id: 1n, name: 'Fern' }, parsed: { id: 1, name: 'Fern' } } as never;

describe('the required headers of a success answer', () => {
  it('gives a required header with neither default nor example a value its schema accepts', async () => {
    const contract = await loadContract(DOCUMENT);
    const headers = createSuccessHeaders(contract)(accepted) ?? {};
    expect(Object.keys(headers).sort()).toEqual(['RateLimit-Remaining', 'X-Request-Id']);
    for (const header of contract.successHeaders.filter((declared) => declared.required)) {
      expect(header.problem(headers[header.name] ?? '')).toBeUndefined();
    }
    expect(headers['X-Request-Id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  });

  it('writes the same values on every start', async () => {
    const first = createSuccessHeaders(await loadContract(DOCUMENT))(accepted);
    expect(createSuccessHeaders(await loadContract(DOCUMENT))(accepted)).toEqual(first);
  });
});
