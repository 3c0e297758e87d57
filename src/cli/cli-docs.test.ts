import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../contract/index.js';
import { captureIo } from '../fixtures/cli-io.js';
import { COMMANDS, runCli } from './main.js';

const CLI_DOC = readFileSync(join(PACKAGE_ROOT, 'docs', 'cli.md'), 'utf8');

/** The ```text synopsis block under `## \`plantstore NAME\`` in docs/cli.md. */
function synopsis(name: string): string {
  const section = CLI_DOC.split(`## \`plantstore ${name}\``)[1] ?? '';
  return /```text\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
}

describe('docs/cli.md and --help name every option a command takes', () => {
  for (const command of COMMANDS) {
    it(`plantstore ${command.name}`, async () => {
      const cli = captureIo();
      expect(await runCli([command.name, '--help'], cli)).toBe(0);
      const documented = synopsis(command.name);
      expect(documented, `docs/cli.md has a synopsis of ${command.name}`).toContain(`plantstore ${command.name}`);
      for (const option of Object.keys(command.options).filter((name) => name !== 'help')) {
        expect(documented, `docs/cli.md synopsis of ${command.name}`).toContain(`--${option}`);
        expect(cli.out(), `plantstore ${command.name} --help`).toContain(`--${option}`);
      }
      for (const [, option] of documented.matchAll(/--([a-z][a-z-]*)/g)) {
        expect(Object.keys(command.options), `--${option} of the docs/cli.md synopsis of ${command.name}`).toContain(
          option,
        );
      }
    });
  }
});
