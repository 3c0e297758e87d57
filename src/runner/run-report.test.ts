import { describe, expect, it } from 'vitest';
import { loadContract } from '../contract/index.js';
import { createFreshIds } from './generate/fresh-ids.js';
import { runNotes, runVerdict } from './run-report.js';
import type { CheckResult } from './report.js';
import { CANARY_ID } from './target.js';

const contract = await loadContract();
const settings = { fresh: createFreshIds('0011223344556677'), budgetMs: 60_000, contract } as const;
const dispatched = { sent: 10, throttled: 0, unsent: 0, nextOrder: 10 };
const messageOf = (notes: ReturnType<typeof runNotes>, code: string) =>
  notes.find((note) => note.code === code)?.message;

describe('the notes about repeats', () => {
  it('name the canary id that was sent: one inside the document’s range when that excludes the usual one', () => {
    const held = runNotes(dispatched, { rejectsRepeats: true, holdsEarlierRun: true, canaryId: 2n }, settings, false);
    expect(messageOf(held, 'repeats-held')).toContain('it refused the canary plant, id 2, as a repeat');
    const fresh = runNotes(dispatched, { rejectsRepeats: true, holdsEarlierRun: false, canaryId: 7n }, settings, false);
    expect(messageOf(fresh, 'repeats-fresh')).toContain('it accepted the canary plant, id 7)');
    const usual = runNotes(dispatched, { rejectsRepeats: true, holdsEarlierRun: false }, settings, false);
    expect(messageOf(usual, 'repeats-fresh')).toContain(`id ${CANARY_ID})`);
  });

  it('say it is not known whether the target holds an earlier run when the canary got neither answer', () => {
    const throttled = runNotes(dispatched, { rejectsRepeats: true, canaryId: 7n }, settings, false);
    expect(messageOf(throttled, 'repeats-unknown')).toContain(
      'the canary plant, id 7, was neither accepted nor refused',
    );
    expect(messageOf(throttled, 'repeats-fresh')).toBeUndefined();
    expect(messageOf(throttled, 'repeats-held')).toBeUndefined();
  });
});

describe('the note about bodies held back', () => {
  it('says why later requests went on a connection each, and names no finding', () => {
    const held = runNotes(dispatched, { rejectsRepeats: true, delaysBodies: true }, settings, false);
    expect(messageOf(held, 'delayed-bodies')).toMatch(/about 40 ms after their heads.*Not a contract matter/);
    expect(
      messageOf(runNotes(dispatched, { rejectsRepeats: true }, settings, false), 'delayed-bodies'),
    ).toBeUndefined();
  });
});

describe('the note about operations not tested', () => {
  it('names the first twelve of a large document and counts the rest', () => {
    const operations = Array.from({ length: 1_500 }, (_, index) => `GET /things/${index}`);
    const notes = runNotes(
      dispatched,
      { rejectsRepeats: true },
      { ...settings, contract: { ...contract, otherOperations: operations } },
      false,
    );
    expect(messageOf(notes, 'not-tested')).toBe(
      `Not tested: ${operations.slice(0, 12).join(', ')} and 1488 more. The document declares them; plantstore judges POST /plants, the contract's one operation.`,
    );
  });
});

describe('runVerdict', () => {
  const passed = [
    { id: 'echo', title: 'echo', rule: '', status: 'pass', cases: 10, failures: [] },
  ] as unknown as CheckResult[];

  it('is incomplete when more than a tenth of the cases were left throttled, conformant at a tenth or fewer', () => {
    expect(runVerdict(passed, { cases: 100, throttled: 11 }, undefined)).toBe('incomplete');
    expect(runVerdict(passed, { cases: 100, throttled: 10 }, undefined)).toBe('conformant');
    expect(runVerdict(passed, { cases: 100 }, undefined)).toBe('conformant');
  });
});
