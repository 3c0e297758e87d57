import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract, parseExactJson, stringifyExactJson, type Contract } from '../contract/index.js';
import { exactJsonText } from '../contract/new-plant-request.js';

/** The small documents the servers' spec-following tests run against. */
export const TEST_DOCUMENTS = {
  constrained: fileURLToPath(new URL('./test-documents/constrained-3.1.yaml', import.meta.url)),
  nullable: fileURLToPath(new URL('./test-documents/nullable-3.0.yaml', import.meta.url)),
  vendorMediaType: fileURLToPath(new URL('./test-documents/vendor-media-type.yaml', import.meta.url)),
  errorRefuses: fileURLToPath(new URL('./test-documents/error-refuses.yaml', import.meta.url)),
  documentedRefusals: fileURLToPath(new URL('./test-documents/documented-refusals-3.1.yaml', import.meta.url)),
} as const;

/** A server of the project started on a document, with one accepted token. */
export interface SpecServer {
  readonly url: string;
  readonly notServed: readonly string[];
  close(): Promise<void>;
}

/** Starts a server on `spec` accepting `token` (a mock with `dynamic` generates its plants). */
export type StartOnSpec = (spec: string, token: string) => Promise<SpecServer>;

const TOKEN = 'spec-following-token';

interface Reply {
  readonly status: number;
  readonly text: string;
  readonly json: Record<string, unknown>;
}

async function post(server: SpecServer, body: string, headers: Record<string, string> = {}): Promise<Reply> {
  const response = await fetch(`${server.url}/plants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', ...headers },
    body,
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  return { status: response.status, text, json: parseExactJson(text) as Record<string, unknown> };
}

/**
 * One shared case, run against the reference and the mock: each follows the document it is given.
 * It refuses what breaks a constraint with an Error the document's Error schema accepts, answers a
 * valid NewPlant with the Plant schema's projection of it (every Plant property echoed exactly,
 * required ones it lacks filled validly), and names the operations it does not serve (`answersOthers`:
 * none, for the mock, which answers the other operations as Prism does).
 */
export function describeSpecFollowing(label: string, start: StartOnSpec, answersOthers = false): void {
  describe(`${label} on a constrained OpenAPI 3.1 document`, () => {
    let server: SpecServer;
    let contract: Contract;
    beforeAll(async () => {
      contract = await loadContract(TEST_DOCUMENTS.constrained);
      server = await start(TEST_DOCUMENTS.constrained, TOKEN);
    });
    afterAll(() => server.close());

    const expectError = (reply: Reply, status: number, code: number): void => {
      expect(reply.status).toBe(status);
      expect(contract.check.error(reply.json)).toEqual([]);
      expect(reply.json).toMatchObject({
        error: code,
        code: expect.stringMatching(/^(BAD_REQUEST|UNAUTHORIZED)$/) as unknown,
      });
    };

    it.each([
      ['a name longer than maxLength 10', '{"id":1,"name":"Elevenchars"}', 1011],
      ['an empty name under minLength 1', '{"id":1,"name":""}', 1011],
      ['a tag outside the enum', '{"id":1,"name":"Fern","tag":"rose"}', 1011],
      ['four labels over maxItems 3', '{"id":1,"name":"Fern","labels":["a","b","c","d"]}', 1011],
      ['a nested object missing its required member', '{"id":1,"name":"Fern","care":{"height":2}}', 1005],
      ['a nested integer with a fraction', '{"id":1,"name":"Fern","care":{"water":"daily","leaves":1.5}}', 1007],
    ])('refuses %s with a 400 Error the Error schema accepts', async (_what, body, code) => {
      expectError(await post(server, body), 400, code);
    });

    it('answers authentication, route and framing failures with Errors the Error schema accepts', async () => {
      expectError(await post(server, '{"id":1,"name":"Fern"}', { authorization: '' }), 401, 2001);
      expectError(await post(server, '{"id":1,"name":', {}), 400, 1001);
      const notFound = await fetch(`${server.url}/pets`, { signal: AbortSignal.timeout(10_000) });
      expect(contract.check.error(parseExactJson(await notFound.text()))).toEqual([]);
    });

    it('echoes every Plant property exactly: big integers, numbers as written, nested objects, arrays', async () => {
      const body =
        '{"id":9223372036854775807,"name":"Fern ","tag":"fern","care":{"water":"daily","height":1.50,"leaves":9007199254740993},"labels":["a","\\u00e9"],"potted":false,"extra":1}';
      const reply = await post(server, body);
      expect(reply.status).toBe(200);
      expect(reply.text).toContain('"id":9223372036854775807');
      expect(reply.text).toContain('"care":{"water":"daily","height":1.50,"leaves":9007199254740993}');
      expect(reply.json).toMatchObject({ name: 'Fern ', tag: 'fern', labels: ['a', 'é'], potted: false });
      expect(reply.json).not.toHaveProperty('extra');
      expect(contract.check.plant(reply.json)).toEqual([]);
    });

    it('fills the required createdAt the NewPlant does not carry with a valid value, and leaves optional ones out', async () => {
      const reply = await post(server, '{"id":12,"name":"Ivy"}');
      expect(reply.status).toBe(200);
      expect(Object.keys(reply.json).sort()).toEqual(['createdAt', 'id', 'name']);
      expect(contract.check.plant(reply.json)).toEqual([]);
    });

    it('answers every generated valid NewPlant with the exact projection', async () => {
      const seen = new Set<string>();
      const plants = fc
        .sample(contract.compiled.newPlant.valid, { seed: 42, numRuns: 60 })
        .map(stringifyExactJson)
        .filter((text) => {
          const id = exactJsonText(parseExactJson(text) as object, 'id');
          if (seen.has(id)) return false;
          seen.add(id);
          return true;
        });
      for (const text of plants) {
        const sent = parseExactJson(text) as Record<string, unknown>;
        const reply = await post(server, text);
        expect(reply.status, text).toBe(200);
        expect(contract.check.plant(reply.json), reply.text).toEqual([]);
        for (const name of ['id', 'name', 'tag', 'care', 'labels', 'potted']) {
          if (name in sent) expect(exactJsonText(reply.json, name)).toBe(exactJsonText(sent, name));
          else if (name !== 'id' && name !== 'name') expect(reply.json).not.toHaveProperty(name);
        }
      }
    });

    it('names the operations of the document it does not serve', () => {
      expect(server.notServed).toEqual(answersOthers ? [] : ['GET /plants', 'DELETE /plants/{id}']);
    });
  });

  describe(`${label} on a document that gives refusals bodies of their own`, () => {
    let server: SpecServer;
    let contract: Contract;
    beforeAll(async () => {
      contract = await loadContract(TEST_DOCUMENTS.documentedRefusals);
      server = await start(TEST_DOCUMENTS.documentedRefusals, TOKEN);
    });
    afterAll(() => server.close());

    it("answers a missing credential with the 401 body the document gives, with the refusal's message", async () => {
      const response = await fetch(`${server.url}/plants`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"id":1,"name":"Fern"}',
        signal: AbortSignal.timeout(10_000),
      });
      const text = await response.text();
      expect(response.status).toBe(401);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const answer = contract.answers.forStatus(401);
      expect(answer?.compiled.check(parseExactJson(text))).toEqual([]);
      expect(Object.keys(JSON.parse(text) as object)).toEqual(['detail']);
      expect((JSON.parse(text) as { detail: string }).detail).toMatch(/\S/);
    });

    it('still refuses an invalid NewPlant with a 400 Error', async () => {
      const reply = await post(server, '{"id":"1","name":"Fern"}');
      expect(reply.status).toBe(400);
      expect(contract.check.error(reply.json)).toEqual([]);
    });
  });

  describe(`${label} on an OpenAPI 3.0 document with nullable`, () => {
    let server: SpecServer;
    let contract: Contract;
    beforeAll(async () => {
      contract = await loadContract(TEST_DOCUMENTS.nullable);
      server = await start(TEST_DOCUMENTS.nullable, TOKEN);
    });
    afterAll(() => server.close());

    it('accepts a null tag, echoes it, and fills the required kind with its default', async () => {
      const reply = await post(server, '{"id":5,"name":"Moss","tag":null}');
      expect(reply.status).toBe(200);
      expect(reply.text).toBe('{"name":"Moss","tag":null,"kind":"indoor"}');
      expect(contract.check.plant(reply.json)).toEqual([]);
    });

    it('still refuses a tag of another type with the seed Error', async () => {
      const reply = await post(server, '{"id":6,"name":"Moss","tag":5}');
      expect(reply.status).toBe(400);
      expect(reply.json).toMatchObject({ error: 1006 });
      expect(contract.check.error(reply.json)).toEqual([]);
    });
  });
}
