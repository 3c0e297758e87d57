import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runConformance } from '../src/index.js';
import type { Report } from '../src/runner/report.js';
import { median, startProcess, timeProcess, type BenchProcess } from './processes.js';
import { benchRunnerMemory } from './runner-memory.js';

/** The package's `bin`: the bundled CLI (`build/bundle-cli.sh`), as a user runs it. */
const CLI = fileURLToPath(new URL('../bin/plantstore.js', import.meta.url));

/** The oldest Node the package supports (`engines`). */
const SUPPORTED_NODE: readonly [number, number] = [22, 12];

/** A Node binary to time runs on, and its version. */
interface NodeRuntime {
  readonly path: string;
  readonly version: string;
}

/** One goal of issue #13 as measured: what it asks, the figure, and whether the figure meets it. */
export interface GoalMark {
  readonly goal: string;
  readonly figure: string;
  readonly pass: boolean;
}

/**
 * The reference behind a fixed delay before each answer, in its own process (as a remote staging
 * server would be), so its work does not share the runner's core.
 */
function startSlowReference(token: string, latencyMs: number): Promise<BenchProcess> {
  const contract = new URL('../src/contract/index.js', import.meta.url).href;
  const reference = new URL('../src/reference/server.js', import.meta.url).href;
  const script = `
    const { createServer } = await import('node:http');
    const { loadContract } = await import(${JSON.stringify(contract)});
    const { createReferenceHandler } = await import(${JSON.stringify(reference)});
    const handler = createReferenceHandler(await loadContract(), { tokens: [process.env.BENCH_TOKEN] });
    const server = createServer((req, res) => setTimeout(() => handler(req, res), ${latencyMs}));
    server.listen(0, '127.0.0.1', () => console.log('listening http://127.0.0.1:' + server.address().port));`;
  return startProcess(
    process.execPath,
    ['--input-type=module', '-e', script],
    /listening (http:\/\/\S+)/,
    async (url) => (await fetch(`${url}/plants`)).status > 0,
    { BENCH_TOKEN: token },
  );
}

/** Runs the built `plantstore test` with `args` as a whole process; its report's case count beside the timing. */
async function timeTestCommand(
  args: readonly string[],
  env: Record<string, string> = {},
  node: string = process.execPath,
): Promise<{ wallMs: number; cpuMs: number; cases: number }> {
  const out = mkdtempSync(join(tmpdir(), 'plantstore-runner-bench-'));
  try {
    const timing = await timeProcess(node, [CLI, 'test', ...args, '--out', out], { env, cwd: out });
    if (timing.exitCode !== 0) throw new Error(`plantstore test ${args.join(' ')} exited with ${timing.exitCode}`);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
    return { wallMs: timing.wallMs, cpuMs: timing.cpuMs, cases: report.summary.cases };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

type Timing = { wallMs: number; cpuMs: number };

/** Medians of a default run, of loading its modules alone and of a bare start on one Node, and their ratios. */
function verdictFigures(
  node: NodeRuntime,
  bare: readonly Timing[],
  test: readonly (Timing & { cases: number })[],
  load: readonly Timing[],
) {
  const medians = (timings: readonly Timing[]): Timing => ({
    wallMs: median(timings.map((t) => t.wallMs)),
    cpuMs: median(timings.map((t) => t.cpuMs)),
  });
  const bareNode = medians(bare);
  const plantstoreTest = { ...medians(test), cases: median(test.map((t) => t.cases)) };
  const wallRatio = ratio(plantstoreTest.wallMs, bareNode.wallMs);
  const cpuRatio = ratio(plantstoreTest.cpuMs, Math.max(1, bareNode.cpuMs));
  const loadOnly = medians(load);
  const modulesOnly = {
    ...loadOnly,
    wallRatio: ratio(loadOnly.wallMs, bareNode.wallMs),
    cpuRatio: ratio(loadOnly.cpuMs, Math.max(1, bareNode.cpuMs)),
  };
  return { node: node.version, bareNode, plantstoreTest, wallRatio, cpuRatio, modulesOnly };
}

/**
 * The ES modules a default `plantstore test` of the bin imports (its chunks and the build's prebuilt
 * validators, not the bin's own file), as a module hook sees them in one run on `node`.
 */
function defaultRunModules(node: string): string[] {
  const out = mkdtempSync(join(tmpdir(), 'plantstore-modules-'));
  try {
    const hooks = join(out, 'hooks.mjs');
    writeFileSync(
      hooks,
      `export async function load(url, context, next) {
        if (url.startsWith('file:')) process.stderr.write('plantstore-bench-module ' + url + '\\n');
        return next(url, context);
      }`,
    );
    const register = `import { register } from 'node:module'; register(${JSON.stringify(pathToFileURL(hooks).href)});`;
    const args = ['--import', `data:text/javascript,${encodeURIComponent(register)}`, CLI, 'test', '--out', out];
    const { stderr, status } = spawnSync(node, args, { cwd: out, encoding: 'utf8' });
    if (status !== 0) throw new Error(`plantstore test exited with ${status}: ${stderr.slice(-500)}`);
    const bin = pathToFileURL(CLI).href;
    const urls = [...stderr.matchAll(/^plantstore-bench-module (\S+)$/gm)].map((match) => match[1] ?? '');
    return [...new Set(urls)].filter((url) => url !== bin && url.includes('/dist/'));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/**
 * A process that imports `modules` (with Node's compile cache on, as the bin turns it on) and runs
 * nothing: the floor of a default run's start, whatever its cases cost.
 */
function timeModuleLoad(node: string, modules: readonly string[]): Promise<Timing> {
  const script = `import module from 'node:module';
    module.enableCompileCache?.();
    await Promise.all(${JSON.stringify(modules)}.map((url) => import(url)));`;
  return timeProcess(node, ['--input-type=module', '-e', script]);
}

/**
 * A default `plantstore test` (the embedded reference) beside a bare `node -e 0` of the same Node, on
 * each Node given (the running one, and a supported one when the running one is older), alternated so
 * all meet the same machine noise; medians of each. Goal: at most 4x the bare start, wall and CPU, on
 * every Node measured.
 */
async function benchTimeToVerdict(repeats: number, nodes: readonly NodeRuntime[]): Promise<Record<string, unknown>> {
  const bare = nodes.map((): Timing[] => []);
  const test = nodes.map((): (Timing & { cases: number })[] => []);
  const load = nodes.map((): Timing[] => []);
  const modules = nodes.map((node) => defaultRunModules(node.path));
  for (let round = 0; round < repeats; round++) {
    for (const [index, node] of nodes.entries()) {
      bare[index]?.push(await timeProcess(node.path, ['-e', '0']));
      test[index]?.push(await timeTestCommand([], {}, node.path));
      load[index]?.push(await timeModuleLoad(node.path, modules[index] ?? []));
    }
  }
  const [running, ...others] = nodes.map((node, index) =>
    verdictFigures(node, bare[index] ?? [], test[index] ?? [], load[index] ?? []),
  );
  if (!running) throw new Error('no Node to measure');
  const all = [running, ...others];
  const mark: GoalMark = {
    goal: `a default \`plantstore test\` against the embedded reference in at most 4x a bare \`node -e 0\` of the same Node, wall and CPU, on Node ${all.map((f) => f.node).join(' and on Node ')}`,
    figure: all
      .map(
        (f) =>
          `Node ${f.node}: ${f.plantstoreTest.wallMs} ms wall (${f.wallRatio}x), ${f.plantstoreTest.cpuMs} ms CPU (${f.cpuRatio}x) vs ${f.bareNode.wallMs} ms / ${f.bareNode.cpuMs} ms (loading its modules alone: ${f.modulesOnly.cpuMs} ms CPU, ${f.modulesOnly.cpuRatio}x)`,
      )
      .join('; '),
    pass: all.every((f) => f.wallRatio <= 4 && f.cpuRatio <= 4),
  };
  const [supportedNode] = others;
  return { ...running, ...(supportedNode ? { supportedNode } : {}), repeats, mark };
}

/**
 * The Nodes to time a default run on: the running one, and when it is older than the package supports,
 * `--node PATH` or else the newest Node 22 from the npm registry's \`node\` package (installed once
 * under node_modules/.cache, as .ci/consumer-smoke.sh does).
 */
function benchNodes(argv: readonly string[] = process.argv): NodeRuntime[] {
  const running = { path: process.execPath, version: process.versions.node };
  if (isSupported(running.version)) return [running];
  const given = argv[argv.indexOf('--node') + 1];
  const path = argv.includes('--node') && given !== undefined ? given : installedNode(SUPPORTED_NODE[0]);
  if (path === undefined) return [running];
  const version = execFileSync(path, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
  return [running, { path, version }];
}

function isSupported(version: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > SUPPORTED_NODE[0] || (major === SUPPORTED_NODE[0] && minor >= SUPPORTED_NODE[1]);
}

function installedNode(major: number): string | undefined {
  const prefix = fileURLToPath(new URL(`../../node_modules/.cache/plantstore-bench/node${major}`, import.meta.url));
  const node = join(prefix, 'node_modules/.bin/node');
  try {
    if (!existsSync(node)) {
      const quiet = ['--no-audit', '--no-fund', '--loglevel=error'];
      execFileSync('npm', ['install', ...quiet, '--prefix', prefix, `node@${major}`], { stdio: 'ignore' });
    }
    return existsSync(node) ? node : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `plantstore test --runs N` against a reference answering every request 20 ms late, as whole
 * processes: once at `--concurrency 1` (every case after the previous one) and `repeats` times at the
 * default concurrency (median). Goal: the default at least 10x faster than serial.
 */
async function benchSlowTarget(runs: number, repeats: number): Promise<Record<string, unknown>> {
  const token = randomBytes(16).toString('base64url');
  const latencyMs = 20;
  const slow = await startSlowReference(token, latencyMs);
  try {
    const args = ['--base-url', slow.url, '--runs', `${runs}`, '--seed', '3', '--reporter', 'json'];
    const env = { PLANTSTORE_TOKEN: token };
    const serial = await timeTestCommand([...args, '--concurrency', '1'], env);
    const defaults: { wallMs: number; cpuMs: number; cases: number }[] = [];
    for (let round = 0; round < repeats; round++) defaults.push(await timeTestCommand(args, env));
    const wallMs = median(defaults.map((t) => t.wallMs));
    const speedup = ratio(serial.wallMs, wallMs);
    const mark: GoalMark = {
      goal: `\`--runs ${runs}\` against a target answering ${latencyMs} ms late at least 10x faster at the default concurrency (16) than serial`,
      figure: `${wallMs} ms vs ${serial.wallMs} ms serial (${speedup}x), ${serial.cases} cases`,
      pass: speedup >= 10,
    };
    return {
      latencyMs,
      runs,
      serial,
      defaultConcurrency: { wallMs, cpuMs: median(defaults.map((t) => t.cpuMs)), cases: defaults[0]?.cases },
      speedup,
      mark,
    };
  } finally {
    await slow.stop();
  }
}

/**
 * Where a default run's time goes, in one fresh process as the CLI runs it (built-in suites, every
 * reporter, the embedded reference), from `performance.now()` marks: Node's own start, loading the modules, loading
 * and compiling the contract, from there to the first case (reference start, preflight's first
 * request, arbitraries and boundaries), the cases, shrinking, settling the checks, writing reports;
 * then the whole run again, twice, in the same process: the second repeat's wall and CPU time are what
 * a default run costs with the JIT warm and nothing left to load.
 */
function phaseScript(out: string): string {
  const module = (path: string): string => JSON.stringify(new URL(path, import.meta.url).href);
  return `
    const mark = () => performance.now();
    const marks = { start: mark() };
    const { runConformance } = await import(${module('../src/runner/run.js')});
    const { createReporters, REPORTER_NAMES } = await import(${module('../src/reports/index.js')});
    const { BUILT_IN_SUITES } = await import(${module('../suites/index.js')});
    marks.loaded = mark();
    const { loadContract } = await import(${module('../src/contract/index.js')});
    await loadContract();
    marks.contract = mark();
    const sink = { write: () => true };
    const group = createReporters(REPORTER_NAMES, { outDir: ${JSON.stringify(out)}, stdout: sink, stderr: sink });
    const reporters = [{ ...group, onRunEnd: async (report) => { marks.checked ??= mark(); await group.onRunEnd(report); } }];
    const report = await runConformance({ suites: BUILT_IN_SUITES, reporters, onProgress: (event) => {
      if (event.kind === 'case' && event.phase === 'run') { marks.firstCase ??= mark(); marks.lastCase = mark(); }
      if (event.kind === 'case' && event.phase === 'shrink') marks.lastShrink = mark();
      if (event.kind === 'check') marks.checked ??= mark();
    } });
    marks.reported = mark();
    // The same run twice more in this process: the second of them is a default run with the JIT warm.
    const cpu = () => { const used = process.cpuUsage(); return (used.user + used.system) / 1000; };
    let warm;
    for (let again = 0; again < 2; again++) {
      const warmReporters = [createReporters(REPORTER_NAMES, { outDir: ${JSON.stringify(out)}, stdout: sink, stderr: sink })];
      const [startedAt, cpuAt] = [mark(), cpu()];
      await runConformance({ suites: BUILT_IN_SUITES, reporters: warmReporters });
      warm = { ms: mark() - startedAt, cpuMs: cpu() - cpuAt };
    }
    process.stdout.write(JSON.stringify({ marks, warm, cases: report.summary.cases }));`;
}

/** A whole default run (cases, checks, reports) in a process that has already run it twice. */
interface WarmRun {
  readonly ms: number;
  readonly cpuMs: number;
}

async function benchPhases(repeats: number, node: string): Promise<Record<string, number>> {
  const runs: Record<string, number>[] = [];
  for (let round = 0; round < repeats; round++) {
    const out = mkdtempSync(join(tmpdir(), 'plantstore-phases-'));
    try {
      const { stdout } = await runNode(node, ['--input-type=module', '-e', phaseScript(out)]);
      const { marks: m, warm } = JSON.parse(stdout) as { marks: Record<string, number>; warm: WarmRun };
      const at = (name: string): number => m[name] ?? Number.NaN;
      const lastCase = at('lastCase');
      runs.push({
        nodeStartMs: at('start'),
        loadModulesMs: at('loaded') - at('start'),
        loadContractMs: at('contract') - at('loaded'),
        toFirstCaseMs: at('firstCase') - at('contract'),
        casesMs: lastCase - at('firstCase'),
        shrinkMs: (m.lastShrink ?? lastCase) - lastCase,
        settleChecksMs: at('checked') - (m.lastShrink ?? lastCase),
        reportsMs: at('reported') - at('checked'),
        warmRunMs: warm.ms,
        warmRunCpuMs: warm.cpuMs,
      });
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }
  const names = Object.keys(runs[0] ?? {});
  return Object.fromEntries(names.map((name) => [name, Math.round(median(runs.map((run) => run[name] ?? 0)))]));
}

function runNode(node: string, args: readonly string[]): Promise<{ stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.once('close', (code) => (code === 0 ? resolve({ stdout }) : reject(new Error(`exited with ${code}`))));
  });
}

const CASES_PER_SECOND_GOAL = 3_600;

/**
 * The runner's time to verdict (issue #13), each goal with its figure and a pass mark: a default run
 * beside a bare Node start; `--runs 500` against a 20 ms target, serial vs the default concurrency;
 * and 100,000 cases against `serve` (10,000 with `quick`) at no fewer than 3,600 cases/s, memory flat.
 * Also cases per second against the in-process reference, for comparison with earlier figures.
 */
export async function benchRunner(options: { quick?: boolean } = {}): Promise<object> {
  const quick = options.quick === true;
  const nodes = benchNodes();
  const timeToVerdict = await benchTimeToVerdict(quick ? 3 : 7, nodes);
  const phases = await benchPhases(quick ? 1 : 5, process.execPath);
  const supported = nodes[1];
  const supportedPhases = supported ? { phasesSupportedNode: await benchPhases(quick ? 1 : 5, supported.path) } : {};
  const slowTarget = await benchSlowTarget(quick ? 100 : 500, quick ? 1 : 3);
  const memory = await benchRunnerMemory(quick ? 10_000 : 100_000);
  const casesPerSecond = Number(memory.casesPerSecond);
  const throughput: GoalMark = {
    goal: `${quick ? '10,000' : '100,000'} cases against \`plantstore serve\` at no fewer than ${CASES_PER_SECOND_GOAL.toLocaleString('en')} cases/s, resident memory flat once warmed up`,
    figure: `${casesPerSecond} cases/s; ${memoryTrend(memory)}`,
    pass: casesPerSecond >= CASES_PER_SECOND_GOAL && settled(memory),
  };
  const runs = quick ? 50 : 200;
  await runConformance({ runs: 5, seed: 1 }); // warm-up: JIT, contract, fast-check tables
  const local = await runConformance({ runs, seed: 2 });
  return {
    goals: [timeToVerdict.mark, slowTarget.mark, throughput],
    timeToVerdict: { ...timeToVerdict, phases, ...supportedPhases },
    slowTarget,
    memory,
    inProcessReference: {
      runs,
      cases: local.summary.cases,
      casesPerSecond: Math.round((local.summary.cases / local.summary.durationMs) * 1000),
    },
  };
}

type RssMiB = { firstTenthMean: number; middleTenthMean: number; lastTenthMean: number; peak: number };

/**
 * No drift once warmed up: the last tenth's mean RSS within 10% of the middle tenth's. The first
 * tenth holds the warm-up (JIT code, the heap growing to its working size), so a process that starts
 * smaller shows more growth from it at the same steady size; its comparison is shown beside.
 */
function settled(memory: Record<string, unknown>): boolean {
  const rss = memory.rssMiB as RssMiB;
  return rss.lastTenthMean <= rss.middleTenthMean * 1.1 && memory.underGoal === true;
}

function memoryTrend(memory: Record<string, unknown>): string {
  const rss = memory.rssMiB as RssMiB;
  return `RSS ${rss.firstTenthMean} MiB (first tenth) → ${rss.middleTenthMean} (middle) → ${rss.lastTenthMean} (last), peak ${rss.peak} MiB; from the first tenth: ${memory.flat === true ? 'within' : 'beyond'} 10%`;
}

function ratio(value: number, base: number): number {
  return Math.round((value / base) * 10) / 10;
}
