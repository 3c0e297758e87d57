import { describe, expect, it } from 'vitest';
import { loadContract } from '../spec.js';

const RECURSIVE = 'src/fixtures/documents/reduced/recursive-offshoots-3.1.yaml';

describe('the variants of a recursive schema', () => {
  it('break the keywords of a recursive oneOf branch: a graft stock and its rootstock', async () => {
    const { invalid } = (await loadContract(RECURSIVE)).compiled.newPlant;
    const broken = new Set(invalid.map(({ pointer, keyword }) => `${pointer} ${keyword}`));
    expect(broken).toContain('/graft/cultivar maxLength');
    expect(broken).toContain('/graft/unexpected additionalProperties');
    expect(broken).toContain('/graft/rootstock/cultivar maxLength');
  });

  it('follow a schema nested in itself once: an offshoot (a NewPlant) gets its own breaks, and no deeper', async () => {
    const { invalid } = (await loadContract(RECURSIVE)).compiled.newPlant;
    const broken = new Set(invalid.map(({ pointer, keyword }) => `${pointer} ${keyword}`));
    expect(broken).toContain('/offshoots/0/name maxLength');
    expect(broken).toContain('/offshoots/0/id required');
    expect([...broken].filter((each) => each.startsWith('/offshoots/0/offshoots/0/'))).toEqual([]);
  });
});

describe('the variants of objects nested in arrays three deep', () => {
  it('break the keywords of a pot seven levels down (beds[].rows[].pots[].size), $refs on the way not counted', async () => {
    const { invalid } = (await loadContract('src/fixtures/documents/reduced/nested-beds-3.1.yaml')).compiled.newPlant;
    const broken = new Set(invalid.map(({ pointer, keyword }) => `${pointer} ${keyword}`));
    expect(broken).toContain('/beds/0/rows/0/pots/0/size minimum');
    expect(broken).toContain('/beds/0/rows/0/pots/0/size maximum');
  });
});
