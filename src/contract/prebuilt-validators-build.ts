import type * as Ajv from 'ajv/dist/2020.js';
import type { Ajv2020, Name, ValidateFunction } from 'ajv/dist/2020.js';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { EXACT_NUMBER_KEYWORD } from './schema/exact-numbers.js';
import { installedVersions, PREBUILT_VALIDATORS_PATH } from './prebuilt-validators.js';
import { createAjv, recordCompiledSchemas, schemaKey, type JsonSchema } from './schemas.js';
import { loadContract } from './spec.js';

const require = createRequire(import.meta.url);

/** What `require(…)` in ajv's code becomes in a generated validator: the same function, from its runtime. */
const RUNTIME_REQUIRES: Readonly<Record<string, string>> = {
  'require("ajv/dist/runtime/ucs2length").default': 'runtime.ucs2length',
  'require("ajv/dist/runtime/equal").default': 'runtime.equal',
};

type ScopeName = Name & { prefix: string; value?: { ref?: unknown; code?: unknown } };

/**
 * The text of a module (`PrebuiltValidatorsModule`) holding ajv's standalone code for each schema, as
 * `compileSchemaCheck` hands it to ajv. Throws for code that needs anything the runtime does not give.
 */
export function validatorsModuleText(schemas: readonly JsonSchema[]): string {
  const { _ } = require('ajv/dist/2020.js') as typeof Ajv;
  const standaloneCode = (require('ajv/dist/standalone/index.js') as { default: StandaloneCode }).default;
  const ajv = createAjv(false, { source: true, formats: _`runtime.formats` });
  const keyword = (ajv.getKeyword(EXACT_NUMBER_KEYWORD) as { validate?: unknown }).validate;
  const made = new Map<string, string>();
  for (const schema of schemas) {
    const key = schemaKey(schema);
    if (key === undefined || made.has(key)) continue;
    const validate = ajv.compile(schema);
    for (const names of Object.values(validate.source?.scopeValues ?? {}) as Iterable<ScopeName>[]) {
      for (const name of names) {
        if (name.value !== undefined && name.value.ref === keyword) name.value.code = _`runtime.exactNumber`;
      }
    }
    made.set(key, maker(standaloneCode(ajv, validate)));
  }
  const entries = [...made].map(([key, make]) => `  [${JSON.stringify(key)}, ${make}],`);
  return `// Written by the build (build/bundle-cli.sh, src/contract/prebuilt-validators-build.ts): ajv's code for
// the bundled document's schemas, by the JSON of each schema as ajv compiles it.
export const versions = ${JSON.stringify(installedVersions())};
export const validators = [
${entries.join('\n')}
];
`;
}

type StandaloneCode = (ajv: Ajv2020, validate: ValidateFunction) => string;

/**
 * ajv's code for one validator as a function of the runtime. ajv calls a keyword's function with its
 * instance (`self`) as `this`, which the exact-number keyword does not read; nothing else may use it.
 */
function maker(code: string): string {
  let body = code.replace(/^"use strict";/, '');
  for (const [from, to] of Object.entries(RUNTIME_REQUIRES)) body = body.replaceAll(from, to);
  const stray = /require\([^)]*\)|\bself\b/.exec(body.replaceAll('.call(self,', ''));
  if (stray) throw new Error(`a prebuilt validator needs ${stray[0]}, which its runtime does not give`);
  return `(runtime) => {\n    const self = undefined;\n    const module = { exports: {} };\n    ${body}\n    return module.exports;\n  }`;
}

/** Writes the validators of the bundled document's schemas where `prebuiltValidators` finds them (the build calls it). */
export async function writePrebuiltValidators(): Promise<void> {
  await rm(PREBUILT_VALIDATORS_PATH, { force: true });
  const { schemas } = await recordCompiledSchemas(async () => {
    const contract = await loadContract();
    // Every check the contract compiles later, on first use, is recorded too.
    for (const compiled of Object.values(contract.compiled)) void [compiled.boundaries, compiled.invalid];
  });
  await mkdir(dirname(PREBUILT_VALIDATORS_PATH), { recursive: true });
  await writeFile(PREBUILT_VALIDATORS_PATH, validatorsModuleText(schemas));
}
