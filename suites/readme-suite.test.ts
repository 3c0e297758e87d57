import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../src/contract/index.js';
import type { Suite } from '../src/runner/check.js';

const VITEST = join(PACKAGE_ROOT, 'node_modules/vitest/vitest.mjs');
const HEADING = /^#{2,4} Adding a suite\s*$/m;

/** The first TypeScript block under the "Adding a suite" heading, wherever the docs keep it. */
async function readmeSuiteExample(): Promise<string> {
  const docs = join(PACKAGE_ROOT, 'docs');
  const pages = [
    join(PACKAGE_ROOT, 'README.md'),
    ...(await readdir(docs).catch(() => [])).filter((name) => name.endsWith('.md')).map((name) => join(docs, name)),
  ];
  for (const page of pages) {
    const text = await readFile(page, 'utf8');
    const heading = HEADING.exec(text);
    if (!heading) continue;
    const block = /```ts\n([\s\S]*?)```/.exec(text.slice(heading.index))?.[1];
    if (block !== undefined) return block;
  }
  throw new Error('no ```ts block under an "Adding a suite" heading in README.md or docs/');
}

describe('the README\'s "Adding a suite" example, verbatim', () => {
  let dir: string;
  let file: string;

  beforeAll(async () => {
    // Inside the package root, where vitest transforms modules and resolves 'plantstore' to the source
    // entry (a module under the system's temporary folder is loaded by Node as it is, without either).
    dir = await mkdtemp(join(PACKAGE_ROOT, 'suites', '.readme-suite-'));
    file = join(dir, 'tag-length.ts');
    const example = await readmeSuiteExample();
    expect(example).toContain("from 'plantstore'");
    await writeFile(file, example);
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('runs beside the built-in suites from code', async () => {
    const { BUILT_IN_SUITES, runConformance } = await import('../src/index.js');
    const tags = ((await import(file)) as { default: Suite }).default;
    const report = await runConformance({ runs: 10, seed: 8, suites: [...BUILT_IN_SUITES, tags] });
    const result = report.checks.find((check) => check.id === 'tag-length');
    expect(result?.status).toBe('pass');
    expect(result?.cases).toBeGreaterThan(0);
  });

  // Listed in suites/index.ts, as the README suggests, the example is loaded while the entry that
  // imports suites/index.ts is itself still loading: it must find defineCheck there already. A
  // vitest of its own sees suites/index.ts with the example added (the tree stays untouched).
  it('runs when listed in suites/index.ts, under vitest', async () => {
    await writeFile(
      join(dir, 'index.ts'),
      `import { BUILT_IN_SUITES as builtIn } from ${JSON.stringify(join(PACKAGE_ROOT, 'suites/index.ts'))};\n` +
        "import tags from './tag-length.js';\n\nexport const BUILT_IN_SUITES = [...builtIn, tags];\n",
    );
    await writeFile(
      join(dir, 'listed.test.ts'),
      "import { expect, it } from 'vitest';\nimport { runConformance } from 'plantstore';\n\n" +
        "it('runs the listed suite', async () => {\n" +
        "  const report = await runConformance({ runs: 5, seed: 8, checks: ['tag-length'] });\n" +
        "  expect(report.checks.find((check) => check.id === 'tag-length')?.status).toBe('pass');\n});\n",
    );
    const config = [
      'export default {',
      '  resolve: {',
      '    alias: [',
      `      { find: /^plantstore$/, replacement: ${JSON.stringify(join(PACKAGE_ROOT, 'src/index.ts'))} },`,
      `      { find: /^\\.\\.\\/suites\\/index\\.js$/, replacement: ${JSON.stringify(join(dir, 'index.ts'))} },`,
      '    ],',
      '  },',
      `  test: { dir: ${JSON.stringify(dir)}, include: ['listed.test.ts'], testTimeout: 60000 },`,
      '};',
    ];
    await writeFile(join(dir, 'vitest.config.mjs'), `${config.join('\n')}\n`);
    const run = spawnSync(process.execPath, [VITEST, 'run', '--config', join(dir, 'vitest.config.mjs')], {
      cwd: PACKAGE_ROOT,
      encoding: 'utf8',
      timeout: 110_000,
      env: { ...process.env, CI: 'true', NO_COLOR: '1' },
    });
    expect(`${run.stdout}${run.stderr}`).not.toContain('is not a function');
    expect(run.status, run.stdout + run.stderr).toBe(0);
  }, 120_000);
});
