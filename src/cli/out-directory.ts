import { accessSync, constants, rmdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from './cli-errors.js';
import { makeDirectory } from '../reports/report-file.js';

/**
 * Checks that the directory reports go to can be made and written into: a usage error naming why not
 * (`what` says what goes there), found before a run or a proxy session whose reports would then have
 * nowhere to go. It leaves nothing behind: the reporters make the directory when they write, so a run that
 * ends without a report (nothing listening at the target, a bad baseline file) leaves no empty folder for a
 * CI job to archive as if it held the reports.
 */
export function ensureWritableDirectory(dir: string, what = 'reports'): void {
  const made: string[] = [];
  try {
    makeDirectory(dir, made);
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch (error) {
    throw new UsageError(`cannot write ${what} to ${dir}: ${whyNotWritable(error)}; choose another --out.`);
  } finally {
    removeEmpty(made.reverse());
  }
}

/**
 * Removes the report files an earlier run left in `dir` (`files`: the names this run's reporters write), so a run
 * that ends without a report (nothing listening at the target) leaves none of another run's for a CI job to
 * publish as its own (a Jenkins workspace keeps `reports/` between builds). Other files stay.
 */
export function removeEarlierReports(dir: string, files: readonly string[]): void {
  for (const file of files) {
    try {
      rmSync(join(dir, file), { force: true });
    } catch {
      // A directory by that name: the reporter says why it cannot write there when the run ends.
    }
  }
}

/** Removes these directories, deepest first, each one only while it is still empty. */
function removeEmpty(directories: readonly string[]): void {
  for (const path of directories) {
    try {
      rmdirSync(path);
    } catch {
      return; // something was written there meanwhile: not ours to remove
    }
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
