import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { int64OfJsonNumber } from '../fixtures/json-integer.js';
import { listenOnLoopback } from '../fixtures/target-fixture.js';
import { runConformance } from '../index.js';
import { DOUBLES_DEFECT } from './defects.js';
import { CRASH_GROUP_TITLES } from './crash-groups.js';
import { NEWLINE_AFTER_MATCH_DEFECT, UNVALIDATED_DEFECT } from './findings.js';

const TOKEN = 'same-cause-folds-token';
const PATTERNS_SPEC = fileURLToPath(new URL('../fixtures/documents/02-name-pattern.yaml', import.meta.url));

type Handler = (body: string, answer: (status: number, value: object) => void) => void;

/** A node:http Plant Store: bearer token and JSON media type checked, then `handle` given the body's text. */
async function startServer(handle: Handler): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const answer = (status: number, value: object): void => {
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      };
      if (req.headers.authorization !== `Bearer ${TOKEN}`) return answer(401, { error: 401, message: 'Unauthorized' });
      if (req.headers['content-type'] !== 'application/json') return answer(415, { error: 415, message: 'JSON only' });
      handle(Buffer.concat(chunks).toString(), answer);
    });
  });
  return listenOnLoopback(server, TOKEN);
}

describe('a refusal of every body, whatever it holds', () => {
  it('is one finding, not a second one for the bodies with a "__proto__" member', async () => {
    // PHP reading php://input through a stream a size check already read to its end: json_decode('') fails for
    // every body, with the words Fastify uses for a "__proto__" member it refuses.
    const target = await startServer((_body, answer) =>
      answer(400, { error: 2, message: 'the body is not valid JSON: Syntax error' }),
    );
    try {
      const report = await runConformance({ baseUrl: target.url, token: TOKEN, seed: 42, runs: 100, concurrency: 4 });
      expect((report.findings ?? []).map((finding) => finding.title)).toEqual(['status 400 for a valid NewPlant']);
    } finally {
      await target.close();
    }
  }, 90_000);
});

/** The document's patterns as PCRE reads them without /D: `$` matches at the end and before a final newline. */
const PATTERNS: Readonly<Record<string, RegExp>> = {
  name: /^[A-Z][a-z]+( [a-z]+)*$/,
  tag: /^[a-z0-9]+(-[a-z0-9]+)*$/,
};

function matchesBeforeFinalNewline(field: string, value: string): boolean {
  return PATTERNS[field]!.test(value.endsWith('\n') ? value.slice(0, -1) : value);
}

/** A JSON text's object with every number kept as its text (`{"$n": "5.0"}`), once JSON.parse took the text. */
function parsedWithNumberTexts(text: string): unknown {
  JSON.parse(text);
  return JSON.parse(
    text.replace(/"(?:[^"\\]|\\.)*"|(-?\d[\d.eE+-]*)/g, (token, number?: string) =>
      number === undefined ? token : `{"$n":"${number}"}`,
    ),
  );
}

describe('patterns checked where $ matches before a final newline (PCRE without /D)', () => {
  it('are one finding for every field, named for the newline', async () => {
    const target = await startServer((text, answer) => {
      let body: Record<string, unknown>;
      try {
        body = parsedWithNumberTexts(text) as Record<string, unknown>;
      } catch {
        return answer(400, { error: 2, message: 'not JSON' });
      }
      if (body === null || typeof body !== 'object' || Array.isArray(body))
        return answer(400, { error: 3, message: 'not an object' });
      const id = (body.id as { $n?: unknown } | null | undefined)?.$n;
      if (typeof id !== 'string' || int64OfJsonNumber(id) === undefined)
        return answer(400, { error: 6, message: 'id must be an integer' });
      for (const field of ['name', 'tag']) {
        const value = body[field];
        if (value === undefined && field === 'tag') continue;
        if (typeof value !== 'string') return answer(400, { error: 7, message: `${field} must be a string` });
        if (!matchesBeforeFinalNewline(field, value) || (field === 'name' && [...value].length > 80))
          return answer(400, { error: 14, message: `${field} does not match` });
      }
      answer(200, body.tag === undefined ? { name: body.name } : { name: body.name, tag: body.tag });
    });
    try {
      const report = await runConformance({
        baseUrl: target.url,
        token: TOKEN,
        spec: PATTERNS_SPEC,
        seed: 42,
        runs: 100,
        concurrency: 4,
      });
      const titles = (report.findings ?? []).map((finding) => finding.title);
      expect(titles).toEqual([NEWLINE_AFTER_MATCH_DEFECT]);
    } finally {
      await target.close();
    }
  }, 90_000);
});

/** Whether a parsed JSON value holds a member name starting with U+0000, 64 levels deep at most. */
function holdsNulName(value: unknown, depth = 0): boolean {
  if (value === null || typeof value !== 'object' || depth > 64) return false;
  return Object.entries(value).some(([key, inner]) => key.startsWith('\u0000') || holdsNulName(inner, depth + 1));
}

describe('a member name starting with U+0000 refused (PHP decoding into objects)', () => {
  it('is found every run: a valid NewPlant holding one is sent', async () => {
    const target = await startServer((text, answer) => {
      let body: Record<string, unknown>;
      try {
        body = parsedWithNumberTexts(text) as Record<string, unknown>;
      } catch {
        return answer(400, { error: 2, message: 'the body is not valid JSON: Syntax error' });
      }
      if (holdsNulName(body))
        return answer(400, { error: 2, message: 'the body is not valid JSON: The decoded property name is invalid' });
      if (body === null || typeof body !== 'object' || Array.isArray(body))
        return answer(400, { error: 3, message: 'not an object' });
      const id = (body.id as { $n?: unknown } | null | undefined)?.$n;
      if (typeof id !== 'string' || int64OfJsonNumber(id) === undefined)
        return answer(400, { error: 6, message: 'id must be an integer' });
      if (typeof body.name !== 'string' || !['undefined', 'string'].includes(typeof body.tag))
        return answer(400, { error: 7, message: 'name and tag must be strings' });
      answer(200, body.tag === undefined ? { name: body.name } : { name: body.name, tag: body.tag });
    });
    try {
      const report = await runConformance({ baseUrl: target.url, token: TOKEN, seed: 42, runs: 100, concurrency: 4 });
      const findings = report.findings ?? [];
      expect(findings.map((finding) => finding.title)).toEqual(['status 400 for a valid NewPlant']);
      expect(findings[0]?.counterexample.reason).toContain("PHP's json_decode refuses it when decoding into objects");
    } finally {
      await target.close();
    }
  }, 90_000);
});

describe('a target that validates no body', () => {
  // Express's express.json() with no schema: the parser refuses text that is not JSON (400), and the handler stores
  // and echoes whatever it parsed, so no invalid JSON body is ever refused. One fix (validate), one finding.
  const storeWhatever: Handler = (body, answer) => {
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      return answer(400, { error: 400, message: 'the body is not valid JSON' });
    }
    const plant = typeof value === 'object' && value !== null ? value : { value };
    try {
      JSON.stringify(plant);
    } catch {
      return answer(500, { error: 500, message: 'Internal Server Error' }); // res.json() 20,000 levels deep
    }
    answer(200, plant);
  };

  it('is one finding for every invalid JSON body it accepted, at every seed (its JSON.parse doubles apart)', async () => {
    for (const seed of [1, 42]) {
      const target = await startServer(storeWhatever);
      try {
        const report = await runConformance({
          baseUrl: target.url,
          token: TOKEN,
          seed,
          runs: 100,
          concurrency: 4,
          checks: ['negative-rejection'],
        });
        const titles = (report.findings ?? []).map((finding) => finding.title);
        expect(
          titles.filter((title) => title !== DOUBLES_DEFECT),
          `seed ${seed}`,
        ).toEqual([UNVALIDATED_DEFECT]);
      } finally {
        await target.close();
      }
    }
  }, 120_000);
});

describe('a target failing every JSON object it is sent with the credential', () => {
  it('is one finding, whatever the body: valid, invalid, unreadable past its parser, or unpredictable', async () => {
    // express-openapi-validator with a document whose $ref it cannot resolve: express.json() refuses what is no
    // object (400), and the validator throws on everything else, valid or not (it was 4 findings at every seed).
    const target = await startServer((text, answer) => {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        return answer(400, { error: 400, message: 'the body is not valid JSON' });
      }
      if (value === null || typeof value !== 'object') return answer(400, { error: 400, message: 'not an object' });
      answer(500, { error: 500, message: 'internal error' });
    });
    try {
      const report = await runConformance({ baseUrl: target.url, token: TOKEN, seed: 42, runs: 100, concurrency: 4 });
      expect((report.findings ?? []).map((finding) => finding.title)).toEqual([
        CRASH_GROUP_TITLES.everyRequest('status 500'),
      ]);
    } finally {
      await target.close();
    }
  }, 90_000);
});

describe('a target whose every refusal but its own id check fails (an error writer that cannot write a 400)', () => {
  it('is one finding for the refusal path, and one for the parser errors', async () => {
    // Fastify's default error handler writing a 400 its response schema cannot serialize: each validation error
    // and parse error is a 500; the handler's own check of the id's digits answers 400 (it was 5 findings).
    const target = await startServer((text, answer) => {
      const crash = () => answer(500, { error: 500, message: 'Failed to serialize an error' });
      let body: Record<string, unknown>;
      try {
        body = parsedWithNumberTexts(text) as Record<string, unknown>;
      } catch {
        return crash();
      }
      if (body === null || typeof body !== 'object' || Array.isArray(body)) return crash();
      const id = (body.id as { $n?: unknown } | null | undefined)?.$n;
      if (typeof id !== 'string' || !Number.isInteger(Number(id))) return crash();
      if (typeof body.name !== 'string' || !['undefined', 'string'].includes(typeof body.tag)) return crash();
      if (int64OfJsonNumber(id) === undefined) return answer(400, { error: 6, message: 'id outside int64' });
      answer(200, body.tag === undefined ? { name: body.name } : { name: body.name, tag: body.tag });
    });
    try {
      const report = await runConformance({ baseUrl: target.url, token: TOKEN, seed: 42, runs: 100, concurrency: 4 });
      expect((report.findings ?? []).map((finding) => finding.title).sort()).toEqual(
        [CRASH_GROUP_TITLES.oneMemberRefused('status 500', 'id'), CRASH_GROUP_TITLES.parse('status 500')].sort(),
      );
    } finally {
      await target.close();
    }
  }, 90_000);
});
