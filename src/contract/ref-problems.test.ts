import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SPEC_PATH } from './package-files.js';
import { inspectDocument } from './spec.js';

const dir = mkdtempSync(join(tmpdir(), 'plantstore-refs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The bundled openapi.yaml with one text replaced, written beside the others. */
function edited(name: string, from: string, to: string): string {
  const text = readFileSync(DEFAULT_SPEC_PATH, 'utf8');
  if (!text.includes(from)) throw new Error(`openapi.yaml has no ${from}`);
  const file = join(dir, name);
  writeFileSync(file, text.replace(from, to));
  return file;
}

async function problemsOf(file: string): Promise<readonly { pointer: string; message: string }[]> {
  const inspection = await inspectDocument(file);
  return inspection.problems;
}

describe('a $ref or field swagger-parser cannot use is placed where the document writes it', () => {
  it('a $ref to a missing schema: its own pointer, and the names that are there', async () => {
    const problems = await problemsOf(
      edited('typo.yaml', "$ref: '#/components/schemas/NewPlant'", "$ref: '#/components/schemas/NewPlnt'"),
    );
    expect(problems.map((problem) => problem.pointer)).toEqual([
      '/paths/~1plants/post/requestBody/content/application~1json/schema/$ref',
    ]);
    expect(problems[0]?.message).toMatch(
      /^the \$ref "#\/components\/schemas\/NewPlnt" points to nothing: there is no "NewPlnt" under #\/components\/schemas \(those there are Plant, NewPlant, Error\); fix the name/,
    );
  });

  it("a $ref to #/$defs/… that a component's own $defs holds: the full pointer to write", async () => {
    // Before, only "fix the name or add the schema", though the name was right and the schema there.
    const problems = await problemsOf(
      edited(
        'local-defs.yaml',
        "    NewPlant:\n      allOf:\n        - $ref: '#/components/schemas/Plant'",
        "    NewPlant:\n      $defs:\n        Core:\n          $ref: '#/components/schemas/Plant'\n      allOf:\n        - $ref: '#/$defs/Core'",
      ),
    );
    expect(problems[0]?.message).toContain(
      `"Core" is under the $defs of NewPlant: write $ref: '#/components/schemas/NewPlant/$defs/Core'`,
    );
  });

  it('a $ref to a file that does not exist: its own pointer and the file', async () => {
    const problems = await problemsOf(
      edited('file.yaml', "$ref: '#/components/schemas/Error'", "$ref: './errors.yaml#/Error'"),
    );
    expect(problems.map((problem) => problem.pointer)).toEqual([
      '/paths/~1plants/post/responses/400/content/application~1json/schema/$ref',
    ]);
    expect(problems[0]?.message).toContain(`${join(dir, 'errors.yaml')}, which does not exist`);
  });

  it("a $ref to a missing name in another file: names that file and the names in it, not the document's", async () => {
    writeFileSync(join(dir, 'plant-schemas.yaml'), 'Plant:\n  type: object\nName:\n  type: string\n');
    const problems = await problemsOf(
      edited('other-file.yaml', "$ref: '#/components/schemas/Plant'", "$ref: './plant-schemas.yaml#/Plants'"),
    );
    // Before: 'there is no "Plants" under # (those there are openapi, info, servers, ...)', the document's own keys.
    expect(problems).toEqual([
      {
        pointer: '/paths/~1plants/post/responses/200/content/application~1json/schema/$ref',
        message:
          'the $ref "./plant-schemas.yaml#/Plants" points to nothing: there is no "Plants" at the top of plant-schemas.yaml (those there are Plant, Name); fix the name or add the schema.',
      },
    ]);
  });

  it('a $ref written inside another file to a name missing there: names that file and where the $ref is in it', async () => {
    writeFileSync(
      join(dir, 'inner.yaml'),
      "Plant:\n  type: object\n  properties:\n    name: {$ref: '#/Nam'}\nName:\n  type: string\n",
    );
    const problems = await problemsOf(
      edited('inner-ref.yaml', "$ref: '#/components/schemas/Plant'", "$ref: './inner.yaml#/Plant'"),
    );
    expect(problems).toEqual([
      {
        pointer: '',
        message:
          'in inner.yaml at /Plant/properties/name, the $ref "#/Nam" points to nothing: there is no "Nam" at the top of inner.yaml (those there are Plant, Name); fix the name or add the schema.',
      },
    ]);
  });

  it('a key written twice in another file: that file, the key and its line', async () => {
    writeFileSync(join(dir, 'twice.yaml'), 'Error:\n  type: object\n  type: object\n');
    const problems = await problemsOf(
      edited('twice-ref.yaml', "$ref: '#/components/schemas/Error'", "$ref: './twice.yaml#/Error'"),
    );
    // Before: 'Error parsing …/twice.yaml: Map keys must be unique at line 3, column 3: type: object type: object ^'.
    expect(problems.map((problem) => problem.message)).toEqual([
      `${join(dir, 'twice.yaml')} is not valid YAML: the key "type" is written twice in one mapping (line 3, column 3); YAML allows each key once: keep one.`,
    ]);
  });

  it('a backslash escape YAML does not have, in another file: that file, the escape and how to write it', async () => {
    writeFileSync(join(dir, 'escape.yaml'), 'Error:\n  type: string\n  pattern: "^\\d+$"\n');
    const problems = await problemsOf(
      edited('escape-ref.yaml', "$ref: '#/components/schemas/Error'", "$ref: './escape.yaml#/Error'"),
    );
    expect(problems.map((problem) => problem.message)).toEqual([
      `${join(dir, 'escape.yaml')} is not valid YAML: \\d inside double quotes is no YAML escape (line 3, column 14); write the text in single quotes, which keep every backslash ('…\\d…'), or double the backslash ("…\\\\d…").`,
    ]);
  });

  it('a $ref to an address that cannot be downloaded: its own pointer and the address', async () => {
    const problems = await problemsOf(
      edited('url.yaml', "$ref: '#/components/schemas/Error'", "$ref: 'http://127.0.0.1:9/errors.json#/Error'"),
    );
    // Before: 'Error downloading http://127.0.0.1:9/errors.json: fetch failed', at the document's root.
    expect(problems.map((problem) => problem.pointer)).toEqual([
      '/paths/~1plants/post/responses/400/content/application~1json/schema/$ref',
    ]);
    expect(problems[0]?.message).toMatch(
      /^the \$ref names http:\/\/127\.0\.0\.1:9\/errors\.json, which could not be downloaded \(.+\); check the address/,
    );
  });

  it('a version written as a number: /info/version, and how to quote it', async () => {
    const problems = await problemsOf(edited('version.yaml', 'version: 1.0.0', 'version: 1'));
    expect(problems.map((problem) => problem.pointer)).toEqual(['/info/version']);
    expect(problems[0]?.message).toContain('Quote it in YAML');
  });
});
