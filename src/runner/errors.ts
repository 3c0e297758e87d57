import { isTlsFailure } from './http/transport-errors.js';
import type { OptionName } from './options.js';

/** The target could not be reached before any case was sent: nothing to judge (CLI exit 2). */
export class TargetUnreachableError extends Error {
  override readonly name = 'TargetUnreachableError';
  constructor(
    readonly baseUrl: string,
    readonly transportError: string,
  ) {
    super(
      isTlsFailure(transportError)
        ? `Cannot talk TLS to ${baseUrl}: ${transportError}. If the server speaks plain HTTP, use http://; if its certificate is signed by your own CA, point NODE_EXTRA_CA_CERTS at that CA's certificate.`
        : `Cannot reach ${baseUrl}: ${transportError}. Check \`baseUrl\` and that the server is running.`,
    );
  }
}

/**
 * Options of `runConformance` that cannot work together (unknown check id, bad replay string, ...).
 * The message names options in backquotes (`` `replay` ``); `option` is the one at fault, when one is.
 */
export class ConformanceOptionsError extends Error {
  override readonly name = 'ConformanceOptionsError';
  constructor(
    message: string,
    readonly option?: OptionName,
  ) {
    super(message);
  }
}
