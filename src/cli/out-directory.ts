import { accessSync, constants } from 'node:fs';
import { UsageError } from './cli-errors.js';
import { makeDirectory } from '../reports/report-file.js';

/**
 * Creates the directory reports go to and checks that files can be written into it: a usage error naming
 * why not (`what` says what goes there), found before a run or a proxy session whose reports would then
 * have nowhere to go.
 */
export function ensureWritableDirectory(dir: string, what = 'reports'): void {
  try {
    makeDirectory(dir);
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch (error) {
    throw new UsageError(`cannot write ${what} to ${dir}: ${whyNotWritable(error)}; choose another --out.`);
  }
}

/** Why a file or directory could not be written, in words, from Node's error. */
export function whyNotWritable(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EEXIST') return 'it is a file, not a directory';
  if (code === 'ENOTDIR') return 'a part of the path is a file, not a directory';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EROFS') return 'the file system is read-only';
  if (code === 'ENOSPC') return 'no space left on the device';
  // Under a directory that exists: a file system that holds no directories of ours (/proc, /sys).
  if (code === 'ENOENT') return 'no directory can be created there';
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? 'unknown reason';
}
