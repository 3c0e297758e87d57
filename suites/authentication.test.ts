import { describe, expect, it } from 'vitest';
import { CORRECT_STEPS, faultyTarget } from '../src/fixtures/base/plant-service.js';
import { runConformance } from '../src/index.js';

/** `authorization.equalsIgnoreCase("Bearer " + token)`, as a Java handler may check it: the token's case is lost. */
const tokenIgnoringCase = faultyTarget(
  { name: 'token-ignoring-case', defect: 'the token compared ignoring case', expectedFailures: ['auth-enforced'] },
  {
    authenticate: (authorization, token) =>
      authorization?.toLowerCase() === `bearer ${token}`.toLowerCase()
        ? undefined
        : CORRECT_STEPS.authenticate(undefined, token),
  },
);

describe('a target comparing the token ignoring case', () => {
  it('is told both causes of a case-flipped token accepted after the right one, and how to tell them', async () => {
    const target = await tokenIgnoringCase.start();
    try {
      const report = await runConformance({ baseUrl: target.url, token: target.token, seed: 42, runs: 60 });
      const findings = report.findings ?? [];
      expect(findings.map((finding) => finding.title)).toEqual([
        'a request with the right token with every letter in the other case accepted',
      ]);
      const reason = findings[0]?.counterexample.reason ?? '';
      expect(reason).toMatch(/Accepted on a connection of its own too .* compares the token ignoring case/);
      expect(reason).toMatch(/Jetty 9\.4's default header cache/);
    } finally {
      await target.close();
    }
  }, 60_000);
});
