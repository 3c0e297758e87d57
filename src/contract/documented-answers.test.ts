import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { documentedAnswers } from './documented-answers.js';
import { refusalStatusOf } from './refusal-status.js';
import type { CompiledSchema } from './schema/compiled-schema.js';
import { loadContract } from './spec.js';

const DOCUMENTED_REFUSALS = fileURLToPath(
  new URL('../http/test-documents/documented-refusals-3.1.yaml', import.meta.url),
);

/** The keys `forStatus` picks for statuses, given response keys and the Error's key. */
function picks(errorKey: string, keys: readonly string[], statuses: readonly number[]): (string | undefined)[] {
  const compiled = new Map(
    keys.map((key) => [key, { pointer: `/${key}`, mediaType: 'application/json', compiled: {} as CompiledSchema }]),
  );
  const answers = documentedAnswers(refusalStatusOf(errorKey, keys), keys, compiled, []);
  return statuses.map((status) => answers.forStatus(status)?.key);
}

describe('documented answers', () => {
  it("pick the status's own response, else 4XX, else default, never the Error's, never outside 4xx", () => {
    expect(picks('400', ['200', '400', '401', '4XX', 'default'], [400, 401, 404, 500, 302])).toEqual([
      undefined,
      '401',
      '4XX',
      undefined,
      undefined,
    ]);
    expect(picks('400', ['200', '400', '422', 'default'], [422, 409])).toEqual(['422', 'default']);
    // FastAPI: the Error is the 422's, a 400 the document lists has its own body.
    expect(picks('422', ['200', '400', '422'], [422, 400, 401])).toEqual([undefined, '400', undefined]);
    // The Error comes from `default`: every unlisted 4xx carries it.
    expect(picks('default', ['200', '401', 'default'], [401, 404])).toEqual(['401', undefined]);
  });

  it('a listed response without a JSON schema stops the search: its bodies are not judged', async () => {
    const contract = await loadContract(DOCUMENTED_REFUSALS);
    const key = (status: number) => contract.answers.forStatus(status)?.key;
    expect([400, 401, 404, 415, 422].map(key)).toEqual([undefined, '401', 'default', undefined, '422']);
    expect(contract.answers.forStatus(404)?.mediaType).toBe('application/problem+json');
    expect(contract.answers.forStatus(401)?.compiled.check({ detail: 'Not authenticated' })).toEqual([]);
    expect(contract.answers.forStatus(401)?.compiled.check({ error: 401, message: 'm' })).not.toEqual([]);
    expect(contract.answers.unchecked).toEqual([]);
  });

  it('the bundled document gives no refusal a body of its own', async () => {
    const contract = await loadContract();
    expect([401, 403, 404, 415, 422].map((status) => contract.answers.forStatus(status))).toEqual(
      Array(5).fill(undefined),
    );
  });

  it('a response schema it cannot honour leaves those bodies unjudged, with where and why, and the document usable', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'plantstore-answers-'));
    try {
      const spec = join(directory, 'openapi.yaml');
      const text = readFileSync(DOCUMENTED_REFUSALS, 'utf8').replace(
        "        '415':",
        "        '403':\n          description: Forbidden.\n          content:\n            application/json:\n              schema:\n                allOf: [false]\n        '415':",
      );
      writeFileSync(spec, text);
      const contract = await loadContract(spec);
      expect(contract.answers.forStatus(403)).toBeUndefined();
      expect(contract.answers.forStatus(401)?.key).toBe('401');
      expect(contract.answers.unchecked.map(({ key }) => key)).toEqual(['403']);
      expect(contract.answers.unchecked[0]?.problems[0]?.message).toContain('"allOf"');
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
