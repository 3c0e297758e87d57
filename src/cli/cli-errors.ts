// The two modules, not the contract's index: a usage error must not load the schema compiler.
import { ContractError } from '../contract/contract-error.js';
import { UnsupportedSchemaError } from '../contract/schema/compiled-schema.js';

/** Exit codes of every plantstore command. */
export const EXIT = {
  /** The command did what it was asked and found nothing wrong. */
  ok: 0,
  /** The command ran and found a problem (a failed check, an invalid document). */
  failed: 1,
  /** The command could not run: usage, configuration or environment error. */
  cannotRun: 2,
} as const;

/** A mistake in how a command was called or configured; the message says what to do instead. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * The one place that turns an error escaping a command into a one-line message and an exit code.
 * Unknown errors are bugs: they get a message that says so, still on one line and still exit 2.
 */
export function describeFailure(error: unknown): { message: string; exitCode: number } {
  if (error instanceof UsageError || error instanceof ContractError) {
    return { message: error.message, exitCode: EXIT.cannotRun };
  }
  // A schema compiled outside loadContract (which names the place in the document) refused a construct.
  if (error instanceof UnsupportedSchemaError) {
    return {
      message: `the document's "${error.keyword}" at ${error.schemaPointer || '/'} of a schema cannot be honoured: ${error.reason}`,
      exitCode: EXIT.cannotRun,
    };
  }
  // A failed listen() carries the address and port it was asked for.
  const { code, port, address } = (error ?? {}) as NodeJS.ErrnoException & { port?: unknown; address?: unknown };
  if (code === 'EADDRINUSE') {
    const which = typeof port === 'number' ? `Port ${port} is` : 'That port is';
    return { message: `${which} already in use: choose another with --port.`, exitCode: EXIT.cannotRun };
  }
  if (code === 'EACCES' || code === 'EADDRNOTAVAIL') {
    const where =
      typeof address === 'string' && typeof port === 'number' ? `${address} port ${port}` : 'that host and port';
    return {
      message: `Cannot listen on ${where}: choose another --host or --port.`,
      exitCode: EXIT.cannotRun,
    };
  }
  const text = error instanceof Error ? error.message : String(error);
  return { message: `unexpected error: ${text.split('\n')[0] ?? ''} (please report this)`, exitCode: EXIT.cannotRun };
}
