import { describe, expect, it } from 'vitest';
import { charactersNeeded, crashClass, refusesAnInvalidBody, refusesAnObject, unreadableKind } from './crash-groups.js';
import type { Exchange } from './http/client.js';
import type { Intent, PlannedRequest } from './probe.js';

const CRASH = 'status 500 for an invalid body (x)';

function plan(body: string, intent: Intent = { kind: 'invalid-body', what: '"name" holds a number' }): PlannedRequest {
  return {
    method: 'POST',
    path: '/plants',
    auth: { kind: 'token', scheme: 'Bearer' },
    contentType: 'application/json',
    body,
    intent,
  };
}

const refused = { objectRefused: true, characters: true };

describe('crashClass', () => {
  it('names a body no parser reads one class: malformed, nested past a recursive parser, a thousand-digit number', () => {
    for (const body of ['{', `${'['.repeat(20_000)}${']'.repeat(20_000)}`, `{"id":${'9'.repeat(10_000)},"name":"a"}`])
      expect(crashClass(plan(body), CRASH, refused)?.name).toBe('parse');
    expect(crashClass(plan('[]'), CRASH, refused)?.name).toBe('non-object');
    expect(crashClass(plan('{"name":5}'), CRASH, refused)?.name).toBe(`member:${CRASH}`);
  });

  it('puts a lone surrogate crashing as malformed JSON did in the parse class (Ruby json, JSON::PP refuse it)', () => {
    const surrogate = plan('{"id":1,"name":"\\ud800"}', {
      kind: 'unpredictable',
      what: 'an unpaired surrogate escape',
    });
    const defect = 'status 500 for JSON of unpredictable meaning';
    const parseCrashes = new Map([['status 500', new Set(['truncated JSON', 'a trailing comma'])]]);
    const evidence = { objectRefused: true, characters: false, unreadableKinds: parseCrashes };
    expect(crashClass(surrogate, defect, evidence)?.name).toBe('parse');
    // Alone, or beside parse crashes of another way, it stays its own (FastAPI: the echo's encode raises on it).
    expect(crashClass(surrogate, defect, { ...evidence, unreadableKinds: new Map() })).toBeUndefined();
    expect(crashClass(surrogate, 'connection-reset on JSON of unpredictable meaning', evidence)).toBeUndefined();
  });

  it('takes a character past ASCII as the cause only with the evidence, and never where no invalid object was refused', () => {
    expect(crashClass(plan('{"id":1,"name":"🌱"}'), CRASH, refused)?.name).toBe('characters');
    expect(crashClass(plan('{"id":1,"name":"a"}'), CRASH, refused)?.name).toBe(`member:${CRASH}`);
    // No refusal path seen: the break is the cause (a `𐀈` member left as generated beside `"name": true`).
    expect(crashClass(plan('{"name":true,"%":"𐀈"}'), CRASH, { objectRefused: false, characters: true })?.name).toBe(
      `member:${CRASH}`,
    );
    expect(crashClass(plan('{"id":1,"name":"🌱"}'), CRASH, { ...refused, characters: false })?.name).toBe(
      `member:${CRASH}`,
    );
  });

  it("puts a crash on bytes that are not UTF-8 with the parser's, and never takes their preview for characters", () => {
    const bytes = plan('{"id":1,"name":"\uFFFD"}', { kind: 'unpredictable', what: 'a lone 0xFF', notUtf8: true });
    const defect = 'status 500 for a body that is not valid UTF-8';
    expect(crashClass(bytes, defect, refused)?.name).toBe('parse');
    expect(charactersNeeded([{ failure: { defect }, plan: bytes }], true)).toBe(false);
    expect(unreadableKind(bytes, defect)).toEqual({ way: 'status 500', kind: 'bytes that are not UTF-8' });
    expect(unreadableKind(plan('{', { kind: 'invalid-body', what: 'truncated JSON' }), CRASH)).toEqual({
      way: 'status 500',
      kind: 'truncated JSON',
    });
    expect(unreadableKind(plan('{"name":5}'), CRASH)).toBe(undefined);
  });

  it('leaves a gateway answer and a plain valid NewPlant unclassed', () => {
    const valid: Intent = { kind: 'valid', strings: { name: 'a' }, idMayRepeat: false };
    expect(crashClass(plan('{}'), "status 502 (a gateway's: the service behind it failed or timed out)", refused)).toBe(
      undefined,
    );
    expect(crashClass(plan('{"id":1,"name":"a"}', valid), 'status 500 for a valid NewPlant', refused)).toBe(undefined);
  });
});

describe('charactersNeeded', () => {
  it('needs a short string past ASCII, and is false once a crash on a readable body held only ASCII', () => {
    const crash = (body: string) => ({ failure: { defect: CRASH }, plan: plan(body) });
    expect(charactersNeeded([crash('{"id":1,"name":"🌱"}'), crash('{')], true)).toBe(true);
    expect(charactersNeeded([crash('{"id":1,"name":"🌱"}'), crash('{"id":1e-1,"name":"a"}')], true)).toBe(false);
    // A lone surrogate alone: a UTF-8 writer fails on it and on nothing else beyond ASCII.
    const surrogate = { kind: 'unpredictable', what: '"name" holding the unpaired surrogate escape \\ud800' } as const;
    const lone = {
      failure: { defect: 'status 500 for JSON of unpredictable meaning' },
      plan: plan('{"id":1,"name":"\\ud800"}', surrogate),
    };
    expect(charactersNeeded([lone], true)).toBe(false);
    expect(charactersNeeded([lone, crash('{"id":1,"name":"🌱"}')], true)).toBe(true);
    // No crash shrank to a short string holding one: a name of 40 characters that a length needs.
    expect(charactersNeeded([crash(`{"id":1,"name":"${'é'.repeat(40)}"}`)], true)).toBe(false);
  });
});

describe('refusesAnObject', () => {
  const exchange = (body: string, status: number): Exchange => ({
    plan: plan(body),
    request: { method: 'POST', url: 'http://127.0.0.1/plants', headers: {}, body },
    response: { status, headers: {}, body: '{}', durationMs: 1 },
  });
  it('counts a 4xx to an invalid object, not to malformed JSON, a non-object or a credential', () => {
    expect(refusesAnObject([exchange('{"name":5}', 400)])).toBe(true);
    expect(refusesAnObject([exchange('{', 400), exchange('[]', 400), exchange('{"name":5}', 401)])).toBe(false);
    expect(refusesAnObject([exchange('{"name":5}', 500)])).toBe(false);
  });

  it("does not count a 4xx to query-member's twin: a router may answer 404 to any query string", () => {
    const twin = {
      kind: 'invalid-body',
      what: 'required "name" left out, given in the query string',
      queryMember: 'name',
    } as const;
    const refused = { ...exchange('{"id":1}', 404), plan: { ...plan('{"id":1}', twin), path: '/plants?name=Fern' } };
    expect(refusesAnObject([refused])).toBe(false);
    expect(refusesAnInvalidBody([refused])).toBe(false);
    expect(refusesAnInvalidBody([exchange('{', 400)])).toBe(true);
  });
});
