import { createServer, type Server } from 'node:http';
import { parse, stringify } from 'lossless-json';
import { beforeAll, describe, expect, it } from 'vitest';
import { listenOnLoopback } from '../fixtures/target-fixture.js';
import { runConformance } from '../index.js';
import { DOUBLES_DEFECT } from './defects.js';

const TOKEN = 'fraction-doubles-token';

/** Python's `json` as Django REST framework reads it: integers exact, any number with a fraction a double. */
function pythonJson(text: string): unknown {
  return parse(text, null, (value) => (/^-?\d+$/.test(value) ? BigInt(value) : Number.parseFloat(value)));
}

/**
 * A Django REST framework `IntegerField()` without `min_value`/`max_value`, written with node:http: an integer of
 * any size is taken exactly, a double with no fraction left is taken as that integer (`int('9.0'...)` after DRF
 * strips `.0`), ids kept exactly and a repeat refused.
 */
async function startFractionDoublesReader(): Promise<{ url: string; close(): Promise<void> }> {
  const stored = new Set<string>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const answer = (status: number, body: object): void => {
        res.writeHead(status, { 'content-type': 'application/json' }).end(stringify(body));
      };
      if (req.headers.authorization !== `Bearer ${TOKEN}`) return answer(401, { error: 401, message: 'Unauthorized' });
      if (req.headers['content-type'] !== 'application/json') return answer(415, { error: 415, message: 'JSON only' });
      let body: Record<string, unknown>;
      try {
        body = pythonJson(Buffer.concat(chunks).toString()) as Record<string, unknown>;
      } catch {
        return answer(400, { error: 400, message: 'JSON parse error' });
      }
      if (body === null || typeof body !== 'object' || Array.isArray(body))
        return answer(400, { error: 400, message: 'Invalid data. Expected a dictionary.' });
      const { id: raw, name, tag } = body;
      const id = typeof raw === 'bigint' ? raw : Number.isInteger(raw) ? BigInt(raw as number) : undefined;
      if (id === undefined) return answer(400, { error: 400, message: 'A valid integer is required.' });
      if (typeof name !== 'string' || (tag !== undefined && typeof tag !== 'string'))
        return answer(400, { error: 400, message: 'Not a valid string.' });
      if (stored.has(String(id))) return answer(400, { error: 409, message: `id ${String(id)} exists` });
      stored.add(String(id));
      answer(200, tag === undefined ? { id, name } : { id, name, tag });
    });
  });
  return listenOnLoopback(server, TOKEN);
}

describe('a target that reads integers exactly and fractions as doubles, with no int64 range (DRF, PHP)', () => {
  let titles: string[] = [];
  beforeAll(async () => {
    const target = await startFractionDoublesReader();
    try {
      const report = await runConformance({ baseUrl: target.url, token: TOKEN, seed: 42, runs: 100, concurrency: 4 });
      titles = (report.findings ?? []).map((finding) => finding.title);
    } finally {
      await target.close();
    }
  }, 90_000);

  it('does not call the fraction taken for whole integers read as doubles: the ids it echoes keep their digits', () => {
    expect(titles).not.toContain(DOUBLES_DEFECT);
    expect(titles).toContain('an invalid body ("id" set to an integer outside int64) accepted');
  });

  // Two causes (no range; fractions through doubles): a fraction and a range are rules of their own among the id's
  // readings (docs/checks.md), so the case of each is kept (it was one, the range's, hiding the fraction).
  it('shows the fraction taken for whole as a finding of its own', () => {
    expect(titles).toContain('an invalid body ("id" set to 2^53+N.5) accepted');
    expect(titles).toHaveLength(2);
  });
});
