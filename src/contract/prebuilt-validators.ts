import type { ValidateFunction } from 'ajv/dist/2020.js';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { jsonEqual } from './json-equal.js';
import { PACKAGE_ROOT } from './package-files.js';
import { exactNumberKeyword } from './schema/exact-numbers.js';
import { contractFormats } from './schemas.js';

/**
 * Where the build writes ajv's code for the bundled document's schemas (`build/bundle-cli.sh`), so that
 * loading it neither loads ajv nor compiles a schema.
 */
export const PREBUILT_VALIDATORS_PATH = join(PACKAGE_ROOT, 'dist/contract/validators.js');

/** What a generated validator's code uses besides itself (`runtime.*` in the code). */
export interface ValidatorRuntime {
  /** The formats, as every compiler of the contract has them (`contractFormats`). */
  readonly formats: Record<string, unknown>;
  /** The exact-number keyword's function. */
  readonly exactNumber: unknown;
  /** ajv's string length in code points (`maxLength`, `minLength`). */
  readonly ucs2length: unknown;
  /** The deep equality ajv is given (`enum`, `const`, `uniqueItems`): {@link jsonEqual}. */
  readonly equal: unknown;
}

/** The module the build writes: the versions the code was generated with, and a maker per schema. */
export interface PrebuiltValidatorsModule {
  readonly versions: Readonly<Record<string, string>>;
  readonly validators: readonly (readonly [key: string, make: (runtime: ValidatorRuntime) => ValidateFunction])[];
}

const require = createRequire(import.meta.url);

/** The packages whose code the generated validators copy or call: they must be the ones installed now. */
export const VALIDATOR_PACKAGES = ['ajv', 'ajv-formats'] as const;

/** The installed version of each of {@link VALIDATOR_PACKAGES}. */
export function installedVersions(): Record<string, string> {
  return Object.fromEntries(
    VALIDATOR_PACKAGES.map((name) => [name, (require(`${name}/package.json`) as { version: string }).version]),
  );
}

/** What a generated validator's code is given: the same functions and formats ajv would be given. */
export function validatorRuntime(): ValidatorRuntime {
  return {
    formats: contractFormats(
      (require('ajv-formats/dist/formats.js') as { fullFormats: Record<string, unknown> }).fullFormats,
    ),
    exactNumber: (exactNumberKeyword() as { validate?: unknown }).validate,
    ucs2length: (require('ajv/dist/runtime/ucs2length.js') as { default: unknown }).default,
    equal: jsonEqual,
  };
}

/** The validators of a generated module, by the key of their schema; `undefined` when made with other packages than those installed. */
export function validatorsOf(module: PrebuiltValidatorsModule): ReadonlyMap<string, ValidateFunction> | undefined {
  const installed = installedVersions();
  if (VALIDATOR_PACKAGES.some((name) => module.versions[name] !== installed[name])) return undefined;
  const runtime = validatorRuntime();
  return new Map(module.validators.map(([key, make]) => [key, make(runtime)]));
}

/** The build's validators (`usePrebuiltValidators`), or `undefined` when there are none to use. */
export async function prebuiltValidators(): Promise<ReadonlyMap<string, ValidateFunction> | undefined> {
  let module: PrebuiltValidatorsModule;
  try {
    module = (await import(pathToFileURL(PREBUILT_VALIDATORS_PATH).href)) as PrebuiltValidatorsModule;
  } catch {
    return undefined;
  }
  return validatorsOf(module);
}
