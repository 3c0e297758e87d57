import { fileURLToPath } from 'node:url';
import { BENCH_TOKEN, loadPlants, onCore, type LoadResult } from './load.js';
import { cpuMs, median, residentMiB, startProcess, type BenchProcess } from './processes.js';

const CLI = fileURLToPath(new URL('../src/cli/bin.js', import.meta.url));
const BASELINE = fileURLToPath(new URL('./baseline-server.js', import.meta.url));

async function answers(url: string): Promise<boolean> {
  const res = await fetch(`${url}/plants`, { method: 'POST', body: '{}' });
  await res.arrayBuffer();
  return res.status > 0;
}

/** Starts the reference `plantstore serve` as a user would, in its own process (on `core` only, if given). */
export function startServe(core?: number): Promise<BenchProcess> {
  const args = [CLI, 'serve', '--port', '0', '--quiet'];
  const [command, commandArgs] = core === undefined ? [process.execPath, args] : onCore(core, process.execPath, args);
  return startProcess(command, commandArgs, /listening on (http:\/\/\S+)/, answers, { PLANTSTORE_TOKEN: BENCH_TOKEN });
}

type Measured = LoadResult & { startupMs: number; cpuMicrosPerRequest: number };

const CONTENDERS = [
  ['bare node:http echo', () => startProcess(process.execPath, [BASELINE], /listening on (http:\/\/\S+)/, answers)],
  ['plantstore serve', () => startServe()],
] as const;

async function measure(start: () => Promise<BenchProcess>, seconds: number): Promise<Measured> {
  const server = await start();
  try {
    // Warm-up: the JIT compiles the hot paths and the heap grows to its working size.
    await loadPlants(server.url, { connections: 50, seconds: 2 });
    const cpuBefore = cpuMs(server.pid);
    const load = await loadPlants(server.url, { connections: 50, seconds });
    // CPU time per request is steadier than requests/s when other work shares the machine.
    const cpuMicrosPerRequest = Math.round(((cpuMs(server.pid) - cpuBefore) * 1000) / Math.max(1, load.total));
    return { ...load, cpuMicrosPerRequest, startupMs: Math.round(server.startupMs) };
  } finally {
    await server.stop();
  }
}

/**
 * Reference `serve` against a bare node:http JSON echo, the same load side by side: three rounds of
 * half of `seconds` each (one round with fewer than 10), the two in the other order every other round,
 * and the medians of each figure and of the in-round shares.
 */
export async function benchServe(seconds: number): Promise<Record<string, unknown>> {
  const rounds = seconds >= 10 ? 3 : 1;
  const each = rounds > 1 ? Math.max(3, Math.round(seconds / 2)) : seconds;
  const measured: [bare: Measured, serve: Measured][] = [];
  for (let index = 0; index < rounds; index++) {
    const order = index % 2 === 0 ? CONTENDERS : [...CONTENDERS].reverse();
    const round: Record<string, Measured> = {};
    for (const [name, start] of order) round[name] = await measure(start, each);
    measured.push([round['bare node:http echo'] as Measured, round['plantstore serve'] as Measured]);
  }
  const share = (figure: (bare: Measured, serve: Measured) => number): number =>
    round(median(measured.map(([bare, serve]) => figure(bare, serve))), 100);
  return {
    connections: 50,
    seconds: each,
    rounds,
    results: {
      'bare node:http echo': medianOf(measured.map(([bare]) => bare)),
      'plantstore serve': medianOf(measured.map(([, serve]) => serve)),
    },
    serveShareOfBare: share((bare, serve) => serve.requestsPerSecond / bare.requestsPerSecond),
    serveShareOfBareByCpu: share((bare, serve) => bare.cpuMicrosPerRequest / serve.cpuMicrosPerRequest),
    perRound: measured.map(([bare, serve]) => ({
      'bare node:http echo': `${Math.round(bare.requestsPerSecond)} req/s, ${bare.cpuMicrosPerRequest} µs`,
      'plantstore serve': `${Math.round(serve.requestsPerSecond)} req/s, ${serve.cpuMicrosPerRequest} µs`,
    })),
    // On two cores autocannon takes one: requests/s then measures the load generator as much as the
    // server, and CPU time per request is the server's own capacity.
    goal: 'serve >= 60% of the bare node:http requests per second (serveShareOfBareByCpu: capacity from CPU time per request)',
  };
}

/** Each figure's median over the rounds. */
function medianOf(runs: readonly Measured[]): Record<string, number> {
  const fields = Object.keys(runs[0] ?? {}) as (keyof Measured)[];
  return Object.fromEntries(fields.map((field) => [field, round(median(runs.map((run) => Number(run[field]))))]));
}

/**
 * Mixed valid and invalid traffic at 100 connections for `seconds`, sampling the server's resident
 * memory each second: errors, 5xx and memory growth after the warm-up are what matter.
 */
export async function soak(server: BenchProcess, seconds: number): Promise<Record<string, unknown>> {
  const samples: number[] = [];
  const timer = setInterval(() => {
    try {
      samples.push(residentMiB(server.pid));
    } catch {
      // The process may be gone; the load result will say so.
    }
  }, 1000);
  const load = await loadPlants(server.url, { connections: 100, seconds, invalidShare: 0.3 });
  clearInterval(timer);
  const warm = samples.slice(Math.min(10, Math.floor(samples.length / 6)));
  // Flat means no trend: the mean of the first and last sixth of the warm samples, not GC's saw-tooth peaks.
  const window = Math.max(1, Math.floor(warm.length / 6));
  const early = mean(warm.slice(0, window));
  const late = mean(warm.slice(-window));
  return {
    seconds,
    connections: 100,
    load,
    rssMiB: { earlyMean: round(early), lateMean: round(late), peak: round(Math.max(...warm)) },
    rssTrendMiB: round(late - early),
    goal: 'zero errors, zero 5xx, resident memory flat from the 10th second on (late mean within 10% of early)',
    flat: late <= early * 1.1,
  };
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
}

function round(value: number, scale = 10): number {
  return Math.round(value * scale) / scale;
}
