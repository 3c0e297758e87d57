import { describe, expect, it } from 'vitest';
import { operationAuth, serverBasePath } from './security.js';

const schemes = {
  bearerAuth: { type: 'http', scheme: 'Bearer' },
  basicAuth: { type: 'http', scheme: 'basic' },
  key: { type: 'apiKey', in: 'header', name: 'X-Key' },
  oauth: { type: 'oauth2', flows: {} },
};
const withSecurity = (security: unknown, operation: Record<string, unknown> = {}) => ({
  document: { components: { securitySchemes: schemes }, ...(security === undefined ? {} : { security }) },
  operation,
});

describe('operationAuth', () => {
  it('reads bearer from the document root, the scheme name in any case', () => {
    const { document, operation } = withSecurity([{ bearerAuth: [] }]);
    expect(operationAuth(document, operation)).toEqual({ auth: 'bearer', schemes: ['bearerAuth'] });
  });

  it('lets the operation override the root, an empty list meaning none', () => {
    const { document, operation } = withSecurity([{ bearerAuth: [] }], { security: [] });
    expect(operationAuth(document, operation)).toEqual({ auth: 'none', schemes: [] });
  });

  it('prefers a bearer alternative over others, and records other kinds when there is none', () => {
    expect(operationAuth(withSecurity([{ key: [] }, { bearerAuth: [] }]).document, {})).toEqual({
      auth: 'bearer',
      schemes: ['bearerAuth'],
    });
    expect(operationAuth(withSecurity([{ key: [] }]).document, {}).auth).toBe('apiKey');
    expect(operationAuth(withSecurity([{ oauth: ['write'] }]).document, {}).auth).toBe('oauth2');
    expect(operationAuth(withSecurity([{ basicAuth: [] }]).document, {}).auth).toBe('basic');
    expect(operationAuth(withSecurity([{ undeclared: [] }]).document, {}).auth).toBe('other');
  });

  it('calls a requirement of a bearer scheme and an API key together (AND) by the key, which a bearer token alone cannot meet', () => {
    expect(operationAuth(withSecurity([{ bearerAuth: [], key: [] }]).document, {})).toEqual({
      auth: 'apiKey',
      schemes: ['bearerAuth', 'key'],
    });
    expect(operationAuth(withSecurity([{ key: [], bearerAuth: [] }]).document, {}).auth).toBe('apiKey');
    expect(operationAuth(withSecurity([{ bearerAuth: [], basicAuth: [] }]).document, {}).auth).toBe('basic');
  });

  it('prefers an alternative whose tokens all travel as bearer tokens (OAuth 2) over an API key', () => {
    expect(operationAuth(withSecurity([{ key: [] }, { oauth: ['write'] }]).document, {})).toEqual({
      auth: 'oauth2',
      schemes: ['oauth'],
    });
  });

  it('reads an API key in the Authorization header as bearer (Swagger 2.0 had no bearer scheme; swagger2openapi keeps it so)', () => {
    const swagger = { type: 'apiKey', in: 'header', name: 'authorization' };
    const document = { components: { securitySchemes: { Bearer: swagger } }, security: [{ Bearer: [] }] };
    expect(operationAuth(document, {})).toEqual({ auth: 'bearer', schemes: ['Bearer'] });
    const query = { type: 'apiKey', in: 'query', name: 'Authorization' };
    expect(operationAuth({ ...document, components: { securitySchemes: { Bearer: query } } }, {}).auth).toBe('apiKey');
  });

  it('calls authentication optional when the empty requirement is an alternative', () => {
    expect(operationAuth(withSecurity([{ bearerAuth: [] }, {}]).document, {}).auth).toBe('optional');
  });

  it('is none without any security requirement', () => {
    expect(operationAuth(withSecurity(undefined).document, {}).auth).toBe('none');
  });
});

describe('serverBasePath', () => {
  it('is the path of the first server URL, its variables filled with their defaults', () => {
    expect(serverBasePath({ servers: [{ url: 'https://api.example.com/v1/' }] })).toBe('/v1');
    expect(serverBasePath({ servers: [{ url: '/api' }] })).toBe('/api');
    const templated = {
      url: '{scheme}://example.com/{version}',
      variables: { scheme: { default: 'https' }, version: { default: 'v2' } },
    };
    expect(serverBasePath({ servers: [templated] })).toBe('/v2');
  });

  it('is empty for no server, the root, or a variable without a default', () => {
    expect(serverBasePath({})).toBe('');
    expect(serverBasePath({ servers: [{ url: 'http://127.0.0.1:8080' }] })).toBe('');
    expect(serverBasePath({ servers: [{ url: 'http://h/{x}' }] })).toBe('');
  });
});
