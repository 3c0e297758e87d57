import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ContractError } from '../contract/index.js';
import { BUILT_IN_SUITES } from '../../suites/index.js';
import { resolveSettings } from './run-settings.js';

const folder = mkdtempSync(join(tmpdir(), 'plantstore-settings-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The seed's operation secured by the given scheme (none: no security at all). */
function documentSecuredBy(scheme: object | undefined): string {
  const json = (schema: object) => ({ content: { 'application/json': { schema } } });
  const document = {
    openapi: '3.1.0',
    info: { title: 'Plant Store', version: '1.0.0' },
    ...(scheme ? { security: [{ key: [] }] } : {}),
    paths: {
      '/plants': {
        post: {
          requestBody: {
            required: true,
            ...json({ type: 'object', required: ['id'], properties: { id: { type: 'integer' } } }),
          },
          responses: {
            '200': { description: 'plant', ...json({ type: 'object' }) },
            '400': { description: 'error', ...json({ type: 'object', properties: { error: { type: 'integer' } } }) },
          },
        },
      },
    },
    ...(scheme ? { components: { securitySchemes: { key: scheme } } } : {}),
  };
  const file = join(folder, `${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(document));
  return file;
}

describe('run settings', () => {
  it('refuses, by name, a document whose operation authenticates with an API key', async () => {
    const spec = documentSecuredBy({ type: 'apiKey', in: 'header', name: 'X-Api-Key' });
    const settings = resolveSettings({ spec, suites: BUILT_IN_SUITES });
    await expect(settings).rejects.toBeInstanceOf(ContractError);
    await expect(settings).rejects.toThrow(
      /authenticates with an API key \(key\), but plantstore sends bearer tokens only/,
    );
  });

  it('names every scheme of a requirement that asks for a bearer token and an API key together', async () => {
    const document = JSON.parse(readFileSync(documentSecuredBy({ type: 'http', scheme: 'bearer' }), 'utf8')) as {
      components: { securitySchemes: Record<string, unknown> };
      paths: { '/plants': { post: { security?: unknown } } };
    };
    document.components.securitySchemes.apiKeyAuth = { type: 'apiKey', in: 'header', name: 'X-Api-Key' };
    document.paths['/plants'].post.security = [{ key: [], apiKeyAuth: [] }];
    const spec = join(folder, 'and.json');
    writeFileSync(spec, JSON.stringify(document));
    await expect(resolveSettings({ spec, suites: BUILT_IN_SUITES })).rejects.toThrow(
      /asks for key and apiKeyAuth together \(one security requirement naming them all\), an API key among them/,
    );
  });

  it('accepts bearer-carried credentials (OAuth 2) and documents without security', async () => {
    const oauth = documentSecuredBy({
      type: 'oauth2',
      flows: { clientCredentials: { tokenUrl: 'https://x/token', scopes: {} } },
    });
    await expect(resolveSettings({ spec: oauth, suites: BUILT_IN_SUITES })).resolves.toBeDefined();
    const open = await resolveSettings({ spec: documentSecuredBy(undefined), suites: BUILT_IN_SUITES });
    expect(open.contract.auth).toBe('none');
  });
});
