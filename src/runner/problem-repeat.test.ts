import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_SUITES } from '../../suites/index.js';
import { createReferenceServer } from '../reference/server.js';
import { runConformance } from '../index.js';

/** Errors as strict problem details: the repeat refusal's words are in `detail`, there is no `message`. */
const PROBLEMS = fileURLToPath(new URL('../http/test-documents/problem-details-3.0.yaml', import.meta.url));
const TOKEN = 'problem-repeat-token';

describe('a target answering repeats with problem details (RFC 9457: the words in detail)', () => {
  it('has an exact edge id another client stored excused as a repeat, not failed', async () => {
    // HD13's f12 run: a correct problem+json server refused exact id 2147483648 it held as 'already exists', and
    // positive-acceptance failed, since only an Error's `message` was read for the target's repeat words.
    const server = await createReferenceServer({ spec: PROBLEMS, tokens: [TOKEN] });
    try {
      const stored = await fetch(`${server.url}/plants`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: '{"id":2147483648,"name":"held by another client"}',
        signal: AbortSignal.timeout(10_000),
      });
      expect(stored.status).toBe(200);
      const report = await runConformance({
        baseUrl: server.url,
        token: TOKEN,
        spec: PROBLEMS,
        seed: 5,
        runs: 30,
        suites: BUILT_IN_SUITES,
      });
      const acceptance = report.checks.find((check) => check.id === 'positive-acceptance');
      expect(acceptance?.status).toBe('warn');
      expect(report.checks.filter((check) => check.status === 'fail').map((check) => check.id)).toEqual([]);
    } finally {
      await server.close();
    }
  }, 120_000);
});
