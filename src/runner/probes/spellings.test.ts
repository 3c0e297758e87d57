import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadContract, readNewPlant } from '../../contract/index.js';
import { createFreshIds } from '../generate/fresh-ids.js';
import { createTargetClient } from '../http/client.js';
import { escapedJsonString, splitBodies, stringEscapes } from './spellings.js';

const contract = await loadContract();

describe('escapedJsonString', () => {
  it('is read back by a JSON parser as the same string, whichever escaping', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (value) => {
        for (const escape of ['every character as \\uXXXX', 'solidus as \\/, non-ASCII as \\uXXXX'] as const) {
          expect(JSON.parse(escapedJsonString(value, escape))).toBe(value);
        }
      }),
    );
  });

  it('writes a surrogate pair as two escapes and a solidus as \\/', () => {
    expect(escapedJsonString('a/🌱', 'solidus as \\/, non-ASCII as \\uXXXX')).toBe('"a\\/\\uD83C\\uDF31"');
    expect(escapedJsonString('é', 'every character as \\uXXXX')).toBe('"\\u00e9"');
  });
});

describe('string-escape cases', () => {
  it('are valid NewPlants whose echo is the decoded name', () => {
    const fresh = createFreshIds('0123456789abcdef');
    for (let variant = 0; variant < 2; variant++) {
      const arbitrary = stringEscapes.arbitrary(contract, variant);
      for (const value of fc.sample(arbitrary, { numRuns: 20, seed: variant })) {
        const [plan] = stringEscapes.plan(value, { contract, fresh, salt: `t:${variant}` });
        if (plan?.intent.kind !== 'valid' || plan.body === null) throw new Error('a valid plan');
        const read = readNewPlant(contract, 'application/json', Buffer.from(plan.body));
        expect(read.ok).toBe(true);
        if (read.ok) expect(read.plant.name).toBe(plan.intent.strings.name);
        expect(plan.body).toMatch(/\\u[0-9a-fA-F]{4}/);
      }
    }
  });
});

describe('split-body cases', () => {
  it('reach the server in two reads, the second after a pause, with the whole Content-Length', async () => {
    let reads: { at: number; bytes: number }[] = [];
    let declared = '';
    const server = createServer((req, res) => {
      declared = req.headers['content-length'] ?? '';
      req.on('data', (chunk: Buffer) => reads.push({ at: performance.now(), bytes: chunk.length }));
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"name":"x"}'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const client = createTargetClient({
      baseUrl: `http://127.0.0.1:${port}`,
      token: 'split-token',
      concurrency: 1,
      timeoutMs: 5_000,
      maxBodyBytes: 1024,
    });
    try {
      const [value] = fc.sample(splitBodies.arbitrary(contract, 0), { numRuns: 1, seed: 1 });
      if (value === undefined) throw new Error('a sample');
      const [plan] = splitBodies.plan(value, { contract, fresh: createFreshIds(), salt: 'split' });
      if (!plan?.body) throw new Error('a plan with a body');
      // Up to three sendings: this server shares the test's process, which a loaded machine may leave unscheduled
      // through the pause, and the kernel then hands it both halves in one read. A body sent whole never splits.
      const apart: number[] = [];
      for (let attempt = 0; attempt < 3 && !apart.some((gap) => gap > 100); attempt++) {
        reads = [];
        const exchange = await client.send(plan);
        expect(exchange.response.status).toBe(200);
        expect(reads.reduce((sum, read) => sum + read.bytes, 0)).toBe(Buffer.byteLength(plan.body));
        expect(Number(declared)).toBe(Buffer.byteLength(plan.body));
        if (reads.length === 2) apart.push((reads[1]?.at ?? 0) - (reads[0]?.at ?? 0));
      }
      // The pause is what a server that parses its first read trips over (100 ms: a margin for timers).
      expect(
        apart.some((gap) => gap > 100),
        `gaps between two reads: ${apart.join(', ')} ms`,
      ).toBe(true);
    } finally {
      await client.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
