import fc from 'fast-check';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadContract, parseExactJson } from '../../contract/index.js';
import { parsedFormOf } from '../../contract/exact-json.js';
import { validRequest } from '../probes/valid-plants.js';
import { createFreshIds } from './fresh-ids.js';
import { newPlantArbitrary, renderPlant } from './new-plant.js';
import { noteWrittenBody, readSentBody } from './sent-bodies.js';
import { expectSameParse } from '../../contract/same-parse.case.js';

const DOCUMENTS = ['02-name-pattern.yaml', '05-measures.yaml'].map((name) =>
  fileURLToPath(new URL(`../../fixtures/documents/${name}`, import.meta.url)),
);

describe('readSentBody', () => {
  it.each([undefined, ...DOCUMENTS])('reads a valid NewPlant request of %s as parsing its body does', async (spec) => {
    const contract = await loadContract(spec);
    const fresh = createFreshIds('5e17');
    let index = 0;
    fc.assert(
      fc.property(newPlantArbitrary(contract), (draft) => {
        const rendered = renderPlant(draft, fresh, `sent-bodies:${index++}`);
        const { written, text } = rendered;
        // What a valid request notes: the object its text was written from, read as parsing reads the text.
        expect(written?.text).toBe(text);
        expectSameParse(parsedFormOf(written?.value), parseExactJson(text));
        expectSameParse(readSentBody(validRequest(rendered).body ?? ''), parseExactJson(text));
      }),
      { numRuns: 700, seed: 5 },
    );
  });

  it('reads a body rendered lately from the value it was written from, once, and any other text by parsing it', () => {
    // A note that does not match its text shows which way the body was read.
    noteWrittenBody('{"id":1}', { id: 2n });
    expect(readSentBody('{"id":3}')).toEqual({ id: 3 });
    expect(readSentBody('{"id":1}')).toEqual({ id: 2 });
    // Read once, then let go.
    expect(readSentBody('{"id":1}')).toEqual({ id: 1 });
    noteWrittenBody('{"id":1}', { id: 2n });
    for (let index = 0; index < 100; index++) noteWrittenBody(`{"n":${index}}`, { n: BigInt(index) });
    expect(readSentBody('{"id":1}')).toEqual({ id: 1 });
    expect(readSentBody('{"n":99}')).toEqual({ n: 99 });
  });

  it('throws for a text that is not JSON, as parsing does', () => {
    expect(() => readSentBody('{"id":')).toThrow(/./);
  });
});
