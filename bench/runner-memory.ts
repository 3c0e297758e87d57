import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadContract } from '../src/contract/index.js';
import { caseCount } from '../src/runner/cases.js';
import type { Report } from '../src/runner/report.js';
import { selectChecks } from '../src/runner/selection.js';
import { BUILT_IN_SUITES } from '../suites/index.js';
import { BENCH_TOKEN } from './load.js';
import { residentMiB } from './processes.js';
import { startServe } from './serve-bench.js';

const CLI = fileURLToPath(new URL('../src/cli/bin.js', import.meta.url));
const GOAL_MB = 200;
const MIB = 2 ** 20;

/** The smallest `--runs` whose default run plans at least `cases` cases (each probe gets its share of the runs). */
export async function runsForCases(cases: number): Promise<{ runs: number; plannedCases: number }> {
  const contract = await loadContract();
  const { sentProbes } = selectChecks(BUILT_IN_SUITES);
  const planned = (runs: number): number =>
    [...sentProbes].reduce((sum, probe) => sum + caseCount(probe, runs, contract), 0);
  let runs = Math.max(1, Math.floor((cases / planned(10_000)) * 10_000) - 10);
  while (planned(runs) < cases) runs++;
  return { runs, plannedCases: planned(runs) };
}

/**
 * The runner's resident memory over a long run: `plantstore test` (the built CLI, so the measured
 * process is the runner alone) against `plantstore serve` in another process, its RSS read from
 * /proc each second. Flat means no trend: the mean of the last tenth of the samples against the first.
 */
export async function benchRunnerMemory(targetCases: number): Promise<Record<string, unknown>> {
  const { runs, plannedCases } = await runsForCases(targetCases);
  const server = await startServe();
  const out = mkdtempSync(join(tmpdir(), 'plantstore-runner-memory-'));
  try {
    // Generous: the run must end by sending every case, not by its budget.
    const budgetMs = Math.max(600_000, plannedCases * 10);
    const args = ['test', '--base-url', server.url, '--runs', `${runs}`, '--seed', '7', '--budget', `${budgetMs}`];
    const started = performance.now();
    const child = spawn(process.execPath, [CLI, ...args, '--reporter', 'json', '--out', out], {
      env: { ...process.env, PLANTSTORE_TOKEN: BENCH_TOKEN },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const { samples, exitCode, stderr } = await sampleUntilExit(child, 1000);
    const wallMs = Math.round(performance.now() - started);
    // Exit 1 (a check failed) still measured the whole run; exit 2 did not run it.
    if (exitCode !== 0 && exitCode !== 1) {
      throw new Error(`plantstore test exited with ${exitCode}: ${stderr.slice(-300)}`);
    }
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report;
    return { runs, plannedCases, exitCode, ...runFigures(report, wallMs), ...memoryFigures(samples) };
  } finally {
    await server.stop();
    rmSync(out, { recursive: true, force: true });
  }
}

function runFigures(report: Report, wallMs: number): Record<string, unknown> {
  const { cases, failed, durationMs } = report.summary;
  return {
    casesSent: cases,
    checksFailed: failed,
    wallMs,
    casesPerSecond: Math.round((cases / durationMs) * 1000),
  };
}

function memoryFigures(samplesMiB: readonly number[]): Record<string, unknown> {
  const tenth = Math.max(1, Math.round(samplesMiB.length / 10));
  const first = mean(samplesMiB.slice(0, tenth));
  const last = mean(samplesMiB.slice(-tenth));
  const middle = mean(samplesMiB.slice(Math.floor(samplesMiB.length / 2) - tenth, Math.floor(samplesMiB.length / 2)));
  const peak = Math.max(...samplesMiB);
  const growth = last - first;
  return {
    rssSamples: samplesMiB.length,
    rssMiB: {
      atWarmUp: round(samplesMiB[tenth - 1] ?? 0),
      firstTenthMean: round(first),
      middleTenthMean: round(middle),
      lastTenthMean: round(last),
      peak: round(peak),
      last: round(samplesMiB.at(-1) ?? 0),
    },
    rssGrowthFirstToLastTenthMiB: round(growth),
    // V8 grows its heap toward a steady size early in a run: the second half shows whether it settled.
    rssGrowthSecondHalfMiB: round(last - middle),
    peakMB: round((peak * MIB) / 1e6),
    underGoal: (peak * MIB) / 1e6 < GOAL_MB,
    goal: `resident memory flat (last tenth's mean within 10% of the first's) and under ${GOAL_MB} MB (${round((GOAL_MB * 1e6) / MIB)} MiB)`,
    flat: growth <= first * 0.1,
  };
}

/** Reads the child's RSS every `intervalMs` until it exits. */
function sampleUntilExit(
  child: ChildProcess,
  intervalMs: number,
): Promise<{ samples: number[]; exitCode: number | null; stderr: string }> {
  const samples: number[] = [];
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  const timer = setInterval(() => {
    try {
      if (child.pid !== undefined && child.exitCode === null) samples.push(residentMiB(child.pid));
    } catch {
      // Exited between the check and the read.
    }
  }, intervalMs);
  return new Promise((resolve) => {
    child.once('exit', (exitCode) => {
      clearInterval(timer);
      resolve({ samples, exitCode, stderr });
    });
  });
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
