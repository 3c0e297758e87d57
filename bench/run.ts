import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_TOKEN } from './load.js';
import { startProcess, type BenchProcess } from './processes.js';
import { benchServe, soak, startServe } from './serve-bench.js';

/**
 * `npm run bench`: every benchmark side by side in one run, as ratios, written to reports/bench.json.
 * `npm run bench -- --quick` shortens every measurement (for a smoke run, not for figures);
 * `--only runner,mock` runs only the sections named. A section's `goals` (figure and pass mark each)
 * are listed together at the end.
 */
const quick = process.argv.includes('--quick');
const onlyIndex = process.argv.indexOf('--only');
const only = onlyIndex < 0 ? undefined : new Set((process.argv[onlyIndex + 1] ?? '').split(','));
const seconds = quick ? 3 : 10;
const soakSeconds = quick ? 12 : 60;

interface Section {
  name: string;
  run: () => Promise<unknown>;
}

const sections: Section[] = [
  { name: 'serve', run: () => benchServe(seconds) },
  {
    name: 'serveSoak',
    run: async () => {
      const server = await startServe();
      try {
        return await soak(server, soakSeconds);
      } finally {
        await server.stop();
      }
    },
  },
  {
    name: 'mockSoak',
    run: async () => {
      const server = await startMock();
      try {
        return await soak(server, soakSeconds);
      } finally {
        await server.stop();
      }
    },
  },
];

function startMock(): Promise<BenchProcess> {
  const cli = fileURLToPath(new URL('../src/cli/bin.js', import.meta.url));
  return startProcess(
    process.execPath,
    [cli, 'mock', '--port', '0', '--quiet'],
    /listening on (http:\/\/\S+)/,
    async (url) => (await fetch(`${url}/plants`, { method: 'POST', body: '{}' })).status > 0,
    { PLANTSTORE_TOKEN: BENCH_TOKEN },
  );
}

for (const [name, file, exportName] of [
  ['mock', './mock-bench.js', 'benchMock'],
  ['runner', './runner-bench.js', 'benchRunner'],
  ['proxy', './proxy-bench.js', 'benchProxy'],
  ['generation', './generation-bench.js', 'benchGeneration'],
] as const) {
  sections.push({
    name,
    run: async () => {
      const module = (await import(file)) as Record<string, (options: { quick: boolean }) => Promise<unknown>>;
      const bench = module[exportName];
      if (!bench) throw new Error(`${file} has no ${exportName}`);
      return bench({ quick });
    },
  });
}

const machine = {
  cpu: cpus()[0]?.model ?? 'unknown',
  cores: cpus().length,
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  node: process.version,
  platform: process.platform,
};
const results: Record<string, unknown> = { machine, quick, startedAt: new Date().toISOString() };
for (const section of sections.filter((candidate) => only === undefined || only.has(candidate.name))) {
  process.stdout.write(`bench: ${section.name}…\n`);
  try {
    results[section.name] = await section.run();
  } catch (error) {
    results[section.name] = { error: error instanceof Error ? error.message : String(error) };
  }
  process.stdout.write(`${JSON.stringify(results[section.name], null, 2)}\n`);
}
const goals = goalMarks(results);
for (const mark of goals) process.stdout.write(`${mark.pass ? 'PASS' : 'FAIL'} ${mark.goal}: ${mark.figure}\n`);
results.goals = goals;
const out = join(process.cwd(), 'reports');
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'bench.json'), `${JSON.stringify(results, null, 2)}\n`);
process.stdout.write(`bench: wrote ${join(out, 'bench.json')}\n`);

interface GoalMark {
  readonly goal: string;
  readonly figure: string;
  readonly pass: boolean;
}

/** Every section's goal marks (a `goals` list of `{ goal, figure, pass }`), in section order. */
function goalMarks(sectionResults: Record<string, unknown>): GoalMark[] {
  return Object.values(sectionResults).flatMap((result) => {
    const goals = (result as { goals?: unknown } | null)?.goals;
    return Array.isArray(goals) ? (goals as GoalMark[]) : [];
  });
}
