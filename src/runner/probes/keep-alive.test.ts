import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../contract/index.js';
import { startRawPlantServer } from '../../fixtures/unread-body-target.js';
import { sendSequence } from '../execute.js';
import { createFreshIds } from '../generate/fresh-ids.js';
import { createTargetClient } from '../http/client.js';
import { keepAliveAfterRefusal } from './keep-alive.js';

const contract = await loadContract();
const TOKEN = 'keep-alive-token';

async function secondStatus(drains: boolean): Promise<number> {
  const server = await startRawPlantServer(TOKEN, drains);
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
