import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import runtimeEqual from 'ajv/dist/runtime/equal.js';
import formatsPlugin from 'ajv-formats';
import { useJsonEqual } from './json-equal.js';

// Before any schema is compiled: ajv's own equality throws on the prototype-less objects compared.
useJsonEqual(runtimeEqualExports(runtimeEqual));

/**
 * The exports object of `ajv/dist/runtime/equal`, whose `default` ajv reads. Node and esbuild give it as the
 * default import; vitest's interop gives its `default` (fast-deep-equal itself), on which setting `default`
 * changed nothing ajv reads, so its exports are taken from Node's module cache, which ajv's own `require` shares.
 */
function runtimeEqualExports(imported: unknown): { default: unknown } {
  if (typeof imported !== 'function') return imported as { default: unknown };
  return createRequire(import.meta.url)('ajv/dist/runtime/equal.js') as { default: unknown };
}

/**
 * ajv and its formats, in a module of their own: loaded (`import()`) only by a process that compiles
 * a schema the build did not compile already (`prebuilt-validators.ts`).
 */
export const AJV_MODULES = {
  Ajv2020,
  addFormats: formatsPlugin as unknown as (target: Ajv2020) => Ajv2020,
};
