import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parseExactJson } from './exact-json.js';
import { inspectDocument, loadContract } from './spec.js';

const reduced = fileURLToPath(new URL('../fixtures/documents/reduced/openapi-3.2.yaml', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'plantstore-3-2-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function edited(name: string, from: string, to: string): string {
  const text = readFileSync(reduced, 'utf8');
  if (!text.includes(from)) throw new Error(`openapi-3.2.yaml has no ${from}`);
  const file = join(dir, name);
  writeFileSync(file, text.replace(from, to));
  return file;
}

describe('an OpenAPI 3.2 document', () => {
  it('is read as 3.1, its 3.2 fields set aside, and its QUERY and additional operations listed as not tested', async () => {
    // Before: 'is an OpenAPI 3.2.0 document; plantstore reads OpenAPI 3.0.x and 3.1.x documents' (exit 2).
    const inspection = await inspectDocument(reduced);
    expect(inspection.problems).toEqual([]);
    const contract = await loadContract(reduced);
    expect(contract).toMatchObject({ version: '3.2.0', dialect: 'openapi-3.1', success: { status: 201 } });
    expect(contract.otherOperations).toEqual(['PURGE /plants', 'QUERY /plants']);
    expect(contract.check.newPlant(parseExactJson('{"id":1,"name":"Fern"}'))).toEqual([]);
    expect(contract.check.newPlant(parseExactJson('{"id":0,"name":"Fern"}'))).not.toEqual([]);
  });

  it('refuses by name a querystring parameter and a streamed body (itemSchema) on POST /plants', async () => {
    const querystring = edited(
      'querystring.yaml',
      '      operationId: addPlant\n',
      '      operationId: addPlant\n      parameters:\n        - {name: filter, in: querystring, content: {application/x-www-form-urlencoded: {schema: {type: object}}}}\n',
    );
    const streamed = edited(
      'streamed.yaml',
      "              schema: { $ref: '#/components/schemas/Plant' }\n",
      "              itemSchema: { $ref: '#/components/schemas/Plant' }\n",
    );
    const first = await inspectDocument(querystring);
    expect(first.problems.map((problem) => problem.pointer)).toEqual(['/paths/~1plants/post/parameters/0/in']);
    expect(first.problems[0]?.message).toContain('`querystring` parameter');
    const second = await inspectDocument(streamed);
    expect(second.problems.map((problem) => problem.pointer)).toContain(
      '/paths/~1plants/post/responses/201/content/application~1json/itemSchema',
    );
  });
});
