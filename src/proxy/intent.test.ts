import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SPEC_PATH, loadContract, type Contract } from '../contract/index.js';
import { idKeyOf } from '../contract/id-key.js';
import { plantIdKey, readNewPlantBody } from '../contract/new-plant-request.js';
import type { IdKey } from './id-memory.js';
import { inferIntent, type IntentContext, type ObservedRequest } from './intent.js';

let contract: Contract;
beforeAll(async () => {
  contract = await loadContract(DEFAULT_SPEC_PATH);
});

function context(knownToken?: string): IntentContext {
  const seen = new Set<IdKey>();
  return {
    contract,
    ...(knownToken === undefined ? {} : { knownToken }),
    rememberId: (id) => seen.has(id) || (seen.add(id), false),
  };
}

function observed(authorization: string | undefined, contentType: string | undefined, body: string): ObservedRequest {
  const bytes = Buffer.from(body);
  return {
    authorization,
    contentType,
    body: bytes,
    bodyBytes: bytes.length,
    overCap: false,
    target: '/plants',
    rawHeaders: [],
  };
}

const PLANT = '{"id":9223372036854775807,"name":"Fern","tag":"fern"}';

describe('the intent of a request the proxy saw', () => {
  it('a valid NewPlant with a bearer credential is valid, with the strings its 200 must echo', () => {
    const { intent, auth, clientBreak } = inferIntent(observed('Bearer abc', 'application/json', PLANT), context());
    expect(intent).toEqual({ kind: 'valid', strings: { name: 'Fern', tag: 'fern' }, idMayRepeat: false });
    expect(auth).toEqual({ kind: 'token', scheme: 'Bearer' });
    expect(clientBreak).toBeUndefined();
  });

  it('an id sent before may repeat: its 200 may carry the stored plant', () => {
    const same = context();
    inferIntent(observed('Bearer abc', 'application/json', PLANT), same);
    const again = inferIntent(observed('Bearer abc', 'application/json', PLANT), same).intent;
    expect(again.kind === 'valid' && again.idMayRepeat).toBe(true);
  });

  it('a lower-case "bearer" is the same credential (RFC 9110): still valid', () => {
    expect(inferIntent(observed('bearer abc', 'application/json', PLANT), context()).intent.kind).toBe('valid');
  });

  it('a credential that is missing, foreign, empty or not PLANTSTORE_TOKEN is about authentication, whatever the body', () => {
    const cases: [string | undefined, string][] = [
      [undefined, 'no Authorization header'],
      ['Basic dXNlcjpwYXNz', 'another scheme (Basic)'],
      ['Bearer', 'an empty bearer token'],
      ['Bearer a b', 'a malformed bearer header (two tokens)'],
      ['Bearer wrong-token', 'a bearer token other than $PLANTSTORE_TOKEN'],
    ];
    for (const [authorization, what] of cases) {
      const inferred = inferIntent(observed(authorization, 'text/plain', '{'), context('right-token'));
      expect(inferred.intent).toEqual({ kind: 'auth', what });
      expect(inferred.clientBreak).toBe(`sent ${what}`);
    }
  });

  it('a bare word may be the token without its scheme: lenient, unless it is surely not the token', () => {
    expect(inferIntent(observed('abc', 'application/json', PLANT), context()).intent).toMatchObject({ lenient: true });
    expect(inferIntent(observed('abc', 'application/json', PLANT), context('xyz')).intent).not.toHaveProperty(
      'lenient',
    );
  });

  it('the media type comes next: none, or another type', () => {
    expect(inferIntent(observed('Bearer t', undefined, PLANT), context()).intent).toEqual({
      kind: 'media-type',
      what: 'no Content-Type',
      missing: true,
    });
    expect(inferIntent(observed('Bearer t', 'text/plain', PLANT), context()).intent.kind).toBe('media-type');
    const charset = inferIntent(observed('Bearer t', 'application/json; charset=utf-8', PLANT), context()).intent;
    expect(charset).toMatchObject({ kind: 'valid-variant', writtenAs: { aspect: 'media-type' } });
  });

  it('a media type the document declares beside JSON is no break: text/json read as a NewPlant, a form type unpredictable', () => {
    const declaring = {
      ...contract,
      requestMediaTypes: ['application/json', 'text/json', 'application/x-www-form-urlencoded'],
    };
    const seen = { ...context(), contract: declaring };
    const json = inferIntent(observed('Bearer t', 'text/json; charset=utf-8', PLANT), seen);
    expect(json.intent).toMatchObject({ kind: 'valid-variant', writtenAs: { aspect: 'media-type' } });
    expect(json.clientBreak).toBeUndefined();
    const form = inferIntent(observed('Bearer t', 'application/x-www-form-urlencoded', 'id=1&name=Fern'), seen);
    expect(form.intent).toMatchObject({ kind: 'unpredictable' });
    expect(form.clientBreak).toBeUndefined();
    // A type inside a declared range (application/*+json) is read as serve and the mock read it: as JSON.
    const ranged = {
      ...context(),
      contract: { ...contract, requestMediaTypes: ['application/json', 'application/*+json'] },
    };
    const vendor = inferIntent(observed('Bearer t', 'application/vnd.plants+json', PLANT), ranged);
    expect(vendor.intent).toMatchObject({ kind: 'valid-variant', writtenAs: { aspect: 'media-type' } });
    expect(vendor.clientBreak).toBeUndefined();
    // Not declared by the seed's document: the client's break, as before.
    expect(inferIntent(observed('Bearer t', 'text/json', PLANT), context()).intent).toMatchObject({
      kind: 'media-type',
    });
  });

  it('another media type is named as plantstore test names it (Content-Type text/plain), so one defect has one fingerprint in both', () => {
    // The runner's media-type probe says `Content-Type ${contentType}`: the finding's title and fingerprint follow it.
    for (const contentType of ['text/plain', 'Text/Plain;charset=UTF-8', 'text/plain; charset=utf-8']) {
      const { intent, clientBreak } = inferIntent(observed('Bearer t', contentType, PLANT), context());
      expect(intent).toEqual({ kind: 'media-type', what: 'Content-Type text/plain' });
      expect(clientBreak).toBe(`sent Content-Type "${contentType}"; the contract's request is application/json`);
    }
    const odd = inferIntent(observed('Bearer t', 'plain text', PLANT), context()).intent;
    expect(odd).toEqual({ kind: 'media-type', what: 'Content-Type "plain text"' });
  });

  it('names every body that is not JSON alike, whatever the parser said of it (one finding for a parser crash)', () => {
    const whats = ['{', '{"id":1,}', '[1,2', '\u00ff', 'Fern'].map(
      (body) => inferIntent(observed('Bearer t', 'application/json', body), context()).intent,
    );
    expect(new Set(whats.map((intent) => JSON.stringify(intent)))).toEqual(
      new Set([JSON.stringify({ kind: 'invalid-body', what: 'a body that is not JSON (or not UTF-8)' })]),
    );
    expect(inferIntent(observed('Bearer t', 'application/json', ''), context()).intent).toEqual({
      kind: 'invalid-body',
      what: 'an empty body',
    });
  });

  it('then the body: invalid NewPlants name what is wrong, unpaired surrogates are unpredictable', () => {
    const fractional = inferIntent(observed('Bearer t', 'application/json', '{"id":1.5,"name":"x"}'), context());
    expect(fractional.intent.kind).toBe('invalid-body');
    expect(fractional.clientBreak).toMatch(/^sent an invalid NewPlant: /);
    // A phrase, not a sentence: findings put it in parentheses ("an invalid body (field "id" must ...) accepted").
    expect(fractional.clientBreak).not.toMatch(/\.$/);
    const lone = inferIntent(observed('Bearer t', 'application/json', '{"id":1,"name":"\\ud800"}'), context());
    expect(lone.intent).toEqual({ kind: 'unpredictable', what: '"name" holding an unpaired surrogate escape' });
  });

  it('a body over the cap is judged by its answer only, and is no fault of the client', () => {
    const over = { ...observed('Bearer t', 'application/json', '{"id":1,'), bodyBytes: 5_000_000, overCap: true };
    const inferred = inferIntent(over, context());
    expect(inferred.intent.kind).toBe('unpredictable');
    expect(inferred.clientBreak).toBeUndefined();
  });
});

describe('the id key the proxy remembers a valid NewPlant by', () => {
  it('is plantIdKey of the exact plant, however the id is written', () => {
    const spellings = ['', '.0', 'e0', '0e-1', '.50', 'e2', 'E+1', '.000e3'];
    const idText = fc
      .tuple(fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }), fc.constantFrom(...spellings))
      .map(([value, spelling]) => `${value}${spelling}`)
      // 0 spelled "0e-1" is 00e-1: a leading zero, no JSON number at all (the body would be refused).
      .filter((text) => !/^-?0\d/.test(text));
    const id = fc.oneof(idText, fc.constantFrom('-0', '0', '"12"', 'null', '[1]', '{"a":1}', '1e400'));
    fc.assert(
      fc.property(id, (text) => {
        const read = readNewPlantBody(() => [], Buffer.from(`{"id":${text},"name":"x"}`));
        if (!read.ok) throw new Error(read.problem.message);
        expect(String(idKeyOf(read))).toBe(String(plantIdKey(read.plant)));
      }),
      { numRuns: 500 },
    );
  });

  it('finds an unpaired surrogate exactly where the unpaired-surrogate regex does (property)', () => {
    const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
    const units = fc.oneof(fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0xd7fe, max: 0xe001 }));
    fc.assert(
      fc.property(fc.array(units, { maxLength: 12 }), (codes) => {
        const text = String.fromCharCode(...codes);
        const body = JSON.stringify({ id: 1, name: 'x', tag: text });
        const { intent } = inferIntent(observed('Bearer abc', 'application/json', body), context());
        expect(intent.kind === 'unpredictable').toBe(LONE_SURROGATE.test(text));
      }),
      { numRuns: 3_000 },
    );
  });

  it('reads a credential sent again as it read it first, whichever came between and in whichever proxy', () => {
    const plain = context();
    const known = context('abc');
    const sequence: [string | undefined, IntentContext][] = [
      ['Bearer abc', plain],
      ['Bearer abc', plain],
      ['Bearer abd', known],
      ['Bearer abc', known],
      [undefined, plain],
      ['', plain],
      ['Bearer abd', known],
      ['Bearer abd', plain],
    ];
    const first = new Map<string, unknown>();
    for (const [authorization, within] of sequence) {
      const { intent, auth } = inferIntent(observed(authorization, 'application/json', PLANT), within);
      const key = `${String(authorization)}|${within === known ? 'known' : 'plain'}`;
      const reading = { kind: intent.kind, what: intent.kind === 'auth' ? intent.what : undefined, auth };
      if (!first.has(key)) first.set(key, reading);
      expect(reading).toEqual(first.get(key));
    }
    expect(first.get('Bearer abd|known')).toMatchObject({ what: 'a bearer token other than $PLANTSTORE_TOKEN' });
    expect(first.get('Bearer abd|plain')).toMatchObject({ kind: 'valid' });
  });

  it('looks for an unpaired surrogate among the strings the intent records, in their order', () => {
    const intentOf = (body: string) => inferIntent(observed('Bearer abc', 'application/json', body), context());
    const first = intentOf('{"id":1,"name":"x","b":"\\ud800","1":"\\udc00"}');
    expect(first.intent).toMatchObject({ kind: 'unpredictable', what: '"1" holding an unpaired surrogate escape' });
    // A "__proto__" member is not among the strings a plain object records.
    const proto = intentOf('{"id":2,"name":"x","__proto__":"\\ud800"}');
    expect(proto.intent).toMatchObject({ kind: 'valid', strings: { name: 'x' } });
  });
});

describe('the credential a document asks for', () => {
  const withAuth = (auth: Contract['auth']): IntentContext => ({ ...context(), contract: { ...contract, auth } });

  it('none (security: []): a request without one, or with any, is judged by its body', () => {
    const open = withAuth('none');
    expect(inferIntent(observed(undefined, 'application/json', PLANT), open).intent.kind).toBe('valid');
    expect(inferIntent(observed('Basic abc', 'application/json', PLANT), open).intent.kind).toBe('valid');
  });

  it('optional ({} among the requirements): none is valid, a bearer one is read as ever', () => {
    const optional = withAuth('optional');
    expect(inferIntent(observed(undefined, 'application/json', PLANT), optional).intent.kind).toBe('valid');
    expect(inferIntent(observed('Bearer ', 'application/json', PLANT), optional).intent.kind).toBe('auth');
    expect(inferIntent(observed(undefined, 'application/json', PLANT), context()).intent.kind).toBe('auth');
  });
});

describe('a NewPlant whose meaning depends on the reading of a discriminated oneOf (springdoc kinds)', () => {
  it('is unpredictable, named as the discriminator reading (was: "" null, valid or not as 3.0 is read)', async () => {
    const kinds = await loadContract('src/mock/test-documents/springdoc-kinds-3.0.yaml');
    const seen = new Set<IdKey>();
    const kindsContext: IntentContext = { contract: kinds, rememberId: (id) => seen.has(id) || (seen.add(id), false) };
    const tree = '{"id":1,"name":"Oak","kind":"TREE","heightM":3}';
    const { intent } = inferIntent(observed('Bearer abc', 'application/json', tree), kindsContext);
    expect(intent).toEqual({
      kind: 'unpredictable',
      what: 'the body valid with its discriminator honoured or ignored, not both',
    });
    const herb = '{"id":2,"name":"Basil","kind":"HERB"}';
    expect(inferIntent(observed('Bearer abc', 'application/json', herb), kindsContext).intent.kind).toBe('valid');
  });
});
