import { describe, expect, it } from 'vitest';
import { BUILT_IN_SUITES } from '../../suites/index.js';
import type { Reporter } from './events.js';
import { runConformance } from './run.js';

function recorder(name: string, log: string[], file?: string): Reporter {
  return {
    name,
    onRunStart: (run) => log.push(`${name} start ${run.plannedCases}`),
    onCaseDone: (progress) => log.push(`${name} case ${progress.done}`),
    onCheckDone: (check) => log.push(`${name} check ${check.id}`),
    onRunEnd: (_report, written) => {
      log.push(`${name} end [${written.join(',')}]`);
      return file;
    },
  };
}

describe('runConformance({ reporters })', () => {
  it('calls each reporter in order: start, every case, every check, then the end with the files before it', async () => {
    const log: string[] = [];
    const events: string[] = [];
    const report = await runConformance({
      runs: 2,
      seed: 4,
      suites: BUILT_IN_SUITES,
      checks: ['echo'],
      reporters: [recorder('a', log, 'a.json'), recorder('b', log)],
      onProgress: (event) => events.push(event.kind),
    });
    const of = (name: string): string[] => log.filter((line) => line.startsWith(`${name} `));
    const a = of('a');
    expect(a[0]).toBe(`a start ${report.summary.cases}`);
    expect(a.filter((line) => line.startsWith('a case'))).toHaveLength(report.summary.cases);
    expect(a.filter((line) => line.startsWith('a check'))).toEqual(report.checks.map((check) => `a check ${check.id}`));
    expect(a.at(-1)).toBe('a end []');
    expect(of('b').at(-1)).toBe('b end [a.json]');
    expect(log.at(-1)).toBe('b end [a.json]');
    expect(events).toHaveLength(a.length - 1);
  });

  it('rejects when a reporter throws, as documented', async () => {
    const failing: Reporter = {
      name: 'failing',
      onRunEnd: () => {
        throw new Error('disk full');
      },
    };
    await expect(
      runConformance({ runs: 1, seed: 4, suites: BUILT_IN_SUITES, checks: ['echo'], reporters: [failing] }),
    ).rejects.toThrow('disk full');
  });
});
