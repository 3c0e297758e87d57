import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer as createHttpServer, type RequestListener } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { loadContract } from '../../contract/index.js';
import { HAS_PYTHON } from '../../fixtures/documents/python-server.js';
import { listenOnLoopback, type StartedTarget } from '../../fixtures/target-fixture.js';
import { createReferenceHandler } from '../../reference/server.js';
import { reportExitCode } from '../../reports/outcome.js';
import { runConformance } from '../../index.js';
import { CONNECTIONS_AT_ONCE, inWaves, probeConnectionCapacity } from './connection-capacity.js';

const TOKEN = 'capacity-token-5d1e';
const contract = await loadContract();
const handler = createReferenceHandler(contract, { tokens: [TOKEN] });

/**
 * Serves `workers` connections at a time, as a server with that many workers each holding a
 * keep-alive connection does (a single-threaded HTTP/1.1 server: one): later connections wait,
 * unread, until one closes.
 */
async function startLimited(listener: RequestListener, workers = 1): Promise<StartedTarget> {
  const http = createHttpServer({ keepAliveTimeout: 60_000 }, listener);
  const waiting: Socket[] = [];
  let active = 0;
  const next = (): void => {
    if (active >= workers) return;
    const socket = waiting.shift();
    if (socket === undefined) return;
    active++;
    socket.once('close', () => {
      active--;
      next();
    });
    http.emit('connection', socket);
    socket.resume();
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
  it('counts the connections a server serves at once: one, a pool of four, or all asked for', async () => {
    const single = await startLimited(handler);
    started.push(single);
    expect(await probeConnectionCapacity(single.url, 5_000, 16)).toBe(1);
    const four = await startLimited(handler, 4);
    started.push(four);
    expect(await probeConnectionCapacity(four.url, 5_000, 16)).toBe(4);
    const many = createHttpServer(handler);
    await new Promise<void>((resolve) => many.listen(0, '127.0.0.1', resolve));
    started.push({ close: () => new Promise((resolve) => many.close(() => resolve())) });
    const { port } = many.address() as AddressInfo;
    expect(await probeConnectionCapacity(`http://127.0.0.1:${port}`, 5_000, 16)).toBe(16);
  });

  it('does not take a slow but concurrent server for a limited one', async () => {
    const slow = createHttpServer((req, res) => void setTimeout(() => handler(req, res), 800));
    const target = await listenOnLoopback(slow, TOKEN);
    started.push(target);
    expect(await probeConnectionCapacity(target.url, 10_000, 8)).toBe(8);
  });

  it('opens its connections a few at a time, each wave once the last is answered: a listen backlog of 5 loses none', async () => {
    let turn = 0;
    let ticking = true;
    const tick = (): void => void (ticking && (turn++, setImmediate(tick)));
    tick();
    const turns: number[] = [];
    // Answered a turn later, as a server's answers come; one answer is slow, and its wave's time runs out first.
    const answered = await inWaves(
      Array.from({ length: 15 }, (_, index) => index),
      (index) => {
        turns.push(turn);
        return new Promise<number>((resolve) =>
          index === 5 ? setTimeout(() => resolve(index), 200) : setImmediate(() => resolve(index)),
        );
      },
    );
    ticking = false;
    expect(answered).toEqual(Array.from({ length: 15 }, (_, index) => index));
    const perTurn = [...new Set(turns)].map((one) => turns.filter((other) => other === one).length);
    expect(perTurn).toEqual([4, 4, 4, 3]);
    expect(CONNECTIONS_AT_ONCE).toBe(4);
  });

  // A listen backlog of 1 that nothing drains after the first connection: the later ones never get accepted.
  const NEVER_ACCEPTS = [
    'import socket, time',
    'server = socket.create_server(("127.0.0.1", 0), backlog=1)',
    'print(server.getsockname()[1], flush=True)',
    'first, _ = server.accept()',
    'first.recv(65536)',
    'first.sendall(b"HTTP/1.1 400 Bad Request\\r\\nContent-Type: application/json\\r\\nContent-Length: 2\\r\\n\\r\\n{}")',
    'time.sleep(60)',
  ].join('\n');

  it.runIf(HAS_PYTHON)(
    'gives up on connections the target never accepts at its own wait, not at the connect timeout (10 s)',
    async () => {
      const child = spawn('python3', ['-c', NEVER_ACCEPTS], { stdio: ['ignore', 'pipe', 'inherit'] });
      started.push({ close: () => Promise.resolve(void child.kill()) });
      const [line] = (await once(child.stdout, 'data')) as [Buffer];
      expect(await probeConnectionCapacity(`http://127.0.0.1:${line.toString().trim()}`, 3_000, 16)).toBe(1);
    },
    8_000,
  );

  it('knows nothing about a target where nothing listens', async () => {
    const gone = await startLimited(handler);
    await gone.close();
    expect(await probeConnectionCapacity(gone.url, 1_000, 16)).toBeUndefined();
  });
});

describe('runConformance against a target that serves one connection at a time', () => {
  it('uses one connection, so a correct target passes instead of timing out, and says so', async () => {
    const single = await startLimited(handler);
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

describe('runConformance against a target with a fixed pool of three workers', () => {
  it('uses fewer connections than the pool, so a correct target passes instead of timing out', async () => {
    const pool = await startLimited(handler, 3);
    started.push(pool);
    const report = await runConformance({
      baseUrl: pool.url,
      token: TOKEN,
      runs: 10,
      concurrency: 16,
      timeoutMs: 3_000,
      budgetMs: 60_000,
    });
    expect(report.checks.filter((check) => check.status === 'fail')).toEqual([]);
    expect(reportExitCode(report)).toBe(0);
    expect(report.notes.join('\n')).toContain('answered only 3 connections at once');
  }, 90_000);
});
