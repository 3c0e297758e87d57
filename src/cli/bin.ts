#!/usr/bin/env node
import { limitHeapGrowth } from './heap-growth.js';
import { runCli } from './main.js';

limitHeapGrowth();
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
});
