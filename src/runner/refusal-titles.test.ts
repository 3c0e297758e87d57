import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_SUITES } from '../../suites/index.js';
import { CORRECT_STEPS, refuse, startService } from '../fixtures/base/plant-service.js';
import type { StartedTarget } from '../fixtures/target-fixture.js';
import { runConformance } from '../index.js';
import type { ServiceSteps } from '../fixtures/base/plant-service.js';

/** The titles of the findings of a short run against a correct service with `overrides`. */
function findingTitles(overrides: Partial<ServiceSteps>): { run(): Promise<string[]> } {
  let target: StartedTarget;
  beforeAll(async () => {
    target = await startService({ ...CORRECT_STEPS, ...overrides });
  });
  afterAll(async () => {
    await target.close();
  });
  return {
    async run() {
      const report = await runConformance({
        baseUrl: target.url,
        token: target.token,
        seed: 42,
        runs: 60,
        concurrency: 4,
        timeoutMs: 5_000,
        suites: BUILT_IN_SUITES,
      });
      return (report.findings ?? []).map((finding) => finding.title);
    },
  };
}

/*
 * Go's http.MaxBytesReader(w, r.Body, 4096) answers 413 to a long valid name and to a 10,000-digit invalid id
 * alike: one limit, one finding (it was 'status 413 for a valid NewPlant' and 'status 413 for a request it refuses').
 */
describe('a target whose body size limit is 4 KiB', () => {
  const target = findingTitles({
    decode: (body, req) =>
      body.length > 4096 ? refuse(413, 'http: request body too large', 413) : CORRECT_STEPS.decode(body, req),
  });

  it('gets one finding for the limit, whichever requests met it', async () => {
    expect(await target.run()).toEqual(['status 413 (a body size limit) for a body of 16 KiB or less']);
  }, 120_000);
});

/*
 * Go's dec.DisallowUnknownFields() refuses extra members, and len(name) counts UTF-8 bytes: two root causes,
 * two findings (it was one, 'status 400 for a valid NewPlant', shown by the extra member).
 */
describe('a target that refuses extra members and counts a name in UTF-8 bytes', () => {
  const target = findingTitles({
    readExtra: (record) => {
      const unknown = Object.keys(record).find((key) => !['id', 'name', 'tag'].includes(key));
      return unknown === undefined ? undefined : refuse(400, `invalid body: json: unknown field "${unknown}"`);
    },
    readName: (value) =>
      typeof value === 'string' && Buffer.byteLength(value) > 64
        ? refuse(400, 'name: must be at most 64 characters long')
        : CORRECT_STEPS.readName(value),
  });

  it('gets one finding for each', async () => {
    expect((await target.run()).sort()).toEqual([
      'status 400 for a valid NewPlant',
      'status 400 for a valid NewPlant with a member the document does not name',
    ]);
  }, 120_000);
});

/*
 * Go's json.NewDecoder(r.Body).Decode(&plant) takes `null` (the struct keeps its zero values) and reads the first
 * value of `{...} x`: two habits, two findings (the second was hidden behind the first, one cause for both).
 */
describe('a target that takes a body null and a NewPlant followed by text', () => {
  let nulls = 0n;
  const target = findingTitles({
    parse: (text) => CORRECT_STEPS.parse(text.replace(/\}\s*x\s*$/, '}')),
    readPlant: (text, steps) =>
      text.trim() === 'null' ? { id: (nulls += 1n), name: '' } : CORRECT_STEPS.readPlant(text, steps),
  });

  it('gets one finding for each', async () => {
    const titles = await target.run();
    expect(titles).toContain('an invalid body (a valid NewPlant followed by text after its closing brace) accepted');
    expect(titles.some((title) => title.includes('null') && title.includes('object'))).toBe(true);
    expect(titles).toHaveLength(2);
  }, 120_000);
});

/*
 * hapi 21 parses payloads with @hapi/bourne (protoAction 'error'): a body with a "__proto__" member is refused as
 * "Invalid request payload JSON format", words the prototype hint did not know (HS14: titled 'status 400 for a valid
 * NewPlant' with another reason, or folded into the doubles finding by the id beside it).
 */
describe('a target refusing a "__proto__" member in hapi\'s words', () => {
  const target = findingTitles({
    readExtra: (record) =>
      Object.prototype.hasOwnProperty.call(record, '__proto__')
        ? refuse(400, 'Invalid request payload JSON format')
        : CORRECT_STEPS.readExtra(record),
  });

  it('gets the prototype member finding', async () => {
    expect(await target.run()).toEqual(['status 400 for a valid NewPlant with a "__proto__" or "constructor" member']);
  }, 120_000);
});
