import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../spec.js';
import { compileSchema } from './compile.js';

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

describe('the variants of an optional field inside an optional object (pydantic: Optional[Care] with Optional[datetime])', () => {
  it('break the inner branch by type only with values no other branch takes by type: a string is the format break', () => {
    const dateTime = { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] };
    const care = { type: 'object', properties: { checkedAt: dateTime } };
    const schema = { type: 'object', properties: { care: { anyOf: [care, { type: 'null' }] } } };
    const { invalid } = compileSchema(schema, { dialect: 'openapi-3.1', subject: 'a NewPlant' });
    const atCheckedAt = invalid.filter(({ pointer }) => pointer === '/care/checkedAt');
    // Before: "not of type null: a string" with "text", a format break labelled as a type the string branch takes.
    expect(atCheckedAt.filter(({ keyword }) => keyword === 'type')).toEqual([]);
    expect(atCheckedAt.map(({ keyword }) => keyword)).toContain('format');
    const none = atCheckedAt.find(({ keyword }) => keyword === 'anyOf');
    const values = fc.sample(none?.arbitrary ?? fc.constant(null), { numRuns: 40, seed: 1 });
    const kinds = values.map((value) => typeof (value as { care?: { checkedAt?: unknown } }).care?.checkedAt);
    expect(kinds).not.toContain('string');
    expect(kinds).toContain('boolean');
  });
});
