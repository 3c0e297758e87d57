import { execFile } from 'node:child_process';
import type { IncomingMessage } from 'node:http';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CORRECT_STEPS, refuse, startService } from '../../fixtures/base/plant-service.js';
import { runConformance } from '../../index.js';
import { HEADER_NAMES_DEFECT } from '../../../suites/acceptance.js';

const run = promisify(execFile);

/** A request header by its name exactly as the client wrote it, as PHP's `getallheaders()['Authorization']` finds it. */
function writtenHeader(req: IncomingMessage, name: string): string | undefined {
  const index = req.rawHeaders.findIndex((written, at) => at % 2 === 0 && written === name);
  return index < 0 ? undefined : req.rawHeaders[index + 1];
}

/** The correct service, but its credential and media type read by names written as `Authorization` and `Content-Type`. */
function startCaseSensitiveService() {
  return startService({
    ...CORRECT_STEPS,
    decode(body, req) {
      if (writtenHeader(req, 'Authorization') === undefined) return refuse(401, 'Unauthorized.', 401);
      if (writtenHeader(req, 'Content-Type') === undefined) return refuse(415, 'JSON only.', 415);
      return CORRECT_STEPS.decode(body, req);
    },
  });
}

describe('a valid NewPlant whose header names are in lower case', () => {
  it('shows a target reading header names case-sensitively, with a curl line that sends them so', async () => {
    const target = await startCaseSensitiveService();
    try {
      const report = await runConformance({ baseUrl: target.url, token: target.token, seed: 42, runs: 40 });
      const findings = report.findings ?? [];
      expect(findings.map((finding) => finding.title)).toEqual([HEADER_NAMES_DEFECT]);
      const curl = findings[0]?.counterexample.curl ?? '';
      expect(curl).toContain(`-H "authorization: Bearer $PLANTSTORE_TOKEN"`);
      expect(curl).toContain(`-H 'content-type: application/json'`);
      const { stdout } = await run('sh', ['-c', curl], { env: { ...process.env, PLANTSTORE_TOKEN: target.token } });
      // The case's lines send the Title-Case first (stored by the run: now a repeat) and then the twin.
      expect(
        stdout
          .split('HTTP/1.1 ')
          .slice(1)
          .map((answer) => answer.slice(0, 3)),
      ).toEqual(['400', '401']);
    } finally {
      await target.close();
    }
  }, 90_000);

  it('leaves a target reading names as HTTP does conformant', async () => {
    const target = await startService(CORRECT_STEPS);
    try {
      const report = await runConformance({ baseUrl: target.url, token: target.token, seed: 42, runs: 40 });
      expect(report.findings ?? []).toEqual([]);
      expect(report.verdict).toBe('conformant');
    } finally {
      await target.close();
    }
  }, 90_000);
});
