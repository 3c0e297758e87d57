import { createServer, type Server } from 'node:http';
import { describe, expect, it } from 'vitest';
import { listenOnLoopback } from '../../fixtures/target-fixture.js';
import { runConformance } from '../../index.js';
import { jsonRequests } from '../../fixtures/json-requests.js';

const TOKEN = 'header-names-token';

/** The request's headers by name exactly as the client wrote them, as PHP's `getallheaders()` gives them. */
function headersAsWritten(rawHeaders: readonly string[]): Map<string, string> {
  const written = new Map<string, string>();
  for (let index = 0; index + 1 < rawHeaders.length; index += 2)
    written.set(rawHeaders[index]!, rawHeaders[index + 1]!);
  return written;
}

/**
 * A Plant Store that reads `getallheaders()['Authorization']` and `['Content-Type']`, as PHP servers behind Apache do
 * (where `$_SERVER['HTTP_AUTHORIZATION']` is not set): a name written in another letter case is not found. Everything
 * else is accepted alike: every JSON object holding a string name is a plant.
 */
async function startCaseSensitiveReader(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(
    jsonRequests((req, _received, answer) => {
      const headers = headersAsWritten(req.rawHeaders);
      if (headers.get('Authorization') !== `Bearer ${TOKEN}`)
        return answer(401, { error: 401, message: 'a valid bearer token is required' });
      if (headers.get('Content-Type') !== 'application/json') return answer(415, { error: 10, message: 'JSON only' });
      answer(400, { error: 2, message: 'nothing is stored here' });
    }),
  );
  return listenOnLoopback(server, TOKEN);
}

describe('the header names the runner writes', () => {
  it('are written as the curl lines write them, so a target matching names case-sensitively is judged, not taken for a refused token', async () => {
    const target = await startCaseSensitiveReader();
    try {
      const report = await runConformance({ baseUrl: target.url, token: TOKEN, seed: 42, runs: 40, concurrency: 2 });
      // Judged: it refuses valid NewPlants (its own defect), which the credential-refused verdict would hide.
      expect(report.couldNotJudge).toBeUndefined();
      expect((report.findings ?? []).map((finding) => finding.title)).toContain('status 400 for a valid NewPlant');
    } finally {
      await target.close();
    }
  }, 90_000);
});
