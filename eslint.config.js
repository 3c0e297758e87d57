import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The layers of docs/architecture.md, kept by a rule rather than a convention. Import specifiers are
 * relative, so a layer is matched by the folder a path climbs into (`../runner/…`, `../../suites/…`,
 * `../src/reports/…` from suites/). Dynamic `import()` is not checked: only the CLI uses it.
 */
const into = (folder) => `^(\\.\\./)+(src/)?${folder}(/|$)`;

const forbid = (layer, folders, why) =>
  folders.map((folder) => ({ regex: into(folder), message: `${layer} must not import ${folder}/: ${why}` }));

/** One override per layer: its files (tests and fixtures may import anything) and what they may not import. */
const layer = (name, files, patterns) => ({
  files,
  ignores: ['**/*.test.ts', '**/*.case.ts'],
  rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns }] },
});

const SERVERS_AND_ABOVE = ['reference', 'mock', 'proxy', 'runner', 'reports', 'cli', 'suites'];

export const layers = [
  layer(
    'contract',
    ['src/contract/**/*.ts'],
    forbid('the contract', ['http', ...SERVERS_AND_ABOVE], 'it is the bottom layer'),
  ),
  layer('http', ['src/http/**/*.ts'], forbid('the request pipeline', SERVERS_AND_ABOVE, 'the servers build on it')),
  layer(
    'reference',
    ['src/reference/**/*.ts'],
    forbid('the reference', ['mock', 'proxy', 'runner', 'reports', 'cli', 'suites'], 'it stands beside them'),
  ),
  layer(
    'mock',
    ['src/mock/**/*.ts'],
    forbid('the mock', ['reference', 'proxy', 'runner', 'reports', 'cli', 'suites'], 'it stands beside them'),
  ),
  // The proxy judges with the same check definitions as the runner: those of suites/.
  layer(
    'proxy',
    ['src/proxy/**/*.ts'],
    forbid('the proxy', ['reference', 'mock', 'reports', 'cli'], 'it forwards and judges, beside them'),
  ),
  layer(
    'runner',
    ['src/runner/**/*.ts'],
    [
      ...forbid('the runner', ['mock', 'proxy', 'reports', 'cli'], 'they build on it'),
      {
        regex: into('suites'),
        message:
          'the runner must not import suites/: runConformance receives them (the entry and the CLI pass BUILT_IN_SUITES)',
      },
      {
        // The one exception: the embedded default target is the reference, started in-process.
        regex: `${into('reference')}(?!server\\.js$)`,
        message: 'the runner may import only reference/server.js, to start the embedded default target',
      },
    ],
  ),
  layer(
    'reports',
    ['src/reports/**/*.ts'],
    [
      ...forbid('the reports', ['http', 'reference', 'mock', 'proxy', 'cli', 'suites'], 'they render a Report value'),
      {
        regex: into('runner'),
        allowTypeImports: true,
        message: 'the reports read the runner’s types only: use import type',
      },
    ],
  ),
  layer(
    'suites',
    ['suites/**/*.ts'],
    forbid('a suite', ['reference', 'mock', 'proxy', 'reports', 'cli'], 'it declares checks'),
  ),
];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'reports/', 'eslint.config.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'error',
      // A new kind of intent, mutation or note must be handled wherever its union is switched on.
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: false, requireDefaultForNonUnion: false },
      ],
    },
  },
  ...layers,
);
