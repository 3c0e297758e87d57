import { mkdirSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

/** Writes one report file into `outDir` (created if missing) and resolves to its path. */
export async function writeReportFile(outDir: string, name: string, text: string): Promise<string> {
  makeDirectory(outDir);
  const path = join(outDir, name);
  await writeFile(path, text, 'utf8');
  return path;
}

/**
 * Creates `dir` and its missing parents, or throws Node's error for the first that cannot be made. Node's
 * own `recursive: true` never returns where mkdir fails with ENOENT under a parent that exists (a path
 * below /proc): it tries that parent again and again. Each directory it made is pushed onto `made`, parents
 * first, also when a later one fails.
 */
export function makeDirectory(dir: string, made: string[] = []): void {
  const missing: string[] = [];
  for (let current = resolve(dir); !isDirectory(current); current = dirname(current)) {
    missing.push(current);
    if (dirname(current) === current) break;
  }
  for (const path of missing.reverse()) {
    try {
      mkdirSync(path);
      made.push(path);
    } catch (error) {
      // Another process may have made it meanwhile; a file there is the caller's problem.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !isDirectory(path)) throw error;
    }
  }
}

function isDirectory(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
}
