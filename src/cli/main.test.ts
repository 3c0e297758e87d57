import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { PACKAGE_VERSION } from '../contract/index.js';
import { captureIo } from '../fixtures/cli-io.js';
import { COMMANDS, runCli } from './main.js';

const io = captureIo;

describe('plantstore CLI', () => {
  it('prints the version', async () => {
    const cli = io();
    expect(await runCli(['--version'], cli)).toBe(0);
    expect(cli.out().trim()).toBe(PACKAGE_VERSION);
  });

  it('has --help on every command, with its usage and its exit codes', async () => {
    for (const command of COMMANDS) {
      const cli = io();
      expect(await runCli([command.name, '--help'], cli)).toBe(0);
      expect(cli.out()).toContain(`Usage: plantstore ${command.name}`);
      expect(cli.out(), command.name).toMatch(/^Exit codes: 0 .*, 2 /m);
    }
  });

  it('exits 2 with a one-line message on an unknown command or option', async () => {
    const unknown = io();
    expect(await runCli(['frobnicate'], unknown)).toBe(2);
    expect(unknown.err().trim().split('\n')).toHaveLength(1);
    const badOption = io();
    expect(await runCli(['serve', '--prot', '1'], badOption)).toBe(2);
    expect(badOption.err()).toMatch(/--prot.*plantstore serve --help/);
    const badPort = io();
    expect(await runCli(['serve', '--port', 'eighty'], badPort)).toBe(2);
    expect(badPort.err()).toMatch(/--port must be a whole number/);
  });

  it('says how to write an option value that starts with a dash, and when it is out of range anyway', async () => {
    const cases: { args: string[]; message: string }[] = [
      {
        args: ['test', '--seed', '-5'],
        message:
          "--seed -5: a value that starts with '-' must be written --seed=-5, and --seed takes a whole number from 0 to 2147483647, so -5 is out of range anyway (see plantstore test --help)",
      },
      {
        args: ['serve', '--port', '-1'],
        message:
          "--port -1: a value that starts with '-' must be written --port=-1, and --port takes a whole number from 0 to 65535, so -1 is out of range anyway (see plantstore serve --help)",
      },
      {
        args: ['test', '--base-url', '-x'],
        message:
          "--base-url -x: a value that starts with '-' must be written --base-url=-x (see plantstore test --help)",
      },
      {
        args: ['test', '--base-url', '--seed', '5'],
        message:
          "--base-url needs a value, but --seed follows it (a value that starts with '-' is written --base-url=-…) (see plantstore test --help)",
      },
      {
        args: ['mock', '--token', '-secret-3b1f'],
        message:
          "the --token value starts with '-', so it must be written --token=<value>, with no space (see plantstore mock --help)",
      },
    ];
    for (const { args, message } of cases) {
      const cli = io();
      expect(await runCli(args, cli)).toBe(2);
      expect(cli.err()).toBe(`plantstore ${args[0] ?? ''}: ${message}\n`);
    }
  });

  it('validates the contract and exits 0', async () => {
    const cli = io();
    expect(await runCli(['validate'], cli)).toBe(0);
    expect(cli.out()).toMatch(/valid OpenAPI 3\.1\.0 document, 1 operation/);
  });

  it('reports an invalid document with the location of each problem and exits 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plantstore-validate-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'broken.yaml');
    writeFileSync(file, 'openapi: 3.1.0\ninfo:\n  title: x\npaths:\n  /a:\n    get:\n      responses: 7\n');
    const cli = io();
    expect(await runCli(['validate', file], cli)).toBe(1);
    expect(cli.err()).toMatch(/at \/info.*version|at \/paths/);
  });

  it('exits 2 with "cannot read" (not "invalid") when the document is missing or a directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plantstore-validate-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const cases = [
      { file: 'no-such-file.yaml', reason: 'no such file' },
      { file: join(dir, 'missing.yaml'), reason: 'no such file' },
      { file: dir, reason: 'it is a directory' },
    ];
    for (const { file, reason } of cases) {
      const cli = io();
      expect(await runCli(['validate', file], cli)).toBe(2);
      expect(cli.err()).toBe(`plantstore validate: cannot read ${file}: ${reason}\n`);
    }
  });

  it('exits 2 naming the port when the serve or mock port is taken', async () => {
    const { createServer } = await import('node:net');
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      for (const command of ['serve', 'mock']) {
        const cli = io({ PLANTSTORE_TOKEN: 't' });
        expect(await runCli([command, '--port', String(port)], cli)).toBe(2);
        expect(cli.err()).toBe(`plantstore ${command}: Port ${port} is already in use: choose another with --port.\n`);
      }
    } finally {
      blocker.close();
    }
  });
});
