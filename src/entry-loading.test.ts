import { Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import type { CliIo } from './cli/command.js';

// Records which heavy modules anything in the module graph asks for, and still hands them over.
const loaded = vi.hoisted(() => new Set<string>());
vi.mock('@stoplight/prism-http', async (importOriginal) => {
  loaded.add('prism');
  return importOriginal();
});
vi.mock('./contract/schemas.js', async (importOriginal) => {
  loaded.add('ajv');
  return importOriginal();
});
vi.mock('./runner/http/undici.js', async (importOriginal) => {
  loaded.add('undici');
  return importOriginal();
});
vi.mock('fast-check', async (importOriginal) => {
  loaded.add('fast-check');
  return importOriginal();
});
vi.mock('yaml', async (importOriginal) => {
  loaded.add('yaml');
  return importOriginal();
});
vi.mock('./runner/run.js', async (importOriginal) => {
  loaded.add('runner');
  return importOriginal();
});
vi.mock('./reference/server.js', async (importOriginal) => {
  loaded.add('reference');
  return importOriginal();
});

function quietIo(): CliIo & { output: () => string } {
  let output = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      output += chunk.toString();
      done();
    },
  });
  return {
    stdout: sink,
    stderr: sink,
    env: {},
    cwd: process.cwd(),
    waitForStop: () => Promise.resolve(),
    output: () => output,
  };
}

// The CLI's cases come first: vitest keeps one module registry per file, so nothing heavy is loaded yet.
describe('what the CLI loads before a command runs', () => {
  it.each([
    [['--help'], 0, 'Commands:'],
    [['--version'], 0, '.'],
    [['test', '--help'], 0, 'Usage: plantstore test'],
    [['mock', '--help'], 0, 'Usage: plantstore mock'],
    [['test', '--nope'], 2, "Unknown option '--nope'"],
    [['nope'], 2, 'unknown command'],
  ])('plantstore %j loads no runner, server, Prism, ajv, undici, fast-check or yaml', async (argv, exitCode, says) => {
    const { runCli } = await import('./cli/main.js');
    const io = quietIo();
    expect(await runCli(argv, io)).toBe(exitCode);
    expect(io.output()).toContain(says);
    expect([...loaded]).toEqual([]);
  });
});

describe('what the package entry loads', () => {
  it('does not load Prism on import, nor to run the conformance runner', async () => {
    const { runConformance } = await import('./index.js');
    expect(loaded.has('prism')).toBe(false);
    const report = await runConformance({ runs: 1, seed: 3, checks: ['echo'] });
    expect(report.checks.find((check) => check.id === 'echo')?.status).toBe('pass');
    expect(loaded.has('prism')).toBe(false);
  });

  it('loads Prism when a mock starts', async () => {
    const { createMockServer } = await import('./index.js');
    const mock = await createMockServer({ port: 0 });
    try {
      expect(loaded.has('prism')).toBe(true);
    } finally {
      await mock.close();
    }
  });
});
