import { createServer, type Server } from 'node:http';
import { describe, expect, it } from 'vitest';
import { listenOnLoopback } from '../src/fixtures/target-fixture.js';
import { runConformance } from '../src/index.js';
import { jsonRequests } from '../src/fixtures/json-requests.js';

const TOKEN = 'prototype-member-token';

/** The int64 an id's JSON text denotes (`5.0`, `5e0` and `-0` included), else undefined. */
function exactId(text: string): string | undefined {
  const match = /"id"\s*:\s*(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?\s*[,}]/.exec(text);
  if (match === null) return undefined;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  const shift = Number(exponent) - fraction.length;
  const digits = `${whole}${fraction}`.replace(/^0+(?=\d)/, '');
  if (shift < 0 && !digits.endsWith('0'.repeat(-shift))) return undefined;
  if (Math.abs(shift) > 40) return undefined;
  const id = BigInt(`${sign}${shift < 0 ? digits.slice(0, shift) || '0' : digits + '0'.repeat(shift)}`);
  return id <= 2n ** 63n - 1n && id >= -(2n ** 63n) ? id.toString() : undefined;
}

/**
 * A server written with node:http that reads bodies as Fastify's default parser does (secure-json-parse's
 * `protoAction: 'error'`: a body with a `"__proto__"` or `"constructor"` member is "not valid JSON"), and whose
 * developer also added `minLength: 1` to `name`. Ids are kept as their JSON text, so none is read as a double.
 */
async function startServer(): Promise<{ url: string; close(): Promise<void> }> {
  const stored = new Set<string>();
  const server: Server = createServer(
    jsonRequests((req, text, answer) => {
      if (req.headers.authorization !== `Bearer ${TOKEN}`) return answer(401, { error: 401, message: 'Unauthorized' });
      if (req.headers['content-type'] !== 'application/json') return answer(415, { error: 415, message: 'JSON only' });
      if (/"(?:__proto__|constructor)"\s*:/.test(text))
        return answer(400, {
          error: 400,
          message: "Body is not valid JSON but content-type is set to 'application/json'",
        });
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        return answer(400, { error: 400, message: 'Body is not valid JSON' });
      }
      if (body === null || typeof body !== 'object' || Array.isArray(body))
        return answer(400, { error: 400, message: 'body must be object' });
      const { name, tag } = body;
      const id = typeof body.id === 'number' ? exactId(text) : undefined;
      if (id === undefined) return answer(400, { error: 400, message: 'body/id must be integer' });
      if (typeof name !== 'string' || name.length < 1)
        return answer(400, { error: 400, message: 'body/name must NOT have fewer than 1 characters' });
      if ('tag' in body && typeof tag !== 'string') return answer(400, { error: 400, message: 'bad tag' });
      if (stored.has(id)) return answer(400, { error: 409, message: 'exists' });
      stored.add(id);
      answer(200, 'tag' in body ? { name, tag } : { name });
    }),
  );
  return listenOnLoopback(server, TOKEN);
}

describe('a target refusing "__proto__" members (prototype poisoning) and empty names', () => {
  it('has two findings: the prototype member refused is not hidden behind the empty name', async () => {
    const target = await startServer();
    try {
      const report = await runConformance({ baseUrl: target.url, token: TOKEN, seed: 42, concurrency: 4 });
      const titles = (report.findings ?? []).map((finding) => finding.title).sort();
      expect(titles).toEqual([
        'status 400 for a valid NewPlant',
        'status 400 for a valid NewPlant with a "__proto__" or "constructor" member',
      ]);
    } finally {
      await target.close();
    }
  }, 90_000);
});
