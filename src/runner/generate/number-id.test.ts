import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../contract/index.js';
import { listenOnLoopback, randomToken } from '../../fixtures/target-fixture.js';
import { runConformance } from '../../index.js';
import { idSlotOf, newPlantArbitrary } from './new-plant.js';

const NESTJS = fileURLToPath(new URL('../../fixtures/documents/reduced/nestjs-number-id-3.0.json', import.meta.url));

/**
 * A handler written as if the id were an int whatever the document says (Python's `isinstance(id, int)`,
 * Go's `int64` field): it refuses an id written `5.0` or `5e0`, which `type: number` takes.
 */
function startIntOnlyStore() {
  const token = randomToken();
  const seen = new Set<string>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const answer = (status: number, body: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      if (request.headers.authorization !== `Bearer ${token}`) return answer(401, { error: 1, message: 'token' });
      const text = Buffer.concat(chunks).toString('utf8');
      let body: { id?: unknown; name?: unknown; tag?: unknown };
      try {
        body = JSON.parse(text) as typeof body;
      } catch {
        return answer(400, { error: 2, message: 'not JSON' });
      }
      if (/"id"\s*:\s*-?\d+[.eE]/.test(text)) return answer(400, { error: 3, message: 'id must be an integer' });
      if (typeof body.id !== 'number' || typeof body.name !== 'string')
        return answer(400, { error: 4, message: 'bad' });
      const key = String(body.id);
      if (seen.has(key)) return answer(400, { error: 5, message: `A plant with id ${key} already exists.` });
      seen.add(key);
      return answer(200, { id: body.id, name: body.name, ...(body.tag === undefined ? {} : { tag: body.tag }) });
    });
  });
  return listenOnLoopback(server, token);
}

describe('an id the document types as a number (NestJS writes a TypeScript `id: number` so)', () => {
  it('is the id slot of every valid NewPlant that carries it, so its id gets the integer spellings', async () => {
    const contract = await loadContract(NESTJS);
    const drafts = fc.sample(newPlantArbitrary(contract), { seed: 11, numRuns: 50 });
    expect(drafts.length).toBe(50);
    for (const draft of drafts) expect(idSlotOf(draft)?.slot.key).toBe('id');
  });

  it('fails integer-spellings against a target refusing the id written 5.0 or 5e0', async () => {
    const target = await startIntOnlyStore();
    try {
      const report = await runConformance({
        seed: 3,
        runs: 30,
        baseUrl: target.url,
        token: target.token,
        spec: NESTJS,
        checks: ['integer-spellings'],
      });
      const check = report.checks.find((candidate) => candidate.id === 'integer-spellings');
      expect(check?.status).toBe('fail');
    } finally {
      await target.close();
    }
  });
});
