import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Writes one report file into `outDir` (created if missing) and resolves to its path. */
export async function writeReportFile(outDir: string, name: string, text: string): Promise<string> {
  await mkdir(outDir, { recursive: true });
  const path = join(outDir, name);
  await writeFile(path, text, 'utf8');
  return path;
}
