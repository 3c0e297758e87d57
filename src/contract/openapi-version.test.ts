import { describe, expect, it } from 'vitest';
import { documentVersion } from './openapi-version.js';

describe('documentVersion', () => {
  it('reads 3.0.x and 3.1.x, later patch releases too, and 3.2.x as 3.1 (the same Schema Object)', () => {
    expect(documentVersion({ openapi: '3.0.3' }, 'a.yaml')).toEqual({ dialect: 'openapi-3.0', version: '3.0.3' });
    expect(documentVersion({ openapi: '3.1.9' }, 'a.yaml')).toEqual({ dialect: 'openapi-3.1', version: '3.1.9' });
    // Before: 'a.yaml is an OpenAPI 3.2.0 document; plantstore reads OpenAPI 3.0.x and 3.1.x documents.'
    expect(documentVersion({ openapi: '3.2.0' }, 'a.yaml')).toEqual({ dialect: 'openapi-3.1', version: '3.2.0' });
  });

  it('refuses Swagger 2.0 saying what it is and how to convert it', () => {
    const result = documentVersion({ swagger: '2.0' }, 'old.yaml');
    expect(result).toEqual({
      version: '2.0',
      refused:
        'old.yaml is a Swagger 2.0 (OpenAPI 2.0) document; plantstore reads OpenAPI 3.0, 3.1 and 3.2 only. Convert it first, ' +
        'e.g. `npx swagger2openapi old.yaml -o openapi.yaml` or the Swagger Editor\'s "Edit > Convert to OpenAPI 3", ' +
        'then give plantstore the converted file.',
    });
  });

  it('quotes a path with spaces or quotes in the conversion command', () => {
    const result = documentVersion({ swagger: '2.0' }, "/tmp/my api's.yaml");
    expect('refused' in result ? result.refused : '').toContain(
      `npx swagger2openapi '/tmp/my api'\\''s.yaml' -o openapi.yaml`,
    );
  });

  it('refuses other versions, a number, and a document without a version', () => {
    const refusal = (document: Record<string, unknown>) => {
      const version = documentVersion(document, 'a.yaml');
      return 'refused' in version ? version.refused : undefined;
    };
    expect(refusal({ openapi: '4.0.0' })).toMatch(
      /^a\.yaml is an OpenAPI 4\.0\.0 document; plantstore reads OpenAPI 3\.0\.x, 3\.1\.x and 3\.2\.x/,
    );
    expect(refusal({ openapi: 3.1 })).toContain('write it as a string with three parts, e.g. openapi: "3.1.0"');
    expect(refusal({ openapi: '3.0' })).toBe(
      'a.yaml gives its OpenAPI version as "3.0"; write it with three parts, e.g. openapi: 3.0.0.',
    );
    expect(refusal({ info: {} })).toContain('a.yaml is not an OpenAPI document: it has no "openapi" field');
  });
});
