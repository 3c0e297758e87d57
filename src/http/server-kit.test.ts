import { describe, expect, it } from 'vitest';
import { loggedTarget } from './server-kit.js';

describe('loggedTarget', () => {
  it('hides query values, where clients put tokens (access_token), and keeps the path', () => {
    expect(loggedTarget('/plants?access_token=s3cret&debug')).toBe('/plants?access_token=…&debug');
    expect(loggedTarget('/plants')).toBe('/plants');
    expect(loggedTarget(undefined)).toBe('/');
  });

  it('cuts a long target to 200 characters', () => {
    expect(loggedTarget(`/${'p'.repeat(500)}`)).toHaveLength(200);
  });
});
