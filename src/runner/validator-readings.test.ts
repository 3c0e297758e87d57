import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadContract } from '../contract/spec.js';
import { failedCheck as failed } from '../fixtures/sample-reports.js';
import { findingsOf, validatorReadingDefect, withValidatorReadingsFolded } from './findings.js';
import type { CheckResult, Failure } from './report.js';
import { validatorReadings } from './validator-readings.js';

const folder = mkdtempSync(join(tmpdir(), 'validator-readings-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A 3.1 document whose NewPlant is `schemas.NewPlant`, with the other `schemas` beside it. */
function document(schemas: Record<string, unknown>): string {
  const file = join(folder, `${Object.keys(schemas).join('-')}-${Math.random().toString(36).slice(2)}.json`);
  const json = { 'application/json': { schema: { $ref: '#/components/schemas/NewPlant' } } };
  const error = {
    type: 'object',
    required: ['error', 'message'],
    properties: { error: { type: 'integer' }, message: { type: 'string' } },
  };
  writeFileSync(
    file,
    JSON.stringify({
      openapi: '3.1.0',
      info: { title: 'Plant Store', version: '1' },
      paths: {
        '/plants': {
          post: {
            requestBody: { required: true, content: json },
            responses: {
              '200': { description: 'ok', content: json },
              '400': {
                description: 'no',
                content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
              },
            },
          },
        },
      },
      components: { schemas: { ...schemas, Error: error } },
    }),
  );
  return file;
}

async function readingsOf(file: string) {
  const contract = await loadContract(file);
  return validatorReadings(contract.schemas.newPlant, contract.document, contract.dialect);
}

const SIBLINGS = {
  Name: { type: 'string', minLength: 1 },
  NewPlant: {
    type: 'object',
    required: ['id', 'name'],
    properties: {
      id: { type: 'integer' },
      name: { $ref: '#/components/schemas/Name' },
      shortName: { $ref: '#/components/schemas/Name', maxLength: 12, description: 'on labels' },
      nick: { $ref: '#/components/schemas/Name', pattern: '^[a-z]+$' },
    },
  },
};

const KINDS = {
  Tree: {
    type: 'object',
    required: ['id', 'kind', 'heightM'],
    properties: { id: { type: 'integer' }, kind: { const: 'tree' }, heightM: { type: 'number', maximum: 120 } },
  },
  Herb: { type: 'object', required: ['id', 'kind'], properties: { id: { type: 'integer' }, kind: { const: 'herb' } } },
  NewPlant: { oneOf: [{ $ref: '#/components/schemas/Tree' }, { $ref: '#/components/schemas/Herb' }] },
};

describe('validatorReadings', () => {
  it('reads keywords beside a $ref as a Draft 7 validator does: dropped, the named schema alone', async () => {
    const [siblings, ...others] = await readingsOf(document(SIBLINGS));
    expect(others).toEqual([]);
    expect(siblings?.drops).toBe('keywords beside a $ref');
    expect(siblings?.accepts('{"id":1,"name":"a","shortName":"thirteen long"}')).toBe(true);
    expect(siblings?.accepts('{"id":1,"name":"","shortName":"a"}')).toBe(false);
    expect(siblings?.accepts('not JSON')).toBeUndefined();
  });

  it('reads a oneOf told apart by const as a Draft 4 validator does: a tree matches both branches', async () => {
    const readings = await readingsOf(document(KINDS));
    expect(readings.map((reading) => reading.drops)).toEqual(['const']);
    expect(readings[0]?.accepts('{"id":1,"kind":"herbb"}')).toBe(true);
    expect(readings[0]?.accepts('{"id":1,"kind":"tree","heightM":1}')).toBe(false);
  });

  it('has nothing to say of a document without such keywords', async () => {
    const plain = { NewPlant: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } } };
    expect(await readingsOf(document(plain))).toEqual([]);
  });
});

describe('withValidatorReadingsFolded', () => {
  const accepted = (what: string, body: string): Partial<Failure> => ({
    defect: `an invalid body (${what}) accepted`,
    reason: 'accepted',
    request: { method: 'POST', url: 'http://127.0.0.1/plants', headers: {}, body },
  });
  const refused = (body: string): Partial<Failure> => ({
    defect: 'status 422 for a valid NewPlant',
    reason: 'refused',
    request: { method: 'POST', url: 'http://127.0.0.1/plants', headers: {}, body },
  });
  const titles = (checks: CheckResult[], readings: Awaited<ReturnType<typeof readingsOf>>) =>
    findingsOf(withValidatorReadingsFolded(checks, { readings })).map((finding) => finding.title);

  it('makes one finding of the failures a Draft 4 reading explains: const taken as absent', async () => {
    const readings = await readingsOf(document(KINDS));
    const checks = [
      failed('negative-rejection', [
        accepted('"kind" holds "…": kind not the const "herb" (keyword const)', '{"id":1,"kind":"herbb"}'),
        accepted('"heightM": heightM missing (required) (keyword required)', '{"id":2,"kind":"tree"}'),
      ]),
      failed('positive-acceptance', [refused('{"id":3,"kind":"tree","heightM":1}')]),
    ];
    expect(titles(checks, readings)).toEqual([validatorReadingDefect('const')]);
    // One failure alone, or failures the reading does not explain (a tree past its maximum that no branch takes): apart.
    expect(titles([checks[1]!], readings)).toEqual(['status 422 for a valid NewPlant']);
    const apart = [
      failed('negative-rejection', [
        accepted('"kind" holds "…": kind not the const "herb" (keyword const)', '{"id":1,"kind":"herbb"}'),
        accepted('"id" holds "…": id not of type integer (keyword type)', '{"id":"1","kind":"herb"}'),
      ]),
    ];
    expect(titles(apart, readings)).toHaveLength(2);
  });

  it('makes one finding of keywords beside a $ref accepted broken (a Draft 7 validator under 3.1)', async () => {
    const readings = await readingsOf(document(SIBLINGS));
    const checks = [
      failed('negative-rejection', [
        accepted(
          '"shortName" holds "…": shortName one code point longer than maxLength # (keyword maxLength)',
          '{"id":1,"name":"a","shortName":"thirteen long"}',
        ),
        accepted(
          '"name" holds "…": name one code point shorter than minLength # (keyword minLength)',
          '{"id":1,"name":""}',
        ),
      ]),
    ];
    // `minLength` is the named schema's own: a Draft 7 validator checks it, so only one failure is explained.
    expect(titles(checks, readings)).toHaveLength(2);
    const both = [
      failed('negative-rejection', [
        checks[0]!.failures[0]!,
        accepted('"nick" holds "…": nick not matching ^[a-z]+$ (keyword pattern)', '{"id":1,"name":"a","nick":"A"}'),
      ]),
    ];
    expect(titles(both, readings)).toEqual([validatorReadingDefect('keywords beside a $ref')]);
  });
});
