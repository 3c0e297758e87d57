import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The root of the installed plantstore package. Sources run from `src/`, the build from
 * `dist/src/`, so the root is found by walking up, not assumed.
 */
export const PACKAGE_ROOT = findRoot();

/** The `openapi.yaml` shipped with this package: the contract every part of plantstore follows. */
export const DEFAULT_SPEC_PATH = join(PACKAGE_ROOT, 'openapi.yaml');

/** This package's version, from its package.json. */
export const PACKAGE_VERSION = (
  JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

function findRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'openapi.yaml')) && existsSync(join(dir, 'package.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error('plantstore cannot find its openapi.yaml and package.json; reinstall the package.');
    dir = parent;
  }
}
