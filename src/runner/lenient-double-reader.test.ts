import { createServer, type Server } from 'node:http';
import { describe, expect, it } from 'vitest';
import { listenOnLoopback } from '../fixtures/target-fixture.js';
import { runConformance } from '../index.js';
import { DOUBLES_DEFECT } from './defects.js';
import { jsonRequests } from '../fixtures/json-requests.js';

const TOKEN = 'lenient-double-token';

/** ajv's `coerceTypes: 'array'` for one scalar: `"12"` or `true` to an integer, `12` or `true` to a string, `null` to 0 or "". */
function coerced(value: unknown, type: 'integer' | 'string'): unknown {
  const scalar = Array.isArray(value) && value.length === 1 ? (value[0] as unknown) : value;
  if (type === 'string') {
    if (scalar === null) return '';
    return typeof scalar === 'number' || typeof scalar === 'boolean' ? String(scalar) : scalar;
  }
  if (scalar === null || scalar === false) return 0;
  if (scalar === true) return 1;
  return typeof scalar === 'string' && /^-?\d+$/.test(scalar) ? Number(scalar) : scalar;
}

/**
 * A Fastify 5 route as its docs show it, written with node:http: the body read with `JSON.parse` (ids beyond
 * 2^53 become doubles), then checked by a schema compiled with Fastify's default ajv options (types coerced),
 * ids stored as the double's text and a repeat refused.
 */
async function startLenientDoubleReader(): Promise<{ url: string; close(): Promise<void> }> {
  const stored = new Set<string>();
  const server: Server = createServer(
    jsonRequests((req, received, answer) => {
      if (req.headers.authorization !== `Bearer ${TOKEN}`) return answer(401, { error: 401, message: 'Unauthorized' });
      if (req.headers['content-type'] !== 'application/json') return answer(415, { error: 415, message: 'JSON only' });
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(received) as Record<string, unknown>;
      } catch {
        return answer(400, { error: 400, message: 'Body is not valid JSON' });
      }
      if (body === null || typeof body !== 'object' || Array.isArray(body))
        return answer(400, { error: 400, message: 'body must be object' });
      const id = coerced(body.id, 'integer');
      const name = coerced(body.name, 'string');
      const tag = 'tag' in body ? coerced(body.tag, 'string') : undefined;
      if (!Number.isInteger(id)) return answer(400, { error: 400, message: 'body/id must be integer' });
      if (typeof name !== 'string' || (tag !== undefined && typeof tag !== 'string'))
        return answer(400, { error: 400, message: 'body/name must be string' });
      if (stored.has(String(id))) return answer(400, { error: 409, message: `id ${String(id)} exists` });
      stored.add(String(id));
      answer(200, tag === undefined ? { name } : { name, tag });
    }),
  );
  return listenOnLoopback(server, TOKEN);
}

describe('a target that reads JSON numbers as doubles and converts types (Fastify with its default ajv)', () => {
  it("names the converted id with the reader's converted name, and shows the doubles by a case that reproduces alone", async () => {
    const target = await startLenientDoubleReader();
    try {
      const report = await runConformance({ baseUrl: target.url, token: TOKEN, seed: 42, runs: 100, concurrency: 4 });
      const findings = report.findings ?? [];
      const titles = findings.map((finding) => finding.title);
      // Three root causes: the doubles, null taken, another type converted (for id, name and tag alike).
      expect(titles).toHaveLength(3);
      expect(new Set(titles).size).toBe(titles.length);
      expect(titles).toContain(DOUBLES_DEFECT);
      const doubles = findings.find((finding) => finding.title === DOUBLES_DEFECT)?.counterexample;
      // A fresh instance refuses no id alone: the case shown is accepted wrongly, or sends the ids that collide.
      expect(doubles !== undefined && (doubles.response.status === 200 || doubles.curl.includes('\n'))).toBe(true);
    } finally {
      await target.close();
    }
  }, 90_000);
});
