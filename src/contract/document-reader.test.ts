import { describe, expect, it } from 'vitest';
import { objectView } from './object-view.js';
import { loadContract } from './spec.js';

describe('reading a YAML document', () => {
  it('merges YAML merge keys (<<) as js-yaml does, the keys written beside them winning', async () => {
    const contract = await loadContract('src/fixtures/documents/reduced/yaml-merge-keys-3.0.yaml');
    const newPlant = objectView(contract.compiled.newPlant.schema);
    expect(newPlant.properties.get('tag')).toMatchObject({ type: 'string', minLength: 1, maxLength: 10 });
    expect(newPlant.properties.get('name')).toMatchObject({ type: 'string', minLength: 1, maxLength: 30 });
    expect(contract.compiled.newPlant.schema).toMatchObject({ type: 'object', required: ['id', 'name'] });
  });
});
