import { describe, expect, it } from 'vitest';
import { runConformance } from '../index.js';
import { TEST_DOCUMENTS } from '../http/spec-following.case.js';
import { createReferenceServer } from './server.js';

describe('the project runner against the reference on another document', () => {
  it.each([TEST_DOCUMENTS.constrained, TEST_DOCUMENTS.nullable, TEST_DOCUMENTS.vendorMediaType])(
    'passes with zero failures on the document it serves (%s)',
    async (spec) => {
      const server = await createReferenceServer({ spec, tokens: ['conformance-token'] });
      try {
        const report = await runConformance({ baseUrl: server.url, token: 'conformance-token', spec, seed: 11 });
        const failed = report.checks
          .filter((check) => check.status === 'fail')
          .map((check) => `${check.id}: ${check.failures[0]?.reason ?? '(no failure recorded)'}`);
        expect(failed).toEqual([]);
        expect(report.summary.cases).toBeGreaterThan(100);
      } finally {
        await server.close();
      }
    },
    60_000,
  );
});
