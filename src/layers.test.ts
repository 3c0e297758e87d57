import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from './contract/index.js';

const RULE = '@typescript-eslint/no-restricted-imports';

let eslint: ESLint;

/** The layer errors the project's own ESLint config reports for `code` as if it were `file`. */
async function layerErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${PACKAGE_ROOT}/${file}` });
  return (result?.messages ?? []).filter((message) => message.ruleId === RULE).map((message) => message.message);
}

describe('the lint rule that keeps the layers apart (eslint.config.js)', () => {
  // The first type-aware lint loads the whole program: seconds on a busy machine.
  beforeAll(async () => {
    eslint = new ESLint({ cwd: PACKAGE_ROOT });
    await layerErrors('src/runner/selection.ts', 'export {};\n');
  }, 120_000);

  it('fails a runner module that imports the suites', async () => {
    const errors = await layerErrors(
      'src/runner/selection.ts',
      "import { BUILT_IN_SUITES } from '../../suites/index.js';\nexport const suites = BUILT_IN_SUITES;\n",
    );
    expect(errors).toEqual([expect.stringContaining('the runner must not import suites/')]);
  });

  it('fails a runner module that imports reports or the CLI, and one deeper down alike', async () => {
    const errors = await layerErrors(
      'src/runner/http/curl.ts',
      "import { REPORTER_NAMES } from '../../reports/index.js';\nimport { runCli } from '../../cli/main.js';\nexport const x = [REPORTER_NAMES, runCli];\n",
    );
    expect(errors).toHaveLength(2);
  });

  it('lets the runner start the reference as its embedded target, and nothing else of it', async () => {
    const server =
      "import { createReferenceServer } from '../reference/server.js';\nexport const x = createReferenceServer;\n";
    expect(await layerErrors('src/runner/target.ts', server)).toEqual([]);
    const store =
      "import { createMemoryStore } from '../reference/plant-store.js';\nexport const x = createMemoryStore;\n";
    expect(await layerErrors('src/runner/target.ts', store)).toHaveLength(1);
  });

  it('lets the reports read the runner’s types, and nothing more', async () => {
    const types = "import type { Report } from '../runner/report.js';\nexport type R = Report;\n";
    expect(await layerErrors('src/reports/json-reporter.ts', types)).toEqual([]);
    const value = "import { runConformance } from '../runner/run.js';\nexport const x = runConformance;\n";
    expect(await layerErrors('src/reports/json-reporter.ts', value)).toEqual([
      expect.stringContaining('the reports read the runner’s types only'),
    ]);
  });

  it('keeps the contract at the bottom and the reference and the mock apart', async () => {
    const up = "import { runConformance } from '../runner/run.js';\nexport const x = runConformance;\n";
    expect(await layerErrors('src/contract/spec.ts', up)).toHaveLength(1);
    const mock = "import { DEV_TOKEN } from '../mock/dev-token.js';\nexport const x = DEV_TOKEN;\n";
    expect(await layerErrors('src/reference/server.ts', mock)).toHaveLength(1);
  });

  it('keeps a suite to declaring checks: no servers, reports or CLI', async () => {
    const reports = "import { REPORTER_NAMES } from '../src/reports/index.js';\nexport const x = REPORTER_NAMES;\n";
    expect(await layerErrors('suites/robustness.ts', reports)).toHaveLength(1);
    const kit = "import { defineCheck } from '../src/runner/suite-kit.js';\nexport const x = defineCheck;\n";
    expect(await layerErrors('suites/robustness.ts', kit)).toEqual([]);
  });
});
