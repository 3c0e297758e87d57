import { describe, expect, it } from 'vitest';
import { failedCheck as failed, sampleReport } from '../fixtures/sample-reports.js';
import {
  findingsOf,
  groupDefectsOf,
  ignoredMemberDefect,
  UNVALIDATED_DEFECT,
  withRootCausesFolded,
  type RunSigns,
} from './findings.js';
import type { Failure } from './report.js';

const base = sampleReport().checks.find((check) => check.status === 'fail')?.failures[0] as Failure;

/** An invalid body accepted: its defect and the body sent. */
function accepted(what: string, body: string): Partial<Failure> {
  return {
    defect: `an invalid body (${what}) accepted`,
    reason: `An invalid body (${what}) was accepted`,
    request: { ...base.request, body },
    response: { ...base.response, status: 200, body },
  };
}

const NULL_BODY = accepted('the body not of type object: a null (keyword type)', 'null');
const NAME_MISSING = accepted('"name": name missing (required) (keyword required)', '{"id":1}');
const TAG_ARRAY = accepted(
  '"tag" holds an array: tag not of type string: an array (keyword type)',
  '{"id":1,"name":"","tag":[]}',
);
const TEXT_AFTER = accepted('a valid NewPlant followed by text after its closing brace', '{"id":1,"name":""} x');
const MEDIA_TYPE = {
  defect: 'a body labelled with a media type the document does not take accepted',
  request: { ...base.request, body: '{"id":1,"name":""}' },
};
/** The echo of `null` is no Plant: response-schema names the invalid body's own defect. */
const NULL_ECHOED = { ...NULL_BODY, reason: 'The 200 body is not a valid Plant' };

function titles(signs: RunSigns): string[][] {
  const checks = [
    failed('response-schema', [NULL_ECHOED]),
    failed('negative-rejection', [NULL_BODY, NAME_MISSING, TAG_ARRAY, TEXT_AFTER, MEDIA_TYPE]),
  ];
  return findingsOf(withRootCausesFolded(checks, signs)).map((finding) => [finding.title, ...finding.checks]);
}

describe('withUnvalidatedFolded', () => {
  it('makes one finding of every invalid body accepted by a target that refused none, the media type apart', () => {
    expect(titles({ objectRefused: false, invalidRefused: false })).toEqual([
      [UNVALIDATED_DEFECT, 'response-schema', 'negative-rejection'],
      [MEDIA_TYPE.defect, 'negative-rejection'],
    ]);
  });

  it('keeps text after the value apart where the parser refused other bodies: its leniency is a cause of its own', () => {
    expect(titles({ objectRefused: false, invalidRefused: true })).toEqual([
      [UNVALIDATED_DEFECT, 'response-schema', 'negative-rejection'],
      [TEXT_AFTER.defect, 'negative-rejection'],
      [MEDIA_TYPE.defect, 'negative-rejection'],
    ]);
  });

  it('folds nothing where an invalid object was refused (a validation that works), or with no signs (the proxy)', () => {
    for (const signs of [{ objectRefused: true, invalidRefused: true }, {}]) expect(titles(signs)).toHaveLength(5);
  });

  it('shows the smallest JSON body accepted, and its reproduction alone names its own defect, one of the group', () => {
    const [finding] = findingsOf(
      withRootCausesFolded([failed('negative-rejection', [TAG_ARRAY, NULL_BODY, NAME_MISSING])], {
        objectRefused: false,
        invalidRefused: true,
      }),
    );
    expect(finding?.counterexample.request.body).toBe('null');
    expect(groupDefectsOf(NULL_BODY.defect!)).toContain(UNVALIDATED_DEFECT);
  });
});

describe('withIgnoredMembersFolded', () => {
  const TAG = accepted(
    '"tag" holds an array: tag not of type string: an array (keyword type)',
    '{"id":1,"name":"","tag":[]}',
  );
  const echoLeftOut = (answer: string): Partial<Failure> => ({
    defect: '"tag" not echoed as sent',
    reason: '"tag" was sent as "a" and answered as nothing',
    request: { ...base.request, body: '{"id":2,"name":"","tag":"a"}' },
    response: { ...base.response, status: 200, body: answer },
  });
  const titles = (echo: Partial<Failure>, signs: RunSigns) =>
    findingsOf(
      withRootCausesFolded([failed('echo', [echo]), failed('negative-rejection', [NAME_MISSING, TAG])], {
        objectRefused: true,
        invalidRefused: true,
        ...signs,
      }),
    ).map((finding) => finding.title);

  it('makes one finding of a member left out of the answer and accepted invalid, none of it refused', () => {
    expect(titles(echoLeftOut('{"id":2,"name":""}'), { refusedIn: new Set(['id', 'name']) })).toEqual([
      ignoredMemberDefect('tag'),
      NAME_MISSING.defect,
    ]);
  });

  it('keeps them apart where the member was refused once, the answer holds it, or nothing is known (the proxy)', () => {
    const read = titles(echoLeftOut('{"id":2,"name":""}'), { refusedIn: new Set(['id', 'name', 'tag']) });
    const echoedOtherwise = titles(echoLeftOut('{"id":2,"name":"","tag":"b"}'), { refusedIn: new Set(['name']) });
    const proxy = titles(echoLeftOut('{"id":2,"name":""}'), {});
    for (const found of [read, echoedOtherwise, proxy]) expect(found).toHaveLength(3);
  });
});
