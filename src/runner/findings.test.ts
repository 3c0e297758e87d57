import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { failedCheck as failed, sampleReport } from '../fixtures/sample-reports.js';
import {
  ACCEPTED_ONCE_TRIMMED,
  CUT_AT_NUL,
  DOUBLES_DEFECT,
  LENGTHS_IN_UNITS,
  REFUSED_ONCE_TRIMMED,
  requestKind,
  SPELLING_READ_AS_ANOTHER_ID,
  TRIMMED,
} from './defects.js';
import {
  defectIdentity,
  failureFingerprint,
  findingsOf,
  groupDefectsOf,
  ignoredMemberDefect,
  itemRulesDefect,
  memberRulesDefect,
  nestedRequiredDefect,
  reasonShape,
  withAbsentEchoesFolded,
  withDoublesFolded,
  withExponentRangesFolded,
  withItemRulesFolded,
  withLeadingDigitsFolded,
  withLengthUnitsFolded,
  withMemberRulesFolded,
  withNestedRequiredFolded,
  withNonFiniteEchoesFolded,
  withRecursionDepthsFolded,
  withRootCausesFolded,
  withSharedRefusalBodiesFolded,
  withSharedRefusalLabelsFolded,
  withTrimmedRefusalsFolded,
  withTruncationFolded,
  withUnsentLeftOutFolded,
  withZeroValuesFolded,
  unsentLeftOutDefect,
  UNVALIDATED_DEFECT,
  ZERO_VALUES_DEFECT,
} from './findings.js';
import { SAME_DOUBLE } from './probes/precision-pairs.js';
import type { PlannedRequest } from './probe.js';
import type { CheckResult, Failure } from './report.js';

const base = sampleReport().checks.find((check) => check.status === 'fail')?.failures[0] as Failure;

describe('withTruncationFolded', () => {
  const echoed = (sent: string, got: string, defect: string): Partial<Failure> => ({
    defect,
    reason: `"tag" was sent as … but came back as ….`,
    request: { ...base.request, body: JSON.stringify({ name: 'x', id: 1, tag: sent }) },
    response: { ...base.response, body: JSON.stringify({ name: 'x', tag: got }) },
  });
  const titles = (checks: CheckResult[]) => findingsOf(withTruncationFolded(checks)).map((finding) => finding.title);
  const cut = '"tag" not echoed as sent';

  it('folds echoes that look trimmed into strings cut to the same length (a cut falling on a trailing space)', () => {
    const checks = [failed('echo', [echoed('abcdefghij', 'abcdefgh', cut), echoed('ab cdefg ', 'ab cdefg', TRIMMED)])];
    expect(titles(checks)).toEqual([cut]);
  });

  it('keeps trimming its own finding beside cuts of another length, or without any cut', () => {
    const other = [failed('echo', [echoed('abcdefghij', 'abcdefgh', cut), echoed(' ab ', ' ab', TRIMMED)])];
    expect(titles(other)).toEqual([cut, TRIMMED]);
    expect(titles([failed('echo', [echoed('ab cdefg ', 'ab cdefg', TRIMMED)])])).toEqual([TRIMMED]);
  });

  it('folds an echo cut at a U+0000 falling at the cut into the cut, counting UTF-16 units as JavaScript slices', () => {
    // Cut at 4 units: the astral 🌱 is two units, so the cut lengths agree in units, not in code points.
    const atNul = [echoed('abcdefg', 'abcd', cut), echoed('🌱ab\u0000cd', '🌱ab', CUT_AT_NUL)];
    expect(titles([failed('echo', atNul)])).toEqual([cut]);
  });

  it('folds an echo cut at a U+0000 into a cut counted in UTF-8 bytes, as PHP substr cuts', () => {
    // Cut at 8 bytes: 'é' and '🌱' take 2 and 4, so the lengths agree in bytes only (4 and 5 code points).
    const atNul = [echoed('abcdefghij', 'abcdefgh', cut), echoed('é🌱ab\u0000cd', 'é🌱ab', CUT_AT_NUL)];
    expect(titles([failed('echo', atNul)])).toEqual([cut]);
  });

  it('keeps a C string cut its own finding when no cut of that length shows beside it', () => {
    const apart = [echoed('abcdefg', 'abcd', cut), echoed('a\u0000bcdef', 'a', CUT_AT_NUL)];
    expect(titles([failed('echo', apart)])).toEqual([cut, CUT_AT_NUL]);
    expect(titles([failed('echo', [echoed('a\u0000b', 'a', CUT_AT_NUL)])])).toEqual([CUT_AT_NUL]);
  });
});

describe('findingsOf', () => {
  it('makes one finding of the same defect failed by several checks, naming each check once', () => {
    const defect = 'status 201 for a valid NewPlant';
    const fingerprint = defectIdentity('positive-acceptance', 'a', defect).fingerprint;
    const findings = findingsOf([
      failed('positive-acceptance', [
        { defect, fingerprint, reason: 'one' },
        { defect, fingerprint, reason: 'two' },
      ]),
      failed('documented-status', [{ defect, fingerprint, reason: 'three' }]),
      failed('echo', [{ reason: '"tag" was sent as "Fern 2" but the 200 Plant has no "tag".' }]),
    ]);
    expect(findings.map((finding) => [finding.title, finding.checks])).toEqual([
      [defect, ['positive-acceptance', 'documented-status']],
      ['echo: "tag" was sent as "…" but the 200 Plant has no "tag".', ['echo']],
    ]);
  });

  it('titles a finding by the counterexample it shows, not by the first failure of its cause met', () => {
    // HD12's e11 under a Draft-4 validator: one cause ("heightM" read wrongly), a type break met first,
    // a smaller body without heightM shown; the title named the array the shown body does not hold.
    const array =
      'an invalid body ("heightM" holds an array: heightM not of type number: an array (keyword type)) accepted';
    const missing = 'an invalid body ("heightM": heightM missing (required) (keyword required)) accepted';
    const fingerprint = 'cccccccccccccccc';
    const request = (body: string) => ({ ...base.request, body });
    const findings = findingsOf([
      failed('response-schema', [
        { defect: array, fingerprint, reason: 'array', request: request('{"id":1,"name":"","heightM":[1,2]}') },
      ]),
      failed('negative-rejection', [
        { defect: missing, fingerprint, reason: 'missing', request: request('{"id":1,"name":""}') },
      ]),
    ]);
    expect(findings.map((finding) => [finding.title, finding.counterexample.reason])).toEqual([[missing, 'missing']]);
  });

  it("shows, of counterexamples alike, one whose reason speaks of the finding, not another check's fault of the answer", () => {
    // HS12's nim-noheader: a 200 with no Content-Type to a trailing comma fails content-type and negative-rejection.
    const defect = 'an invalid body (a trailing comma before a closing bracket) accepted';
    const fingerprint = 'dddddddddddddddd';
    const request = { ...base.request, body: '{"name":"","id":1,}' };
    const label = 'The 200 answer has no Content-Type; the document gives application/json.';
    const accepted = 'An invalid body (a trailing comma before a closing bracket) was accepted with 200.';
    const findings = findingsOf([
      failed('content-type', [{ defect, fingerprint, reason: label, request }]),
      failed('negative-rejection', [{ defect, fingerprint, reason: accepted, request }]),
    ]);
    expect(findings.map((finding) => finding.counterexample.reason)).toEqual([accepted]);
    // A smaller body still goes first, whatever its reason says.
    const smaller = { ...base.request, body: '{"id":1,}' };
    const first = findingsOf([
      failed('content-type', [{ defect, fingerprint, reason: label, request: smaller }]),
      failed('negative-rejection', [{ defect, fingerprint, reason: accepted, request }]),
    ]);
    expect(first.map((finding) => finding.counterexample.reason)).toEqual([label]);
  });

  it('lists a failure folded into another finding under that finding, named by the failure that is its own', () => {
    const own = { defect: 'an invalid body ("tag" holds an array: …) accepted', fingerprint: 'aaaaaaaaaaaaaaaa' };
    const folded = {
      defect: 'an invalid body (null for a property the document does not let be null) accepted',
      fingerprint: 'bbbbbbbbbbbbbbbb',
      foldedInto: 'aaaaaaaaaaaaaaaa',
    };
    const findings = findingsOf([
      failed('negative-rejection', [
        { ...folded, reason: 'null' },
        { ...own, reason: 'array' },
      ]),
      failed('response-schema', [{ ...folded, reason: 'null echoed' }]),
    ]);
    expect(findings.map((finding) => [finding.fingerprint, finding.title, finding.checks])).toEqual([
      ['aaaaaaaaaaaaaaaa', own.defect, ['negative-rejection', 'response-schema']],
    ]);
  });

  it("folds a precision pair's refused second id into the doubles defect only when the target shows that defect too", () => {
    const refused = 'status 400 for a valid NewPlant';
    const pair = {
      defect: refused,
      fingerprint: defectIdentity('positive-acceptance', '', refused).fingerprint,
      reason: `A valid NewPlant … was answered 400. The ids 4611686018427387904 and 4611686018427387905 ${SAME_DOUBLE}: …`,
    };
    const doubles = {
      defect: DOUBLES_DEFECT,
      fingerprint: defectIdentity('echo', '', DOUBLES_DEFECT).fingerprint,
      reason: 'id echoed with other digits',
    };
    const titles = (checks: CheckResult[]) =>
      findingsOf(withDoublesFolded(checks)).map((finding) => [finding.title, finding.checks]);
    expect(titles([failed('positive-acceptance', [pair]), failed('echo', [doubles])])).toEqual([
      [DOUBLES_DEFECT, ['positive-acceptance', 'echo']],
    ]);
    // A target keying its store by double that answers every id as sent: the refusal is the only sign.
    expect(titles([failed('positive-acceptance', [pair])])).toEqual([[refused, ['positive-acceptance']]]);
    // Another refusal of a valid NewPlant stays its own finding beside the doubles one.
    const other = {
      ...pair,
      reason: 'A valid NewPlant … was answered 400; rule 1 says 200 with a Plant.',
      request: { ...base.request, body: '{"id":12,"name":"Fern"}' },
    };
    expect(titles([failed('positive-acceptance', [other]), failed('echo', [doubles])])).toEqual([
      [refused, ['positive-acceptance']],
      [DOUBLES_DEFECT, ['echo']],
    ]);
    // So does one whose fresh id is beyond 2^53 but far from any edge (h3's readBody refusing "__proto__"):
    // no other id the run sent is the same double.
    const proto = {
      ...other,
      request: { ...base.request, body: '{"__proto__":{},"id":5764607523034234881,"name":""}' },
    };
    expect(titles([failed('positive-acceptance', [proto]), failed('echo', [doubles])])).toEqual([
      [refused, ['positive-acceptance']],
      [DOUBLES_DEFECT, ['echo']],
    ]);
  });

  it('does not take a refusal naming another member (a blank name on id 2^63-1, DRF) for the doubles beside 2^63 accepted', () => {
    const blank = {
      defect: 'status 400 for a valid NewPlant',
      reason: 'A valid NewPlant … was answered 400; rule 1 says 200 with a Plant.',
      request: { ...base.request, body: '{"name":"","id":9223372036854775807}' },
      response: { ...base.response, status: 400, body: '{"name":["This field may not be blank."]}' },
    };
    const range = {
      defect: 'an invalid body ("id" set to an integer outside int64) accepted',
      reason: 'accepted',
      request: { ...base.request, body: '{"name":"a","id":9223372036854775808}' },
    };
    const checks = [failed('positive-acceptance', [blank]), failed('negative-rejection', [range])];
    expect(findingsOf(withDoublesFolded(checks)).map((finding) => finding.title)).not.toContain(DOUBLES_DEFECT);
    // The same refusal saying nothing of the name is still the doubles' sign (2^63-1 read as 2^63, out of range).
    const bare = { ...blank, response: { ...blank.response, body: '{"error":400,"message":"id out of range"}' } };
    const both = [failed('positive-acceptance', [bare]), failed('negative-rejection', [range])];
    expect(findingsOf(withDoublesFolded(both)).map((finding) => finding.title)).toEqual([DOUBLES_DEFECT]);
  });

  it('folds a valid NewPlant refused with an id of exactly -2^53 (the double -2^53-1 was stored as) into the doubles defect', () => {
    const refused = 'status 400 for a valid NewPlant';
    const edge = {
      defect: refused,
      reason: 'A valid NewPlant … was answered 400; rule 1 says 200 with a Plant.',
      request: { ...base.request, body: '{"name":"","id":-9007199254740992}' },
    };
    const doubles = { defect: DOUBLES_DEFECT, reason: 'id echoed with other digits' };
    const titles = findingsOf(
      withDoublesFolded([failed('positive-acceptance', [edge]), failed('negative-rejection', [doubles])]),
    ).map((finding) => finding.title);
    expect(titles).toEqual([DOUBLES_DEFECT]);
  });

  it('folds 2^53+N.5 accepted, a pair and a big id refused into the doubles defect when small fractions were refused', () => {
    const refused = 'status 409 for a valid NewPlant';
    const request = (body: string) => ({ ...base.request, body });
    const half = {
      defect: 'an invalid body ("id" set to 2^53+N.5) accepted',
      reason: 'half accepted',
      request: request('{"id":9007786667563977.5,"name":"a"}'),
    };
    const pair = { defect: refused, reason: `… ${SAME_DOUBLE} …`, request: request('{"id":4611686018427387905}') };
    const big = { defect: refused, reason: 'big refused', request: request('{"id":9223372036854775806,"name":""}') };
    const small = {
      defect: refused,
      reason: 'small refused',
      request: request('{"id":12,"name":"0.1234567890123456789"}'),
    };
    const checks = [failed('positive-acceptance', [pair, big, small]), failed('negative-rejection', [half])];
    const findings = (signs: Parameters<typeof withDoublesFolded>[1]) =>
      findingsOf(withDoublesFolded(checks, signs)).map((finding) => [
        finding.title,
        finding.checks,
        finding.counterexample.reason,
      ]);
    // A Go float64 or JSON.parse reader: one root cause, shown by the accepted body (which reproduces alone).
    expect(findings({ smallFractionsRefused: true })).toEqual([
      [DOUBLES_DEFECT, ['positive-acceptance', 'negative-rejection'], 'half accepted'],
      [refused, ['positive-acceptance'], 'small refused'],
    ]);
    // Small fractions accepted too (or not known): no integer check at all, which is its own defect.
    expect(findings({ smallFractionsRefused: false })).toHaveLength(2);
    // The half alone (PHP's json_decode: int64 exact, 2^53+N.5 a float its check takes for whole): its own.
    expect(
      findingsOf(withDoublesFolded([failed('negative-rejection', [half])], { smallFractionsRefused: true })).map(
        (finding) => finding.title,
      ),
    ).toEqual([half.defect]);
    expect(findings({})).toEqual([
      [refused, ['positive-acceptance'], pair.reason],
      [half.defect, ['negative-rejection'], 'half accepted'],
    ]);
  });

  it('folds a pair refused and 2^63 taken for 2^63-1 into the doubles defect, but not 2^63 taken alone', () => {
    const pair = {
      defect: 'status 400 for a valid NewPlant',
      reason: `… ${SAME_DOUBLE} …`,
      request: { ...base.request, body: '{"id":4611686018427387905}' },
    };
    const edge = {
      defect: 'an invalid body ("id" holds #: id one above the int64 maximum # (keyword format)) accepted',
      reason: 'refused as a repeated id',
      request: { ...base.request, body: '{"name":"","id":9223372036854775808}' },
    };
    const titles = (checks: CheckResult[]) =>
      findingsOf(withDoublesFolded(checks)).map((finding) => [finding.title, finding.checks]);
    expect(titles([failed('positive-acceptance', [pair]), failed('negative-rejection', [edge])])).toEqual([
      [DOUBLES_DEFECT, ['positive-acceptance', 'negative-rejection']],
    ]);
    // A saturating parser (2^63 read as 2^63-1) that keeps every other id whole: its own finding.
    expect(titles([failed('negative-rejection', [edge])])).toEqual([[edge.defect, ['negative-rejection']]]);
    // 1e19 or 2^64 accepted is a missing range check, not a double's rounding.
    const far = { ...edge, request: { ...base.request, body: '{"id":18446744073709551616}' } };
    expect(titles([failed('positive-acceptance', [pair]), failed('negative-rejection', [far])])).toHaveLength(2);
  });

  it('shows the doubles defect by a pair the curl line sends whole, not by an edge refused as a repeat of an id the run stored', () => {
    // Deno's JSON.parse, Slim's getParsedBody: -2^63-1 refused with the repeat code because the run stored -2^63
    // earlier (a fresh instance accepts it: 200), and a pair whose curl line sends both ids (400 anywhere).
    const repeat = {
      defect: 'an invalid body ("id" holds #: id one below the int64 minimum # (keyword format)) accepted',
      reason: 'An invalid body … was refused as a repeated id …',
      request: { ...base.request, body: '{"name":"","id":-9223372036854775809}' },
      response: { ...base.response, status: 400, body: '{"error":1010,"message":"already exists"}' },
    };
    const pair = {
      defect: 'status 400 for a valid NewPlant',
      reason: `A valid NewPlant … was answered 400. The ids 4612095349071162465 and 4612095349071162466 ${SAME_DOUBLE}.`,
      request: { ...base.request, body: '{"name":"","tag":"","id":4612095349071162466,"a.b":""}' },
      response: { ...base.response, status: 400, body: '{"error":1010,"message":"already exists"}' },
    };
    const shown = (failures: Partial<Failure>[]) =>
      findingsOf(
        withDoublesFolded([
          failed('negative-rejection', failures.slice(0, 1)),
          failed('positive-acceptance', failures.slice(1)),
        ]),
      ).map((finding) => finding.counterexample.request.body);
    expect(shown([repeat, pair])).toEqual([pair.request.body]);
    // The edge accepted (200 on any instance that does not hold it) is shown before a pair, as before.
    const accepted = {
      ...repeat,
      reason: 'accepted',
      response: { ...base.response, status: 200, body: '{"name":""}' },
    };
    expect(shown([accepted, pair])).toEqual([accepted.request.body]);
  });

  it('folds 2^63-1 refused (2^63 as a double, out of range) beside 2^53+N.5 accepted into the doubles defect', () => {
    const refusedEdge = {
      defect: 'status 400 for a valid NewPlant',
      reason: 'A valid NewPlant was answered 400.',
      request: { ...base.request, body: '{"name":" ","id":9223372036854775807}' },
    };
    const half = { defect: 'an invalid body ("id" set to 2^53+N.5) accepted', reason: 'accepted' };
    const titles = (checks: CheckResult[]) =>
      findingsOf(withDoublesFolded(checks, { smallFractionsRefused: true })).map((finding) => finding.title);
    // Node's JSON.parse under a range check: one root cause.
    expect(titles([failed('positive-acceptance', [refusedEdge]), failed('negative-rejection', [half])])).toEqual([
      DOUBLES_DEFECT,
    ]);
    // Alone (an off-by-one bound), or an id a double holds whole: its own finding.
    expect(titles([failed('positive-acceptance', [refusedEdge])])).toEqual([refusedEdge.defect]);
    const small = { ...refusedEdge, request: { ...base.request, body: '{"name":" ","id":9007199254740991}' } };
    expect(titles([failed('positive-acceptance', [small]), failed('negative-rejection', [half])])).toHaveLength(2);
  });

  it('folds an echo failure for a property the answer left out into response-schema\'s "required at" finding', () => {
    const required = 'the 200 body is not a valid Plant (required at "tag")';
    const answer = (body: string) => ({ ...base.response, status: 200, body });
    const schema = failed('response-schema', [{ defect: required, reason: 'r', response: answer('{"name":"a"}') }]);
    const echoOf = (field: string, body: string) =>
      failed('echo', [{ defect: `"${field}" not echoed as sent`, reason: 'e', response: answer(body) }]);
    const titles = (checks: CheckResult[]) =>
      findingsOf(withAbsentEchoesFolded(checks)).map((finding) => [finding.title, finding.checks]);
    // Go's omitempty on a required nullable tag: the tag sent as null comes back left out.
    expect(titles([echoOf('tag', '{"name":"a"}'), schema])).toEqual([[required, ['echo', 'response-schema']]]);
    // The tag answered with another value, or another property left out: another root cause.
    expect(titles([echoOf('tag', '{"name":"a","tag":"b"}'), schema])).toEqual([
      ['"tag" not echoed as sent', ['echo']],
      [required, ['response-schema']],
    ]);
    expect(titles([echoOf('name', '{"tag":null}'), schema])).toHaveLength(2);
    // No response-schema failure for it: echo keeps its own finding.
    expect(titles([echoOf('tag', '{"name":"a"}')])).toEqual([['"tag" not echoed as sent', ['echo']]]);
  });

  it('folds an integer spelling read as another id into a fraction accepted: an id read by its leading digits', () => {
    const fraction = {
      defect:
        'an invalid body ("id" holds #: id not of type integer: a number with a fraction (keyword type)) accepted',
      reason: 'refused as a repeated id',
      request: { ...base.request, body: '{"name":"","id":0.5}' },
    };
    const misread = { defect: SPELLING_READ_AS_ANOTHER_ID, reason: 'read 9.2e18 as 9' };
    const refused = { defect: 'an integer id written as 1.0, 1e2 or -0 refused with 400', reason: 'refused' };
    const titles = (checks: CheckResult[]) =>
      findingsOf(withLeadingDigitsFolded(checks)).map((finding) => [finding.title, finding.checks]);
    expect(titles([failed('negative-rejection', [fraction]), failed('integer-spellings', [misread])])).toEqual([
      [fraction.defect, ['negative-rejection', 'integer-spellings']],
    ]);
    // A spelling refused without a repeat's answer (a strict number reader), or no fraction accepted: its own.
    expect(titles([failed('negative-rejection', [fraction]), failed('integer-spellings', [refused])])).toHaveLength(2);
    expect(titles([failed('integer-spellings', [misread])])).toEqual([
      [SPELLING_READ_AS_ANOTHER_ID, ['integer-spellings']],
    ]);
  });

  it('folds an id past int64 written with an exponent, accepted and answered whole, into the plain digits accepted: no range check', () => {
    const answered = (id: string) => ({ ...base.response, status: 200, body: `{"id":${id},"name":""}` });
    const range = {
      defect: 'an invalid body ("id" set to an integer outside int64) accepted',
      reason: 'accepted',
      request: { ...base.request, body: '{"id":3056259893270000000000000000000,"name":""}' },
      response: answered('3.05625989327e+30'),
    };
    const exponent = {
      defect: 'an invalid body ("id" set to an integer outside int64 written with an exponent) accepted',
      reason: 'accepted',
      request: { ...base.request, body: '{"id":1e19,"name":""}' },
      response: answered('10000000000000000000'),
    };
    const titles = (checks: CheckResult[]) =>
      findingsOf(withExponentRangesFolded(checks)).map((finding) => [finding.title, finding.checks]);
    // eov on JSON.parse: both are ids outside int64 read whole (one fix: a range check on the digits).
    expect(titles([failed('negative-rejection', [range]), failed('response-schema', [exponent])])).toEqual([
      [range.defect, ['negative-rejection', 'response-schema']],
    ]);
    // Read by its leading digits (1e19 taken as 1, as 0.5 as 0), or no plain digits accepted: its own.
    const leading = { ...exponent, response: answered('1') };
    expect(titles([failed('negative-rejection', [range, leading])])).toHaveLength(2);
    expect(titles([failed('response-schema', [exponent])])).toEqual([[exponent.defect, ['response-schema']]]);
  });

  it('folds one rule accepted at two depths of a recursive schema into the shallower: one schema read at every depth', () => {
    const at = (
      path: string,
      rule = 'a member the document does not declare, where additionalProperties is false',
    ) => ({
      defect: `an invalid body ("${path}": ${rule}) accepted`,
      reason: 'accepted',
    });
    const titles = (checks: CheckResult[]) =>
      findingsOf(withRecursionDepthsFolded(checks)).map((finding) => finding.title);
    const [shallow, deep] = [at('companions.0.unexpected'), at('companions.0.companions.0.unexpected')];
    expect(titles([failed('negative-rejection', [deep, shallow])])).toEqual([shallow.defect]);
    // The deeper alone (a validator that does not recurse), another rule, or items of items: apart.
    expect(titles([failed('negative-rejection', [deep])])).toEqual([deep.defect]);
    const required = at(
      'companions.0.companions.0.name',
      'companions.0.companions.0.name missing (required) (keyword required)',
    );
    expect(titles([failed('negative-rejection', [shallow, required])])).toHaveLength(2);
    const matrix = [at('matrix.0', 'matrix.0 not of type array'), at('matrix.0.1', 'matrix.0.1 not of type array')];
    expect(titles([failed('negative-rejection', matrix)])).toHaveLength(2);
    const name = (path: string) => at(path, `${path} one code point longer than maxLength # (keyword maxLength)`);
    expect(titles([failed('negative-rejection', [name('kids.0.name'), name('kids.0.kids.0.kids.0.name')])])).toEqual([
      name('kids.0.name').defect,
    ]);
  });

  it('folds a valid NewPlant refused once trimmed, or an invalid body valid once trimmed, into strings echoed trimmed: one trimming reader', () => {
    const trimmedEcho = { defect: TRIMMED, reason: '"name" was sent as " ! " but came back as "!"' };
    const refusal = `A valid NewPlant with the token you gave was answered 422. ${REFUSED_ONCE_TRIMMED} (name: too short).`;
    const blank = { defect: 'status 422 for a valid NewPlant', reason: refusal };
    const other = { defect: 'status 422 for a valid NewPlant', reason: 'A valid NewPlant was answered 422.' };
    const titles = (checks: CheckResult[]) =>
      findingsOf(withTrimmedRefusalsFolded(checks)).map((finding) => [finding.title, finding.checks]);
    // pydantic's str_strip_whitespace under the document's minLength 1: "   " refused, "  Fern " echoed "Fern".
    expect(titles([failed('positive-acceptance', [blank]), failed('echo', [trimmedEcho])])).toEqual([
      [TRIMMED, ['positive-acceptance', 'echo']],
    ]);
    expect(
      findingsOf(withRootCausesFolded([failed('positive-acceptance', [blank]), failed('echo', [trimmedEcho])])),
    ).toHaveLength(1);
    // A name one over maxLength accepted because its trailing space was cut: the same trimming.
    const tooLong = { defect: 'an invalid body (x) accepted', reason: `Accepted. ${ACCEPTED_ONCE_TRIMMED}: …` };
    expect(titles([failed('negative-rejection', [tooLong]), failed('echo', [trimmedEcho])])).toEqual([
      [TRIMMED, ['negative-rejection', 'echo']],
    ]);
    expect(
      titles([failed('negative-rejection', [{ ...tooLong, reason: 'Accepted.' }]), failed('echo', [trimmedEcho])]),
    ).toHaveLength(2);
    // No trimmed echo (a blank check, as Bean Validation's @NotBlank), or a refusal trimming does not explain: its own.
    expect(titles([failed('positive-acceptance', [blank])])).toEqual([[blank.defect, ['positive-acceptance']]]);
    expect(titles([failed('positive-acceptance', [other]), failed('echo', [trimmedEcho])])).toHaveLength(2);
  });

  it('folds a non-ASCII name one code point past a length bound, accepted, into a valid NewPlant refused for its lengths: lengths counted in UTF-16 units or bytes', () => {
    const defect = 'status 400 for a valid NewPlant';
    const refused = {
      defect,
      reason: `A valid NewPlant, sent with the credential, was answered 400. ${LENGTHS_IN_UNITS}.`,
      request: { ...base.request, body: '{"id":2,"name":"ab𐀀cdefghijk"}' },
    };
    const short = (name: string) => ({
      defect:
        'an invalid body ("name" holds "…": name one code point shorter than minLength # (keyword minLength)) accepted',
      reason: 'accepted',
      request: { ...base.request, body: JSON.stringify({ id: 3, name }) },
    });
    const echoed = {
      defect: 'the 200 body is not a valid Plant (minLength at "name")',
      reason: 'The 200 body is not a valid Plant.',
      request: { ...base.request, body: '{"name":"\\ud800","id":4}' },
    };
    const titles = (checks: CheckResult[]) =>
      findingsOf(withLengthUnitsFolded(checks)).map((finding) => [finding.title, finding.checks]);
    // Python's len(name.encode()) under minLength 2 and maxLength 12: "𐀀" taken (4 bytes), an astral name at 12 refused.
    expect(
      titles([
        failed('positive-acceptance', [refused]),
        failed('negative-rejection', [short('𐀀')]),
        failed('response-schema', [echoed]),
      ]),
    ).toEqual([[defect, ['positive-acceptance', 'negative-rejection', 'response-schema']]]);
    // A document whose success is a 201 with a schema of another name: the same.
    const created = { ...echoed, defect: 'the 201 body is not a valid PlantCreated (maxLength at "name")' };
    expect(titles([failed('positive-acceptance', [refused]), failed('response-schema', [created])])).toHaveLength(1);
    expect(
      findingsOf(
        withRootCausesFolded([failed('positive-acceptance', [refused]), failed('negative-rejection', [short('é')])]),
      ),
    ).toHaveLength(1);
    // An ASCII name past the bound (no length check at all), or no refusal speaking of lengths: its own.
    expect(titles([failed('positive-acceptance', [refused]), failed('negative-rejection', [short('a')])])).toHaveLength(
      2,
    );
    const plain = { ...refused, reason: 'A valid NewPlant was answered 400.' };
    expect(titles([failed('positive-acceptance', [plain]), failed('negative-rejection', [short('𐀀')])])).toHaveLength(
      2,
    );
  });

  it('folds refusals of several statuses whose bodies break the schema at one field with one value into the lowest status: one error builder', () => {
    const refusal = (status: number, body: string, keyword = 'enum', field = 'error'): Partial<Failure> => ({
      defect: `the ${status} body is not a valid Error (${keyword} at "${field}")`,
      reason: `The ${status} body is not a valid Error.`,
      response: { ...base.response, status, body },
    });
    const titles = (failures: Partial<Failure>[]) =>
      findingsOf(withSharedRefusalBodiesFolded([failed('response-schema', failures)])).map((finding) => finding.title);
    const code1001 = (status: number) => refusal(status, `{"error":1001,"message":"no"}`);
    // An ogen-style service answering its own code 1001 (outside the document's enum) in every refusal.
    expect(titles([code1001(401), code1001(400)])).toEqual(['the 400 body is not a valid Error (enum at "error")']);
    expect(findingsOf(withRootCausesFolded([failed('response-schema', [code1001(401), code1001(400)])]))).toHaveLength(
      1,
    );
    // Another value (an auth layer's own body) or another keyword: each stays its own.
    expect(titles([code1001(400), refusal(401, '{"error":"unauthorized","message":"no"}')])).toHaveLength(2);
    expect(titles([code1001(400), refusal(401, '{"error":1001,"message":"no"}', 'maximum')])).toHaveLength(2);
    // A member missing from bodies of one shape (one helper writing {"code", "message"}): one builder, one finding.
    const coded = (status: number) => refusal(status, `{"code":${status},"message":"no"}`, 'required');
    expect(titles([coded(401), coded(400)])).toEqual(['the 400 body is not a valid Error (required at "error")']);
    // FastAPI: a 401 {"detail": "Not authenticated"} and a 422 {"detail": [ … ]}, two handlers: two findings.
    const detail = refusal(422, '{"detail":[{"loc":["body","id"]}]}', 'required');
    expect(titles([detail, refusal(401, '{"detail":"Not authenticated"}', 'required')])).toHaveLength(2);
    // A success body is the echo's business: never folded here.
    expect(
      titles([code1001(400), { ...code1001(400), defect: 'the 200 body is not a valid Plant (enum at "error")' }]),
    ).toHaveLength(2);
  });

  it('folds refusals of several 4xx statuses labelled alike, or not JSON alike, into one finding named for them all: one error writer', () => {
    const labelled = (status: number, label = 'text/plain'): Partial<Failure> => ({
      defect: `the ${status} answer is labelled ${label}`,
      reason: `The ${status} answer is labelled ${label}.`,
      response: { ...base.response, status, body: 'Unauthorized' },
    });
    const titles = (checks: CheckResult[]) =>
      findingsOf(withSharedRefusalLabelsFolded(checks)).map((finding) => [finding.title, finding.checks]);
    // Koa's default error handler: ctx.throw(400) and ctx.throw(401) both written as text/plain.
    expect(
      titles([failed('content-type', [labelled(401), labelled(400)]), failed('response-schema', [labelled(401)])]),
    ).toEqual([['the 4xx answers are labelled text/plain', ['content-type', 'response-schema']]]);
    expect(groupDefectsOf('the 401 answer is labelled text/plain')).toEqual([
      'the 4xx answers are labelled text/plain',
    ]);
    expect(findingsOf(withRootCausesFolded([failed('content-type', [labelled(401), labelled(400)])]))).toHaveLength(1);
    // Another label, or a 5xx (a crash's own page): each stays its own.
    expect(titles([failed('content-type', [labelled(400), labelled(401, 'text/html')])])).toHaveLength(2);
    expect(titles([failed('content-type', [labelled(400), labelled(500)])])).toHaveLength(2);
    // Pyramid's Response(..., headers={...}) replaces WebOb's header list, Content-Type included: the 200 and the
    // 400 written by one helper, both unlabelled, are one finding (as PHP's default text/html for every echo).
    const unlabelled = [labelled(400, 'with no Content-Type'), labelled(200, 'with no Content-Type')];
    expect(titles([failed('content-type', unlabelled)])).toEqual([
      ['the 200 and 4xx answers are labelled with no Content-Type', ['content-type']],
    ]);
    // Go's w.WriteHeader before w.Header().Set: every answer sniffed text/plain, named for all (it was the 200's).
    const sniffed = [labelled(200), labelled(400), labelled(401)];
    expect(titles([failed('content-type', sniffed)])[0]?.[0]).toBe('the 200 and 4xx answers are labelled text/plain');
    const bodies = (status: number) => ({ ...labelled(status), defect: `the ${status} body is not JSON` });
    expect(titles([failed('response-schema', [bodies(400), bodies(401)])])[0]?.[0]).toBe('the 4xx bodies are not JSON');
    expect(titles([failed('content-type', [labelled(200, 'text/html'), labelled(400)])])).toHaveLength(2);
  });

  it('folds a success body not JSON only for a bare Infinity where a finite number was sent into that property not echoed: one float column', () => {
    const echoed = { defect: '"height" not echoed as sent', reason: '"height" was sent as 5e-324 but came back as 0' };
    const overflow = (
      answer: string,
      sent = '{"id":1,"name":"","height":3.4028235677973366e+38}',
    ): Partial<Failure> => ({
      defect: 'the 200 body is not JSON',
      reason: 'The 200 answer should carry a Plant, but it is not JSON.',
      request: { ...base.request, body: sent },
      response: { ...base.response, status: 200, body: answer },
    });
    const titles = (checks: CheckResult[]) =>
      findingsOf(withNonFiniteEchoesFolded(checks)).map((finding) => [finding.title, finding.checks]);
    const infinity = overflow('{"id": 1, "name": "", "height": Infinity}');
    expect(titles([failed('echo', [infinity, echoed]), failed('response-schema', [infinity])])).toEqual([
      [echoed.defect, ['echo', 'response-schema']],
    ]);
    expect(findingsOf(withRootCausesFolded([failed('echo', [infinity, echoed])]))).toHaveLength(1);
    // Another property, a body broken otherwise, a non-finite value sent, or no echo failure: each stays its own.
    expect(titles([failed('echo', [overflow('{"id": 1, "name": "", "width": NaN}'), echoed])])).toHaveLength(2);
    expect(titles([failed('echo', [overflow('{"id": 1, "name": "", "height": Infinity'), echoed])])).toHaveLength(2);
    expect(titles([failed('echo', [overflow('{"height": Infinity}', '{"height":"x"}'), echoed])])).toHaveLength(2);
    expect(titles([failed('echo', [infinity])])).toEqual([['the 200 body is not JSON', ['echo']]]);
  });

  it("folds invalid bodies accepted for rules broken inside one array's items into one finding named by the items", () => {
    const accepted = (what: string, body: string): Partial<Failure> => {
      const defect = `an invalid body ("…" holds an array: ${what}) accepted`;
      const fingerprint = defectIdentity('negative-rejection', 'r', defect).fingerprint;
      return {
        defect,
        fingerprint,
        reason: `An invalid body (${what}) was accepted`,
        request: { ...base.request, body },
      };
    };
    const name = accepted(
      'offshoots[#].name not of type string: an array (keyword type)',
      '{"offshoots":[{"name":[]}]}',
    );
    const id = accepted('offshoots[#].id missing (required) (keyword required)', '{"offshoots":[{}]}');
    const size = accepted('beds[#].rows[#].pots[#].size below minimum # (keyword minimum)', '{"beds":[]}');
    const top = accepted('tag not of type string: an array (keyword type)', '{"tag":[]}');
    // A null accepted for the item's name was folded into its type failure before (a field read wrongly).
    const nulled = {
      ...accepted('null for a property the document does not let be null', '{}'),
      foldedInto: name.fingerprint,
    };
    // The same cause met by response-schema, its echo breaking the Plant.
    const echoed = { defect: name.defect, fingerprint: name.fingerprint, reason: 'The 200 body is not a valid Plant' };
    const checks = [failed('response-schema', [echoed]), failed('negative-rejection', [name, id, size, top, nulled])];
    const findings = findingsOf(withItemRulesFolded(checks));
    const items = itemRulesDefect('offshoots[#]');
    expect(items).toBe('invalid bodies accepted inside the items of offshoots (the rules of offshoots[#] not checked)');
    expect(findings.map((finding) => [finding.title, finding.checks])).toEqual([
      [items, ['response-schema', 'negative-rejection']],
      [size.defect, ['negative-rejection']],
      [top.defect, ['negative-rejection']],
    ]);
    // Shown by the smallest, named by the items whichever rules a seed broke: a baseline keeps matching.
    expect(findings[0]?.counterexample.request.body).toBe('{"offshoots":[{}]}');
    const fewer = findingsOf(withItemRulesFolded([failed('negative-rejection', [name, id])]));
    expect(fewer[0]?.fingerprint).toBe(findings[0]?.fingerprint);
  });

  describe('an object member taken as it comes', () => {
    const accepted = (field: string, what: string, body: string): Partial<Failure> => {
      const defect = `an invalid body ("${field}"${what}) accepted`;
      const fingerprint = defectIdentity('negative-rejection', 'r', defect).fingerprint;
      return {
        defect,
        fingerprint,
        reason: `An invalid body was accepted: ${body}`,
        request: { ...base.request, body },
      };
    };
    // A server that validates every member but care, which it takes as any dict: every rule of care let through.
    const type = accepted('care', ' holds true: care not of type object: a boolean (keyword type)', '{"care":true}');
    const water = accepted(
      'care.water',
      ': care.water missing (required) (keyword required)',
      '{"care":{"light":"low"}}',
    );
    const light = accepted('care.light', ': care.light missing (required) (keyword required)', '{"care":{"water":1}}');
    const max = accepted(
      'care.water',
      ' holds #: care.water 8, just outside maximum # (keyword maximum)',
      '{"care":{"water":8}}',
    );
    const extra = accepted(
      'care.unexpected',
      ' holds null: care.unexpected present though additionalProperties is false (keyword additionalProperties)',
      '{"care":{"water":1,"light":"low","unexpected":null}}',
    );
    const long = accepted('name', ' holds "…": name one code point longer than maxLength # (keyword maxLength)', '{}');
    const unanchored = accepted('name', ' holds "…": name not matching pattern ^a$ (keyword pattern)', '{}');

    it('folds every rule at and inside the member into one finding when none broken there was refused', () => {
      const echoed = {
        defect: type.defect,
        fingerprint: type.fingerprint,
        reason: 'The 200 body is not a valid Plant',
      };
      const checks = [
        failed('response-schema', [echoed]),
        failed('negative-rejection', [water, light, max, type, extra, long, unanchored]),
      ];
      const findings = findingsOf(withMemberRulesFolded(checks, { refusedIn: new Set(['id', 'tag']) }));
      expect(findings.map((finding) => [finding.title, finding.checks])).toEqual([
        [memberRulesDefect('care'), ['response-schema', 'negative-rejection']],
        // A member's own value breaking two rules is two defects: the member fold needs a member inside.
        [long.defect, ['negative-rejection']],
        [unanchored.defect, ['negative-rejection']],
      ]);
      expect(findings[0]?.counterexample.request.body).toBe('{"care":true}');
      expect(memberRulesDefect('care')).toBe('invalid bodies accepted at and inside care (no rule of care checked)');
    });

    it('names the groups a rule accepted alone may fold into, for its reproductions', () => {
      const missing = 'an invalid body ("care.water": care.water missing (required) (keyword required)) accepted';
      expect(groupDefectsOf(missing)).toEqual([
        memberRulesDefect('care'),
        nestedRequiredDefect('care'),
        UNVALIDATED_DEFECT,
      ]);
      expect(groupDefectsOf('an invalid body ("name" holds "…": name too long (keyword maxLength)) accepted')).toEqual([
        memberRulesDefect('name'),
        ignoredMemberDefect('name'),
        UNVALIDATED_DEFECT,
      ]);
      expect(groupDefectsOf('status 500 for an invalid body')).toEqual([]);
    });

    it('keeps each rule its own finding where an invalid body broken in the member was refused (independent defects)', () => {
      const checks = [failed('negative-rejection', [max, extra])];
      expect(findingsOf(withMemberRulesFolded(checks, { refusedIn: new Set(['care']) }))).toHaveLength(2);
      // Without signs of what was refused (the proxy), nothing is known of the member: nothing folds.
      expect(findingsOf(withMemberRulesFolded(checks))).toHaveLength(2);
    });

    it("folds nested members accepted missing into one finding of their object's required", () => {
      const checks = [failed('negative-rejection', [water, light, max])];
      const findings = findingsOf(withNestedRequiredFolded(checks));
      expect(findings.map((finding) => finding.title)).toEqual([nestedRequiredDefect('care'), max.defect]);
      expect(findings[0]?.counterexample.request.body).toBe('{"care":{"water":1}}');
      // A top-level member missing stays its own finding.
      const id = accepted('id', ': id missing (required) (keyword required)', '{"name":"a"}');
      const name = accepted('name', ': name missing (required) (keyword required)', '{"id":1}');
      expect(findingsOf(withNestedRequiredFolded([failed('negative-rejection', [id, name])]))).toHaveLength(2);
    });

    describe('required members read as zero values', () => {
      const answered = (failure: Partial<Failure>, answer: string): Partial<Failure> => ({
        ...failure,
        response: { ...base.response, status: 200, body: answer },
      });
      const id = answered(accepted('id', ': id missing (required) (keyword required)', '{"name":"a"}'), '{"name":"a"}');
      const name = answered(
        accepted('name', ': name missing (required) (keyword required)', '{"id":1}'),
        '{"name":""}',
      );
      const empty = answered(
        { ...accepted('x', '', '{}'), defect: 'an invalid body (an empty object) accepted' },
        '{"name":""}',
      );
      const nullBody = answered(
        { ...accepted('x', '', 'null'), defect: 'an invalid body (JSON null instead of an object) accepted' },
        '{"name":""}',
      );

      it('folds members accepted missing, {} and null into one finding when an answer shows a zero value', () => {
        // Go's json.Unmarshal into a struct without pointers: {} is {"id": 0, "name": ""}.
        const checks = [failed('negative-rejection', [id, name, empty, nullBody])];
        const findings = findingsOf(withRootCausesFolded(checks, { refusedIn: new Set(['name', 'id']) }));
        expect(findings.map((finding) => finding.title)).toEqual([ZERO_VALUES_DEFECT]);
        expect(findings[0]?.counterexample.request.body).toBe('{}');
        // Once a zero-valued plant took id 0, a body null is judged accepted by its refusal as a repeat of id 0.
        const repeat = {
          ...nullBody,
          response: {
            ...base.response,
            status: 400,
            body: '{"error":409,"message":"a plant with id 0 already exists"}',
          },
        };
        const repeated = findingsOf(withZeroValuesFolded([failed('negative-rejection', [id, name, repeat])]));
        expect(repeated.map((finding) => finding.title)).toEqual([ZERO_VALUES_DEFECT]);
        const fewer = findingsOf(withZeroValuesFolded([failed('negative-rejection', [id, name])]));
        expect(fewer.map((finding) => finding.fingerprint)).toEqual([findings[0]?.fingerprint]);
        expect(groupDefectsOf(name.defect!)).toEqual([
          memberRulesDefect('name'),
          ignoredMemberDefect('name'),
          ZERO_VALUES_DEFECT,
          UNVALIDATED_DEFECT,
        ]);
      });

      it('keeps each member its own finding without a zero value answered, and a null body accepted apart', () => {
        // `body.name ?? 'unnamed'` beside an id defaulted: no zero value shows one decoder.
        const named = answered(name, '{"name":"unnamed"}');
        const apart = findingsOf(withZeroValuesFolded([failed('negative-rejection', [id, named])]));
        expect(apart.map((finding) => finding.title)).toEqual([id.defect, named.defect]);
        // A body null accepted whose answer shows no zero value is another reading (a parser's), not the decoder's.
        const nullApart = answered(nullBody, '{"name":"a"}');
        const titles = findingsOf(withZeroValuesFolded([failed('negative-rejection', [id, name, nullApart])]));
        expect(titles.map((finding) => finding.title)).toEqual([ZERO_VALUES_DEFECT, nullApart.defect]);
        // One member alone stays its own.
        expect(findingsOf(withZeroValuesFolded([failed('negative-rejection', [name])]))[0]?.title).toBe(name.defect);
      });
    });

    it('applies both folds in a run, the member first', () => {
      const checks = [failed('negative-rejection', [water, light, max])];
      const unchecked = findingsOf(withRootCausesFolded(checks, { refusedIn: new Set() }));
      expect(unchecked.map((finding) => finding.title)).toEqual([memberRulesDefect('care')]);
      const checked = findingsOf(withRootCausesFolded(checks, { refusedIn: new Set(['care']) }));
      expect(checked.map((finding) => finding.title)).toEqual([nestedRequiredDefect('care'), max.defect]);
    });
  });

  it('shows a counterexample of the failure that names the finding, not a shorter folded one', () => {
    const defect = 'a required member named in upper case accepted';
    const fingerprint = defectIdentity('negative-rejection', 'x', defect).fingerprint;
    const own = { defect, fingerprint, reason: 'own', request: { ...base.request, body: '{"ID":1,"name":"Fern"}' } };
    const folded = { reason: 'folded', foldedInto: fingerprint, request: { ...base.request, body: '{"id":"1"}' } };
    const [finding] = findingsOf([failed('negative-rejection', [folded, own])]);
    expect([finding?.title, finding?.counterexample.reason]).toEqual([defect, 'own']);
  });

  it('keeps the counterexample with the shortest body', () => {
    const defect = 'status 500 for an invalid body';
    const fingerprint = defectIdentity('x', 'y', defect).fingerprint;
    const long = { ...base.request, body: '{"id": 1, "name": "a long name"}' };
    const short = { ...base.request, body: '{}' };
    const [finding] = findingsOf([
      failed('no-server-error', [{ defect, fingerprint, request: long }]),
      failed('documented-status', [{ defect, fingerprint, request: short }]),
    ]);
    expect(finding?.counterexample.request.body).toBe('{}');
  });

  it("gives a converted id back to the lenient reader's finding when its id's other reading is the doubles' symptom", () => {
    // Fastify's default ajv (coerceTypes) on JSON.parse: `true` read as an id, as it is read as a name, and
    // 2^53+N.5 accepted as a whole double. The check folded the `true` into the id's other reading; the doubles
    // fold then took that reading, which left the `true` a finding of its own with the reader's title.
    const converted =
      'an invalid body (a value of another type that lenient readers convert: a numeric string or a boolean for a number, a number or boolean for a string, a single value for an array) accepted';
    const reader = defectIdentity('negative-rejection', '', converted).fingerprint;
    const halfDefect = 'an invalid body ("id" set to 2^53+N.5) accepted';
    const half = defectIdentity('negative-rejection', '', halfDefect).fingerprint;
    const request = (body: string) => ({ ...base.request, body });
    const checks = [
      failed('positive-acceptance', [
        {
          defect: 'status 400 for a valid NewPlant',
          reason: `… ${SAME_DOUBLE} …`,
          request: request('{"id":4611686018427387905}'),
        },
      ]),
      failed('negative-rejection', [
        { defect: converted, fingerprint: reader, reason: 'name true', request: request('{"id":1,"name":true}') },
        {
          defect: converted,
          fingerprint: reader,
          foldedInto: half,
          reason: 'id true',
          request: request('{"id":true,"name":""}'),
        },
        {
          defect: halfDefect,
          fingerprint: half,
          reason: 'half',
          request: request('{"id":9008664751464713.5,"name":""}'),
        },
      ]),
    ];
    const findings = findingsOf(withRootCausesFolded(checks, { smallFractionsRefused: true }));
    expect(findings.map((finding) => finding.title)).toEqual([DOUBLES_DEFECT, converted]);
    // Without the doubles (no pair refused, small fractions not known refused), the id's own reading keeps the `true`.
    const alone = findingsOf(withRootCausesFolded(checks.slice(1)));
    expect(alone.map((finding) => [finding.title, finding.counterexample.reason])).toEqual([
      [converted, 'name true'],
      [halfDefect, 'half'],
    ]);
  });
});

describe('withUnsentLeftOutFolded', () => {
  const lacking = (field: string, sent: object, answer: object): Partial<Failure> => ({
    defect: `the 200 body is not a valid Plant (required at "${field}")`,
    reason: `The 200 body is not a valid Plant: "${field}" is required.`,
    request: { ...base.request, body: JSON.stringify(sent) },
    response: { ...base.response, status: 200, body: JSON.stringify(answer) },
  });
  const titles = (checks: CheckResult[]) =>
    findingsOf(withUnsentLeftOutFolded(checks)).map((finding) => [finding.title, finding.checks]);

  it('makes one finding of required properties the request did not send and the answer left out', () => {
    const source = lacking('source', { id: 1, name: 'a' }, { name: 'a' });
    const quantity = lacking('quantity', { id: 2, name: 'a', source: 'seed' }, { name: 'a', source: 'seed' });
    expect(titles([failed('response-schema', [source, quantity])])).toEqual([
      [unsentLeftOutDefect('200'), ['response-schema']],
    ]);
  });

  it('keeps one such property alone, and a property sent and lost, its own', () => {
    const source = lacking('source', { id: 1, name: 'a' }, { name: 'a' });
    const lost = lacking('quantity', { id: 2, name: 'a', quantity: 3 }, { name: 'a', source: 'seed' });
    expect(titles([failed('response-schema', [source, lost])])).toEqual([
      [source.defect, ['response-schema']],
      [lost.defect, ['response-schema']],
    ]);
  });
});

describe('findingsOf counterexamples', () => {
  it('shows the doubles by a case that reproduces on a fresh instance, not by a refusal of an id an earlier case stored', () => {
    // Fastify on JSON.parse: 2^63-2 refused as a repeat of the 2^63-1 stored before (a fresh instance takes it
    // alone), and a pair of ids one double apart, whose curl lines send both.
    const reason = 'The answer quotes the id with other digits that are the same double';
    const stored = {
      defect: DOUBLES_DEFECT,
      reason,
      request: { ...base.request, body: '{"name":"","id":9223372036854775806}' },
      response: { ...base.response, status: 400 },
      curl: 'curl … --data-binary \'{"name":"","id":9223372036854775806}\'',
    };
    const pair = {
      defect: DOUBLES_DEFECT,
      reason: `${reason} (request 2 of the case; the curl lines send all of them in order)`,
      request: { ...base.request, body: '{"name":"Fern","tag":"x","id":4612054233577884769}' },
      response: { ...base.response, status: 400 },
      curl: "curl … '{… 4612054233577884768}'\ncurl … '{… 4612054233577884769}'",
      requests: 2,
    };
    const [finding] = findingsOf([failed('positive-acceptance', [stored, pair])]);
    expect(finding?.counterexample.reason).toBe(pair.reason);
    // Read from the failure's data, not its curl text: requests on one connection are one command joined by --next.
    const joined = { ...pair, curl: "curl … '{… 4612054233577884768}' --next … '{… 4612054233577884769}'" };
    expect(findingsOf([failed('positive-acceptance', [stored, joined])])[0]?.counterexample.curl).toBe(joined.curl);
    // Alone, the refusal is still shown: a counterexample is better than none.
    expect(findingsOf([failed('positive-acceptance', [stored])])[0]?.counterexample.reason).toBe(reason);
  });
});

describe('fingerprints', () => {
  it('do not depend on generated values: long numbers and quoted values in a reason', () => {
    const reason = (id: bigint, text: string) =>
      `"name" was sent as ${JSON.stringify(text)} but came back as "x" for id ${id} (12.5 units).`;
    fc.assert(
      fc.property(fc.bigInt({ min: 1000n, max: 2n ** 63n }), fc.string({ minLength: 1 }), (id, text) => {
        fc.pre(!/^[A-Za-z_][\w-]{0,40}(?:\.[A-Za-z_][\w-]{0,40}){0,8}$/.test(text));
        const shape = defectIdentity('echo', reason(id, text), undefined);
        expect(shape).toEqual(defectIdentity('echo', reason(4242n, 'a b'), undefined));
      }),
    );
  });

  it('tell statuses, checks and named defects apart', () => {
    expect(reasonShape('c', 'answered 201')).not.toBe(reasonShape('c', 'answered 500'));
    expect(defectIdentity('a', 'same', undefined).fingerprint).not.toBe(
      defectIdentity('b', 'same', undefined).fingerprint,
    );
    // A named defect is one finding whichever check reports it.
    expect(defectIdentity('a', 'one', 'd').fingerprint).toBe(defectIdentity('b', 'two', 'd').fingerprint);
    expect(defectIdentity('a', 'x', 'd').fingerprint).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe('failureFingerprint', () => {
  /** The fingerprint of "<an invalid body described by `what`> accepted" as negative-rejection names it. */
  function accepted(what: string): string {
    const plan: PlannedRequest = {
      method: 'POST',
      path: '/plants',
      auth: { kind: 'token', scheme: 'Bearer' },
      contentType: 'application/json',
      body: '{}',
      intent: { kind: 'invalid-body', what },
    };
    return failureFingerprint('negative-rejection', plan, 'reason', `${requestKind(plan, true)} accepted`);
  }

  it('names one cause whatever value showed it, when the description names the keyword broken', () => {
    expect(accepted('"tag" holds an object: tag not of type string: an object (keyword type)')).toBe(
      accepted('"tag" holds an array: tag not of type string: an array (keyword type)'),
    );
    expect(accepted('"name" holds a string of 31 characters: longer than maxLength 30 (keyword maxLength)')).not.toBe(
      accepted('"name" holds an array: name not of type string: an array (keyword type)'),
    );
  });

  it("keeps a field's breaks apart when the description names no keyword (the proxy's messages)", () => {
    expect(accepted('field "name" must be at most 30 characters long')).not.toBe(
      accepted('field "name" must be a string, got the number 5'),
    );
  });
});
