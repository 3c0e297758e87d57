import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../contract/package-files.js';

const run = promisify(execFile);
const BIN = join(PACKAGE_ROOT, 'dist/src/cli/bin.js');
const TOKEN = 'bin-test-token-5ec2e7';

/** Runs `plantstore serve` on a free port with a preloaded module that throws `thrown` outside any command. */
async function serveThrowing(thrown: string): Promise<{ code: number; stderr: string }> {
  // The throw comes from a timer, after the bin started and while serve is listening: an uncaught exception.
  const preload = `data:text/javascript,setTimeout(() => { throw new Error(${JSON.stringify(thrown)}) }, 1500)`;
  try {
    await run(process.execPath, ['--import', preload, BIN, 'serve', '--port', '0'], {
      env: { ...process.env, NODE_OPTIONS: '', PLANTSTORE_TOKEN: TOKEN },
      timeout: 20_000,
    });
    return { code: 0, stderr: '' };
  } catch (error) {
    const { code, stderr } = error as { code: number; stderr: string };
    return { code, stderr };
  }
}

describe('the bin', () => {
  it('exits 2 with one line when an error escapes every command, never 1 (which blames the target)', async () => {
    const { code, stderr } = await serveThrowing('boom outside the command');
    expect(code).toBe(2);
    expect(stderr).toContain('plantstore: unexpected error: boom outside the command (please report this)\n');
    expect(stderr).not.toContain('    at ');
  });

  it('withholds the message of such an error when it holds the token', async () => {
    const { code, stderr } = await serveThrowing(`bad header Bearer ${TOKEN}`);
    expect(code).toBe(2);
    expect(stderr).toContain('unexpected error: (message withheld: it holds the token)');
    expect(stderr).not.toContain(TOKEN);
  });
});
