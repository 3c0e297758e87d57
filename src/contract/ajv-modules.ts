import { Ajv2020 } from 'ajv/dist/2020.js';
import runtimeEqual from 'ajv/dist/runtime/equal.js';
import formatsPlugin from 'ajv-formats';
import { useJsonEqual } from './json-equal.js';

// Before any schema is compiled: ajv's own equality throws on the prototype-less objects compared.
useJsonEqual(runtimeEqual);

/**
 * ajv and its formats, in a module of their own: loaded (`import()`) only by a process that compiles
 * a schema the build did not compile already (`prebuilt-validators.ts`).
 */
export const AJV_MODULES = {
  Ajv2020,
  addFormats: formatsPlugin as unknown as (target: Ajv2020) => Ajv2020,
};
