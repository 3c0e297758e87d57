import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../contract/index.js';
import { createReferenceHandler } from '../reference/server.js';
import { CORRECT_STEPS, faultyTarget, isRefusal, refuse } from '../fixtures/base/plant-service.js';
import { JsonNumber } from '../fixtures/base/hand-json.js';
import { longNameHang } from '../fixtures/faulty/crash-defects.js';
import { runConformance } from '../index.js';
import { counterexampleSize } from './findings.js';
import type { Finding } from './report.js';
import { documentPath, DOCUMENTS } from '../fixtures/documents/catalog.js';
import { startDocumentServer } from '../fixtures/documents/hand-server.js';
import type { StartedTarget } from '../fixtures/target-fixture.js';
import { labelsWithRepeats } from '../fixtures/documents/servers/shapes.js';
import { isObject, pick, readId, readString, refuse as refuseBody } from '../fixtures/documents/hand-checks.js';

/** Two root causes the same probe (invalid bodies) finds: a missing name and a null tag, both accepted. */
const twoDefects = faultyTarget(
  { name: 'missing-name-and-null-tag', defect: 'name defaults to ""; a null tag is dropped', expectedFailures: [] },
  {
    readName: (value) => CORRECT_STEPS.readName(value ?? ''),
    readTag: (value) => CORRECT_STEPS.readTag(value ?? undefined),
  },
);

/**
 * Takes a tag of any type, drops a null one (Ruby's `Hash#compact`) and echoes the rest as they came: one
 * root cause, the tag's type is never read, met by negative-rejection first with a null tag (whose answer
 * is a valid Plant) and by response-schema with another type echoed.
 */
const anyTag = faultyTarget(
  { name: 'tag-of-any-type', defect: 'a tag of any type accepted, echoed unless null', expectedFailures: [] },
  { readTag: (value) => (value === null ? undefined : (value as string | undefined)) },
);

/**
 * Converts scalars as ajv's `coerceTypes` (Fastify's default) and pydantic 1's lax types do, for every field:
 * `true` or `12` read as a string, `"12"` or `true` as an integer, null as "" (and no tag for a null one).
 * Two root causes a field at a time would show as one finding per field.
 */
const coercing = faultyTarget(
  { name: 'coerce-types', defect: 'scalars of another type converted, nulls read as empty', expectedFailures: [] },
  {
    readId: (value) =>
      CORRECT_STEPS.readId(
        typeof value === 'boolean' ? Number(value) : typeof value === 'string' ? Number(value) : value,
      ),
    readName: (value) =>
      CORRECT_STEPS.readName(typeof value === 'boolean' || typeof value === 'number' ? String(value) : (value ?? '')),
    readTag: (value) =>
      CORRECT_STEPS.readTag(
        typeof value === 'boolean' || typeof value === 'number' ? String(value) : (value ?? undefined),
      ),
  },
);

/**
 * Python's `json.loads` unguarded (aiohttp's `await request.json()`): any text that is not JSON throws, and so
 * does an id of more than 4,300 digits (Python's limit on converting a string to an int): one crash, 500.
 */
const unguardedParse = faultyTarget(
  { name: 'unguarded-json-parse', defect: 'the body parser throws out of the handler: 500', expectedFailures: [] },
  {
    readPlant(text, steps) {
      steps.parse(text);
      if (/\d{4301}/.test(text)) throw new Error('Exceeds the limit (4300 digits) for integer string conversion');
      return CORRECT_STEPS.readPlant(text, steps);
    },
  },
);

/**
 * Two crashes of two causes: the parser unguarded (500 for any text that is not JSON), and an answer writer that
 * fails on long answers (jiffy's iolist beyond 2 KB under inets, byte_size/1 raising): 500 for a valid NewPlant
 * whose name passes 40 characters.
 */
const twoCrashes = faultyTarget(
  { name: 'unguarded-parse-and-long-answers', defect: 'malformed JSON and long names: 500', expectedFailures: [] },
  {
    readPlant(text, steps) {
      steps.parse(text);
      const plant = CORRECT_STEPS.readPlant(text, steps);
      if (/"name":"[^"]{40}/.test(text)) throw new Error('badarg: byte_size of an iolist');
      return plant;
    },
  },
);

/**
 * A Flask handler written the quick way, two crashes of two causes (two fixes): `data.get` on JSON that is no object
 * (AttributeError on a list, a number), and the name concatenated into a log line before its type is checked
 * (TypeError on a number or an array). Every other invalid body is refused with a 400.
 */
const twoHandlerCrashes = faultyTarget(
  { name: 'two-handler-crashes', defect: 'non-object bodies and a non-string name: 500', expectedFailures: [] },
  {
    readPlant(text, steps) {
      const parsed = (() => {
        try {
          steps.parse(text);
          return true;
        } catch {
          return false;
        }
      })();
      if (parsed && !/^\s*(?:\{|null\s*$)/.test(text)) throw new TypeError("'list' object has no attribute 'get'");
      return CORRECT_STEPS.readPlant(text, steps);
    },
    readName(value) {
      if (value !== undefined && value !== null && typeof value !== 'string')
        throw new TypeError('can only concatenate str (not "int") to str');
      return CORRECT_STEPS.readName(value);
    },
  },
);

/**
 * A validator's error never caught (pydantic's `ValidationError` out of a Flask view): every body it refuses is a
 * 500, whatever broke it; malformed JSON is the framework parser's 400. One cause, one fix.
 */
const refusalPathCrash = faultyTarget(
  { name: 'validation-error-uncaught', defect: 'every invalid JSON body: 500', expectedFailures: [] },
  {
    readPlant(text, steps) {
      try {
        steps.parse(text);
      } catch {
        return CORRECT_STEPS.readPlant(text, steps);
      }
      const plant = CORRECT_STEPS.readPlant(text, steps);
      if (isRefusal(plant)) throw new Error(`1 validation error for NewPlant: ${plant.message}`);
      return plant;
    },
  },
);

/**
 * A name stored in a latin-1 column, encoded before it is checked: any character past U+00FF raises
 * (UnicodeEncodeError), a lone surrogate too. Under 02-name-pattern only invalid names (a pattern broken by 🌱, by
 * U+2028) and JSON of unpredictable meaning hold one: which a seed met first named the finding.
 */
const latin1Name = faultyTarget(
  { name: 'latin1-name-column', defect: 'names past U+00FF: 500', expectedFailures: [] },
  {
    readName(value) {
      if (typeof value === 'string' && [...value].some((character) => character.codePointAt(0)! > 0xff))
        throw new Error("'latin-1' codec can't encode character");
      return CORRECT_STEPS.readName(value);
    },
  },
);

/**
 * pydantic 2's lax mode behind Python's json: numbers with a fraction or exponent parsed as floats, an int field taking a float with no fraction
 * (so `2^53+N.5`, rounded to a whole double, is taken) and a boolean (`true` as 1). Two fixes: a lossless number
 * parser, and strict types.
 */
const laxPydantic = faultyTarget(
  { name: 'pydantic-lax', defect: 'ids read as doubles; true taken for an id', expectedFailures: [] },
  {
    readId(value) {
      if (value === true || value === false) return BigInt(Number(value));
      if (!(value instanceof JsonNumber) || /^-?\d+$/.test(value.text)) return CORRECT_STEPS.readId(value);
      const double = Number(value.text);
      if (!Number.isInteger(double)) return CORRECT_STEPS.readId('not an integer');
      return CORRECT_STEPS.readId(new JsonNumber(BigInt(double).toString()));
    },
    plantAnswer(plant) {
      const tag = plant.tag === undefined ? '' : `,"tag":${JSON.stringify(plant.tag)}`;
      const body = `{"id":${plant.id},"name":${JSON.stringify(plant.name)}${tag}}`;
      return { status: 200, headers: { 'content-type': 'application/json' }, body };
    },
  },
);

/**
 * Nim's std/json server (HS12's nim-noheader): a trailing comma read as if absent, and every answer written without
 * a Content-Type. A trailing comma accepted fails content-type and negative-rejection on one exchange.
 */
const lenientUnlabelled = faultyTarget(
  { name: 'trailing-comma-unlabelled', defect: 'a trailing comma accepted; answers unlabelled', expectedFailures: [] },
  {
    parse: (text) => CORRECT_STEPS.parse(text.replace(/,(\s*[}\]])/g, '$1')),
    plantAnswer: (plant) => ({ ...CORRECT_STEPS.plantAnswer(plant), headers: {} }),
  },
);

const PARSE_CRASH = 'status 500 for bodies the JSON parser cannot read, of every kind met (its error not handled)';

/** The findings of a short run of `checks` (negative-rejection) against a target (of `spec`, when given). */
async function findingsAgainst(
  target: StartedTarget,
  { spec, checks = ['negative-rejection'], seed = 20261123, runs = 30 }: FindingsRun = {},
): Promise<readonly Finding[]> {
  const report = await runConformance({
    baseUrl: target.url,
    token: target.token,
    ...(spec === undefined ? {} : { spec }),
    seed,
    runs,
    concurrency: 4,
    timeoutMs: 5_000,
    budgetMs: 40_000,
    checks,
  });
  return report.findings ?? [];
}

interface FindingsRun {
  readonly spec?: string;
  readonly checks?: string[];
  readonly seed?: number;
  readonly runs?: number;
}

/** The findings' titles of a short negative-rejection run against a target (of `spec`, when given). */
async function rejectionFindings(target: StartedTarget, spec?: string): Promise<string[]> {
  return (await findingsAgainst(target, spec === undefined ? {} : { spec })).map((finding) => finding.title);
}

describe('a check keeps one counterexample per root cause', () => {
  it('reports a second defect of one probe beside the first, so a baseline of one cannot hide the other', async () => {
    const target = await twoDefects.start();
    try {
      const titles = await rejectionFindings(target);
      expect(titles.some((title) => title.includes('"name"'))).toBe(true);
      expect(titles.some((title) => title.includes('null for a property'))).toBe(true);
    } finally {
      await target.close();
    }
  }, 60_000);

  it('names one finding when negative-rejection and response-schema meet one field with different values', async () => {
    const target = await anyTag.start();
    try {
      const findings = await findingsAgainst(target, {
        checks: ['negative-rejection', 'response-schema'],
        seed: 20261127,
        runs: 60,
      });
      const tagFindings = findings.filter((finding) => finding.title.includes('"tag"'));
      expect(tagFindings).toHaveLength(1);
      expect([...(tagFindings[0]?.checks ?? [])].sort()).toEqual(['negative-rejection', 'response-schema']);
    } finally {
      await target.close();
    }
  }, 60_000);

  it('names one finding for scalars converted and one for nulls taken, whichever fields showed them', async () => {
    const target = await coercing.start();
    try {
      const titles = await rejectionFindings(target);
      expect(titles.filter((title) => title.includes('lenient readers convert'))).toHaveLength(1);
      expect(titles.filter((title) => title.includes('null for a property'))).toHaveLength(1);
      expect(titles.filter((title) => /"(?:id|name|tag)" holds (?:true|null|\d)/.test(title))).toEqual([]);
    } finally {
      await target.close();
    }
  }, 60_000);

  it('keeps a boolean taken for an id beside fractions read as doubles: two fixes, not one field read wrongly', async () => {
    const target = await laxPydantic.start();
    try {
      const titles = await rejectionFindings(target);
      // Integers are read exactly, so the fraction is not the doubles defect by itself (c9b4f9a): it is its own.
      expect(titles).toContain('an invalid body ("id" set to 2^53+N.5) accepted');
      expect(titles.filter((title) => title.includes('lenient readers convert'))).toHaveLength(1);
      expect(titles).toHaveLength(2);
    } finally {
      await target.close();
    }
  }, 60_000);

  it('keeps a second broken keyword of one field beside the first: null labels and a repeated label accepted', async () => {
    const entry = DOCUMENTS.find((candidate) => candidate.file === '10-labels-array.yaml');
    if (!entry) throw new Error('10-labels-array.yaml is not in the catalog');
    const repeats = labelsWithRepeats();
    // A typed decoder reads `"labels": null` as no labels (Go's nil slice), and the repeat goes unchecked.
    const target = await startDocumentServer({
      ...repeats,
      create: (body) => {
        if (body.labels === null) delete body.labels;
        return repeats.create(body);
      },
    });
    try {
      const titles = await rejectionFindings(target, documentPath(entry));
      expect(titles.filter((title) => title.includes('null for a property'))).toHaveLength(1);
      expect(titles.filter((title) => title.includes('uniqueItems'))).toHaveLength(1);
    } finally {
      await target.close();
    }
  }, 60_000);

  it("folds a null or a boolean inside array items into the items' finding where the items took another break too", async () => {
    const entry = DOCUMENTS.find((candidate) => candidate.file === '20-origin-coordinates.yaml');
    if (!entry) throw new Error('20-origin-coordinates.yaml is not in the catalog');
    // A Draft 7 validator under a 3.1 document (HD13's f04): prefixItems unknown, so the pair's length and the
    // country are checked, and what the pair holds is not. A null and a boolean there were two more findings.
    const target = await startDocumentServer({
      create: (body) => {
        const id = readId(body);
        readString(body, 'name', { required: true });
        readString(body, 'tag');
        const { origin } = body;
        if (origin !== undefined) {
          if (!isObject(origin)) return refuseBody('Field "origin" must be an object.');
          const pair = origin.coordinates;
          if (!Array.isArray(pair) || pair.length !== 2)
            refuseBody('Field "origin.coordinates" must hold two numbers.');
          readString(origin, 'country', { pattern: /^[A-Z]{2}$/ });
        }
        return { id, plant: pick(body, ['name', 'tag', 'origin']) };
      },
      repeats: 'replace',
    });
    try {
      const findings = await findingsAgainst(target, { spec: documentPath(entry), runs: 100 });
      const titles = findings.map((finding) => finding.title);
      expect(titles.filter((title) => /null for a property|lenient readers convert/.test(title))).toEqual([]);
      expect(titles).toEqual([
        'invalid bodies accepted inside the items of origin.coordinates (the rules of origin.coordinates[#] not checked)',
      ]);
    } finally {
      await target.close();
    }
  }, 60_000);

  it('keeps more than six root causes of one check: two numbers, each with its type and three bounds unchecked', async () => {
    const entry = DOCUMENTS.find((candidate) => candidate.file === '05-measures.yaml');
    if (!entry) throw new Error('05-measures.yaml is not in the catalog');
    // Reads id, name and tag as the document says, and stores heightCm and trayCount as they came.
    const target = await startDocumentServer({
      create: (body) => {
        const id = readId(body);
        readString(body, 'name', { required: true });
        readString(body, 'tag');
        return { id, plant: pick(body, ['name', 'tag', 'heightCm', 'trayCount']) };
      },
      repeats: 'replace',
    });
    try {
      const titles = await rejectionFindings(target, documentPath(entry));
      for (const field of ['heightCm', 'trayCount'])
        for (const keyword of ['maximum', 'multipleOf'])
          expect(titles.filter((title) => title.includes(`"${field}"`) && title.includes(keyword))).toHaveLength(1);
      expect(titles.length).toBeGreaterThan(6);
    } finally {
      await target.close();
    }
  }, 60_000);

  it('keeps the first case of every cause past the cap: a target taking almost any body still shows text after the value', async () => {
    // Stores whatever came, as a plant of its own, but a body without "name": nearly every invalid body of
    // 17-full-store is accepted, and its causes, met by several probes, filled the cap of 12 cases per check before
    // the last ones in run order. (Refusing none, it would be one finding: no body is validated.)
    let next = 0n;
    const anyBody = faultyTarget(
      { name: 'any-body', defect: 'every body with a "name" accepted', expectedFailures: [] },
      {
        readPlant: (text) =>
          text.includes('"name"') ? { id: (next += 1n), name: 'Fern' } : refuse(407, 'Field "name" is required.'),
      },
    );
    const target = await anyBody.start();
    try {
      const spec = documentPath(DOCUMENTS.find((entry) => entry.file === '17-full-store.yaml')!);
      const titles = await rejectionFindings(target, spec);
      // It was 7: the cases of the last four causes in run order were dropped (the id's minimum, range and
      // fraction, text after the value).
      expect(titles).toContain('an invalid body (a valid NewPlant followed by text after its closing brace) accepted');
      expect(titles).toContain(
        'an invalid body ("id" holds #: id 0, just outside minimum # (keyword minimum)) accepted',
      );
      expect(titles.length).toBeGreaterThan(10);
    } finally {
      await target.close();
    }
  }, 90_000);

  it('shrinks the first case of a defect several probes meet and keeps their later cases, no smaller, as found', async () => {
    // Every tag is echoed trimmed of its last character: plain plants, spelled schemes and media types, precision
    // pairs all meet it, each with a reason of its own values.
    const tagCut = faultyTarget(
      { name: 'tag-cut', defect: 'a tag is stored without its last character', expectedFailures: [] },
      {
        readTag: (value) => (typeof value === 'string' && value.length > 1 ? value.slice(0, -1) : (value as undefined)),
      },
    );
    const target = await tagCut.start();
    try {
      const report = await runConformance({
        baseUrl: target.url,
        token: target.token,
        seed: 20261128,
        runs: 60,
        concurrency: 4,
        checks: ['echo'],
      });
      const failures = report.checks.find((check) => check.id === 'echo')?.failures ?? [];
      const shrunk = failures.filter((failure) => failure.shrinkSteps > 0);
      expect(shrunk.length).toBeGreaterThan(0);
      expect(shrunk.length).toBeLessThan(failures.length);
      // Each finding still shows the smallest case of its defect, a shrunk one.
      for (const finding of report.findings ?? []) {
        const cases = failures.filter((failure) => failure.defect === finding.title);
        expect(counterexampleSize(finding.counterexample)).toBe(Math.min(...cases.map((f) => counterexampleSize(f))));
        expect(finding.counterexample.shrinkSteps).toBeGreaterThan(0);
      }
    } finally {
      await target.close();
    }
  }, 60_000);

  it('shrinks a case two checks failed along one set of candidates: the later check judges the first answer, not a repeat', async () => {
    // Sent again, each candidate met the plant its first sending stored: negative-rejection showed the trailing
    // comma refused as a repeat, and the finding's counterexample was content-type's.
    const target = await lenientUnlabelled.start();
    try {
      const report = await runConformance({
        baseUrl: target.url,
        token: target.token,
        seed: 42,
        runs: 100,
        concurrency: 4,
        timeoutMs: 5_000,
        budgetMs: 40_000,
        checks: ['content-type', 'negative-rejection'],
      });
      const comma = (id: string) =>
        report.checks.find((check) => check.id === id)?.failures.find((f) => f.defect?.includes('trailing comma'));
      expect(comma('content-type')?.shrinkSteps).toBeGreaterThan(0);
      expect(comma('negative-rejection')?.response.status).toBe(200);
      expect(comma('negative-rejection')?.request.body).toBe(comma('content-type')?.request.body);
    } finally {
      await target.close();
    }
  }, 60_000);

  it('does not shrink a body sent in two halves when a body sent whole showed its defect', async () => {
    // jiffy under inets: an answer beyond a size crashes the writer, whichever way the body came. The target
    // counts the bodies that came in two pieces.
    const reference = createReferenceHandler(await loadContract(), { tokens: ['halves-token'] });
    let inHalves = 0;
    const server = createServer((req, res) => {
      if (req.method !== 'POST') return reference(req, res);
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (chunks.length > 1) inHalves++;
        const body = Buffer.concat(chunks);
        if (body.length <= 60 || req.headers.authorization !== 'Bearer halves-token') {
          const replay = Readable.from([body]) as unknown as typeof req;
          Object.assign(replay, { method: req.method, url: req.url, headers: req.headers });
          return reference(replay, res);
        }
        res.writeHead(500, { 'content-type': 'text/plain' }).end('badarg');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      let inHalvesBeforeShrinking: number | undefined;
      const report = await runConformance({
        baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        token: 'halves-token',
        // A seed whose first failing case of the defect goes in two halves (seeds 3, 9, 11, 12 of 1 to 12).
        seed: 3,
        runs: 40,
        concurrency: 4,
        checks: ['no-server-error'],
        onProgress: (event) => {
          if (event.kind === 'case' && event.phase === 'shrink') inHalvesBeforeShrinking ??= inHalves;
        },
      });
      expect(report.findings?.map(({ title }) => title)).toContain('status 500 for a valid NewPlant');
      expect(inHalvesBeforeShrinking).toBeGreaterThan(0);
      expect(inHalves).toBe(inHalvesBeforeShrinking);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  }, 60_000);

  it('gives a request the target never answered a curl line that times out as the run did (--max-time)', async () => {
    const hanging = await longNameHang.start();
    try {
      const report = await runConformance({
        baseUrl: hanging.url,
        token: hanging.token,
        seed: 20261128,
        runs: 30,
        concurrency: 4,
        timeoutMs: 400,
        budgetMs: 20_000,
        checks: ['no-server-error'],
      });
      const [failure] = report.checks.find((check) => check.id === 'no-server-error')?.failures ?? [];
      expect(failure?.response.transportError).toBe('timeout');
      expect(failure?.curl).toMatch(/^curl -sS -i --max-time 2 -X POST /);
    } finally {
      await hanging.close();
    }
  }, 60_000);

  it('keeps a crash on valid NewPlants beside a crash on malformed bodies: the same words, two root causes', async () => {
    const target = await twoCrashes.start();
    try {
      // Both answered "The target answered 500, a server error."; the smaller (malformed) case hid the other.
      const findings = await findingsAgainst(target, { checks: ['no-server-error'], seed: 1312698176, runs: 100 });
      const titles = findings.map((finding) => finding.title);
      expect(titles).toContain('status 500 for a valid NewPlant');
      expect(titles).toContain(PARSE_CRASH);
      expect(titles).toHaveLength(2);
    } finally {
      await target.close();
    }
  }, 60_000);

  it('shows a crash met by several kinds of body with the smallest of them, not the first in run order', async () => {
    const target = await unguardedParse.start();
    try {
      // Seed 1903351753 meets an id of 10,000 digits first (the aiohttp red team's run, 2026-11-28).
      const findings = await findingsAgainst(target, { checks: ['no-server-error'], seed: 1903351753, runs: 100 });
      // Titled by what every crash shares, not by the malformation shown (it was '(a trailing comma before a
      // closing bracket)' whichever malformed body crashed: Hono's c.req.json(), Jackson's HTML 500).
      expect(findings.map((finding) => finding.title)).toEqual([PARSE_CRASH]);
      expect(findings[0]?.counterexample.request.body?.length).toBeLessThan(50);
      // The reason lists the kinds met: a fix of the one shown alone would leave the others.
      expect(findings[0]?.counterexample.reason).toMatch(/every kind of body the parser cannot read .*truncated JSON/);
    } finally {
      await target.close();
    }
  }, 60_000);

  it('keeps two crashes of two causes apart: a body that is no object and a name of another type', async () => {
    const target = await twoHandlerCrashes.start();
    try {
      // Both answered "The target answered 500, a server error."; the smaller body ([]) hid the name's crash.
      const findings = await findingsAgainst(target, { checks: ['no-server-error'], seed: 42, runs: 100 });
      const titles = findings.map((finding) => finding.title);
      expect(titles).toContain('status 500 for an invalid body (a JSON value other than an object, null included)');
      expect(titles).toContain('status 500 for an invalid body (a member of another JSON type, null included)');
    } finally {
      await target.close();
    }
  }, 60_000);

  it('names one finding for crashes on every invalid body the target refuses none of: its refusal path', async () => {
    const target = await refusalPathCrash.start();
    try {
      const findings = await findingsAgainst(target, { checks: ['no-server-error'], seed: 42, runs: 100 });
      expect(findings.map((finding) => finding.title)).toEqual([
        'status 500 for an invalid body of every kind met (no invalid object was refused: the refusal path fails)',
      ]);
    } finally {
      await target.close();
    }
  }, 60_000);

  it('titles a crash on characters past latin-1 alike whichever character a seed met (🌱, U+2028, a lone surrogate)', async () => {
    const spec = documentPath(DOCUMENTS.find((entry) => entry.file === '02-name-pattern.yaml')!);
    for (const seed of [1, 42, 1312698176]) {
      const target = await latin1Name.start();
      try {
        const findings = await findingsAgainst(target, { spec, checks: ['no-server-error'], seed, runs: 100 });
        expect(
          findings.map((finding) => finding.title),
          `seed ${seed}`,
        ).toEqual(['status 500 for a body whose strings hold a character beyond ASCII']);
      } finally {
        await target.close();
      }
    }
  }, 120_000);
});

const INT64_MIN = -(2n ** 63n);

/**
 * PHP's `(int)$body['id']` under `isset()`: the id's type is never read. `[]` is 0, `true` 1, a fraction truncated,
 * an integer json_decode read as a float past int64 PHP_INT_MIN (x86-64).
 */
const intCast = faultyTarget(
  { name: 'int-cast', defect: 'the id is cast with (int), its type never read', expectedFailures: [] },
  {
    readId(value) {
      if (value === undefined || value === null) return refuse(406, 'id is required');
      if (Array.isArray(value) || (typeof value === 'object' && !(value instanceof JsonNumber)))
        return BigInt(Object.keys(value).length > 0 ? 1 : 0);
      if (typeof value === 'boolean') return value ? 1n : 0n;
      if (typeof value === 'string') return BigInt(/^\s*-?\d+/.exec(value)?.[0] ?? 0);
      if (/^-?\d+$/.test((value as JsonNumber).text)) {
        const exact = BigInt((value as JsonNumber).text);
        if (exact >= INT64_MIN && exact < -INT64_MIN) return exact;
      }
      const number = Number((value as JsonNumber).text);
      return Math.abs(number) < 2 ** 63 ? BigInt(Math.trunc(number)) : INT64_MIN;
    },
  },
);

/** JavaScript's `Number(body.id)` checked with `Number.isInteger`: `[]` is 0, and no range check (2^64 accepted). */
const numberIsInteger = faultyTarget(
  { name: 'number-is-integer', defect: 'Number(id) with Number.isInteger', expectedFailures: [] },
  {
    readId(value) {
      const number = Number(value instanceof JsonNumber ? value.text : value);
      return value !== undefined && Number.isInteger(number) ? BigInt(number) : refuse(406, 'id must be an integer');
    },
  },
);

describe('an id whose type is never read (cast to an integer)', () => {
  it('is one finding: a fraction and an integer past int64 answered as other integers are the cast', async () => {
    for (const seed of [1, 42]) {
      const target = await intCast.start();
      try {
        const titles = (await findingsAgainst(target, { seed, runs: 60 })).map((finding) => finding.title);
        expect(
          titles.filter((title) => title.includes('"id"')),
          `seed ${seed}`,
        ).toEqual(['an invalid body ("id" holds an array: id not of type integer: an array (keyword type)) accepted']);
      } finally {
        await target.close();
      }
    }
  }, 90_000);

  it('keeps an integer past int64 answered as sent apart: Number() beside Number.isInteger has no range check', async () => {
    const target = await numberIsInteger.start();
    try {
      const titles = (await findingsAgainst(target, { seed: 42, runs: 60 })).map((finding) => finding.title);
      expect(titles).toContain('an invalid body ("id" set to an integer outside int64) accepted');
      expect(titles.filter((title) => title.includes('"id"')).length).toBeGreaterThan(1);
    } finally {
      await target.close();
    }
  }, 60_000);
});
