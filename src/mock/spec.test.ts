import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadContract, parseExactJson } from '../contract/index.js';
import { describeDocumentLibrary } from '../http/document-library.case.js';
import { describeSpecFollowing, TEST_DOCUMENTS } from '../http/spec-following.case.js';
import { createMockServer } from './mock-server.js';

// The mock answers the document's other operations as Prism does (other-operations.test.ts).
describeSpecFollowing('the mock', (spec, token) => createMockServer({ spec, tokens: [token] }), true);
describeDocumentLibrary('the mock', (spec, token) => createMockServer({ spec, tokens: [token] }));
describeDocumentLibrary('the mock generating plants', (spec, token) =>
  createMockServer({ spec, tokens: [token], dynamic: true, seed: 3 }),
);

describe('the mock generating plants on a constrained document', () => {
  it('answers every request with a plant the Plant schema accepts, the same for the same seed', async () => {
    const contract = await loadContract(TEST_DOCUMENTS.constrained);
    const bodies: string[][] = [];
    for (let run = 0; run < 2; run++) {
      const mock = await createMockServer({ spec: TEST_DOCUMENTS.constrained, dynamic: true, seed: 11 });
      try {
        const texts: string[] = [];
        for (let i = 0; i < 8; i++) {
          const response = await fetch(`${mock.url}/plants`, {
            method: 'POST',
            headers: { authorization: 'Bearer plantstore-dev-token', 'content-type': 'application/json' },
            body: `{"id":${i},"name":"Fern"}`,
            signal: AbortSignal.timeout(10_000),
          });
          const text = await response.text();
          expect(response.status).toBe(200);
          expect(contract.check.plant(parseExactJson(text)), text).toEqual([]);
          texts.push(text);
        }
        bodies.push(texts);
      } finally {
        await mock.close();
      }
    }
    expect(bodies[1]).toEqual(bodies[0]);
  });
});

describe('the mock asks Prism through its public API only', () => {
  it('no module under src/mock loads a private path of Prism, uses createRequire, or an undeclared @stoplight package', () => {
    const dir = fileURLToPath(new URL('.', import.meta.url));
    const offending = readdirSync(dir)
      .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
      .flatMap((file) => {
        const source = readFileSync(`${dir}/${file}`, 'utf8');
        const imports = [...source.matchAll(/(?:from|import\(|require\()\s*['"]([^'"]+)['"]/g)].map((m) => m[1] ?? '');
        const bad = imports.filter((path) => path.startsWith('@stoplight/') && path !== '@stoplight/prism-http');
        return [...bad, ...(source.includes('createRequire') ? ['createRequire'] : [])].map(
          (what) => `${file}: ${what}`,
        );
      });
    expect(offending).toEqual([]);
  });
});
