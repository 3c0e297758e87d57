import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGE_ROOT } from '../src/contract/package-files.js';
import { BENCH_TOKEN, loadPlants, type LoadResult } from './load.js';
import { cpuMs, median, round1, type BenchProcess } from './processes.js';

const CLI = fileURLToPath(new URL('../src/cli/bin.js', import.meta.url));
const BARE_ECHO = fileURLToPath(new URL('./baseline-server.js', import.meta.url));
const PRISM = join(PACKAGE_ROOT, 'node_modules', '.bin', 'prism');
const SPEC = join(PACKAGE_ROOT, 'openapi.yaml');
const CONNECTIONS = 50;
const READY = /listening on (http:\/\/\S+)/;

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

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Spawns a server whose stdout (its request log) goes to a file, as `> server.log` would, and waits
 * for its first answer: at `url`, or at the URL its ready line in that file names. A log read
 * through a pipe by this process would be read by the load generator's own process, on a core it
 * needs, and the faster server, writing more lines per second, would slow its own load the most.
 */
async function startLoggingToFile(
  command: string,
  args: readonly string[],
  options: { env?: Record<string, string>; url?: string } = {},
): Promise<BenchProcess> {
  const started = performance.now();
  const directory = mkdtempSync(join(tmpdir(), 'plantstore-bench-'));
  const logFile = join(directory, 'stdout.log');
  const log = openSync(logFile, 'w');
  const child = spawn(command, args, { env: { ...process.env, ...options.env }, stdio: ['ignore', log, 'ignore'] });
  closeSync(log);
  const stop = (): Promise<void> =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 3000).unref();
    }).finally(() => rmSync(directory, { recursive: true, force: true }));
  for (;;) {
    const url = options.url ?? READY.exec(readFileSync(logFile, 'utf8').slice(0, 4096))?.[1];
    if (url !== undefined && (await answers(url).catch(() => false))) {
      return { url, pid: child.pid ?? 0, startupMs: performance.now() - started, stop };
    }
    if (child.exitCode !== null || performance.now() - started > 30_000) {
      await stop();
      throw new Error(`${command} ${args.join(' ')} never answered`);
    }
    await pause(10);
  }
}

interface Contender {
  readonly name: string;
  start(): Promise<BenchProcess>;
}

function prism(quiet: boolean): Contender {
  return {
    name: quiet ? 'prism mock -v silent' : 'prism mock',
    start: async () => {
      const port = String(await freePort());
      const args = ['mock', '-h', '127.0.0.1', '-p', port, ...(quiet ? ['-v', 'silent'] : []), SPEC];
      return startLoggingToFile(PRISM, args, { url: `http://127.0.0.1:${port}` });
    },
  };
}

function plantstore(quiet: boolean): Contender {
  return {
    name: quiet ? 'plantstore mock --quiet' : 'plantstore mock',
    start: () =>
      startLoggingToFile(process.execPath, [CLI, 'mock', '--port', '0', ...(quiet ? ['--quiet'] : [])], {
        env: { PLANTSTORE_TOKEN: BENCH_TOKEN },
      }),
  };
}

/** The machine's own floor: node:http echoing JSON.parse'd bodies, no auth, no validation. */
const BARE_ECHO_CONTENDER: Contender = {
  name: 'bare node:http echo',
  start: () => startLoggingToFile(process.execPath, [BARE_ECHO]),
};

/** What one contender did under load, with the CPU time its server process spent per answered request. */
type Measured = LoadResult & { startupMs: number; cpuMicrosPerRequest: number };

async function measure(contender: Contender, seconds: number): Promise<Measured> {
  const server = await contender.start();
  try {
    // Warm-up: the JIT compiles the hot paths and the heap grows to its working size.
    await loadPlants(server.url, { connections: CONNECTIONS, seconds: 2 });
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

const KEYS = ['prism', 'plantstore', 'prismQuiet', 'plantstoreQuiet', 'bare'] as const;
type Key = (typeof KEYS)[number];
type Round = Record<Key, Measured>;

const CONTENDERS: Record<Key, Contender> = {
  prism: prism(false),
  plantstore: plantstore(false),
  prismQuiet: prism(true),
  plantstoreQuiet: plantstore(true),
  bare: BARE_ECHO_CONTENDER,
};

/**
 * The order of round `index`: rotated each round and reversed every other one, so no contender
 * always meets the start or the end of a round (a machine's load drifts within a minute).
 */
export function roundOrder(index: number): Key[] {
  const shift = index % KEYS.length;
  const rotated = [...KEYS.slice(shift), ...KEYS.slice(0, shift)];
  return index % 2 === 0 ? rotated : rotated.reverse();
}

/**
 * `plantstore mock` against `prism mock` on the same openapi.yaml: the same valid POST /plants
 * requests at 50 connections, each server in its own process, with their default request logs (to a
 * file) and again with logging off, and a bare node:http echo in every round as the machine's own
 * floor. Rounds are interleaved (see {@link roundOrder}); each figure is the median of its rounds,
 * each ratio the median of the in-round ratios, and every round's figures are kept.
 */
export async function benchMock(options: { quick?: boolean } = {}): Promise<object> {
  const seconds = options.quick ? 2 : 4;
  const rounds = options.quick ? 1 : 5;
  // Other processes on the machine change every figure: the 1-minute load average says how busy it was.
  const loadBefore = loadavg()[0] ?? 0;
  // Not pinned to cores: on a busy machine a server pinned to one core cannot move off it, and two
  // cores shared with autocannon measured closer to a quiet run.
  const measured: Round[] = [];
  for (let index = 0; index < rounds; index++) {
    const round: Partial<Round> = {};
    for (const key of roundOrder(index)) round[key] = await measure(CONTENDERS[key], seconds);
    measured.push(round as Round);
  }
  return summary(measured, { seconds, loadBefore });
}

/** Each figure's median over the rounds. */
function medianOf(runs: readonly Measured[]): Record<string, number | null> {
  const fields = Object.keys(runs[0] ?? {}) as (keyof Measured)[];
  return Object.fromEntries(fields.map((field) => [field, round1(median(runs.map((run) => Number(run[field]))))]));
}

const inRounds = (rounds: readonly Round[], figure: (round: Round) => number): number | null =>
  round1(median(rounds.map(figure)));

/** One pair (prism, ours) over the rounds: medians of each figure and of the in-round ratios. */
function pairSummary(rounds: readonly Round[], [theirs, ours]: readonly [Key, Key]): object {
  return {
    results: {
      [CONTENDERS[theirs].name]: medianOf(rounds.map((round) => round[theirs])),
      [CONTENDERS[ours].name]: medianOf(rounds.map((round) => round[ours])),
    },
    rpsRatio: inRounds(rounds, (round) => round[ours].requestsPerSecond / round[theirs].requestsPerSecond),
    cpuPerRequestRatio: inRounds(
      rounds,
      (round) => round[theirs].cpuMicrosPerRequest / Math.max(1, round[ours].cpuMicrosPerRequest),
    ),
    mockP99Ms: inRounds(rounds, (round) => round[ours].p99Ms),
    // The machine's floor in the same rounds: a p99 the bare echo cannot beat is the machine's, not the mock's.
    bareEchoP99Ms: inRounds(rounds, (round) => round.bare.p99Ms),
    shareOfBareEchoRps: inRounds(rounds, (round) => round[ours].requestsPerSecond / round.bare.requestsPerSecond),
  };
}

/** A round's figures, short: requests/s, p99 ms and CPU µs per request of each contender. */
function roundRow(round: Round): Record<string, string> {
  return Object.fromEntries(
    KEYS.map((key) => {
      const { requestsPerSecond, p99Ms, cpuMicrosPerRequest } = round[key];
      return [
        CONTENDERS[key].name,
        `${Math.round(requestsPerSecond)} req/s, p99 ${p99Ms} ms, ${cpuMicrosPerRequest} µs`,
      ];
    }),
  );
}

function summary(rounds: readonly Round[], context: { seconds: number; loadBefore: number }): object {
  const ratio = inRounds(rounds, (round) => round.plantstore.requestsPerSecond / round.prism.requestsPerSecond);
  const p99 = inRounds(rounds, (round) => round.plantstore.p99Ms);
  const bareP99 = inRounds(rounds, (round) => round.bare.p99Ms);
  const ceiling = medianOf(rounds.map((round) => round.bare));
  return {
    connections: CONNECTIONS,
    seconds: context.seconds,
    warmUpSeconds: 2,
    rounds: rounds.length,
    logs: 'each server writes its request log to a file (stdout redirected), not to a pipe the load generator reads',
    pairs: {
      'default logging': pairSummary(rounds, ['prism', 'plantstore']),
      'logging off': pairSummary(rounds, ['prismQuiet', 'plantstoreQuiet']),
    },
    ceiling: {
      name: 'bare node:http echo',
      requestsPerSecond: ceiling.requestsPerSecond,
      p99Ms: ceiling.p99Ms,
      cpuMicrosPerRequest: ceiling.cpuMicrosPerRequest,
    },
    perRound: rounds.map(roundRow),
    loadAverage: { before: context.loadBefore, after: loadavg()[0] ?? 0 },
    goals: [
      {
        goal: "plantstore mock at least 10x prism mock's requests/s, p99 under 10 ms at 50 connections (logging on for both)",
        figure: `${ratio ?? '?'}x requests/s, p99 ${p99 ?? '?'} ms (bare node:http echo ${bareP99 ?? '?'} ms in the same rounds; median of ${rounds.length} rounds)`,
        pass: (ratio ?? 0) >= 10 && p99 !== null && p99 < 10,
      },
    ],
  };
}
