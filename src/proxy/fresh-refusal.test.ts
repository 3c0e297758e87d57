import { describe, expect, it } from 'vitest';
import { refusalStatusOf } from '../contract/refusal-status.js';
import { successStatusOf } from '../contract/success-status.js';
import type { Intent } from '../runner/probe.js';
import { FreshIdRefusals } from './fresh-refusal.js';

const valid = (id: number) => ({ kind: 'valid', idMayRepeat: false, id }) as unknown as Intent;

describe('the fresh-id-accepted warning', () => {
  it("names the document's own success status, 201 where it gives 201", () => {
    const refusals = new FreshIdRefusals(refusalStatusOf('400', ['201', '400']), false, successStatusOf('201'));
    expect(refusals.judge(valid(1), 'Bearer a', 201)).toBeUndefined();
    const warned = refusals.judge(valid(2), 'Bearer a', 400);
    expect(warned?.outcome).toBe('warn');
    expect(warned?.reason).toContain('(rule 1: 201 with a Plant)');
  });

  it('says 200 for the contract as written', () => {
    const refusals = new FreshIdRefusals(refusalStatusOf('400', ['200', '400']), false, successStatusOf('200'));
    refusals.judge(valid(1), 'Bearer a', 200);
    expect(refusals.judge(valid(2), 'Bearer a', 400)?.reason).toContain('(rule 1: 200 with a Plant)');
  });
});
