import { describe, expect, it } from 'vitest';
import { describeTransportError } from './transport-errors.js';

const coded = (code: string, name = 'Error') => Object.assign(new Error('x'), { code, name });

describe('transport error names', () => {
  it('names what happened below HTTP with the documented words', () => {
    expect(describeTransportError(coded('ECONNREFUSED'), false)).toBe('connection-refused');
    expect(describeTransportError(coded('UND_ERR_SOCKET'), false)).toBe('connection-reset');
    expect(describeTransportError(coded('UND_ERR_HEADERS_TIMEOUT'), false)).toBe('timeout');
    expect(describeTransportError(coded('HPE_INVALID_CONSTANT'), false)).toBe('not-http');
    expect(describeTransportError(Object.assign(new Error('x'), { name: 'HTTPParserError' }), false)).toBe('not-http');
    expect(describeTransportError(coded('UND_ERR_RES_CONTENT_LENGTH_MISMATCH'), false)).toBe('incomplete-body');
    expect(describeTransportError(coded('ENOTFOUND'), false)).toBe('host-not-found');
  });

  it("reports the runner's own deadline as a timeout, whatever undici threw", () => {
    expect(describeTransportError(coded('UND_ERR_ABORTED', 'AbortError'), true)).toBe('timeout');
  });

  it('names TLS failures tls-…, so an https URL to a plain-HTTP server or a bad certificate reads as such', () => {
    expect(describeTransportError(coded('ERR_SSL_WRONG_VERSION_NUMBER'), false)).toBe('tls-wrong-version-number');
    expect(describeTransportError(coded('DEPTH_ZERO_SELF_SIGNED_CERT'), false)).toBe('tls-depth-zero-self-signed-cert');
    expect(describeTransportError(coded('CERT_HAS_EXPIRED'), false)).toBe('tls-cert-has-expired');
  });

  it('finds the code on a wrapped cause', () => {
    const wrapped = Object.assign(new Error('fetch failed'), { cause: coded('ECONNRESET') });
    expect(describeTransportError(wrapped, false)).toBe('connection-reset');
  });
});
