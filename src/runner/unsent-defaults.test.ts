import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { listenOnLoopback } from '../fixtures/target-fixture.js';
import { runConformance } from '../index.js';
import { unsentLeftOutDefect } from './findings.js';
import { jsonRequests } from '../fixtures/json-requests.js';

const TOKEN = 'unsent-defaults-token';
const SPEC = fileURLToPath(new URL('../fixtures/documents/reduced/request-defaults-3.1.yaml', import.meta.url));
const SOURCES = ['nursery', 'cutting', 'seed'];

/**
 * A server for the document whose NewPlant gives `source` and `quantity` defaults and whose Plant requires them,
 * written with node:http as a Fastify route with ajv's `useDefaults` turned off: it checks what was sent, and
 * answers with the members the request held, so a plant sent without them comes back without them.
 */
async function startServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(
    jsonRequests((req, received, answer) => {
      if (req.headers.authorization !== `Bearer ${TOKEN}`) return answer(401, { error: 401, message: 'Unauthorized' });
      if (req.headers['content-type'] !== 'application/json') return answer(415, { error: 415, message: 'JSON only' });
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(received) as Record<string, unknown>;
      } catch {
        return answer(400, { error: 400, message: 'malformed JSON' });
      }
      const refuse = (message: string) => answer(400, { error: 400, message });
      if (body === null || typeof body !== 'object' || Array.isArray(body)) return refuse('body must be object');
      const extra = Object.keys(body).find((key) => !['id', 'name', 'source', 'quantity'].includes(key));
      if (extra !== undefined) return refuse(`${extra} is not allowed`);
      const { id, name, source, quantity } = body;
      if (!Number.isInteger(id) || (id as number) <= 0) return refuse('id must be a positive integer');
      if (typeof name !== 'string') return refuse('name must be a string');
      if ('source' in body && !SOURCES.includes(source as string)) return refuse('source is not one of the sources');
      if (
        'quantity' in body &&
        !(Number.isInteger(quantity) && (quantity as number) > 0 && (quantity as number) <= 100)
      )
        return refuse('quantity must be an integer from 1 to 100');
      answer(200, { name, ...('source' in body ? { source } : {}), ...('quantity' in body ? { quantity } : {}) });
    }),
  );
  return listenOnLoopback(server, TOKEN);
}

describe('a target that leaves the document defaults out of its Plant', () => {
  it('is one finding whichever properties it left out', async () => {
    const target = await startServer();
    try {
      const report = await runConformance({ baseUrl: target.url, token: TOKEN, spec: SPEC, seed: 42, concurrency: 4 });
      expect((report.findings ?? []).map((finding) => finding.title)).toEqual([unsentLeftOutDefect('200')]);
    } finally {
      await target.close();
    }
  }, 90_000);
});
