import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance, type Report } from '../index.js';
import { TEST_DOCUMENTS } from '../http/spec-following.case.js';
import { DEV_TOKEN } from './dev-token.js';
import { createMockServer, type MockServer } from './mock-server.js';

/** The failing checks of a report, each with its first counterexample, for a readable assertion. */
function failures(report: Report): string[] {
  return report.checks
    .filter((check) => check.status === 'fail')
    .map((check) => `${check.id}: ${check.failures[0]?.reason ?? '(no failure recorded)'}`);
}

describe('the project runner against the mock', () => {
  let mock: MockServer;
  let configured: MockServer;
  beforeAll(async () => {
    mock = await createMockServer();
    configured = await createMockServer({ tokens: ['conformance-token-T'] });
  });
  afterAll(async () => {
    await mock.close();
    await configured.close();
  });

  it('passes with zero failures with the default options (development token)', async () => {
    const report = await runConformance({ baseUrl: mock.url, token: DEV_TOKEN, seed: 20261122 });
    expect(failures(report)).toEqual([]);
    expect(report.summary.failed).toBe(0);
    expect(report.summary.cases).toBeGreaterThan(100);
  }, 60_000);

  it.each([TEST_DOCUMENTS.constrained, TEST_DOCUMENTS.nullable, TEST_DOCUMENTS.vendorMediaType])(
    'passes with zero failures on the document it mocks (%s)',
    async (spec) => {
      const onSpec = await createMockServer({ spec });
      try {
        const report = await runConformance({ baseUrl: onSpec.url, token: DEV_TOKEN, spec, seed: 11 });
        expect(failures(report)).toEqual([]);
        expect(report.summary.failed).toBe(0);
      } finally {
        await onSpec.close();
      }
    },
    60_000,
  );

  it('passes with zero failures with a configured token', async () => {
    const report = await runConformance({ baseUrl: configured.url, token: 'conformance-token-T', seed: 7 });
    expect(failures(report)).toEqual([]);
    expect(report.summary.failed).toBe(0);
  }, 60_000);
});
