import { createServer } from 'node:net';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../contract/index.js';
import { listenOnLoopback, type StartedTarget } from '../../fixtures/target-fixture.js';
import { sendSequence } from '../execute.js';
import { createFreshIds } from '../generate/fresh-ids.js';
import { createTargetClient } from '../http/client.js';
import { keepAliveAfterRefusal } from './keep-alive.js';

const contract = await loadContract();
const TOKEN = 'keep-alive-token';

/**
 * A hand-rolled HTTP/1.1 server that keeps connections alive and, with `drains` false, answers a
 * request without a credential before reading its body, as a naive server does.
 */
async function startRawServer(drains: boolean): Promise<StartedTarget> {
  const server = createServer((socket) => {
    let buffered = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buffered.subarray(0, end).toString('latin1');
        const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        const authorized = head.toLowerCase().includes(`authorization: bearer ${TOKEN}`);
        const wellFormed = /^POST \/plants HTTP\/1\.1/.test(head);
        if (!authorized && !drains) {
          buffered = buffered.subarray(end + 4); // the body stays, to be read as the next request
        } else {
          if (buffered.length < end + 4 + length) return;
          buffered = buffered.subarray(end + 4 + length);
        }
        const [status, body] = !wellFormed
          ? [400, 'bad request']
          : authorized
            ? [200, '{"name":"x"}']
            : [401, '{"error":1,"message":"no"}'];
        socket.write(
          `HTTP/1.1 ${status} X\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
        );
      }
    });
  });
  return listenOnLoopback(server, TOKEN);
}

async function secondStatus(drains: boolean): Promise<number> {
  const server = await startRawServer(drains);
  const client = createTargetClient({
    baseUrl: server.url,
    token: TOKEN,
    concurrency: 4,
    timeoutMs: 3_000,
    maxBodyBytes: 4096,
  });
  try {
    const [value] = fc.sample(keepAliveAfterRefusal.arbitrary(contract, 0), { numRuns: 1, seed: 3 });
    if (value === undefined) throw new Error('a sample');
    const plans = keepAliveAfterRefusal.plan(value, { contract, fresh: createFreshIds(), salt: 'keep-alive' });
    const exchanges = await sendSequence(client, plans);
    expect(exchanges[0]?.response.status).toBe(401);
    return exchanges[1]?.response.status ?? 0;
  } finally {
    await client.close();
    await server.close();
  }
}

describe('keep-alive-after-refusal cases', () => {
  it('meet the refused body on the same connection when the server does not read it', async () => {
    expect(await secondStatus(false)).toBe(400);
  });

  it('pass on a server that reads (or discards) the refused body', async () => {
    expect(await secondStatus(true)).toBe(200);
  });
});
