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

  it('sets a flag this Node knows: the built CLI runs a command without a V8 complaint on stderr', async () => {
    // V8 answers an unknown flag with "Error: unrecognized flag" on stderr instead of throwing. The bin
    // sets it once the command has loaded its modules (validate: once it has the document reader).
    const { stdout, stderr } = await run(process.execPath, [BIN, 'validate'], {
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    expect(stdout).toContain('openapi.yaml');
    expect(stderr).toBe('');
    expect(limitHeapGrowth([], '')).toBe(true);
  });
});
