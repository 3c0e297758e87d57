import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';

/**
 * ajv and its formats, in a module of their own: loaded (`import()`) only by a process that compiles
 * a schema the build did not compile already (`prebuilt-validators.ts`).
 */
export const AJV_MODULES = {
  Ajv2020,
  addFormats: formatsPlugin as unknown as (target: Ajv2020) => Ajv2020,
};
