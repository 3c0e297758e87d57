import { createServer, type Server } from 'node:http';
import { parse, stringify } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { listenOnLoopback } from '../fixtures/target-fixture.js';
import { runConformance } from '../index.js';

const TOKEN = 'replay-held-token';
const INT64 = 2n ** 63n;

/**
 * A store that takes any bearer token (a Perl `==` on two strings that are not numbers) and is otherwise
 * correct: exact int64 ids, a repeat refused with `repeatCode` (its own, or the one of every other refusal: then
 * only its message tells a repeat).
 */
async function startAnyTokenStore(repeatCode: number): Promise<{ url: string; close(): Promise<void> }> {
  const stored = new Set<string>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const answer = (status: number, body: object): void => {
        res.writeHead(status, { 'content-type': 'application/json' }).end(stringify(body));
      };
      if (!/^Bearer \S+$/i.test(req.headers.authorization ?? ''))
        return answer(401, { error: 2001, message: 'Unauthorized' });
      if (!/^application\/json\b/i.test(req.headers['content-type'] ?? ''))
        return answer(415, { error: 1002, message: 'JSON only' });
      let body: unknown;
      try {
        body = parse(Buffer.concat(chunks).toString('utf8'), null, (text) =>
          /^-?\d+$/.test(text) ? BigInt(text) : Number.NaN,
        );
      } catch {
        return answer(400, { error: 1001, message: 'Body is not valid JSON' });
      }
      const plant = body as { id?: unknown; name?: unknown; tag?: unknown } | null;
      const valid =
        plant !== null &&
        typeof plant === 'object' &&
        !Array.isArray(plant) &&
        typeof plant.id === 'bigint' &&
        plant.id >= -INT64 &&
        plant.id < INT64 &&
        typeof plant.name === 'string' &&
        (plant.tag === undefined || typeof plant.tag === 'string');
      if (!valid) return answer(400, { error: 1005, message: 'Invalid NewPlant' });
      if (stored.has(String(plant.id)))
        return answer(400, { error: repeatCode, message: `Plant ${String(plant.id)} exists` });
      stored.add(String(plant.id));
      answer(200, plant);
    });
  });
  return listenOnLoopback(server, TOKEN);
}

describe('a replay against a target that stored the case during the run being replayed', () => {
  it.each([1010, 1005])(
    'could not judge (replay-id-held) instead of passing (repeat code %i); a fresh store fails again',
    async (code) => {
      const first = await startAnyTokenStore(code);
      try {
        const report = await runConformance({ baseUrl: first.url, token: TOKEN, seed: 42, runs: 40, concurrency: 4 });
        expect(report.verdict).toBe('not-conformant');
        const failure = report.checks
          .flatMap((check) => check.failures)
          .find((candidate) => candidate.response.status === 200 && candidate.rerun !== undefined);
        const replay = failure?.rerun?.replay;
        expect(replay).toBeDefined();
        const again = await runConformance({ baseUrl: first.url, token: TOKEN, seed: 42, runs: 40, replay });
        expect(again.verdict).toBe('could-not-judge');
        expect(again.couldNotJudge?.code).toBe('replay-id-held');
        const fresh = await startAnyTokenStore(code);
        try {
          const onFresh = await runConformance({ baseUrl: fresh.url, token: TOKEN, seed: 42, runs: 40, replay });
          expect(onFresh.verdict).toBe('not-conformant');
        } finally {
          await fresh.close();
        }
      } finally {
        await first.close();
      }
    },
    90_000,
  );
});
