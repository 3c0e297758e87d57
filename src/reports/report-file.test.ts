import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeDirectory } from './report-file.js';

const scratch = mkdtempSync(join(tmpdir(), 'plantstore-report-file-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('makeDirectory', () => {
  it('creates a directory and every missing parent, and leaves one that exists as it is', () => {
    const deep = join(scratch, 'a', 'b', 'c');
    makeDirectory(deep);
    makeDirectory(deep);
    expect(statSync(deep).isDirectory()).toBe(true);
  });

  it("throws Node's error where a part of the path is a file", () => {
    writeFileSync(join(scratch, 'file'), 'not a directory\n');
    expect(() => makeDirectory(join(scratch, 'file', 'reports'))).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
    expect(() => makeDirectory(join(scratch, 'file'))).toThrow(expect.objectContaining({ code: 'EEXIST' }));
  });

  it.runIf(existsSync('/proc/self'))("throws, where Node's recursive mkdir never returns, below /proc", () => {
    expect(() => makeDirectory('/proc/plantstore/reports')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });
});
