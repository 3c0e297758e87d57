import { createServer, type Server } from 'node:http';
import { describe, expect, it } from 'vitest';
import { listenOnLoopback } from '../fixtures/target-fixture.js';
import { runConformance } from '../index.js';
import { jsonRequests } from '../fixtures/json-requests.js';

const TOKEN = 'coercing-token';

/**
 * Reads the id as Python's `int()` does (aiohttp or Flask with `int(body["id"])`): `"123"` and `true` are ids,
 * and the ids they stand for are stored. It already holds 0 and -1, as when this run's `false` and `"-1"`
 * were taken, and answers a repeat with its own code and message.
 */
async function startCoercingTarget(): Promise<{ url: string; close(): Promise<void> }> {
  const stored = new Set<string>(['0', '-1']);
  const server: Server = createServer(
    jsonRequests((req, received, answer) => {
      if (req.headers.authorization !== `Bearer ${TOKEN}`) return answer(401, { error: 401, message: 'Unauthorized' });
      let body: { id?: unknown; name?: unknown; tag?: unknown };
      try {
        body = JSON.parse(received) as typeof body;
      } catch {
        return answer(400, { error: 1001, message: 'The body is not JSON.' });
      }
      // The id's own text (a double would round ids beyond 2^53): `true`, `false`, digits, or digits in quotes.
      const raw = /"id"\s*:\s*(true|false|-?\d+|"-?\d+")\s*[,}]/.exec(received)?.[1];
      const id = raw === 'true' ? '1' : raw === 'false' ? '0' : raw?.replaceAll('"', '');
      if (body === null || typeof body !== 'object' || id === undefined || typeof body.name !== 'string')
        return answer(400, { error: 1005, message: 'Invalid NewPlant.' });
      if (stored.has(id)) return answer(400, { error: 1010, message: `A plant with id ${id} already exists.` });
      stored.add(id);
      answer(200, { name: body.name, ...(typeof body.tag === 'string' ? { tag: body.tag } : {}) });
    }),
  );
  return listenOnLoopback(server, TOKEN);
}

describe('a target that takes a string id, and says when an id is already stored', () => {
  it('excuses a fixed id refused as stored (a warning), as on a target that refuses string ids', async () => {
    const target = await startCoercingTarget();
    try {
      const report = await runConformance({ baseUrl: target.url, token: TOKEN, seed: 7, runs: 40, concurrency: 4 });
      const titles = (report.findings ?? []).map((finding) => finding.title);
      expect(titles).not.toContain('status 400 for a valid NewPlant');
      expect(report.checks.find((check) => check.id === 'positive-acceptance')?.status).toBe('warn');
    } finally {
      await target.close();
    }
  }, 60_000);
});
