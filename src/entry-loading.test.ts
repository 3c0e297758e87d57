import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { CliIo } from './cli/command.js';
import { PACKAGE_ROOT, PACKAGE_VERSION } from './contract/package-files.js';

// Records which heavy modules anything in the module graph asks for, and still hands them over.
const loaded = vi.hoisted(() => new Set<string>());
vi.mock('@stoplight/prism-http', async (importOriginal) => {
  loaded.add('prism');
  return importOriginal();
});
vi.mock('./contract/ajv-modules.js', async (importOriginal) => {
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
vi.mock('./contract/document-reader.js', async (importOriginal) => {
  loaded.add('document reader');
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
  ])(
    'plantstore %j loads no runner, server, Prism, ajv, undici, fast-check or document reader',
    async (argv, exitCode, says) => {
      const { runCli } = await import('./cli/main.js');
      const io = quietIo();
      expect(await runCli(argv, io)).toBe(exitCode);
      expect(io.output()).toContain(says);
      expect([...loaded]).toEqual([]);
    },
  );
});

// Before anything else loads the runner: what the mocks have recorded when the command calls back.
describe('when test says it has loaded what it runs with', () => {
  it('it has loaded the runner, undici and fast-check, and not begun the run', async () => {
    const { runCli } = await import('./cli/main.js');
    const out = mkdtempSync(join(tmpdir(), 'plantstore-loaded-'));
    try {
      let loadedThen: string[] = [];
      let outputThen = '';
      const io = quietIo();
      const commandLoaded = (): void => {
        loadedThen = [...loaded];
        outputThen = io.output();
      };
      const argv = ['test', '--runs', '1', '--seed', '3', '--check', 'echo', '--out', out];
      expect(await runCli(argv, { ...io, cwd: out, commandLoaded })).toBe(0);
      expect(loadedThen).toEqual(expect.arrayContaining(['runner', 'undici', 'fast-check']));
      expect(outputThen).toBe('');
      expect(io.output()).toContain('CONFORMANT');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
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

describe('when a command says it has loaded what it runs with', () => {
  it.each([
    [['validate'], 0],
    [['test', '--runs', '1', '--seed', '3', '--check', 'echo', '--reporter', 'json'], 0],
    [['serve', '--port', '0', '--quiet'], 0],
    // No exchange judged: exit 2.
    [['proxy', '--port', '0', '--upstream', 'http://127.0.0.1:9', '--quiet'], 2],
    [['mock', '--port', '0', '--quiet'], 0],
  ])('plantstore %j calls commandLoaded once', async (argv, exitCode) => {
    const { runCli } = await import('./cli/main.js');
    const out = mkdtempSync(join(tmpdir(), 'plantstore-loaded-'));
    try {
      const commandLoaded = vi.fn();
      const io = { ...quietIo(), cwd: out, commandLoaded };
      expect(await runCli([...argv, ...(argv[0] === 'proxy' ? ['--out', out] : [])], io)).toBe(exitCode);
      expect(commandLoaded).toHaveBeenCalledTimes(1);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

const BUNDLE = join(PACKAGE_ROOT, 'dist/bin/plantstore.js');
/** The build's validators of the bundled document (`src/contract/prebuilt-validators.ts`). */
const PREBUILT_VALIDATORS = join(PACKAGE_ROOT, 'dist/contract/validators.js');

/**
 * Runs the bundled CLI with a module hook that reports every module of Prism and ajv it loads, and an
 * ES module import of `node:http` (on Node 22 and later its namespace loads Node's own bundled undici,
 * about 60 ms of CPU; `src/http/server-kit.ts` takes node:http through require), until it exits
 * or prints `until`; killed after 20 s.
 */
function runBundle(
  args: readonly string[],
  cwd: string,
  until?: RegExp,
): Promise<{ code: number | null; output: string }> {
  if (!existsSync(BUNDLE)) throw new Error(`${BUNDLE} is missing: run "npm run build" first (npm test does).`);
  const hooks = join(cwd, 'prism-hooks.mjs');
  writeFileSync(
    hooks,
    `export async function load(url, context, next) {
      if (url.includes('/@stoplight/')) process.stderr.write('loaded Prism: ' + url + '\\n');
      if (/\\/ajv-modules-|\\/node_modules\\/ajv\\//.test(url)) process.stderr.write('loaded ajv: ' + url + '\\n');
      if (url === 'node:http') process.stderr.write('imported node:http as an ES module\\n');
      return next(url, context);
    }`,
  );
  const register = `import { register } from 'node:module'; register(${JSON.stringify(pathToFileURL(hooks).href)});`;
  const importHooks = `data:text/javascript,${encodeURIComponent(register)}`;
  const child = spawn(process.execPath, ['--import', importHooks, BUNDLE, ...args], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const kill = setTimeout(() => child.kill('SIGKILL'), 20_000);
  return new Promise((resolve) => {
    const read = (chunk: Buffer): void => {
      output += chunk.toString();
      if (until?.test(output)) child.kill('SIGTERM');
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('close', (code) => {
      clearTimeout(kill);
      resolve({ code, output });
    });
  });
}

describe('the bundled CLI, the package bin', () => {
  const dir = mkdtempSync(join(tmpdir(), 'plantstore-bundle-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prints the package version', async () => {
    const { code, output } = await runBundle(['--version'], dir);
    expect({ code, output: output.trim() }).toEqual({ code: 0, output: PACKAGE_VERSION });
  });

  it("judges the embedded reference without loading Prism, nor ajv when the build's validators are there, nor importing node:http", async () => {
    const args = ['test', '--runs', '1', '--seed', '3', '--check', 'echo', '--reporter', 'json', '--out', dir];
    const { code, output } = await runBundle(args, dir);
    expect(output).not.toContain('loaded Prism');
    expect(output).not.toContain('imported node:http');
    if (existsSync(PREBUILT_VALIDATORS)) expect(output).not.toContain('loaded ajv');
    expect(code).toBe(0);
    expect(existsSync(join(dir, 'report.json'))).toBe(true);
  });

  it('starts the mock, which loads Prism from node_modules', async () => {
    const { output } = await runBundle(['mock', '--port', '0'], dir, /listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(output).toMatch(/plantstore mock listening on http:\/\/127\.0\.0\.1:\d+/);
    expect(output).toContain('loaded Prism');
  });
});
