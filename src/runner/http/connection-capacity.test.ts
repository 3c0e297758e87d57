import { createServer as createHttpServer, type RequestListener } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { loadContract } from '../../contract/index.js';
import { listenOnLoopback, type StartedTarget } from '../../fixtures/target-fixture.js';
import { createReferenceHandler } from '../../reference/server.js';
import { reportExitCode } from '../report.js';
import { runConformance } from '../run.js';
import { probeConnectionCapacity } from './connection-capacity.js';

const TOKEN = 'capacity-token-5d1e';
const contract = await loadContract();
const handler = createReferenceHandler(contract, { tokens: [TOKEN] });

/**
 * Serves one connection at a time, as a single-threaded HTTP/1.1 server does: later connections wait,
 * unread, until the current one closes; the current one is kept alive between requests.
 */
async function startOneAtATime(listener: RequestListener): Promise<StartedTarget> {
  const http = createHttpServer({ keepAliveTimeout: 60_000 }, listener);
  const waiting: Socket[] = [];
  let active: Socket | undefined;
  const next = (): void => {
    if (active !== undefined) return;
    active = waiting.shift();
    if (active === undefined) return;
    active.once('close', () => {
      active = undefined;
      next();
    });
    http.emit('connection', active);
    active.resume();
  };
  const server = createNetServer({ pauseOnConnect: true }, (socket) => {
    waiting.push(socket);
    next();
  });
  return listenOnLoopback(server, TOKEN);
}

const started: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.close()));
});

describe('probeConnectionCapacity', () => {
  it('tells a server that serves one connection at a time from one that serves many', async () => {
    const single = await startOneAtATime(handler);
    started.push(single);
    expect(await probeConnectionCapacity(single.url, 5_000)).toBe('one-at-a-time');
    const many = createHttpServer(handler);
    await new Promise<void>((resolve) => many.listen(0, '127.0.0.1', resolve));
    started.push({ close: () => new Promise((resolve) => many.close(() => resolve())) });
    const { port } = many.address() as AddressInfo;
    expect(await probeConnectionCapacity(`http://127.0.0.1:${port}`, 5_000)).toBe('concurrent');
  });

  it('knows nothing about a target where nothing listens', async () => {
    const gone = await startOneAtATime(handler);
    await gone.close();
    expect(await probeConnectionCapacity(gone.url, 1_000)).toBe('unknown');
  });
});

describe('runConformance against a target that serves one connection at a time', () => {
  it('uses one connection, so a correct target passes instead of timing out, and says so', async () => {
    const single = await startOneAtATime(handler);
    started.push(single);
    const report = await runConformance({
      baseUrl: single.url,
      token: TOKEN,
      runs: 10,
      concurrency: 8,
      timeoutMs: 3_000,
      budgetMs: 60_000,
    });
    expect(report.checks.filter((check) => check.status === 'fail')).toEqual([]);
    expect(reportExitCode(report)).toBe(0);
    expect(report.notes.join('\n')).toContain('serves one connection at a time');
  }, 90_000);
});
