import { describe, expect, it } from 'vitest';
import { parseExactJson } from '../../contract/index.js';
import { lenientMutations, propertyRewrites, syntaxMutations, tokenize } from './lenient-json.js';

const BODY = '{"id":12,"name":"Fern \\"x\\"","nested":{"list":[1,-2.5,{"k":"v"}]},"ok":true}';

describe('lenient JSON', () => {
  it('tokenizes strings with escapes, numbers and brackets with their depth', () => {
    const tokens = tokenize(BODY);
    expect(
      tokens.filter((token) => token.kind === 'number').map((token) => BODY.slice(token.start, token.end)),
    ).toEqual(['12', '1', '-2.5']);
    const keys = tokens.filter((token) => token.kind === 'string' && token.key && token.depth === 1);
    expect(keys.map((token) => BODY.slice(token.start, token.end))).toEqual(['"id"', '"name"', '"nested"', '"ok"']);
  });

  it('breaks the JSON grammar at every place each syntax mutation picks', () => {
    for (const mutation of syntaxMutations()) {
      for (let place = 0; place < 6; place++) {
        const text = mutation.apply(BODY, place);
        expect(() => parseExactJson(text), `${mutation.what} @${place}: ${text}`).toThrow();
      }
      expect(() => parseExactJson(mutation.apply('{}', 0)), mutation.what).toThrow();
    }
  });

  it('puts a raw control character or an unknown escape in a string value, never in a member name', () => {
    // In "name\t" a lenient parser (lua-cjson, Ruby's json 2.6) reads a member "name<TAB>": the body then lacks
    // "name", is refused for that, and the leniency goes unseen (lua-cjson was CONFORMANT at 1 seed of 3).
    const inStrings = syntaxMutations().filter((mutation) => /control character|unknown escape/.test(mutation.what));
    expect(inStrings).toHaveLength(2);
    const keysOf = (text: string) =>
      Object.keys(JSON.parse(text.replaceAll('\t', '\\t').replaceAll('\\x41', '')) as object);
    for (const mutation of inStrings) {
      for (let place = 0; place < 6; place++) {
        const text = mutation.apply(BODY, place);
        expect(keysOf(text), `${mutation.what} @${place}: ${text}`).toEqual(keysOf(BODY));
      }
    }
  });

  it('sends the raw TAB after an escape, as aeson 2.0 takes it only in a string holding one (or non-ASCII)', () => {
    const [tab] = syntaxMutations().filter((mutation) => /control character/.test(mutation.what));
    for (let place = 0; place < 6; place++) {
      const text = tab?.apply(BODY, place) ?? '';
      expect(text, `@${place}`).toMatch(/"[^"]*\\\/\t"/);
    }
  });

  it('sends NaN and Infinity under one label, and every run in a member of its own (Python json takes them there)', () => {
    const nonFinite = syntaxMutations().filter((mutation) => /NaN|Infinity/.test(mutation.what));
    expect(new Set(nonFinite.map((mutation) => mutation.what))).toEqual(
      new Set(['NaN or Infinity in place of a number']),
    );
    const sent = nonFinite.flatMap((mutation) => [0, 1, 2].map((place) => mutation.apply(BODY, place)));
    expect(sent.some((text) => text.includes('NaN'))).toBe(true);
    expect(sent.some((text) => text.includes('Infinity'))).toBe(true);
    // Whatever place a run draws, one of them leaves every number of the body as it was.
    const ownMember = nonFinite.filter((mutation) =>
      [0, 1, 2, 3, 4, 5].every((place) => {
        const text = mutation.apply(BODY, place);
        return text === `{"plantstore": NaN,${BODY.slice(1)}`;
      }),
    );
    expect(ownMember).toHaveLength(1);
  });

  it('labels say what was sent, never the stack it is aimed at (they show against every server)', () => {
    const schema = {
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string' },
        id: { type: 'integer' },
        price: { type: 'number' },
        ok: { type: 'boolean' },
      },
    };
    const labels = [...syntaxMutations(), ...propertyRewrites(schema)].map((mutation) => mutation.what);
    expect(labels.filter((label) => /Go\b|Jackson|Python|ASP\.NET|Gson|JSON5|lenient/.test(label))).toEqual([]);
    expect(labels).toContain('"name" set to null');
    expect(labels).toContain('"id" set to the numeric string "12"');
  });

  it('renames a required key in upper case, and coerces values by declared type', () => {
    const schema = {
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string' }, id: { type: 'integer' } },
    };
    const [rename] = lenientMutations(schema);
    expect(rename?.apply(BODY, 3)).toContain('"NAME":"Fern');
    const rewrites = propertyRewrites(schema).filter((rewrite) => rewrite.json !== undefined);
    expect(rewrites.map((rewrite) => `${rewrite.field}=${rewrite.json}`)).toEqual([
      'name=12',
      'name=false',
      'name=null',
      'id="12"',
      'id=true',
      'id=null',
      'id=1.5',
    ]);
  });
});
