import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGE_ROOT } from '../src/contract/package-files.js';
import { BENCH_TOKEN, canPin, CORES, loadPlants, onCore, pinSelf, type LoadResult } from './load.js';
import { cpuMs, median, round1, startProcess, type BenchProcess } from './processes.js';
import { startServe } from './serve-bench.js';

const CLI = fileURLToPath(new URL('../src/cli/bin.js', import.meta.url));
const PRISM = join(PACKAGE_ROOT, 'node_modules', '.bin', 'prism');
const SPEC = join(PACKAGE_ROOT, 'openapi.yaml');
const CONNECTIONS = 50;

/** A valid POST /plants answered (any status) means the chain is up. */
async function answers(url: string): Promise<boolean> {
  const res = await fetch(`${url}/plants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${BENCH_TOKEN}`, 'content-type': 'application/json' },
    body: `{"id":${Date.now()},"name":"first"}`,
  });
  await res.arrayBuffer();
  return res.status > 0 && res.status < 500;
}

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

/** Prism with `-v silent` prints no ready line: spawn it and poll until the chain answers. */
async function startPrismProxy(upstream: string, core: number | undefined): Promise<BenchProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const [command, args] = placed(core, PRISM, [
    'proxy',
    '-h',
    '127.0.0.1',
    '-p',
    String(port),
    '-v',
    'silent',
    SPEC,
    upstream,
  ]);
  const child = spawn(command, args, { stdio: 'ignore' });
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
      throw new Error(`prism proxy never answered at ${url}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { url, pid: child.pid ?? 0, startupMs: performance.now() - started, stop };
}

/** The command as given, or run on one core only. */
function placed(core: number | undefined, command: string, args: readonly string[]): [string, string[]] {
  return core === undefined ? [command, [...args]] : onCore(core, command, args);
}

function startPlantstoreProxy(upstream: string, quiet: boolean, core: number | undefined): Promise<BenchProcess> {
  const args = [
    CLI,
    'proxy',
    '--upstream',
    upstream,
    '--port',
    '0',
    '--out',
    join(PACKAGE_ROOT, 'reports', 'proxy-bench'),
  ];
  return startProcess(
    ...placed(core, process.execPath, quiet ? [...args, '--quiet'] : args),
    /listening on (http:\/\/\S+),/,
    answers,
    { PLANTSTORE_TOKEN: BENCH_TOKEN },
  );
}

/**
 * The floor of any node:http proxy on this machine: a bare pass-through (node:http in and out,
 * keep-alive, nothing read or judged), so the proxies' CPU per request can be read against it.
 */
const BARE_PROXY = `
import http from 'node:http';
const upstream = new URL(process.argv[1]);
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const server = http.createServer((req, res) => {
  const out = http.request({ hostname: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.rawHeaders, agent });
  out.on('response', (answer) => { res.writeHead(answer.statusCode, answer.rawHeaders); answer.pipe(res); });
  out.on('error', () => res.destroy());
  req.pipe(out);
});
server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port + ','));
`;

/**
 * The floor of any proxy written in Node: bytes copied between two sockets, one upstream connection
 * per client connection, no HTTP read at all (it could neither judge nor fix a header).
 */
const TCP_PASS_THROUGH = `
import net from 'node:net';
const upstream = new URL(process.argv[1]);
const server = net.createServer({ noDelay: true }, (client) => {
  const out = net.connect({ host: upstream.hostname, port: Number(upstream.port), noDelay: true });
  client.on('data', (bytes) => out.write(bytes));
  out.on('data', (bytes) => client.write(bytes));
  client.on('close', () => out.destroy());
  out.on('close', () => client.destroy());
  client.on('error', () => undefined);
  out.on('error', () => undefined);
});
server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port + ','));
`;

function startScript(script: string, upstream: string, core: number | undefined): Promise<BenchProcess> {
  return startProcess(
    ...placed(core, process.execPath, ['--input-type=module', '-e', script, upstream]),
    /listening on (http:\/\/\S+),/,
    answers,
  );
}

/** One way to reach serve under load, with the CPU each process spent per answered request. */
type Measured = LoadResult & { proxyCpuMicrosPerRequest?: number; upstreamCpuMicrosPerRequest: number };

async function measure(
  url: string,
  upstreamPid: number,
  proxyPid: number | undefined,
  seconds: number,
): Promise<Measured> {
  await loadPlants(url, { connections: CONNECTIONS, seconds: Math.min(2, seconds) });
  const upstreamBefore = cpuMs(upstreamPid);
  const proxyBefore = proxyPid === undefined ? 0 : cpuMs(proxyPid);
  const load = await loadPlants(url, { connections: CONNECTIONS, seconds });
  const perRequest = (ms: number): number => Math.round((ms * 1000) / Math.max(1, load.total));
  return {
    ...load,
    upstreamCpuMicrosPerRequest: perRequest(cpuMs(upstreamPid) - upstreamBefore),
    ...(proxyPid === undefined ? {} : { proxyCpuMicrosPerRequest: perRequest(cpuMs(proxyPid) - proxyBefore) }),
  };
}

const OURS = 'plantstore proxy --quiet';
const PRISM_PROXY = 'prism proxy -v silent';
const BARE = 'bare node:http pass-through';
const TCP = 'bare TCP pass-through';

/** Every proxy measured in front of the same serve, in this order each round. */
const CONTENDERS: readonly (readonly [
  string,
  (upstream: string, core: number | undefined) => Promise<BenchProcess>,
])[] = [
  [OURS, (upstream, core) => startPlantstoreProxy(upstream, true, core)],
  ['plantstore proxy', (upstream, core) => startPlantstoreProxy(upstream, false, core)],
  [PRISM_PROXY, startPrismProxy],
  [BARE, (upstream, core) => startScript(BARE_PROXY, upstream, core)],
  [TCP, (upstream, core) => startScript(TCP_PASS_THROUGH, upstream, core)],
];

/** One round: serve alone, then each proxy in front of a serve of its own round. */
async function round(seconds: number, cores: { underTest?: number; rest?: number }): Promise<Record<string, Measured>> {
  const results: Record<string, Measured> = {};
  const alone = await startServe(cores.underTest);
  try {
    results['direct to serve'] = await measure(alone.url, alone.pid, undefined, seconds);
  } finally {
    await alone.stop();
  }
  const serve = await startServe(cores.rest);
  try {
    for (const [name, start] of CONTENDERS) {
      const proxy = await start(serve.url, cores.underTest);
      try {
        results[name] = await measure(proxy.url, serve.pid, proxy.pid, seconds);
      } finally {
        await proxy.stop();
      }
    }
  } finally {
    await serve.stop();
  }
  return results;
}

/**
 * `plantstore proxy` against `prism proxy`, both in front of the same `plantstore serve`: requests/s
 * and p99 of valid POST /plants at 50 connections straight to serve, through plantstore proxy (log
 * off and on), through prism proxy (log off), and through two floors (a bare node:http pass-through
 * and a bare TCP one), each proxy in its own process, with the CPU microseconds per request of the
 * proxy and of serve behind it. With PLANTSTORE_BENCH_PIN=1 the server or proxy under test has a core
 * to itself and autocannon shares the other with serve. Several rounds, medians reported; the ratio
 * of CPU per request is the proxies' capacity on one core, whatever autocannon takes.
 */
export async function benchProxy(options: { quick?: boolean } = {}): Promise<object> {
  const seconds = options.quick ? 3 : 5;
  const rounds = options.quick ? 1 : 3;
  const loadBefore = loadavg()[0] ?? 0;
  const pinned = canPin();
  const unpin = pinned ? pinSelf(CORES.rest) : () => undefined;
  const perRound: Record<string, Measured>[] = [];
  try {
    for (let i = 0; i < rounds; i++) perRound.push(await round(seconds, pinned ? CORES : {}));
  } finally {
    unpin();
  }
  return summary(perRound, { seconds, pinned, loadBefore });
}

/** Each figure's median over the rounds, per way of reaching serve. */
function medians(perRound: readonly Record<string, Measured>[]): Record<string, Record<string, number | null>> {
  const names = Object.keys(perRound[0] ?? {});
  return Object.fromEntries(
    names.map((name) => {
      const runs = perRound.map((results) => results[name]).filter((run): run is Measured => run !== undefined);
      const fields = Object.keys(runs[0] ?? {}) as (keyof Measured)[];
      return [
        name,
        Object.fromEntries(fields.map((field) => [field, round1(median(runs.map((run) => Number(run[field]))))])),
      ];
    }),
  );
}

interface SummaryContext {
  readonly seconds: number;
  readonly pinned: boolean;
  readonly loadBefore: number;
}

function summary(perRound: readonly Record<string, Measured>[], context: SummaryContext): object {
  /** The median over the rounds of a ratio taken within each round, unrounded (goals compare it as it is). */
  const exactRatio = (of: (results: Record<string, Measured>) => [number | undefined, number | undefined]): number =>
    median(
      perRound.map((results) => {
        const [a, b] = of(results);
        return a === undefined || b === undefined || b === 0 ? NaN : a / b;
      }),
    );
  const ratio = (of: (results: Record<string, Measured>) => [number | undefined, number | undefined]): number | null =>
    round1(exactRatio(of));
  const cpuOverServe = (name: string): number | null =>
    ratio((r) => [r[name]?.proxyCpuMicrosPerRequest, r[name]?.upstreamCpuMicrosPerRequest]);
  const exactRpsOverPrism = exactRatio((r) => [r[OURS]?.requestsPerSecond, r[PRISM_PROXY]?.requestsPerSecond]);
  const rpsRatioOverPrism = round1(exactRpsOverPrism);
  const cpuPerRequestRatioPrismOverOurs = ratio((r) => [
    r[PRISM_PROXY]?.proxyCpuMicrosPerRequest,
    r[OURS]?.proxyCpuMicrosPerRequest,
  ]);
  // Two decimals, and the goal judged on the unrounded ratio: 1.04 is more than the upstream's, not "1x".
  const exactCpuOverServe = exactRatio((r) => [
    r[OURS]?.proxyCpuMicrosPerRequest,
    r[OURS]?.upstreamCpuMicrosPerRequest,
  ]);
  const proxyCpuOverUpstreamCpu = Number.isFinite(exactCpuOverServe) ? Math.round(exactCpuOverServe * 100) / 100 : null;
  return {
    connections: CONNECTIONS,
    seconds: context.seconds,
    rounds: perRound.length,
    pinned: context.pinned
      ? `the server or proxy under test alone on core ${CORES.underTest}; autocannon and the serve behind a proxy on core ${CORES.rest}`
      : false,
    results: medians(perRound),
    rpsRatioOverPrism,
    cpuPerRequestRatioPrismOverOurs,
    proxyCpuOverUpstreamCpu,
    loggingProxyCpuOverUpstreamCpu: cpuOverServe('plantstore proxy'),
    bareCpuOverUpstreamCpu: cpuOverServe(BARE),
    tcpCpuOverUpstreamCpu: cpuOverServe(TCP),
    loadAverage: { before: context.loadBefore, after: loadavg()[0] ?? 0 },
    goals: [
      {
        goal: 'plantstore proxy at least 5x prism proxy requests/s',
        figure: `${rpsRatioOverPrism ?? '?'}x requests/s, ${cpuPerRequestRatioPrismOverOurs ?? '?'}x by CPU per request (median of ${perRound.length} rounds)`,
        pass: Number.isFinite(exactRpsOverPrism) && exactRpsOverPrism >= 5,
      },
      {
        goal: "plantstore proxy's own CPU per request no more than the upstream's (serve's)",
        figure: `${proxyCpuOverUpstreamCpu ?? '?'}x serve's (a bare TCP pass-through: ${cpuOverServe(TCP) ?? '?'}x, a bare node:http one: ${cpuOverServe(BARE) ?? '?'}x)`,
        pass: Number.isFinite(exactCpuOverServe) && exactCpuOverServe <= 1,
      },
    ],
  };
}
