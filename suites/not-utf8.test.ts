import { describe, expect, it } from 'vitest';
import { CORRECT_STEPS, refuse, startService, type ServiceSteps } from '../src/fixtures/base/plant-service.js';
import { realCurl } from '../src/fixtures/curl-run.js';
import { expectReproductions } from '../src/fixtures/reproductions.case.js';
import type { TargetFixture } from '../src/fixtures/target-fixture.js';
import { runConformance, type Report } from '../src/index.js';

/** Few cases, every check: the six not-utf8 cases are sent whatever `runs` says. */
const RUN = { seed: 20261129, runs: 20, concurrency: 4, timeoutMs: 5_000 };

/** A node:http service on the correct base whose body decoding is `decode`. */
function serviceDecoding(name: string, decode: ServiceSteps['decode']): TargetFixture {
  return {
    name,
    defect: name,
    expectedFailures: ['no-server-error'],
    start: () => startService({ ...CORRECT_STEPS, decode }),
  };
}

/** `TextDecoder('utf-8', { fatal: true })` whose TypeError the handler turns into a 500 with a JSON body. */
const strict = serviceDecoding('strict-decoder-500', (body, req) => {
  if (body.length === 0) return CORRECT_STEPS.decode(body, req);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch (error) {
    return refuse(500, String(error), 500);
  }
});

/** Express's body-parser: `iconv-lite` decodes with replacement, so invalid bytes are read as U+FFFD. */
const replacing = serviceDecoding('replacing-decoder', (body, req) =>
  body.length === 0 ? CORRECT_STEPS.decode(body, req) : body.toString('utf8'),
);

async function runAgainst(fixture: TargetFixture): Promise<Report> {
  const target = await fixture.start();
  try {
    return await runConformance({ ...RUN, baseUrl: target.url, token: target.token });
  } finally {
    await target.close();
  }
}

describe('bodies that are not valid UTF-8', () => {
  it('a strict decoder answering 500 is one finding, shown by a plant whose name is the bytes alone', async () => {
    const report = await runAgainst(strict);
    expect(report.verdict).toBe('not-conformant');
    expect(report.findings?.map((finding) => finding.title)).toEqual(['status 500 for a body that is not valid UTF-8']);
    const [finding] = report.findings ?? [];
    const request = finding!.counterexample.request;
    expect(request.bodyBase64).toBeDefined();
    // The lossy preview of `{"name":"\xff","id":…}`: nothing but the id and a name of the invalid bytes.
    const shown = JSON.parse(request.body ?? '') as Record<string, unknown>;
    expect(Object.keys(shown).sort()).toEqual(['id', 'name']);
    expect(shown.name).toMatch(/^\ufffd{1,3}$/);
    expect(finding!.counterexample.curl).toContain('base64 -d');
  }, 60_000);

  it.runIf(realCurl() !== undefined)(
    "the strict decoder's finding: its curl line and its replay send the same bytes and fail the same way (needs curl)",
    async () => {
      const failures = await expectReproductions({
        fixture: strict,
        run: { ...RUN, checks: ['no-server-error'] },
      });
      expect(failures.map((failure) => failure.defect)).toContain('status 500 for a body that is not valid UTF-8');
    },
    90_000,
  );

  it('a decoder that reads them as U+FFFD (Express, Go) is conformant, and so is serve, which refuses them', async () => {
    const replaced = await runAgainst(replacing);
    expect(replaced.findings ?? [], JSON.stringify(replaced.findings?.[0]?.title)).toEqual([]);
    expect(replaced.verdict).toBe('conformant');
    const served = await runConformance({ ...RUN });
    expect(served.verdict).toBe('conformant');
    for (const report of [replaced, served]) {
      const noServerError = report.checks.find((check) => check.id === 'no-server-error');
      expect(noServerError?.status).toBe('pass');
    }
  }, 60_000);
});
