import { describe, expect, it } from 'vitest';
import { parseExactJson } from './exact-json.js';
import { compileSchemaCheck, loadSchemaCompiler } from './schemas.js';

// A file of its own: ajv must be loaded through `loadSchemaCompiler` (the import the runner awaits) before
// any schema is compiled, as in a run, not through the `require` a compile without it takes.
describe('ajv loaded as a run loads it', () => {
  it('judges distinct objects under uniqueItems with the prototype-safe equality, not fast-deep-equal', async () => {
    await loadSchemaCompiler();
    const labels = compileSchemaCheck(
      { type: 'array', uniqueItems: true, items: { type: 'object', properties: { key: { type: 'string' } } } },
      'labels',
    );
    expect(labels(parseExactJson('[{"key":"a"},{"key":"b"}]'))).toEqual([]);
    expect(labels(parseExactJson('[{"key":"a"},{"key":"a"}]')).map(({ keyword }) => keyword)).toEqual(['uniqueItems']);
  });
});
