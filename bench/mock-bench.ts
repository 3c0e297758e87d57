import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGE_ROOT } from '../src/contract/package-files.js';
import { BENCH_TOKEN, loadPlants, type LoadResult } from './load.js';
import { cpuMs, median, round1, startProcess, type BenchProcess } from './processes.js';

const CLI = fileURLToPath(new URL('../src/cli/bin.js', import.meta.url));
const BARE_ECHO = fileURLToPath(new URL('./baseline-server.js', import.meta.url));
const PRISM = join(PACKAGE_ROOT, 'node_modules', '.bin', 'prism');
const SPEC = join(PACKAGE_ROOT, 'openapi.yaml');
const CONNECTIONS = 50;

/** A first answer of any kind means the server is up. */
async function answers(url: string): Promise<boolean> {
  const res = await fetch(`${url}/plants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${BENCH_TOKEN}`, 'content-type': 'application/json' },
    body: '{"id":1,"name":"first"}',
  });
  await res.arrayBuffer();
  return res.status > 0;
}

/** Prism's CLI needs a port number up front: ask the OS for a free one. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Spawns a server that prints nothing and polls `url` until it answers. */
async function startSilent(command: string, args: readonly string[], url: string): Promise<BenchProcess> {
  const started = performance.now();
  const child = spawn(PRISM, args, { stdio: 'ignore' });
  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 3000).unref();
    });
  while (!(await answers(url).catch(() => false))) {
    if (child.exitCode !== null || performance.now() - started > 30_000) {
      await stop();
      throw new Error(`${command} never answered at ${url}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return { url, pid: child.pid ?? 0, startupMs: performance.now() - started, stop };
}

interface Contender {
  readonly name: string;
  start(): Promise<BenchProcess>;
}

function contenders(quiet: boolean): Contender[] {
  const ready = /listening on (http:\/\/\S+)/;
  return [
    {
      name: quiet ? 'prism mock -v silent' : 'prism mock',
      start: async () => {
        const port = String(await freePort());
        const args = ['mock', '-h', '127.0.0.1', '-p', port, ...(quiet ? ['-v', 'silent'] : []), SPEC];
        // With -v silent Prism prints no ready line: wait for its first answer instead.
        return quiet ? startSilent(PRISM, args, `http://127.0.0.1:${port}`) : startProcess(PRISM, args, ready, answers);
      },
    },
    {
      name: quiet ? 'plantstore mock --quiet' : 'plantstore mock',
      start: () =>
        startProcess(process.execPath, [CLI, 'mock', '--port', '0', ...(quiet ? ['--quiet'] : [])], ready, answers, {
          PLANTSTORE_TOKEN: BENCH_TOKEN,
        }),
    },
  ];
}

/** What one contender did under load, with the CPU time its server process spent per answered request. */
type Measured = LoadResult & { startupMs: number; cpuMicrosPerRequest: number };

async function measure(contender: Contender, seconds: number): Promise<Measured> {
  const server = await contender.start();
  try {
    await loadPlants(server.url, { connections: CONNECTIONS, seconds: Math.min(2, seconds) });
    // CPU time says what a request costs even when other work shares the cores and lowers requests/s.
    // (prism mock serves from its own process unless NODE_ENV=production makes it fork.)
    const cpuBefore = cpuMs(server.pid);
    const load = await loadPlants(server.url, { connections: CONNECTIONS, seconds });
    const cpuMicrosPerRequest = Math.round(((cpuMs(server.pid) - cpuBefore) * 1000) / Math.max(1, load.total));
    return { ...load, startupMs: Math.round(server.startupMs), cpuMicrosPerRequest };
  } finally {
    await server.stop();
  }
}

/** Each figure's median over the rounds. */
function medianOf(runs: readonly Measured[]): Record<string, number | null> {
  const fields = Object.keys(runs[0] ?? {}) as (keyof Measured)[];
  return Object.fromEntries(fields.map((field) => [field, round1(median(runs.map((run) => Number(run[field]))))]));
}

/** One pair (prism, ours) over the rounds: medians of each figure and of the in-round ratios. */
function pairSummary(runs: readonly (readonly [Measured, Measured])[], names: readonly [string, string]): object {
  return {
    results: { [names[0]]: medianOf(runs.map(([prism]) => prism)), [names[1]]: medianOf(runs.map(([, ours]) => ours)) },
    rpsRatio: round1(median(runs.map(([prism, ours]) => ours.requestsPerSecond / prism.requestsPerSecond))),
    cpuPerRequestRatio: round1(
      median(runs.map(([prism, ours]) => prism.cpuMicrosPerRequest / Math.max(1, ours.cpuMicrosPerRequest))),
    ),
    mockP99Ms: round1(median(runs.map(([, ours]) => ours.p99Ms))),
  };
}

/**
 * `plantstore mock` against `prism mock` on the same openapi.yaml: the same valid POST /plants
 * requests at 50 connections, one server after the other, each in its own process, with their
 * default request logs and again with logging off, over several rounds (medians). Reports requests/s, p99 latency, the time from spawn to first answer and the
 * server's CPU microseconds per request, and the ratios of requests/s and of CPU per request
 * (prism's over ours).
 */
export async function benchMock(options: { quick?: boolean } = {}): Promise<object> {
  const seconds = options.quick ? 3 : 5;
  const rounds = options.quick ? 1 : 3;
  // Other processes on the machine change every figure: the 1-minute load average says how busy it was.
  const loadBefore = loadavg()[0] ?? 0;
  // Not pinned to cores: on a busy machine a server pinned to one core cannot move off it, and two
  // cores shared with autocannon measured closer to a quiet run.
  const runs: Record<string, [Measured, Measured][]> = { 'default logging': [], 'logging off': [] };
  const ceilings: Measured[] = [];
  for (let i = 0; i < rounds; i++) {
    for (const quiet of [false, true]) {
      const [prism, ours] = contenders(quiet);
      if (!prism || !ours) continue;
      runs[quiet ? 'logging off' : 'default logging']?.push([
        await measure(prism, seconds),
        await measure(ours, seconds),
      ]);
    }
    // The ceiling on this machine: node:http echoing JSON.parse'd bodies, no auth, no validation.
    ceilings.push(await measure(bareEcho(), seconds));
  }
  return summary(runs, ceilings, { seconds, loadBefore });
}

function bareEcho(): Contender {
  return {
    name: 'bare node:http echo',
    start: () => startProcess(process.execPath, [BARE_ECHO], /listening on (http:\/\/\S+)/, answers),
  };
}

function summary(
  runs: Record<string, [Measured, Measured][]>,
  ceilings: readonly Measured[],
  context: { seconds: number; loadBefore: number },
): object {
  const logged = runs['default logging'] ?? [];
  const pairs = {
    'default logging': pairSummary(logged, ['prism mock', 'plantstore mock']),
    'logging off': pairSummary(runs['logging off'] ?? [], ['prism mock -v silent', 'plantstore mock --quiet']),
  };
  const ratio = round1(median(logged.map(([prism, ours]) => ours.requestsPerSecond / prism.requestsPerSecond)));
  const p99 = round1(median(logged.map(([, ours]) => ours.p99Ms)));
  const ceiling = medianOf(ceilings);
  return {
    connections: CONNECTIONS,
    seconds: context.seconds,
    rounds: logged.length,
    pairs,
    ceiling: {
      name: 'bare node:http echo',
      requestsPerSecond: ceiling.requestsPerSecond,
      p99Ms: ceiling.p99Ms,
      cpuMicrosPerRequest: ceiling.cpuMicrosPerRequest,
    },
    loadAverage: { before: context.loadBefore, after: loadavg()[0] ?? 0 },
    goals: [
      {
        goal: "plantstore mock at least 10x prism mock's requests/s, p99 under 10 ms at 50 connections (logging on for both)",
        figure: `${ratio ?? '?'}x requests/s, p99 ${p99 ?? '?'} ms (median of ${logged.length} rounds)`,
        pass: (ratio ?? 0) >= 10 && p99 !== null && p99 < 10,
      },
    ],
  };
}
