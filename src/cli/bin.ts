#!/usr/bin/env node
import module from 'node:module';

// An error no command caught (a failed start, an exception thrown outside a command's promise) is plantstore's,
// never the target's: exit 2 ("could not run") on one line, not Node's stack trace and exit 1 ("a check failed").
process.on('uncaughtException', exitOnInternalError);
process.on('unhandledRejection', exitOnInternalError);

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

function exitOnInternalError(error: unknown): void {
  const text = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
  // Written without the modules (one may be what failed to load); a message holding the token is withheld.
  const token = process.env.PLANTSTORE_TOKEN;
  const shown =
    token !== undefined && token.length > 0 && text.includes(token) ? '(message withheld: it holds the token)' : text;
  process.stderr.write(`plantstore: unexpected error: ${shown} (please report this)\n`);
  process.exit(2);
}
