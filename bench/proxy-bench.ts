import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGE_ROOT } from '../src/contract/package-files.js';
import { BENCH_TOKEN, loadPlants, type LoadResult } from './load.js';
import { cpuMs, startProcess, type BenchProcess } from './processes.js';
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
async function startPrismProxy(upstream: string): Promise<BenchProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(PRISM, ['proxy', '-h', '127.0.0.1', '-p', String(port), '-v', 'silent', SPEC, upstream], {
    stdio: 'ignore',
  });
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

function startPlantstoreProxy(upstream: string, quiet: boolean): Promise<BenchProcess> {
  return startProcess(
    process.execPath,
    [
      CLI,
      'proxy',
      '--upstream',
      upstream,
      '--port',
      '0',
      '--out',
      join(PACKAGE_ROOT, 'reports', 'proxy-bench'),
      ...(quiet ? ['--quiet'] : []),
    ],
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

function startBareProxy(upstream: string): Promise<BenchProcess> {
  return startProcess(
    process.execPath,
    ['--input-type=module', '-e', BARE_PROXY, upstream],
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

/**
 * `plantstore proxy` against `prism proxy`, both in front of the same `plantstore serve`, in one run:
 * requests/s and p99 of valid POST /plants at 50 connections straight to serve, through plantstore
 * proxy (log off and on), through prism proxy (log off) and through a bare node:http pass-through
 * (the floor), each proxy in its own process, with the CPU microseconds per request of the proxy and
 * of serve behind it.
 */
export async function benchProxy(options: { quick?: boolean } = {}): Promise<object> {
  const seconds = options.quick ? 3 : 10;
  const loadBefore = loadavg()[0] ?? 0;
  const serve = await startServe();
  const results: Record<string, Measured> = {};
  try {
    results['direct to serve'] = await measure(serve.url, serve.pid, undefined, seconds);
    const contenders: [string, () => Promise<BenchProcess>][] = [
      ['plantstore proxy --quiet', () => startPlantstoreProxy(serve.url, true)],
      ['plantstore proxy', () => startPlantstoreProxy(serve.url, false)],
      ['prism proxy -v silent', () => startPrismProxy(serve.url)],
      ['bare node:http pass-through', () => startBareProxy(serve.url)],
    ];
    for (const [name, start] of contenders) {
      const proxy = await start();
      try {
        results[name] = await measure(proxy.url, serve.pid, proxy.pid, seconds);
      } finally {
        await proxy.stop();
      }
    }
  } finally {
    await serve.stop();
  }
  return summary(results, seconds, loadBefore);
}

function summary(results: Record<string, Measured>, seconds: number, loadBefore: number): object {
  const ours = results['plantstore proxy --quiet'];
  const prism = results['prism proxy -v silent'];
  const ratio = (a: number | undefined, b: number | undefined): number | null =>
    a === undefined || b === undefined || b === 0 ? null : Math.round((a / b) * 10) / 10;
  return {
    connections: CONNECTIONS,
    seconds,
    results,
    rpsRatioOverPrism: ratio(ours?.requestsPerSecond, prism?.requestsPerSecond),
    cpuPerRequestRatioPrismOverOurs: ratio(prism?.proxyCpuMicrosPerRequest, ours?.proxyCpuMicrosPerRequest),
    proxyCpuOverUpstreamCpu: ratio(ours?.proxyCpuMicrosPerRequest, ours?.upstreamCpuMicrosPerRequest),
    bareCpuOverUpstreamCpu: ratio(
      results['bare node:http pass-through']?.proxyCpuMicrosPerRequest,
      results['bare node:http pass-through']?.upstreamCpuMicrosPerRequest,
    ),
    loadAverage: { before: loadBefore, after: loadavg()[0] ?? 0 },
    goal: "plantstore proxy >= 5x prism proxy requests/s; the proxy's own CPU per request <= serve's (proxyCpuOverUpstreamCpu <= 1)",
  };
}
