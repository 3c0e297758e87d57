import { describe, expect, it } from 'vitest';
import { createBearerCheck } from '../contract/index.js';
import { authenticationFor } from './authentication.js';

const bearer = createBearerCheck(['t']);

describe('authentication as the document declares it', () => {
  it('checks the bearer token when the operation requires one', () => {
    const check = authenticationFor('bearer', bearer);
    expect(check(undefined)?.code).toBe(2001);
    expect(check('Bearer wrong')?.code).toBe(2003);
    expect(check('Bearer t')).toBeUndefined();
  });

  it('lets every request through when the operation declares no security', () => {
    expect(authenticationFor('none', bearer)(undefined)).toBeUndefined();
    expect(authenticationFor('none', bearer)('Basic eDp5')).toBeUndefined();
  });

  it('lets anonymous requests through when anonymous is one alternative, and still checks a token sent', () => {
    const check = authenticationFor('optional', bearer);
    expect(check(undefined)).toBeUndefined();
    expect(check('Bearer wrong')?.code).toBe(2003);
    expect(check('Bearer t')).toBeUndefined();
  });
});
