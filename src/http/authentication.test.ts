import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createBearerCheck, loadContract } from '../contract/index.js';
import { apiKeyCheck, apiKeyPlace, authenticationFor, requestAuthentication } from './authentication.js';

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

describe('an API key where the document puts it', () => {
  const asked = (headers: Record<string, string>, url = '/plants'): IncomingMessage =>
    ({ headers, url }) as unknown as IncomingMessage;

  it('reads the apiKey scheme of the document: its place and name', async () => {
    const contract = await loadContract('src/fixtures/documents/reduced/api-key-header-3.1.yaml');
    expect(apiKeyPlace(contract)).toEqual({ in: 'header', name: 'X-API-Key' });
    const check = requestAuthentication(contract, bearer);
    expect(check(asked({ 'x-api-key': 't' }))).toBeUndefined();
    expect(check(asked({ authorization: 'Bearer t' }))?.message).toContain('the header "X-API-Key"');
  });

  it.each([
    [{ in: 'header', name: 'X-API-Key' } as const, asked({ 'x-api-key': 't' }), asked({ 'x-api-key': 'u' })],
    [{ in: 'query', name: 'api_key' } as const, asked({}, '/plants?api_key=t'), asked({}, '/plants?api_key=u')],
    [{ in: 'cookie', name: 'key' } as const, asked({ cookie: 'a=1; key=t' }), asked({ cookie: 'key=u' })],
  ])(
    'in the %o: the key accepted, another refused (2003), none asked for (2001), no Bearer challenge',
    (place, good, bad) => {
      const check = apiKeyCheck(place, bearer);
      expect(check(good)).toBeUndefined();
      expect(check(bad)).toMatchObject({ status: 401, code: 2003, headers: {} });
      const missing = check(asked({ authorization: 'Bearer t' }));
      expect(missing).toMatchObject({ status: 401, code: 2001, headers: {} });
      expect(missing?.message).toContain(`"${place.name}"`);
    },
  );

  it('asks for the key and the bearer token when one requirement names both (AND)', async () => {
    const contract = await loadContract('src/fixtures/documents/reduced/bearer-and-api-key-3.0.yaml');
    expect({ auth: contract.auth, schemes: contract.authSchemes }).toEqual({
      auth: 'apiKey',
      schemes: ['bearerAuth', 'tenantKey'],
    });
    const check = requestAuthentication(contract, bearer);
    expect(check(asked({ 'x-tenant-key': 't', authorization: 'Bearer t' }))).toBeUndefined();
    expect(check(asked({ 'x-tenant-key': 't' }))?.code).toBe(2001);
    expect(check(asked({ 'x-tenant-key': 't', authorization: 'Bearer u' }))?.code).toBe(2003);
    expect(check(asked({ authorization: 'Bearer t' }))?.message).toContain('the header "X-Tenant-Key"');
  });

  it('takes the API key alternative (OR) beside the bearer one, and refuses neither as the bearer one does', async () => {
    const contract = await loadContract('src/fixtures/documents/reduced/bearer-or-api-key-3.0.yaml');
    expect(contract.auth).toBe('bearer');
    const check = requestAuthentication(contract, bearer);
    expect(check(asked({ authorization: 'Bearer t' }))).toBeUndefined();
    expect(check(asked({ 'x-tenant-key': 't' }))).toBeUndefined();
    expect(check(asked({ 'x-tenant-key': 'u' }))?.code).toBe(2001);
    expect(check(asked({ authorization: 'Bearer u' }))).toMatchObject({ status: 401, code: 2003 });
  });

  it('takes a Swagger 2.0 API key in the Authorization header as a bearer token, as its clients send it', async () => {
    const contract = await loadContract('src/fixtures/documents/reduced/swagger2-authorization-key-3.0.yaml');
    expect(contract.auth).toBe('bearer');
    const check = requestAuthentication(contract, bearer);
    expect(check(asked({ authorization: 'Bearer t' }))).toBeUndefined();
    expect(check(asked({ authorization: 'Bearer u' }))?.code).toBe(2003);
    expect(check(asked({}))?.code).toBe(2001);
  });

  it('refuses a key with spaces inside instead of reading a part of it', () => {
    expect(apiKeyCheck({ in: 'header', name: 'X-Key' }, bearer)(asked({ 'x-key': 't t' }))?.code).toBe(2003);
  });
});
