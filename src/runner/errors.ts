import { isTlsFailure } from './http/transport-errors.js';

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
        : `Cannot reach ${baseUrl}: ${transportError}. Check --base-url and that the server is running.`,
    );
  }
}

/** Options of `runConformance` that cannot work together (unknown check id, bad replay string, ...). */
export class ConformanceOptionsError extends Error {
  override readonly name = 'ConformanceOptionsError';
}
