import { randomBytes } from 'node:crypto';
import { runConformance } from '../src/index.js';
import { startProcess, type BenchProcess } from './processes.js';
import { benchRunnerMemory } from './runner-memory.js';

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

interface LatencyRow {
  readonly concurrency: number;
  readonly cases: number;
  readonly wallMs: number;
  /** How many times faster than sending the same cases one after another (concurrency 1). */
  readonly speedupOverSequential: number;
}

/**
 * The runner's speed: cases per second against the in-process reference, and wall time against a
 * reference that answers 20 ms late at concurrency 1 (sequential), 8, the default 16, and 32; and
 * its resident memory over 100,000 cases (10,000 with `quick`).
 */
export async function benchRunner(options: { quick?: boolean } = {}): Promise<object> {
  const runs = options.quick ? 50 : 200;
  await runConformance({ runs: 5, seed: 1 }); // warm-up: JIT, contract, fast-check tables
  const local = await runConformance({ runs, seed: 2 });
  const casesPerSecond = Math.round((local.summary.cases / local.summary.durationMs) * 1000);

  const token = randomBytes(16).toString('base64url');
  const latencyMs = 20;
  const slow = await startSlowReference(token, latencyMs);
  const rows: LatencyRow[] = [];
  try {
    let sequentialMs = 0;
    for (const concurrency of [1, 8, 16, 32]) {
      const started = performance.now();
      const report = await runConformance({ baseUrl: slow.url, token, runs: 100, seed: 3, concurrency });
      const wallMs = Math.round(performance.now() - started);
      if (concurrency === 1) sequentialMs = wallMs;
      rows.push({
        concurrency,
        cases: report.summary.cases,
        wallMs,
        speedupOverSequential: Math.round((sequentialMs / wallMs) * 10) / 10,
      });
    }
  } finally {
    await slow.stop();
  }
  const memory = await benchRunnerMemory(options.quick ? 10_000 : 100_000);
  return {
    inProcessReference: { runs, cases: local.summary.cases, durationMs: local.summary.durationMs, casesPerSecond },
    latencyTarget: { latencyMs, runs: 100, rows },
    goal: 'the default run (concurrency 16) takes at least 10x less than the same cases sent one after another',
    memory,
  };
}
