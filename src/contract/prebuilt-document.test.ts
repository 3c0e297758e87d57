import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SPEC_PATH, PACKAGE_ROOT } from './package-files.js';
import {
  parsePrebuilt,
  PREBUILT_DOCUMENT_PATH,
  prebuiltReadings,
  prebuiltText,
  readReadings,
  type DocumentReadings,
} from './prebuilt-document.js';

const documents = join(PACKAGE_ROOT, 'src/fixtures/documents');

async function read(source: string): Promise<DocumentReadings> {
  const readings = await readReadings(source);
  if (!readings) throw new Error(`${source} cannot be read`);
  return readings;
}

describe('the prebuilt document', () => {
  it.each([
    ['the bundled openapi.yaml', DEFAULT_SPEC_PATH],
    ['a recursive schema (cyclic objects)', join(documents, '15-recursive-lineage.yaml')],
    ['an integer beyond 2^53', join(documents, '13-plant-returns-id.yaml')],
  ])('gives back what the loader reads from %s: trees, shared objects and exact integers', async (_name, source) => {
    const text = readFileSync(source, 'utf8');
    const readings = await read(source);
    const back = parsePrebuilt(prebuiltText(readings, text), text);
    expect(back).toEqual(readings);
    // The text names every object met again by where it was first met: equal texts, equal sharing.
    expect(back && prebuiltText(back, text)).toBe(prebuiltText(readings, text));
  });

  it('keeps each exact integer on the object of the dereferenced document that holds it', async () => {
    const source = join(documents, '13-plant-returns-id.yaml');
    const text = readFileSync(source, 'utf8');
    const back = parsePrebuilt(prebuiltText(await read(source), text), text);
    const [[holder, entries] = []] = [...(back?.exactIntegers ?? [])];
    expect([...(entries ?? [])]).toEqual([['id', 9007199254740993n]]);
    expect(JSON.stringify(back?.document)).toContain(JSON.stringify(holder));
  });

  it('is not used for a text other than the one it was built from', async () => {
    const text = readFileSync(DEFAULT_SPEC_PATH, 'utf8');
    const prebuilt = prebuiltText(await read(DEFAULT_SPEC_PATH), text);
    expect(parsePrebuilt(prebuilt, `${text}\n# edited\n`)).toBeUndefined();
  });

  it("the build's file, when built from today's openapi.yaml, is what the loader reads from it", async () => {
    const text = readFileSync(DEFAULT_SPEC_PATH, 'utf8');
    const expected = prebuiltText(await read(DEFAULT_SPEC_PATH), text);
    const built = existsSync(PREBUILT_DOCUMENT_PATH) ? readFileSync(PREBUILT_DOCUMENT_PATH, 'utf8') : undefined;
    if (built === undefined || parsePrebuilt(built, text) === undefined) {
      // Missing or built from another text: loadContract reads openapi.yaml itself.
      expect(await prebuiltReadings()).toBeUndefined();
    } else {
      expect(built).toBe(expected);
    }
  });
});
