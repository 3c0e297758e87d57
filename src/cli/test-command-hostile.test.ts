import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { captureIo } from '../fixtures/cli-io.js';
import { HOSTILE_TARGETS } from '../fixtures/index.js';
import type { Report } from '../runner/report.js';
import { runCli } from './main.js';

const BUDGET_MS = 8_000;

/**
 * `plantstore test` against targets that hang, reset, flood, speak another protocol, drip, redirect
 * forever or truncate: each run ends inside its budget with exit 1 or 2, writes a report that names
 * the problem, keeps memory bounded and never shows the token.
 */
describe('plantstore test against hostile targets', () => {
  for (const fixture of HOSTILE_TARGETS) {
    it(`ends with a report naming the problem: ${fixture.name}`, async () => {
      const target = await fixture.start();
      const io = captureIo({ PLANTSTORE_TOKEN: target.token });
      const rssBefore = process.memoryUsage().rss;
      const started = performance.now();
      try {
        const args = [
          'test',
          '--base-url',
          target.url,
          '--runs',
          '10',
          '--timeout',
          '500',
          '--budget',
          String(BUDGET_MS),
        ];
        const exitCode = await runCli([...args, '--reporter', 'json', '--reporter', 'junit'], io);
        const elapsed = performance.now() - started;
        expect([1, 2], io.err()).toContain(exitCode);
        // A generous margin over the budget: shutting sockets down is not instant on a loaded machine.
        expect(elapsed).toBeLessThan(BUDGET_MS + 10_000);
        expect(process.memoryUsage().rss - rssBefore).toBeLessThan(200 * 1024 * 1024);
        if (exitCode === 2) {
          expect(io.err()).toMatch(/plantstore test: .+/);
        } else {
          const reportText = readFileSync(join(io.cwd, 'reports', 'report.json'), 'utf8');
          const report = JSON.parse(reportText) as Report;
          const failed = report.checks.filter((check) => check.status === 'fail').map((check) => check.id);
          for (const id of fixture.expectedFailures) expect(failed).toContain(id);
          expect(readFileSync(join(io.cwd, 'reports', 'junit.xml'), 'utf8')).toContain('<failure');
          expect(reportText).not.toContain(target.token);
        }
        expect(io.out() + io.err()).not.toContain(target.token);
      } finally {
        await target.close();
      }
    }, 40_000);
  }
});
