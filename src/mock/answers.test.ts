import { describe, expect, it } from 'vitest';
import { PROBLEMS } from '../contract/index.js';
import { MOCK_PROBLEMS } from './answers.js';

describe('mock error codes', () => {
  it('never reuse a code of the contract table, and stay int32', () => {
    const contractCodes = new Set<number>(Object.values(PROBLEMS).map((p) => p.code));
    const mockCodes = Object.values(MOCK_PROBLEMS).map((p) => p.code);
    expect(new Set(mockCodes).size).toBe(mockCodes.length);
    for (const code of mockCodes) {
      expect(contractCodes.has(code)).toBe(false);
      expect(code).toBe(code | 0);
    }
  });
});
