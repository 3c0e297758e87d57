/**
 * A short, stable name for how an exchange failed below HTTP, from undici's and Node's error codes.
 * `aborted` is true when the runner's own per-request deadline fired.
 */
export function describeTransportError(error: unknown, aborted: boolean): string {
  if (aborted) return 'timeout';
  const code = errorCode(error);
  // undici's llhttp parser errors: the bytes that came back are not HTTP.
  if (error instanceof Error && error.name === 'HTTPParserError') return 'not-http';
  if (code === undefined) return error instanceof Error ? error.name : 'unknown';
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return 'timeout';
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return 'connect-timeout';
  if (code === 'ECONNREFUSED') return 'connection-refused';
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET' || code === 'UND_ERR_CLOSED') {
    return 'connection-reset';
  }
  if (code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') return 'incomplete-body';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'host-not-found';
  if (code.startsWith('HPE_')) return 'not-http';
  if (isTlsCode(code))
    return `tls-${code
      .toLowerCase()
      .replace(/^err_(ssl|tls)_/, '')
      .replaceAll('_', '-')}`;
  return code.toLowerCase();
}

/** OpenSSL's and Node's codes for a TLS handshake or certificate that failed. */
function isTlsCode(code: string): boolean {
  return (
    code.startsWith('ERR_SSL_') ||
    code.startsWith('ERR_TLS_') ||
    /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|DEPTH_ZERO/.test(code)
  );
}

/** Whether a transport failure is a TLS one (its name starts with `tls-`). */
export function isTlsFailure(transportError: string): boolean {
  return transportError.startsWith('tls-');
}

/** Transport failures that mean nothing is listening there: the run cannot start. */
export const UNREACHABLE = new Set([
  'connection-refused',
  'host-not-found',
  'connect-timeout',
  'ehostunreach',
  'enetunreach',
]);

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current !== null && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
