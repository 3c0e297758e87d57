import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from './package-files.js';
import { errorBody, problem, PROBLEMS } from './problems.js';

describe('problems', () => {
  it('never reuses an error code for two failure classes', () => {
    const codes = Object.values(PROBLEMS).map((p) => p.code);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('keeps every error code inside int32', () => {
    for (const { code } of Object.values(PROBLEMS)) expect(code).toBe(code | 0);
  });

  it('lists every code with its status in the behaviour table of docs/behaviour.md', () => {
    const readme = readFileSync(join(PACKAGE_ROOT, 'docs/behaviour.md'), 'utf8');
    for (const { code, status } of Object.values(PROBLEMS)) {
      expect(readme).toMatch(new RegExp(`\\|\\s*${status}\\s*\\|\\s*${code}\\s*\\|`));
    }
  });

  it('asks for Bearer credentials on every authentication failure', () => {
    for (const kind of ['missingCredentials', 'malformedCredentials', 'unknownToken'] as const) {
      expect(problem(kind, 'x').headers['www-authenticate']).toMatch(/^Bearer /);
    }
  });

  it('writes the contract Error shape', () => {
    expect(JSON.parse(errorBody(problem('emptyBody', 'm')))).toEqual({ error: 1002, message: 'm' });
  });
});
