import { describe, expect, it } from 'vitest';
import { requestPath, routeProblem } from './route.js';

describe('requestPath', () => {
  it('drops the query and fragment', () => {
    expect(requestPath('/plants?x=1#y')).toBe('/plants');
    expect(requestPath(undefined)).toBe('/');
  });

  it('reads the absolute form a client may send (RFC 9112, 3.2.2)', () => {
    expect(requestPath('http://127.0.0.1:8080/plants')).toBe('/plants');
    expect(requestPath('HTTPS://example.test/plants?x=1')).toBe('/plants');
    expect(requestPath('http://example.test')).toBe('/');
    expect(routeProblem('POST', requestPath('http://127.0.0.1/plants'))).toBeUndefined();
  });
});
