import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../contract/package-files.js';
import { limitHeapGrowth } from './heap-growth.js';

const run = promisify(execFile);
const BIN = join(PACKAGE_ROOT, 'dist/src/cli/bin.js');

describe('limitHeapGrowth', () => {
  it("leaves the heap growth alone when the user's node flags or NODE_OPTIONS set it", () => {
    expect(limitHeapGrowth(['--heap-growing-percent=80'], '')).toBe(false);
    expect(limitHeapGrowth([], '--max-old-space-size=512 --heap_growing_percent=10')).toBe(false);
  });

  it('sets a flag this Node knows: the built CLI starts without a V8 complaint on stderr', async () => {
    // V8 answers an unknown flag with "Error: unrecognized flag" on stderr instead of throwing.
    const { stdout, stderr } = await run(process.execPath, [BIN, '--version'], {
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(stderr).toBe('');
    expect(limitHeapGrowth([], '')).toBe(true);
  });
});
