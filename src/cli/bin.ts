#!/usr/bin/env node
import module from 'node:module';

// Node 22.1+ keeps the compiled code of the modules loaded after this on disk (in Node's own cache
// directory), so every start after the first skips compiling them; older Nodes lack the function.
(module as Partial<typeof module>).enableCompileCache?.();
const { limitHeapGrowth } = await import('./heap-growth.js');
const { runCli } = await import('./main.js');

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  waitForStop: () =>
    new Promise<void>((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    }),
  commandLoaded: () => {
    limitHeapGrowth();
  },
});
