import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PACKAGE_ROOT } from '../contract/index.js';

interface Step {
  readonly name?: string;
  readonly uses?: string;
  readonly run?: string;
  readonly if?: string;
  readonly env?: Record<string, string>;
  readonly with?: Record<string, unknown>;
}

async function readmeWorkflow(): Promise<{ jobs: Record<string, { steps: Step[] }> }> {
  const readme = await readFile(join(PACKAGE_ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### CI (GitHub Actions)'));
  const block = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error('no yaml block under "### CI (GitHub Actions)" in README.md');
  return parse(block) as { jobs: Record<string, { steps: Step[] }> };
}

describe("the README's GitHub Actions example", () => {
  it('tests a deployed target with the token from a secret, starting nothing', async () => {
    const steps = Object.values((await readmeWorkflow()).jobs).flatMap((job) => job.steps);
    const test = steps.find((step) => step.run?.includes('plantstore test'));
    expect(test?.run).toContain('--base-url "${{ vars.STAGING_URL }}"');
    expect(test?.env).toEqual({ PLANTSTORE_TOKEN: '${{ secrets.PLANTSTORE_TOKEN }}' });
    expect(steps.some((step) => /plantstore (serve|mock)|docker|services:/.test(step.run ?? ''))).toBe(false);
  });

  it('uploads reports/ and publishes junit.xml even when the run fails', async () => {
    const steps = Object.values((await readmeWorkflow()).jobs).flatMap((job) => job.steps);
    const upload = steps.find((step) => step.uses?.startsWith('actions/upload-artifact@'));
    expect(upload).toMatchObject({ if: 'always()', with: { path: 'reports/' } });
    const junit = steps.find((step) => JSON.stringify(step.with ?? {}).includes('reports/junit.xml'));
    expect(junit?.if).toBe('always()');
  });
});
