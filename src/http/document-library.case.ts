import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadContract, parseExactJson, PROBLEMS, stringifyExactJson, type Contract } from '../contract/index.js';
import type { StartOnSpec } from './spec-following.case.js';

const LIBRARY = fileURLToPath(new URL('../fixtures/documents/', import.meta.url));
const DOCUMENTS = readdirSync(LIBRARY).filter((file) => /\.(ya?ml|json)$/.test(file));
const TOKEN = 'library-token';

/** Sends each body; every answer must be a valid Plant, or (the reference, a repeated id) a valid Error. */
async function expectValidAnswers(url: string, contract: Contract, bodies: readonly string[]): Promise<void> {
  for (const body of bodies) {
    const response = await fetch(`${url}/plants`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body,
      signal: AbortSignal.timeout(10_000),
    });
    const answer = parseExactJson(await response.text());
    if (response.status === 200) {
      expect(contract.check.plant(answer), body).toEqual([]);
    } else {
      expect(answer, body).toMatchObject({ error: PROBLEMS.duplicateId.code });
      expect(contract.check.error(answer)).toEqual([]);
    }
  }
}

/**
 * One shared case over the project's library of documents (src/fixtures/documents): on each, the
 * server starts and answers generated valid NewPlants with Plants the document accepts.
 */
export function describeDocumentLibrary(label: string, start: StartOnSpec): void {
  describe(`${label} on every document of the library`, () => {
    it.each(DOCUMENTS)(
      '%s: answers generated valid NewPlants with valid Plants',
      async (file) => {
        const spec = `${LIBRARY}${file}`;
        const contract = await loadContract(spec);
        const bodies = fc.sample(contract.compiled.newPlant.valid, { seed: 9, numRuns: 8 }).map(stringifyExactJson);
        const server = await start(spec, TOKEN);
        try {
          await expectValidAnswers(server.url, contract, bodies);
        } finally {
          await server.close();
        }
      },
      30_000,
    );
  });
}
