import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from './contract/package-files.js';
import { namedVariables, parseSnippets, type Snippet } from './fixtures/doc-snippets.js';
import { createReferenceServer, type ReferenceServer } from './reference/server.js';

// Every code block of the README and docs/, run as printed (conventions: docs/development.md).
const PAGES = [
  'README.md',
  ...readdirSync(join(PACKAGE_ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];
const STAGING_TOKEN = 'snippet-staging-token';
const BLOCK_TIMEOUT_MS = 90_000;
const BIN = join(PACKAGE_ROOT, 'dist/src/cli/bin.js');

/** What `npm init -y` writes: a default project is CommonJS. */
const NPM_INIT_PACKAGE = {
  name: 'snippets',
  version: '1.0.0',
  description: '',
  main: 'index.js',
  scripts: { test: 'echo "Error: no test specified" && exit 1' },
  keywords: [],
  author: '',
  license: 'ISC',
  type: 'commonjs',
};

/** A consumer's tsconfig: current defaults, strict, library declarations checked, no `types`. */
function consumerTsconfig(files: readonly string[]): object {
  return { compilerOptions: { module: 'nodenext', target: 'es2022', strict: true, skipLibCheck: false }, files };
}

interface Finished {
  readonly code: number | null;
  readonly output: string;
}

/** Starts `command` in a process group of its own, so everything it starts can be stopped with it. */
function start(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
}

function stopGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    // the group has already gone
  }
}

/** Runs a block's process to its end (bounded in time), then stops whatever it left running. */
function finish(child: ChildProcess): Promise<Finished> {
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => {
    const timer = setTimeout(() => stopGroup(child), BLOCK_TIMEOUT_MS);
    child.on('exit', (code) => {
      clearTimeout(timer);
      stopGroup(child);
      resolve({ code, output });
    });
  });
}

/** Starts a server block and resolves once it has printed its first line. */
function startBackground(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`no startup line within 60 s:\n${output}`)), 60_000);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('\n')) {
        clearTimeout(timer);
        resolve(output);
      }
    });
    child.on('exit', (code) => reject(new Error(`the server exited (${code}) before it started:\n${output}`)));
  });
}

function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.on('exit', () => resolve());
    stopGroup(child);
  });
}

/** A fresh default project under `root` with this checkout installed as `plantstore`. */
async function makeProject(root: string, name: string): Promise<string> {
  const dir = join(root, name);
  await mkdir(join(dir, 'node_modules/.bin'), { recursive: true });
  await writeFile(join(dir, 'package.json'), JSON.stringify(NPM_INIT_PACKAGE, null, 2));
  await symlink(PACKAGE_ROOT, join(dir, 'node_modules/plantstore'), 'dir');
  await symlink('../plantstore/dist/src/cli/bin.js', join(dir, 'node_modules/.bin/plantstore'));
  return dir;
}

/** Compiles the TypeScript blocks of every page in one tsc run (the slow part is reading the declarations). */
async function compileTypeScript(root: string, files: readonly string[]): Promise<void> {
  if (files.length === 0) return;
  await writeFile(join(root, 'tsconfig.json'), JSON.stringify(consumerTsconfig(files), null, 2));
  const tsc = join(PACKAGE_ROOT, 'node_modules/typescript/bin/tsc');
  const { code, output } = await finish(start(process.execPath, [tsc, '-p', 'tsconfig.json'], root, process.env));
  expect(output, 'tsc over the TypeScript blocks').toBe('');
  expect(code).toBe(0);
}

/** A page's project, or why its blocks could not be read. */
interface PreparedPage {
  readonly dir: string;
  readonly snippets: Snippet[];
  readonly error?: Error;
}

/** Each page's project, its blocks written, its TypeScript compiled. */
async function preparePages(root: string): Promise<Map<string, PreparedPage>> {
  const pages = new Map<string, PreparedPage>();
  const tsFiles: string[] = [];
  for (const page of PAGES) {
    let snippets: Snippet[];
    try {
      snippets = parseSnippets(page, readFileSync(join(PACKAGE_ROOT, page), 'utf8'));
    } catch (error) {
      pages.set(page, { dir: '', snippets: [], error: error instanceof Error ? error : new Error(String(error)) });
      continue;
    }
    const name = page.replace(/[^a-z0-9]+/gi, '-');
    const dir = await makeProject(root, name);
    for (const snippet of snippets) await writeBlock(dir, snippet);
    const ts = snippets.filter((snippet) => snippet.mode === 'ts');
    tsFiles.push(...ts.map((snippet) => `${name}/${snippet.fileName ?? ''}`));
    pages.set(page, { dir, snippets });
  }
  await compileTypeScript(root, tsFiles);
  return pages;
}

async function writeBlock(dir: string, snippet: Snippet): Promise<void> {
  if (snippet.mode !== 'js' && snippet.mode !== 'ts') return;
  const file = join(dir, snippet.fileName ?? '');
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, snippet.code);
}

class PageRun {
  private readonly background: ChildProcess[] = [];

  constructor(
    private readonly dir: string,
    private readonly staging: ReferenceServer,
  ) {}

  /** A block sees PLANTSTORE_TOKEN and STAGING_URL only when it names them, as a reader sets them up. */
  env(snippet: Snippet): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true', NO_COLOR: '1' };
    delete env.PLANTSTORE_TOKEN;
    const provided = { PLANTSTORE_TOKEN: STAGING_TOKEN, STAGING_URL: this.staging.url };
    for (const name of namedVariables(snippet, Object.keys(provided)))
      env[name] = provided[name as keyof typeof provided];
    return env;
  }

  async run(snippet: Snippet): Promise<void> {
    const where = `${snippet.page}:${snippet.line}`;
    if (snippet.mode === 'background') {
      const child = start('bash', ['-euo', 'pipefail', '-c', snippet.code], this.dir, this.env(snippet));
      this.background.push(child);
      const startup = await startBackground(child);
      for (const text of snippet.prints) expect(startup, `${where} prints`).toContain(text);
      return;
    }
    const [command, args] = this.command(snippet);
    const { code, output } = await finish(start(command, args, this.dir, this.env(snippet)));
    expect(code, `${where} exit code; output:\n${output}`).toBe(0);
    for (const text of snippet.prints) expect(output, `${where} prints`).toContain(text);
    expect(output, `${where} never shows the token`).not.toContain(STAGING_TOKEN);
  }

  private command(snippet: Snippet): [string, string[]] {
    if (snippet.mode === 'sh') return ['bash', ['-euo', 'pipefail', '-c', snippet.code]];
    const file = snippet.fileName ?? '';
    const emitted = snippet.mode === 'ts' ? file.replace(/\.ts$/, '.js').replace(/\.mts$/, '.mjs') : file;
    return [process.execPath, [emitted]];
  }

  async stop(): Promise<void> {
    await Promise.all(this.background.map(stopped));
  }
}

const RUNS = new Set(['sh', 'js', 'ts', 'background']);

describe('every snippet of the README and docs/, run as printed', () => {
  let staging: ReferenceServer;
  let root: string;
  let pages: Map<string, PreparedPage> | undefined;
  beforeAll(async () => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run "npm run build" before this test`);
    root = await mkdtemp(join(tmpdir(), 'plantstore-snippets-'));
    staging = await createReferenceServer({ tokens: [STAGING_TOKEN], port: 0 });
    pages = await preparePages(root);
  }, 180_000);
  afterAll(async () => {
    await staging?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  it.each(PAGES)(
    '%s',
    async (page) => {
      const prepared = pages?.get(page);
      if (!prepared) throw new Error(`${page} was not prepared`);
      if (prepared.error !== undefined) throw prepared.error;
      const run = new PageRun(prepared.dir, staging);
      try {
        for (const snippet of prepared.snippets.filter((candidate) => RUNS.has(candidate.mode))) await run.run(snippet);
      } finally {
        await run.stop();
      }
    },
    300_000,
  );
});

describe('the snippet conventions', () => {
  it('runs a block by its language and reads its file name and expected output', () => {
    const [snippet] = parseSnippets('p.md', '```js\n// a.mjs\nconsole.log(1); // prints: 1\n```\n');
    expect(snippet).toMatchObject({ mode: 'js', fileName: 'a.mjs', prints: ['1'], line: 1 });
  });

  it('refuses a marker without a reason, and a code block that is neither run nor skipped', () => {
    expect(() => parseSnippets('p.md', '<!-- snippet: skip -->\n\n```sh\nls\n```\n')).toThrow(/must say why/);
    expect(() => parseSnippets('p.md', '```yaml\na: 1\n```\n')).toThrow(/neither run nor marked/);
  });

  it('applies a marker only to the block right after it', () => {
    const text = '<!-- snippet: skip (a reason) -->\n\n```yaml\na: 1\n```\n\n```sh\nls\n```\n';
    expect(parseSnippets('p.md', text).map((snippet) => snippet.mode)).toEqual(['skip', 'sh']);
  });
});
