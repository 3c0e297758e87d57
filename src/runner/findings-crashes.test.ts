import { describe, expect, it } from 'vitest';
import { failedCheck, sampleReport } from '../fixtures/sample-reports.js';
import { DOUBLES_DEFECT } from './defects.js';
import {
  declaredMemberNames,
  defectIdentity,
  findingsOf,
  withCharacterCrashesFolded,
  withEncodedSurrogateCrashesFolded,
  withRootCausesFolded,
} from './findings.js';
import type { CheckResult, Failure } from './report.js';
import { WENT_AWAY_DEFECT } from './went-away.js';

const base = sampleReport().checks.find((check) => check.status === 'fail')?.failures[0] as Failure;

function crashes(failures: readonly Partial<Failure>[]): CheckResult {
  return {
    id: 'no-server-error',
    title: 'no-server-error',
    rule: 'rule',
    status: 'fail',
    cases: failures.length,
    failures: failures.map((failure) => ({ ...base, ...failure })),
  };
}

/** A failure of no-server-error: `defect` for the request whose body is `body`, as the runner writes it. */
function crash(defect: string, body: string): Partial<Failure> {
  const reason = 'The target answered 500, a server error.';
  return {
    defect,
    reason,
    request: { ...base.request, body },
    fingerprint: defectIdentity('no-server-error', reason, defect).fingerprint,
  };
}

const titles = (checks: CheckResult[]) => findingsOf(checks).map((finding) => finding.title);
const VALID = 'status 500 for a valid NewPlant';
const MISSING_ID = 'status 500 for an invalid body ("id": id missing (required) (keyword required))';
const OTHER_TYPE = 'status 500 for an invalid body (a member of another JSON type, null included)';

describe('withCharacterCrashesFolded', () => {
  it('folds an invalid body failing as a valid NewPlant did, both holding characters past U+007F (a latin-1 encode)', () => {
    const checks = [
      crashes([
        crash(VALID, '{"name":"🌱","id":9223371207599658985}'),
        crash(MISSING_ID, '{"name":"","tag":"\\udbff\\udfff"}'),
        crash(OTHER_TYPE, '{"name":"","tag":"\u200b","id":null}'),
      ]),
    ];
    expect(titles(withCharacterCrashesFolded(checks))).toEqual([VALID]);
    expect(titles(withRootCausesFolded(checks))).toEqual([VALID]);
    // Judged alone (a replay), each keeps its own fingerprint.
    const folded = withCharacterCrashesFolded(checks)[0]!.failures;
    expect(folded[1]?.foldedInto).toBe(folded[0]?.fingerprint);
    expect(folded[1]?.fingerprint).not.toBe(folded[0]?.fingerprint);
  });

  it('walks a body of arrays nested 20,000 deep without running out of stack (a RecursionError 500 beside a character crash)', () => {
    const deep = `{"id":1,"name":"a","tag":${'['.repeat(20_000)}"b"${']'.repeat(20_000)}}`;
    const checks = [
      crashes([
        crash(VALID, '{"name":"\u00e9","id":1}'),
        crash('status 500 for an invalid body (arrays nested 20,000 deep)', deep),
      ]),
    ];
    expect(titles(withCharacterCrashesFolded(checks))).toEqual([
      VALID,
      'status 500 for an invalid body (arrays nested 20,000 deep)',
    ]);
  });

  it('folds a NUL crash (a C string) met by a valid NewPlant and an invalid body, escaped or not', () => {
    const checks = [
      crashes([crash(VALID, '{"name":"\\u0000","id":1}'), crash(OTHER_TYPE, '{"name":"a\\u0000b","id":0.5}')]),
    ];
    expect(titles(withCharacterCrashesFolded(checks))).toEqual([VALID]);
  });

  it('keeps an invalid body failing with plain strings apart: a server failing every invalid body', () => {
    const checks = [
      crashes([
        crash(VALID, '{"name":"Ā","id":1}'),
        crash(MISSING_ID, '{"name":""}'),
        crash(OTHER_TYPE, '{"id":null}'),
      ]),
    ];
    expect(titles(withCharacterCrashesFolded(checks))).toEqual([VALID, MISSING_ID, OTHER_TYPE]);
  });

  it('keeps apart characters of another class, another way of failing, and a valid NewPlant failing with plain strings', () => {
    // A NUL crash beside an invalid body holding only a non-ASCII letter: two causes.
    expect(
      titles(
        withCharacterCrashesFolded([
          crashes([crash(VALID, '{"name":"\\u0000","id":1}'), crash(MISSING_ID, '{"name":"é"}')]),
        ]),
      ),
    ).toHaveLength(2);
    // An unpaired surrogate is not a character beyond ASCII: a UTF-8 writer fails on it alone.
    expect(
      titles(
        withCharacterCrashesFolded([
          crashes([crash(VALID, '{"name":"é","id":1}'), crash(MISSING_ID, '{"name":"\\ud800"}')]),
        ]),
      ),
    ).toHaveLength(2);
    // A 500 for the valid NewPlant, a dropped connection for the invalid body.
    const reset = crash(
      'connection-reset on an invalid body ("id": id missing (required) (keyword required))',
      '{"name":"é"}',
    );
    expect(titles(withCharacterCrashesFolded([crashes([crash(VALID, '{"name":"é","id":1}'), reset])]))).toHaveLength(2);
    // Every valid NewPlant fails (its shrunk name is empty): nothing says a character is the cause.
    expect(
      titles(
        withCharacterCrashesFolded([crashes([crash(VALID, '{"name":"","id":1}'), crash(MISSING_ID, '{"name":"é"}')])]),
      ),
    ).toHaveLength(2);
  });

  it('folds a dropped connection on both into the valid NewPlant finding', () => {
    const checks = [
      crashes([
        crash('connection-reset on a valid NewPlant', '{"name":"\\u0000","id":1}'),
        crash(
          'connection-reset on an invalid body ("id" holds #: id one above the int64 maximum # (keyword format))',
          '{"name":"","tag":"\\u0000","id":9223372036854775808}',
        ),
      ]),
    ];
    expect(titles(withCharacterCrashesFolded(checks))).toEqual(['connection-reset on a valid NewPlant']);
  });
});

describe('withEncodedSurrogateCrashesFolded', () => {
  const ESCAPE = 'status 500 for JSON of unpredictable meaning';
  const NOT_UTF8 = 'status 500 for a body that is not valid UTF-8';
  /** A not-UTF-8 crash whose name ends with these bytes. */
  const notUtf8 = (...bytes: number[]): Partial<Failure> => {
    const sent = Buffer.concat([Buffer.from('{"id":5,"name":"a'), Buffer.from(bytes), Buffer.from('"}')]);
    const failure = crash(NOT_UTF8, sent.toString('utf8'));
    return { ...failure, request: { ...failure.request!, bodyBase64: sent.toString('base64') } };
  };

  it('folds an encoded surrogate crash into the lone surrogate escape crash (Python json.loads(bytes), surrogatepass)', () => {
    const checks = [crashes([crash(ESCAPE, '{"id":1,"name":"\\ud800"}'), notUtf8(0xed, 0xa0, 0x80)])];
    expect(titles(withEncodedSurrogateCrashesFolded(checks))).toEqual([ESCAPE]);
    expect(titles(withRootCausesFolded(checks))).toEqual([ESCAPE]);
  });

  it('keeps a crash on other invalid bytes apart (a strict decoder), and an encoded surrogate alone', () => {
    const strict = [crashes([crash(ESCAPE, '{"id":1,"name":"\\ud800"}'), notUtf8(0xff)])];
    expect(titles(withEncodedSurrogateCrashesFolded(strict))).toEqual([ESCAPE, NOT_UTF8]);
    expect(titles(withEncodedSurrogateCrashesFolded([crashes([notUtf8(0xed, 0xa0, 0x80)])]))).toEqual([NOT_UTF8]);
  });
});

describe('withWentAwayOnCrashFolded', () => {
  const NOT_UTF8 = 'status 500 for a body that is not valid UTF-8';
  const bytes = (failure: Partial<Failure>, base64: string): Partial<Failure> => ({
    ...failure,
    request: { ...failure.request!, bodyBase64: base64 },
  });
  // tiny_http: read_to_string(..).unwrap() panics on 0xFF, the dropped request answers 500, and the process ends.
  const crashed = bytes(crash(NOT_UTF8, '{"name":"\uFFFD","id":1}'), 'eyJuYW1lIjoi/yIsImlkIjoxfQ==');
  const gone = (failure: Partial<Failure>) => ({
    ...failure,
    defect: WENT_AWAY_DEFECT,
    reason: 'The target stopped answering.',
    fingerprint: defectIdentity('no-server-error', 'x', WENT_AWAY_DEFECT).fingerprint,
  });

  it('folds the outage into the crash on a body that is not UTF-8 when such a body was the first it had', () => {
    const outage = gone(bytes(crash(NOT_UTF8, '{"name":"\uFFFD","id":2}'), 'eyJuYW1lIjoi4oIiLCJpZCI6Mn0='));
    expect(titles(withRootCausesFolded([crashes([crashed, outage])]))).toEqual([NOT_UTF8]);
  });

  it('folds the outage into that crash when such a body was in flight, though another request ended first', () => {
    // HS12's tiny_http at seed 1210543910: a valid NewPlant ended first among the 12 cut requests, four not UTF-8.
    const outage = gone(crash(VALID, '{"name":"a","id":2}'));
    const signs = { inFlightWhenGone: new Set(['a valid NewPlant', 'a body that is not valid UTF-8']) };
    expect(titles(withRootCausesFolded([crashes([crashed, outage])], signs))).toEqual([NOT_UTF8]);
  });

  it('keeps the outage apart when no such body was in flight, or no such crash was seen', () => {
    const outage = gone(crash(VALID, '{"name":"a","id":2}'));
    const signs = { inFlightWhenGone: new Set(['a valid NewPlant']) };
    expect(titles(withRootCausesFolded([crashes([crashed, outage])], signs))).toEqual([NOT_UTF8, WENT_AWAY_DEFECT]);
    const alone = gone(bytes(crash(NOT_UTF8, '{"name":"\uFFFD","id":2}'), 'eyJuYW1lIjoi4oIiLCJpZCI6Mn0='));
    const inFlight = { inFlightWhenGone: new Set(['a body that is not valid UTF-8']) };
    expect(titles(withRootCausesFolded([crashes([alone])], inFlight))).toEqual([WENT_AWAY_DEFECT]);
  });
});

describe('withInfiniteDoubleCrashesFolded', () => {
  const EXPONENT = 'status 500 for an invalid body ("id" set to an integer outside int64 written with an exponent)';
  const DIGITS = 'status 500 for an invalid body ("id" set to an integer outside int64)';
  const crashedOn = [
    crash(DIGITS, `{"name":"","id":${'9'.repeat(10_000)}}`),
    crash(EXPONENT, '{"name":"","id":1e400}'),
  ];
  const doubles = {
    defect: DOUBLES_DEFECT,
    fingerprint: defectIdentity('negative-rejection', 'x', DOUBLES_DEFECT).fingerprint,
  };

  it('makes one finding of 500s on 1e400 and on 10,000 digits where integers go through doubles (PHP: both INF)', () => {
    const checks = [crashes(crashedOn), failedCheck('negative-rejection', [doubles])];
    expect(titles(withRootCausesFolded(checks))).toEqual([EXPONENT, DOUBLES_DEFECT]);
  });

  it('keeps them apart where integers are read exactly (Python: 1e400 is inf, 10,000 digits a ValueError)', () => {
    expect(titles(withRootCausesFolded([crashes(crashedOn)]))).toEqual([DIGITS, EXPONENT]);
  });

  it('reads a body of arrays nested 20,000 deep without running out of stack', () => {
    const deep = crash(DIGITS, `{"id":1e400,"name":${'['.repeat(20_000)}1${']'.repeat(20_000)}}`);
    const checks = [crashes([deep, crashedOn[1]!]), failedCheck('negative-rejection', [doubles])];
    expect(titles(withRootCausesFolded(checks))).toEqual([EXPONENT, DOUBLES_DEFECT]);
  });
});

/** The names e09's NewPlant declares: beds of rows and plants. */
const declared = declaredMemberNames({
  type: 'object',
  required: ['id', 'name', 'beds'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    beds: { type: 'array', items: { $ref: '#/$defs/Bed' } },
  },
  $defs: { Bed: { type: 'object', required: ['row', 'plants'], properties: { row: {}, plants: {} } } },
});

describe('declaredMemberNames', () => {
  it('lists the names a schema declares or requires at any depth, in $defs too', () => {
    expect([...declared].sort()).toEqual(['beds', 'id', 'name', 'plants', 'row']);
  });
});

describe('withMemberCrashesFolded', () => {
  const RESET = 'connection-reset on a valid NewPlant';
  const MISSING = 'connection-reset on an invalid body ("id": id missing (required) (keyword required))';
  const LONG = 'connection-reset on an invalid body ("tag" holds "…": tag one code point longer than maxLength #)';
  const required = { requiredMembers: new Set(['id', 'name']) };

  it('folds crashes on invalid bodies holding the optional member a valid crash kept (any heightMm drops the connection)', () => {
    const checks = [
      crashes([
        crash(RESET, '{"id":1,"name":"a","heightMm":421}'),
        crash(MISSING, '{"name":"a","heightMm":872}'),
        crash(LONG, '{"id":2,"name":"a","heightMm":852,"tag":"aaaaaaaaaaaaa"}'),
      ]),
    ];
    expect(titles(withRootCausesFolded(checks, required))).toEqual([RESET]);
  });

  it('folds a crash on bytes that are not UTF-8 whose shrunk body kept that member (ajv throwing on an item\'s "toString")', () => {
    const status = 'status 500 for a valid NewPlant';
    const bytes = 'status 500 for a body that is not valid UTF-8';
    const checks = [
      crashes([
        crash(status, '{"id":1,"name":"","companions":[{"id":0,"name":""},{"id":0,"name":"","toString":""}]}'),
        crash(bytes, '{"id":2,"name":"\uFFFD","companions":[{"id":0,"name":"","toString":{}}]}'),
      ]),
    ];
    expect(titles(withRootCausesFolded(checks, required))).toEqual([status]);
    expect(titles(withRootCausesFolded(checks))).toEqual([status, bytes]);
  });

  it('takes along a crash folded before into one it folds (a `true` id read as the missing id is read)', () => {
    const missing = crash(MISSING, '{"name":"a","heightMm":872}');
    const typed = {
      ...crash('connection-reset on an invalid body (a member of another JSON type, null included)', '{"id":true}'),
      foldedInto: missing.fingerprint,
    };
    const checks = [crashes([crash(RESET, '{"id":1,"name":"a","heightMm":421}'), missing, typed])];
    expect(titles(withRootCausesFolded(checks, required))).toEqual([RESET]);
  });

  it('folds a crash on a bad credential whose body kept a member the document declares nowhere, inside a required one (Fastify validates before security)', () => {
    const valid = crash(
      VALID,
      '{"id":1,"name":"","beds":[{"row":1,"plants":["a"]},{"row":1,"plants":["a"],"toString":null}]}',
    );
    const auth = crash(
      'status 500 for a request with no Authorization header',
      '{"id":2,"name":"","beds":[{"row":1,"plants":["a"]},{"row":1,"plants":["a"],"toString":[]}]}',
    );
    const signs = { requiredMembers: new Set(['id', 'name', 'beds']), declaredNames: declared };
    expect(titles(withRootCausesFolded([crashes([valid, auth])], signs))).toEqual([VALID]);
    // Without the names the document declares, or where the credential's crash shrank to declared members only: apart.
    expect(
      titles(withRootCausesFolded([crashes([valid, auth])], { requiredMembers: signs.requiredMembers })),
    ).toHaveLength(2);
    const plain = crash(
      'status 500 for a request with no Authorization header',
      '{"id":2,"name":"","beds":[{"row":1,"plants":["a"]}]}',
    );
    expect(titles(withRootCausesFolded([crashes([valid, plain])], signs))).toHaveLength(2);
  });

  it('keeps crashes apart where the valid crash kept only required members, or the invalid body lacks the member', () => {
    const everyValid = [crash(RESET, '{"id":1,"name":"a"}'), crash(MISSING, '{"name":"a","heightMm":872}')];
    expect(titles(withRootCausesFolded([crashes(everyValid)], required))).toEqual([RESET, MISSING]);
    const without = [crash(RESET, '{"id":1,"name":"a","heightMm":421}'), crash(MISSING, '{"name":"a"}')];
    expect(titles(withRootCausesFolded([crashes(without)], required))).toEqual([RESET, MISSING]);
  });
});
