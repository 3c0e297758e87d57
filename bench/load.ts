import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import autocannon from 'autocannon';

/** What one load run measured. */
export interface LoadResult {
  readonly requestsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly status2xx: number;
  readonly status4xx: number;
  readonly status5xx: number;
  readonly total: number;
}

/** The token every benchmarked server is started with (not a secret: a local benchmark value). */
export const BENCH_TOKEN = 'plantstore-bench-token';

/**
 * Loads `url` with POST /plants for `seconds` at `connections`: valid NewPlants with fresh ids, and,
 * when `invalidShare` > 0, that share of invalid bodies (missing field, wrong type, malformed JSON, no token).
 */
export async function loadPlants(
  url: string,
  options: { connections: number; seconds: number; invalidShare?: number; token?: string },
): Promise<LoadResult> {
  let next = 1_000_000_000_000n + BigInt(Math.floor(Math.random() * 1e9)) * 1_000_000n;
  const invalid = [
    { body: '{"name":"no id"}', auth: true },
    { body: '{"id":"12","name":"string id"}', auth: true },
    { body: '{"id":1,', auth: true },
    { body: '{"id":1,"name":"no token"}', auth: false },
  ];
  let counter = 0;
  const token = options.token ?? BENCH_TOKEN;
  const result = await autocannon({
    url: `${url}/plants`,
    connections: options.connections,
    duration: options.seconds,
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    requests: [
      {
        setupRequest: (request) => {
          counter++;
          const share = options.invalidShare ?? 0;
          if (share > 0 && counter % Math.round(1 / share) === 0) {
            const pick = invalid[counter % invalid.length] ?? invalid[0]!;
            const headers: Record<string, string> = { 'content-type': 'application/json' };
            if (pick.auth) headers.authorization = `Bearer ${token}`;
            return { ...request, headers, body: pick.body };
          }
          next++;
          return { ...request, body: `{"id":${next},"name":"Fern ${counter}","tag":"fern"}` };
        },
      },
    ],
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors,
    timeouts: result.timeouts,
    status2xx: result['2xx'],
    status4xx: result['4xx'],
    status5xx: result['5xx'],
    total: result.requests.total,
  };
}

/**
 * The core a server under benchmark gets to itself, and the one the load generator and the servers
 * behind it share: on two cores autocannon takes most of one, and requests/s would measure it.
 */
export const CORES = { underTest: 1, rest: 0 } as const;

/**
 * Whether to pin processes to cores: only when PLANTSTORE_BENCH_PIN=1 asks for it, and only where it
 * can be done (Linux with `taskset`, at least two cores). Off by default: on a busy machine a pinned
 * process cannot move off its core, and on a quiet one the load generator and the serve behind a
 * proxy then share one core, which limits the fastest proxy before the proxy does.
 */
export function canPin(): boolean {
  if (process.env.PLANTSTORE_BENCH_PIN !== '1') return false;
  if (process.platform !== 'linux' || availableParallelism() < 2) return false;
  return spawnSync('taskset', ['-c', '0', 'true'], { stdio: 'ignore' }).status === 0;
}

/** `command args` run on `core` only (through `taskset`, which execs it: the pid is the command's). */
export function onCore(core: number, command: string, args: readonly string[]): [string, string[]] {
  return ['taskset', ['-c', String(core), command, ...args]];
}

/**
 * Pins every thread of this process (the load generator) to `core` until the returned function is
 * called, which gives back the cores it had.
 */
export function pinSelf(core: number): () => void {
  const before = /list:\s*(\S+)/.exec(
    spawnSync('taskset', ['-c', '-p', String(process.pid)], { encoding: 'utf8' }).stdout,
  )?.[1];
  spawnSync('taskset', ['-a', '-c', '-p', String(core), String(process.pid)], { stdio: 'ignore' });
  return () => {
    if (before !== undefined)
      spawnSync('taskset', ['-a', '-c', '-p', before, String(process.pid)], { stdio: 'ignore' });
  };
}
