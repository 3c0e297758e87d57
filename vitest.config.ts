import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import type { Reporter } from 'vitest/node';

/** Lists every skipped test at the end of a run: its name says why it was skipped. */
const skippedTests: Reporter = {
  onTestRunEnd(testModules) {
    const skipped = testModules.flatMap((module) =>
      [...module.children.allTests('skipped')].map(
        (test) => `${relative(process.cwd(), module.moduleId)} > ${test.fullName}`,
      ),
    );
    if (skipped.length > 0) process.stdout.write(`\nSkipped (the name says why):\n  ${skipped.join('\n  ')}\n`);
  },
};

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'suites/**/*.test.ts'],
    // Every temporary file of the run in one folder of its own, removed at the end (src/fixtures/test-temp-folder.ts).
    globalSetup: ['src/fixtures/test-temp-folder.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Most test time is spent waiting on sockets and timers, not computing: on a 2-core machine
    // vitest's default (cores - 1 = one worker) runs the files one after another.
    maxWorkers: Math.max(2, availableParallelism()),
    reporters: ['default', skippedTests],
  },
});
