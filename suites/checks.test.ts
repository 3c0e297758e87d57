import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadContract, type Contract } from '../src/contract/index.js';
import type { JudgeContext } from '../src/runner/check.js';
import type { Exchange } from '../src/runner/http/client.js';
import {
  ACCEPTED_ONCE_TRIMMED,
  DOUBLES_DEFECT,
  REFUSED_ONCE_TRIMMED,
  SPELLING_READ_AS_ANOTHER_ID,
  TRIMMED,
} from '../src/runner/defects.js';
import type { Intent, WrittenAs } from '../src/runner/probe.js';
import type { RecordedResponse } from '../src/runner/report.js';
import { echo, integerSpellingsCheck, positiveAcceptance } from './acceptance.js';
import { authEnforced } from './authentication.js';
import { negativeRejection } from './rejection.js';
import { contentType, documentedStatus, responseSchema } from './responses.js';
import { noServerError, repeatedId } from './robustness.js';

const contract = await loadContract();
const CREATED_201 = fileURLToPath(new URL('../src/http/test-documents/created-201-3.1.yaml', import.meta.url));
const DOCUMENTED_REFUSALS = fileURLToPath(
  new URL('../src/http/test-documents/documented-refusals-3.1.yaml', import.meta.url),
);
const context: JudgeContext = { contract, targetRejectsRepeats: true, targetHoldsEarlierRun: true };
const VALID: Intent = { kind: 'valid', strings: { name: 'Fern', tag: ' x ' }, idMayRepeat: false };

/** A twin of a valid intent written another way. */
const writtenAs = (intent: Intent, aspect: WrittenAs['aspect'], written: string): Intent =>
  intent.kind === 'valid' ? { ...intent, kind: 'valid-variant', writtenAs: { aspect, written } } : intent;

function exchange(
  intent: Intent,
  status: number,
  body: string | null,
  extra: Partial<RecordedResponse> = {},
): Exchange {
  // The body sent: a valid intent's strings (what the echo check compares with).
  const sent =
    intent.kind === 'valid' || intent.kind === 'valid-variant' ? JSON.stringify({ id: 7, ...intent.strings }) : '{}';
  return {
    plan: {
      method: 'POST',
      path: '/plants',
      auth: { kind: 'token', scheme: 'Bearer' },
      contentType: 'application/json',
      body: sent,
      intent,
    },
    request: { method: 'POST', url: 'http://127.0.0.1/plants', headers: {}, body: sent },
    response: { status, headers: { 'content-type': 'application/json' }, body, durationMs: 1, ...extra },
  };
}

const outcome = (check: typeof echo, ex: Exchange, all: readonly Exchange[] = [ex], ctx = context) =>
  check.judge(ex, ctx, all)?.outcome;

describe('acceptance checks', () => {
  it('positive-acceptance: 200 passes, 400 and 201 fail, a 5xx is left to no-server-error', () => {
    expect(outcome(positiveAcceptance, exchange(VALID, 200, '{"name":"Fern"}'))).toBe('pass');
    expect(outcome(positiveAcceptance, exchange(VALID, 400, '{"error":1,"message":"no"}'))).toBe('fail');
    expect(outcome(positiveAcceptance, exchange(VALID, 201, '{"name":"Fern"}'))).toBe('fail');
    expect(outcome(positiveAcceptance, exchange(VALID, 500, ''))).toBeUndefined();
  });

  it("positive-acceptance names the success the document gives: rule 1's 200 for the seed, the document's own 201 elsewhere", async () => {
    const reason = (ctx: JudgeContext) =>
      positiveAcceptance.judge(exchange(VALID, 400, '{"error":1,"message":"no"}'), ctx, [])?.reason;
    expect(reason(context)).toContain('; rule 1 says 200 with a Plant.');
    const created = await loadContract(CREATED_201);
    const text = reason({ ...context, contract: created });
    expect(text).toContain("; the document's success response is 201 with a Plant.");
    expect(text).not.toContain('rule 1');
  });

  it('positive-acceptance: a 400 on a fixed id is a warning only when the target rejects repeats', () => {
    const fixed: Intent = { ...VALID, idMayRepeat: true };
    expect(outcome(positiveAcceptance, exchange(fixed, 400, '{"error":1,"message":"dup"}'))).toBe('warn');
    const accepting = { ...context, targetRejectsRepeats: false };
    expect(outcome(positiveAcceptance, exchange(fixed, 400, '{"error":1,"message":"dup"}'), undefined, accepting)).toBe(
      'fail',
    );
  });

  it('positive-acceptance: the prototype-poisoning hint only where the answer names the member', () => {
    const proto: Intent = { ...VALID, prototypeKey: '__proto__' };
    const reason = (status: number, body: string) =>
      positiveAcceptance.judge(exchange(proto, status, body), context, [])?.reason ?? '';
    expect(reason(400, '{"error":1,"message":"Object contains forbidden prototype property"}')).toContain(
      'prototype poisoning',
    );
    expect(
      reason(400, `{"error":400,"message":"Body is not valid JSON but content-type is set to 'application/json'"}`),
    ).toContain('prototype poisoning');
    expect(reason(400, '{"error":1,"message":"name too long"}')).not.toContain('prototype poisoning');
    // Rails' params.require(:name) on a blank name: its did-you-mean list names every key, __proto__ among them.
    const railsRequire =
      '{"status":400,"error":"param is missing or the value is empty: name\\nDid you mean?  name __proto__"}';
    expect(reason(400, railsRequire)).not.toContain('prototype poisoning');
    expect(reason(413, '{"error":1,"message":"__proto__ is fine, the body is too large"}')).not.toContain(
      'prototype poisoning',
    );
  });

  it("positive-acceptance: a precision pair's note stands though the repeat answer names the id", () => {
    const note = 'The ids 4612459427151133698 and 4612459427151133699 differ by one but are the same double.';
    const paired = exchange({ ...VALID, note }, 400, '{"error":4,"message":"a plant with this id exists"}');
    expect(positiveAcceptance.judge(paired, context, [paired])?.reason).toContain(
      'differ by one but are the same double',
    );
  });

  it("positive-acceptance: a keep-alive case's note only when the answer before it left the connection open", () => {
    const note =
      'It was sent on the same keep-alive connection right after a NewPlant refused for its missing credential.';
    const refusedFirst = (connection: string | undefined, status = 401): Exchange => {
      const headers = { 'content-type': 'application/json', ...(connection === undefined ? {} : { connection }) };
      const refused = exchange({ kind: 'auth', what: 'no Authorization header' }, status, '{"error":1,"message":"no"}');
      return { ...refused, response: { ...refused.response, headers } };
    };
    const reasonAfter = (first: Exchange, answer = '{"error":1,"message":"bad body"}') => {
      const second = exchange({ ...VALID, note }, 400, answer);
      const sameConnection = { ...second, plan: { ...second.plan, sameConnection: true } };
      return positiveAcceptance.judge(sameConnection, context, [first, sameConnection])?.reason ?? '';
    };
    expect(reasonAfter(refusedFirst(undefined))).toContain(note);
    expect(reasonAfter(refusedFirst('keep-alive'))).toContain(note);
    // php -S, and any server that closes after each answer: the valid request went on a new connection.
    expect(reasonAfter(refusedFirst('close'))).not.toContain('keep-alive');
    expect(reasonAfter(refusedFirst('Keep-Alive, Close'))).not.toContain('keep-alive');
    expect(reasonAfter(refusedFirst(undefined, 0))).not.toContain('keep-alive');
    // A refusal naming a member the plant sent read this body, not the one before it: no framing story.
    expect(reasonAfter(refusedFirst(undefined), '{"error":1,"message":"name must not be blank"}')).not.toContain(
      'keep-alive',
    );
  });

  it("positive-acceptance: PHP's json_decode hint only where a member name starts with NUL and the answer speaks of decoding", () => {
    const withNul = (body: string) => {
      const refused = exchange(VALID, 400, body);
      const sent = '{"id":7,"name":"Fern","care":{"\\u0000":{}}}';
      return { ...refused, plan: { ...refused.plan, body: sent } };
    };
    const reason = (ex: Exchange) => positiveAcceptance.judge(ex, context, [ex])?.reason ?? '';
    const php = '{"error":400,"message":"Malformed JSON: The decoded property name is invalid"}';
    expect(reason(withNul(php))).toContain('json_decode($body, true)');
    expect(reason(withNul('{"error":400,"message":"name too long"}'))).not.toContain('json_decode');
    expect(reason(exchange(VALID, 400, php))).not.toContain('json_decode');
    // jansson refuses it whatever its flags: the PHP advice would send a C developer the wrong way.
    const jansson = '{"error":1001,"message":"NUL byte in object key not supported near \'\\"\\\\u0000\\"\'"}';
    expect(reason(withNul(jansson))).toContain('jansson');
    expect(reason(withNul(jansson))).not.toContain('json_decode');
  });

  it("positive-acceptance: a 400 calling an int64 id out of range of long names Jackson's mismatched releases", () => {
    const reason = (body: string) => {
      const ex = exchange(VALID, 400, body);
      return positiveAcceptance.judge(ex, context, [ex])?.reason ?? '';
    };
    const jackson =
      '{"error":1006,"message":"Numeric value (9223372036854775807) out of range of long (-9223372036854775808 - 9223372036854775807)"}';
    expect(reason(jackson)).toContain('jackson-databind 2.14.0');
    expect(reason('{"error":1006,"message":"id out of range"}')).not.toContain('jackson');
  });

  it("positive-acceptance: a valid NewPlant's zero value refused as required names go-playground's required", () => {
    const reason = (sent: string, body: string) => {
      const ex = exchange(VALID, 400, body);
      const plan = { ...ex.plan, body: sent };
      const refused = { ...ex, plan, request: { ...ex.request, body: sent } };
      return positiveAcceptance.judge(refused, context, [refused])?.reason ?? '';
    };
    // chi + validator v10 with `validate:"required"` on ID and Name, as its README shows.
    const required =
      '{"error":1011,"message":"Key: \'RequiredPlant.ID\' Error:Field validation for \'ID\' failed on the \'required\' tag"}';
    expect(reason('{"name":"","id":0}', required)).toContain('"id" holds its zero value');
    expect(reason('{"name":"","id":0}', '{"error":4,"message":"required"}')).toContain('"id" and "name" hold their');
    expect(reason('{"name":"","id":0}', required)).toContain('go-playground/validator');
    expect(reason('{"name":"Fern","id":0}', required)).toContain('"id" holds its zero value');
    // No zero value sent, or an answer that says nothing of required: another cause.
    expect(reason('{"name":"Fern","id":7}', required)).not.toContain('zero value');
    expect(reason('{"name":"","id":0}', '{"error":1010,"message":"id 0 already exists"}')).not.toContain('zero value');
    // The answer names another member than the zero one: serde's as_u64() refusing id -1 beside a "" name.
    const unsigned = '{"error":4,"message":"id is required, an int64 integer"}';
    expect(reason('{"name":"","id":-1}', unsigned)).not.toContain('zero value');
  });

  it('positive-acceptance: the UTF-16 hint only where the body holds astral characters and the answer speaks of lengths', () => {
    const reason = (intent: Intent, body: string) =>
      positiveAcceptance.judge(exchange(intent, 400, body), context, [])?.reason ?? '';
    const astral: Intent = { ...VALID, strings: { name: 'Fern 🌱' } };
    const lengthError = '{"error":400,"message":"name: String must contain at most 5 character(s)"}';
    expect(reason(astral, lengthError)).toContain('UTF-16 units');
    expect(reason(VALID, lengthError)).not.toContain('UTF-16 units');
    expect(reason(astral, '{"error":400,"message":"tag: Invalid enum value"}')).not.toContain('UTF-16 units');
  });

  it("positive-acceptance: the UTF-16 hint on a refusal with the document's Error status (tsoa's 422) too", async () => {
    // Before, a tsoa 6 server refusing a 64-code-point name with 422 "maxLength 64" got no hint.
    const fastapi = await loadContract(
      fileURLToPath(new URL('../src/fixtures/documents/reduced/fastapi-decimal-3.1.json', import.meta.url)),
    );
    const astral: Intent = { ...VALID, strings: { name: 'Fern 🌱' } };
    const body = '{"detail":[{"loc":["body","name"],"msg":"String should have at most 5 characters","type":"m"}]}';
    const reason = (ctx: JudgeContext) => positiveAcceptance.judge(exchange(astral, 422, body), ctx, [])?.reason ?? '';
    expect(reason({ ...context, contract: fastapi })).toContain('UTF-16 units');
    expect(reason(context)).not.toContain('UTF-16 units');
  });

  it('positive-acceptance: a valid NewPlant refused with an answer about its Content-Type says the label was right', () => {
    const reason = (body: string) => positiveAcceptance.judge(exchange(VALID, 400, body), context, [])?.reason ?? '';
    // Twisted: request.getHeader(b"content-type") == "application/json" compares bytes with a str.
    expect(reason('{"error":1003,"message":"Content-Type must be application/json"}')).toContain(
      'the answer speaks of the Content-Type',
    );
    expect(reason('{"error":1011,"message":"name too long"}')).not.toContain('speaks of the Content-Type');
  });

  it("positive-acceptance: an id on the document's own bound, refused, names an off-by-one range check", async () => {
    // 04-id-range: exclusiveMinimum 0 (so 1 is the smallest id) and maximum 999999999999.
    const range = await loadContract(
      fileURLToPath(new URL('../src/fixtures/documents/04-id-range-3.0.yaml', import.meta.url)),
    );
    const reason = (sent: string, ctx: JudgeContext) => {
      const ex = exchange(VALID, 400, '{"error":1007,"message":"id out of range"}');
      const refused = { ...ex, plan: { ...ex.plan, body: sent }, request: { ...ex.request, body: sent } };
      return positiveAcceptance.judge(refused, ctx, [refused])?.reason ?? '';
    };
    const ranged = { ...context, contract: range };
    expect(reason('{"name":"Fern","id":1}', ranged)).toContain('"id" is 1, the smallest the document allows');
    expect(reason('{"name":"Fern","id":999999999999}', ranged)).toContain('the largest the document allows');
    // Inside the range, or the seed's int64 edges (a bound no document wrote): another cause.
    expect(reason('{"name":"Fern","id":2}', ranged)).not.toContain('off by one');
    expect(reason('{"name":"Fern","id":9223372036854775807}', context)).not.toContain('off by one');
  });

  it('positive-acceptance: says when the document refuses the NewPlant once its strings are trimmed', async () => {
    const lengths = await loadContract(
      fileURLToPath(new URL('../src/fixtures/documents/01-name-length.yaml', import.meta.url)),
    );
    const reason = (name: string, ctx: JudgeContext) =>
      positiveAcceptance.judge(exchange({ ...VALID, strings: { name } }, 422, '{"detail":[]}'), ctx, [])?.reason ?? '';
    // name has minLength 1 there: "   " trimmed is "", which pydantic's str_strip_whitespace then refuses.
    expect(reason('   ', { ...context, contract: lengths })).toContain(REFUSED_ONCE_TRIMMED);
    // Trimmed and still valid, or a document without minLength (the seed's): no such word.
    expect(reason('  Fern ', { ...context, contract: lengths })).not.toContain(REFUSED_ONCE_TRIMMED);
    expect(reason('   ', context)).not.toContain(REFUSED_ONCE_TRIMMED);
    // An answer that speaks of another member (Node's JSON.parse taking 2^63-1 for 2^63): no such word.
    const refusal = (body: string) =>
      positiveAcceptance.judge(
        exchange({ ...VALID, strings: { name: ' ' } }, 400, body),
        { ...context, contract: lengths },
        [],
      )?.reason ?? '';
    expect(refusal('{"error":400,"message":"id out of range"}')).not.toContain(REFUSED_ONCE_TRIMMED);
    expect(refusal('{"error":400,"message":"name: too short"}')).toContain(REFUSED_ONCE_TRIMMED);
    // Nor one that speaks of a declared member not sent (a server requiring the optional tag).
    expect(refusal('{"error":400,"message":"tag is required"}')).not.toContain(REFUSED_ONCE_TRIMMED);
  });

  it('positive-acceptance: its reason assumes no token was given by the reader (the proxy judges traffic it did not send)', () => {
    const reason = positiveAcceptance.judge(exchange(VALID, 201, '{"id":7}'), context, [])?.reason ?? '';
    expect(reason).toMatch(/^A valid NewPlant, sent with the credential, was answered 201;/);
    expect(reason).not.toContain('token you gave');
  });

  it('positive-acceptance: throttling (429, 503) is not judged', () => {
    expect(outcome(positiveAcceptance, exchange(VALID, 429, ''))).toBeUndefined();
    expect(outcome(positiveAcceptance, exchange(VALID, 503, ''))).toBeUndefined();
  });

  it('echo: exact strings pass, extra response fields are allowed', () => {
    expect(outcome(echo, exchange(VALID, 200, '{"name":"Fern","tag":" x ","id":7,"extra":true}'))).toBe('pass');
  });

  it('echo: a changed string gives both lengths in UTF-16 units, one unit in the singular', () => {
    const reason = echo.judge(exchange(VALID, 200, '{"name":"Fern","tag":"x"}'), context, [])?.reason;
    expect(reason).toBe('"tag" was sent as " x " (3 UTF-16 units) but came back as "x" (1 UTF-16 unit).');
  });

  it('echo: a fixed id is judged only on a target that surely had not stored it', () => {
    const fixed: Intent = { ...VALID, idMayRepeat: true };
    const stored = exchange(fixed, 200, '{"name":"an earlier run\'s plant"}');
    expect(outcome(echo, stored, undefined, { ...context, targetRejectsRepeats: false })).toBeUndefined();
    expect(outcome(echo, stored)).toBeUndefined();
    expect(outcome(echo, stored, undefined, { ...context, targetHoldsEarlierRun: false })).toBe('fail');
  });

  it("echo: where an earlier run's plant may come back, only a server's own change of a value sent fails", () => {
    const fixed: Intent = { ...VALID, idMayRepeat: true };
    const repeats = { ...context, targetRejectsRepeats: false };
    const judged = (body: string) => echo.judge(exchange(fixed, 200, body), repeats, []);
    expect(judged('{"name":"Fern","tag":"x"}')).toMatchObject({ outcome: 'fail', defect: TRIMMED });
    expect(judged('{"name":"FERN","tag":" x "}')).toMatchObject({
      outcome: 'fail',
      defect: '"name" not echoed as sent',
    });
    expect(judged('{"name":"Fer","tag":" x "}')?.outcome).toBe('fail');
    expect(judged('{"name":"Fern","tag":" x "}')?.outcome).toBe('pass');
    // Another plant, or the change beside another value: what the target stored may be what came back.
    expect(judged('{"name":"Moss","tag":" x "}')).toBeUndefined();
    expect(judged('{"name":"FERN","tag":"y"}')).toBeUndefined();
    expect(judged('{"name":"Fe","tag":" x "}')).toBeUndefined();
    expect(judged('{"name":"Fern"}')).toBeUndefined();
  });

  it('echo: a trimmed tag, an invented tag, a missing name and a non-JSON body fail', () => {
    expect(outcome(echo, exchange(VALID, 200, '{"name":"Fern","tag":"x"}'))).toBe('fail');
    const noTag: Intent = { ...VALID, strings: { name: 'Fern' } };
    expect(outcome(echo, exchange(noTag, 200, '{"name":"Fern","tag":""}'))).toBe('fail');
    expect(outcome(echo, exchange(VALID, 200, '{"plant":{"name":"Fern","tag":" x "}}'))).toBe('fail');
    expect(outcome(echo, exchange(VALID, 200, '{"name":"Fe'))).toBe('fail');
  });

  it('positive-acceptance: a scheme name in another letter case, refused beside an accepted "Bearer", is a warning', () => {
    const lower = writtenAs(VALID, 'scheme', 'bearer');
    const plainOk = exchange(VALID, 200, '{"name":"Fern"}');
    const plainRefused = exchange(VALID, 401, '');
    for (const status of [400, 401, 403]) {
      const refused = exchange(lower, status, '{"error":1,"message":"no"}');
      expect(outcome(positiveAcceptance, refused, [plainOk, refused])).toBe('warn');
      expect(outcome(positiveAcceptance, refused, [plainRefused, refused])).toBeUndefined();
    }
    const accepted = exchange(lower, 200, '{"name":"Fern"}');
    expect(outcome(positiveAcceptance, accepted, [plainOk, accepted])).toBe('pass');
    const odd = exchange(lower, 404, '');
    expect(outcome(positiveAcceptance, odd, [plainOk, odd])).toBeUndefined();
  });

  it('positive-acceptance: a Content-Type with a charset or in capitals, refused beside an accepted twin, is a warning', () => {
    const charset = writtenAs(VALID, 'media-type', 'application/json; charset=utf-8');
    const plainOk = exchange(VALID, 200, '{"name":"Fern"}');
    for (const status of [400, 415]) {
      const refused = exchange(charset, status, '{"error":1,"message":"no"}');
      expect(outcome(positiveAcceptance, refused, [plainOk, refused])).toBe('warn');
      expect(outcome(positiveAcceptance, refused, [exchange(VALID, 400, ''), refused])).toBeUndefined();
      expect(outcome(documentedStatus, refused, [plainOk, refused])).not.toBe('fail');
    }
  });

  it('integer-spellings: judged only beside an accepted plain twin', () => {
    const spelled = writtenAs(VALID, 'integer-spelling', '5.0');
    const plainOk = exchange(VALID, 200, '{"name":"Fern"}');
    const plainRefused = exchange(VALID, 400, '{"error":1,"message":"big"}');
    const refused = exchange(spelled, 400, '{"error":1,"message":"no"}');
    expect(outcome(integerSpellingsCheck, refused, [plainOk, refused])).toBe('fail');
    expect(outcome(integerSpellingsCheck, refused, [plainRefused, refused])).toBeUndefined();
    const accepted = exchange(spelled, 200, '{"name":"Fern"}');
    expect(outcome(integerSpellingsCheck, accepted, [plainOk, accepted])).toBe('pass');
  });

  it("integer-spellings: a refusal with the document's Error status (FastAPI's 422) is judged as a 400 is", async () => {
    // Before: a pydantic strict server answering 422 to id 5.0 left the check SKIP (only 400 was judged).
    const fastapi = await loadContract(
      fileURLToPath(new URL('../src/fixtures/documents/reduced/fastapi-decimal-3.1.json', import.meta.url)),
    );
    const ctx = { ...context, contract: fastapi };
    const spelled = writtenAs(VALID, 'integer-spelling', '5.0');
    const plainOk = exchange(VALID, 200, '{"id":5,"name":"Fern","slug":"fern"}');
    const refused = exchange(spelled, 422, '{"detail":[{"loc":["body","id"],"msg":"m","type":"int_type"}]}');
    const judged = integerSpellingsCheck.judge(refused, ctx, [plainOk, refused]);
    expect(judged?.outcome).toBe('fail');
    expect(judged?.reason).toContain('was answered 422');
    // Before, the finding's title said 'refused with 400' for a 422.
    expect(judged?.defect).toBe('an integer id written as 1.0, 1e2 or -0 refused with 422');
    const odd = exchange(spelled, 404, '');
    expect(integerSpellingsCheck.judge(odd, ctx, [plainOk, odd])).toBeUndefined();
  });

  it("integer-spellings: a refusal with the target's own repeat code says the spelling was read as another id", () => {
    const spelled = writtenAs(VALID, 'integer-spelling', '9.2e18');
    const plainOk = exchange(VALID, 200, '{"name":"Fern"}');
    const asRepeat = exchange(spelled, 400, '{"error":409,"message":"A plant with id 9 exists."}');
    const distinct = { ...context, repeatErrorCode: '409', repeatCodeIsDistinct: true };
    const defect = (ctx: JudgeContext) => integerSpellingsCheck.judge(asRepeat, ctx, [plainOk, asRepeat])?.defect;
    expect(defect(distinct)).toBe(SPELLING_READ_AS_ANOTHER_ID);
    // Without a repeat value of its own, a 400 is the spelling refused.
    expect(defect({ ...distinct, repeatCodeIsDistinct: false })).toBe(
      'an integer id written as 1.0, 1e2 or -0 refused with 400',
    );
  });
});

describe('response checks', () => {
  it('response-schema: a Plant on 200, an Error with an int32 code on 400', () => {
    expect(outcome(responseSchema, exchange(VALID, 200, '{"name":"Fern","more":[1]}'))).toBe('pass');
    expect(outcome(responseSchema, exchange(VALID, 200, '{"tag":"x"}'))).toBe('fail');
    expect(outcome(responseSchema, exchange(VALID, 400, '{"error":2147483647,"message":"m"}'))).toBe('pass');
    expect(outcome(responseSchema, exchange(VALID, 400, '{"error":2147483648,"message":"m"}'))).toBe('fail');
    expect(outcome(responseSchema, exchange(VALID, 400, '{"error":1}'))).toBe('fail');
    expect(outcome(responseSchema, exchange(VALID, 400, '<html>'))).toBe('fail');
  });

  it("response-schema: nulls written for properties not sent are one defect, at any depth; a null for a value sent is echo's", async () => {
    const care: JudgeContext = {
      ...context,
      contract: await loadContract(
        fileURLToPath(new URL('../src/fixtures/documents/11-nested-care.yaml', import.meta.url)),
      ),
    };
    const defectOf = (sentBody: string, answer: string) => {
      const base = exchange(VALID, 200, answer);
      const sent = { ...base, plan: { ...base.plan, body: sentBody }, request: { ...base.request, body: sentBody } };
      return responseSchema.judge(sent, care, [])?.defect;
    };
    const unsetNulls = 'the 200 body writes null for properties not sent, which the Plant does not allow';
    expect(defectOf('{"id":1,"name":"Fern"}', '{"name":"Fern","tag":null}')).toBe(unsetNulls);
    expect(
      defectOf('{"id":1,"name":"Fern","care":{"water":"low"}}', '{"name":"Fern","care":{"water":"low","light":null}}'),
    ).toBe(unsetNulls);
    expect(defectOf('{"id":1,"name":"Fern","tag":"x"}', '{"name":"Fern","tag":null}')).toBe('"tag" not echoed as sent');
    expect(defectOf('{"id":1,"name":"Fern"}', '{"tag":null}')).toBe(
      'the 200 body is not a valid Plant (required at "name")',
    );
  });

  it("response-schema: a Plant broken where it changed a value sent is echo's defect, one finding", async () => {
    const returnsId: JudgeContext = {
      ...context,
      contract: await loadContract(
        fileURLToPath(new URL('../src/fixtures/documents/13-plant-returns-id.yaml', import.meta.url)),
      ),
    };
    const judged = (answer: string) => {
      const base = exchange(VALID, 200, answer);
      const sentBody = '{"id":7,"name":"Fern"}';
      const sent = { ...base, plan: { ...base.plan, body: sentBody }, request: { ...base.request, body: sentBody } };
      return [responseSchema, echo].map((check) => check.judge(sent, returnsId, [])?.defect);
    };
    expect(judged('{"id":"7","name":"Fern"}')).toEqual(['"id" not echoed as sent', '"id" not echoed as sent']);
    expect(judged('{"id":8,"name":"Fern"}')).toEqual([undefined, '"id" not echoed as sent']);
    expect(judged('{"id":7}')[0]).toBe('the 200 body is not a valid Plant (required at "name")');
  });

  it("response-schema: a success answer without the document's required Location header, or with one its schema refuses, fails", async () => {
    const created: JudgeContext = {
      ...context,
      contract: await loadContract(
        fileURLToPath(new URL('../src/fixtures/documents/reduced/created-location-3.0.yaml', import.meta.url)),
      ),
    };
    const answered = (headers: Record<string, string>) =>
      responseSchema.judge(
        exchange(VALID, 201, '{"id":"7","name":"Fern"}', {
          headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
        }),
        created,
        [],
      );
    expect(answered({ location: '/api/plants/7' })?.outcome).toBe('pass');
    expect(answered({})?.defect).toBe('the 201 answer has no Location header, which the document requires');
    expect(answered({})?.reason).toBe(
      "The 201 answer has no Location header; the document's 201 response requires it.",
    );
    expect(answered({ location: 'http://[plants' })?.defect).toBe("the 201 answer's Location header breaks its schema");
    // Optional: judged only when present.
    expect(answered({ location: '/api/plants/7', 'x-rate-limit-remaining': '3' })?.outcome).toBe('pass');
    expect(answered({ location: '/api/plants/7', 'x-rate-limit-remaining': '-3' })?.outcome).toBe('fail');
    // The body's defect comes first: one finding per answer.
    const broken = responseSchema.judge(
      exchange(VALID, 201, '{"name":"Fern"}', { headers: { 'content-type': 'application/json; charset=utf-8' } }),
      created,
      [],
    );
    expect(broken?.defect).toBe('the 201 body is not a valid Plant (required at "id")');
  });

  it('response-schema: 401 and 403 bodies are not judged when the document gives them none', () => {
    const auth: Intent = { kind: 'auth', what: 'no token' };
    expect(outcome(responseSchema, exchange(auth, 401, 'Unauthorized'))).toBeUndefined();
    expect(outcome(responseSchema, exchange(auth, 403, ''))).toBeUndefined();
  });

  it('response-schema and content-type: a 4xx the document gives a body of its own is judged by that body', async () => {
    const documented = { ...context, contract: await loadContract(DOCUMENTED_REFUSALS) };
    const auth: Intent = { kind: 'auth', what: 'no token' };
    const judged = (status: number, body: string, type = 'application/json') => {
      const answered = exchange(auth, status, body, { headers: { 'content-type': type } });
      return [responseSchema, contentType].map((check) => check.judge(answered, documented, [answered]));
    };
    expect(judged(401, '{"detail":"Not authenticated"}').map((j) => j?.outcome)).toEqual(['pass', 'pass']);
    const [schema, label] = judged(401, '{"error":401,"message":"Unauthorized"}', 'text/html');
    expect(schema?.outcome).toBe('fail');
    expect(schema?.reason).toContain("The 401 body is not valid under the document's 401 response schema");
    expect(schema?.defect).toBe(
      'the 401 body is not valid under the document\'s 401 response schema (required at "detail")',
    );
    expect(label?.outcome).toBe('fail');
    expect(judged(401, 'Unauthorized', 'text/plain')[0]?.reason).toContain(
      'should carry the body its 401 response documents',
    );
    // FastAPI's 422 beside the Error's 400; `default` for a 4xx the document does not list; 415 is plain text.
    expect(judged(422, '{"detail":[{"loc":["body","id"],"msg":"m","type":"int_parsing"}]}')[0]?.outcome).toBe('pass');
    expect(judged(422, '{"detail":"Unprocessable"}')[0]?.outcome).toBe('fail');
    expect(
      judged(404, '{"title":"Not Found","status":404}', 'application/problem+json').map((j) => j?.outcome),
    ).toEqual(['pass', 'pass']);
    expect(judged(404, '{"error":404,"message":"m"}')[0]?.outcome).toBe('fail');
    expect(judged(415, 'Unsupported', 'text/plain').map((j) => j?.outcome)).toEqual([undefined, undefined]);
    expect(judged(400, '{"error":1,"message":"m"}')[0]?.outcome).toBe('pass');
  });

  it('content-type: application/json in any case with parameters passes; others fail', () => {
    const typed = (type: string | undefined) =>
      exchange(VALID, 200, '{"name":"Fern"}', { headers: type === undefined ? {} : { 'content-type': type } });
    expect(outcome(contentType, typed('Application/JSON; charset=UTF-8'))).toBe('pass');
    expect(outcome(contentType, typed('text/plain'))).toBe('fail');
    expect(outcome(contentType, typed(undefined))).toBe('fail');
  });

  it("content-type: a document's own media type for the Error (application/problem+json) is the one a 400 must carry", () => {
    const problemJson = {
      ...context,
      contract: { ...contract, mediaTypes: { ...contract.mediaTypes, error: 'application/problem+json' } },
    };
    const refusal = (type: string) =>
      exchange(VALID, 400, '{"error":1,"message":"no"}', { headers: { 'content-type': type } });
    expect(outcome(contentType, refusal('Application/Problem+JSON; charset=utf-8'), undefined, problemJson)).toBe(
      'pass',
    );
    expect(outcome(contentType, refusal('application/json'), undefined, problemJson)).toBe('fail');
    expect(outcome(contentType, exchange(VALID, 200, '{"name":"Fern"}'), undefined, problemJson)).toBe('pass');
    expect(outcome(contentType, refusal('application/problem+json'))).toBe('fail');
  });

  it('echo: a property not sent may come back as null; a null sent must come back where the Plant allows null', async () => {
    const nullable: JudgeContext = {
      ...context,
      contract: await loadContract(
        fileURLToPath(new URL('../src/fixtures/documents/08-nullable-3.0.yaml', import.meta.url)),
      ),
    };
    const untagged: Intent = { kind: 'valid', strings: { name: 'Fern' }, idMayRepeat: false };
    expect(outcome(echo, exchange(untagged, 200, '{"name":"Fern","tag":null}'))).toBe('pass');
    expect(outcome(echo, exchange(untagged, 200, '{"name":"Fern","tag":"x"}'))).toBe('fail');
    const nulled = exchange(untagged, 200, '{"name":"Fern"}');
    const sentNull = '{"id":7,"name":"Fern","tag":null}';
    const withNull = {
      ...nulled,
      plan: { ...nulled.plan, body: sentNull },
      request: { ...nulled.request, body: sentNull },
    };
    expect(outcome(echo, withNull, undefined, nullable)).toBe('fail');
    const answered = (body: string) => ({ ...withNull, response: { ...withNull.response, body } });
    expect(outcome(echo, answered('{"name":"Fern","tag":null}'), undefined, nullable)).toBe('pass');
    expect(outcome(echo, answered('{"name":"Fern","tag":"null"}'), undefined, nullable)).toBe('fail');
  });

  it('echo: a null sent may be left out of a Plant whose schema refuses null there, and only there', async () => {
    const requestOnly = await loadContract(
      fileURLToPath(new URL('../src/fixtures/documents/reduced/nullable-request-only-3.0.yaml', import.meta.url)),
    );
    const reasonFor = (answer: string, judged = requestOnly) => {
      const base = exchange(VALID, 200, answer);
      const sentBody = '{"id":7,"name":"Fern","tag":null}';
      const sent = { ...base, plan: { ...base.plan, body: sentBody }, request: { ...base.request, body: sentBody } };
      return echo.judge(sent, { ...context, contract: judged }, [])?.reason;
    };
    expect(reasonFor('{"name":"Fern"}')).toBeUndefined();
    expect(reasonFor('{"name":"Fern","tag":"null"}')).toBe('"tag" was sent as null but came back as "null".');
    const nullable = await loadContract(
      fileURLToPath(new URL('../src/fixtures/documents/08-nullable-3.0.yaml', import.meta.url)),
    );
    expect(reasonFor('{"name":"Fern"}', nullable)).toBe('"tag" was sent as null but the 200 Plant has no "tag".');
  });

  it('echo: a value sent that the Plant refuses there (id below its minimum, a tag outside its enum) may be left out or replaced, and only such a value', async () => {
    const load = (path: string) => loadContract(fileURLToPath(new URL(path, import.meta.url)));
    const reasonFor = (judged: Contract, sentBody: string, answer: string) => {
      const base = exchange(VALID, judged.success.documented === '201' ? 201 : 200, answer);
      const sent = { ...base, plan: { ...base.plan, body: sentBody }, request: { ...base.request, body: sentBody } };
      return echo.judge(sent, { ...context, contract: judged }, [])?.reason;
    };
    // Plant id `minimum: 1`, NewPlant id a plain int64: an echo of 0 would break the document.
    const bounded = await load('../src/http/test-documents/plant-id-minimum-3.0.yaml');
    expect(reasonFor(bounded, '{"id":0,"name":"Fern"}', '{"id":1,"name":"Fern"}')).toBeUndefined();
    expect(reasonFor(bounded, '{"id":0,"name":"Fern"}', '{"name":"Fern"}')).toBeUndefined();
    expect(reasonFor(bounded, '{"id":5,"name":"Fern"}', '{"id":1,"name":"Fern"}')).toBe(
      '"id" was sent as 5 but came back as 1.',
    );
    // Plant tag enum [fern, cactus, monstera], NewPlant tag any string.
    const listed = await load('../src/fixtures/documents/reduced/more-operations-3.0.yaml');
    expect(reasonFor(listed, '{"id":7,"name":"Fern","tag":"rose"}', '{"name":"Fern"}')).toBeUndefined();
    expect(reasonFor(listed, '{"id":7,"name":"Fern","tag":"fern"}', '{"name":"Fern"}')).toBe(
      '"tag" was sent as "fern" but the 201 Plant has no "tag".',
    );
  });

  it('echo: a property the NewPlant gives a default and the request left out may come back as that default, not as another value', async () => {
    const defaults = await loadContract(
      fileURLToPath(new URL('../src/fixtures/documents/reduced/request-defaults-3.1.yaml', import.meta.url)),
    );
    const reasonFor = (answer: string) =>
      echo.judge(exchange(VALID, 200, answer), { ...context, contract: defaults }, [])?.reason;
    expect(reasonFor('{"name":"Fern","source":"nursery","quantity":1.0}')).toBeUndefined();
    expect(reasonFor('{"name":"Fern","source":"nursery","quantity":389}')).toBe(
      'No "quantity" was sent, but the 200 Plant has "quantity": 389.',
    );
    expect(reasonFor('{"name":"Fern","source":"seed","quantity":1}')).toBe(
      'No "source" was sent, but the 200 Plant has "source": "seed".',
    );
  });

  it('echo: an array or object sent and not echoed is shown as the JSON it was, exact integers included', async () => {
    const labelled = await loadContract(
      fileURLToPath(new URL('../src/fixtures/documents/10-labels-array.yaml', import.meta.url)),
    );
    const reasonFor = (sentBody: string, answer: string) => {
      const base = exchange(VALID, 200, answer);
      const sent = { ...base, plan: { ...base.plan, body: sentBody }, request: { ...base.request, body: sentBody } };
      return echo.judge(sent, { ...context, contract: labelled }, [])?.reason;
    };
    expect(reasonFor('{"id":7,"name":"Fern","labels":[]}', '{"id":7,"name":"Fern"}')).toBe(
      '"labels" was sent as [] but the 200 Plant has no "labels".',
    );
    expect(reasonFor('{"id":7,"name":"Fern"}', '{"id":7,"name":"Fern","labels":["a",9007199254740993]}')).toBe(
      'No "labels" was sent, but the 200 Plant has "labels": ["a",9007199254740993].',
    );
  });

  it('content-type: two Content-Type header lines (joined by a comma) fail; a quoted comma does not', () => {
    const typed = (type: string) => exchange(VALID, 200, '{"name":"Fern"}', { headers: { 'content-type': type } });
    expect(outcome(contentType, typed('application/json; charset=utf-8, text/plain'))).toBe('fail');
    expect(outcome(contentType, typed('application/json; charset="utf-8"; x="a,b"'))).toBe('pass');
  });

  it('documented-status: 401/403 are documented answers, 415 only for a wrong media type, 3xx and 422 are not', () => {
    const auth: Intent = { kind: 'auth', what: 'no token' };
    for (const status of [400, 401, 403]) expect(outcome(documentedStatus, exchange(auth, status, ''))).toBe('pass');
    const media: Intent = { kind: 'media-type', what: 'text/plain' };
    expect(outcome(documentedStatus, exchange(media, 415, ''))).toBe('pass');
    expect(outcome(documentedStatus, exchange(VALID, 415, ''))).toBe('fail');
    expect(outcome(documentedStatus, exchange(VALID, 307, ''))).toBe('fail');
    expect(outcome(documentedStatus, exchange({ kind: 'invalid-body', what: 'x' }, 422, ''))).toBe('fail');
  });

  it('documented-status: a redirect says where it points, and for a bad credential that an API answers 401', () => {
    const reason = (intent: Intent, status: number, location?: string) =>
      documentedStatus.judge(
        exchange(intent, status, '', location === undefined ? {} : { headers: { location } }),
        context,
        [],
      )?.reason ?? '';
    const auth: Intent = { kind: 'auth', what: 'no Authorization header' };
    // Deno.serve behind a session login: Response.redirect(new URL("/login", req.url), 302).
    expect(reason(auth, 302, 'http://127.0.0.1/login')).toContain('It points to "http://127.0.0.1/login"');
    expect(reason(auth, 302, 'http://127.0.0.1/login')).toContain('no Authorization header: an API answers');
    expect(reason(VALID, 301, '/plants/')).toContain('slash appended');
    expect(reason(VALID, 307)).toContain('no Location');
    expect(reason(auth, 418)).not.toContain('Location');
  });

  it("documented-status: a 201 to JSON of unpredictable meaning is the valid NewPlant's 201 (NestJS's @Post()), one defect", () => {
    const defect = (intent: Intent, status: number) =>
      documentedStatus.judge(exchange(intent, status, '{}'), context, [])?.defect;
    const unpredictable: Intent = { kind: 'unpredictable', what: 'a lone surrogate' };
    expect(defect(unpredictable, 201)).toBe('status 201 for a valid NewPlant');
    expect(defect(unpredictable, 201)).toBe(defect(VALID, 201));
    expect(defect(unpredictable, 422)).toBe('status 422 for a request it refuses');
  });

  it('documented-status: a 422 to a request the target may refuse is its refusal status, one defect with the invalid bodies it refuses so (Elysia)', () => {
    const defect = (intent: Intent, status: number) =>
      documentedStatus.judge(exchange(intent, status, '{}'), context, [])?.defect;
    const refused = defect({ kind: 'invalid-body', what: 'name missing' }, 422);
    expect(refused).toBe('status 422 for a request it refuses');
    expect(defect(writtenAs(VALID, 'media-type', 'Application/JSON'), 422)).toBe(refused);
    expect(defect(writtenAs(VALID, 'scheme', 'bearer'), 422)).toBe(refused);
    expect(defect({ kind: 'unpredictable', what: 'a lone surrogate' }, 422)).toBe(refused);
    // An id written 1.0 must be accepted: its refusal is the valid NewPlant's, whatever the status.
    expect(defect(writtenAs(VALID, 'integer-spelling', '1.0'), 422)).not.toBe(refused);
    expect(defect(writtenAs(VALID, 'media-type', 'Application/JSON'), 201)).not.toBe(refused);
  });
});

describe('ids through floating point', () => {
  it("positive-acceptance: a refusal quoting the id with other digits that are the same double is the doubles defect (Elysia's JSON.parse)", () => {
    const refused = (sent: string, answer: string): Exchange => {
      const base = exchange(VALID, 400, answer);
      return { ...base, plan: { ...base.plan, body: sent }, request: { ...base.request, body: sent } };
    };
    const sent = '{"name":"","id":9223372036854775806}';
    const rounded = refused(sent, '{"error":400,"message":"a plant with id 9223372036854776000 already exists"}');
    expect(positiveAcceptance.judge(rounded, context, [rounded])?.defect).toBe(DOUBLES_DEFECT);
    const exact = refused(sent, '{"error":400,"message":"a plant with id 9223372036854775806 is refused"}');
    expect(positiveAcceptance.judge(exact, context, [exact])?.defect).toBe('status 400 for a valid NewPlant');
    const other = refused(sent, '{"error":400,"message":"a plant with id 1152998630854665200 already exists"}');
    expect(positiveAcceptance.judge(other, context, [other])?.defect).toBe('status 400 for a valid NewPlant');
    // A repeat of 2^63-1 quoted exactly is no misreading, though a nested id 2^63-512 is the same double.
    const nested = '{"id":9223372036854775807,"name":"","offshoots":[{"id":9223372036854775296,"name":""}]}';
    const repeat = refused(nested, '{"error":1010,"message":"A plant with id 9223372036854775807 already exists"}');
    expect(positiveAcceptance.judge(repeat, context, [repeat])?.defect).not.toBe(DOUBLES_DEFECT);
  });

  const PLANT_ID = fileURLToPath(new URL('../src/fixtures/documents/13-plant-returns-id.yaml', import.meta.url));
  const sentWith = (intent: Intent, sent: string, status: number, answer: string): Exchange => {
    const base = exchange(intent, status, answer);
    return { ...base, plan: { ...base.plan, body: sent }, request: { ...base.request, body: sent } };
  };

  it('echo, response-schema and negative-rejection name one defect when numbers come back rounded through a double', async () => {
    const ctx = { ...context, contract: await loadContract(PLANT_ID) };
    const valid = sentWith(
      VALID,
      '{"id":9223372036854775807,"name":"Fern"}',
      200,
      '{"id":9223372036854776000,"name":"Fern"}',
    );
    const overflow: Intent = {
      kind: 'invalid-body',
      what: '"id" holds 9223372036854775808: id one above the int64 maximum 9223372036854775807 (keyword format)',
    };
    const accepted = sentWith(
      overflow,
      '{"id":9223372036854775808,"name":"Fern"}',
      200,
      '{"id":9223372036854776000,"name":"Fern"}',
    );
    const defects = [
      echo.judge(valid, ctx, [valid])?.defect,
      responseSchema.judge(valid, ctx, [valid])?.defect,
      negativeRejection.judge(accepted, ctx, [accepted])?.defect,
      responseSchema.judge(accepted, ctx, [accepted])?.defect,
    ];
    expect(defects).toEqual(Array(4).fill(DOUBLES_DEFECT));
  });

  it('keeps their own defects when the digits come back as sent or differ otherwise', async () => {
    const ctx = { ...context, contract: await loadContract(PLANT_ID) };
    const overflow: Intent = {
      kind: 'invalid-body',
      what: '"id" holds 9223372036854775808: id one above the int64 maximum 9223372036854775807 (keyword format)',
    };
    const exact = sentWith(
      overflow,
      '{"id":9223372036854775808,"name":"Fern"}',
      200,
      '{"id":9223372036854775808,"name":"Fern"}',
    );
    expect(negativeRejection.judge(exact, ctx, [exact])?.defect).toBe(
      'an invalid body ("id" set to an integer outside int64) accepted',
    );
    const other = sentWith(VALID, '{"id":9223372036854775807,"name":"Fern"}', 200, '{"id":1,"name":"Fern"}');
    expect(echo.judge(other, ctx, [other])?.defect).toBe('"id" not echoed as sent');
  });
});

describe('rejection and authentication', () => {
  const invalid: Intent = { kind: 'invalid-body', what: 'name missing' };
  it('negative-rejection: 400 passes, 2xx and other 4xx fail', () => {
    expect(outcome(negativeRejection, exchange(invalid, 400, '{"error":1,"message":"m"}'))).toBe('pass');
    expect(outcome(negativeRejection, exchange(invalid, 200, '{"name":"x"}'))).toBe('fail');
    expect(outcome(negativeRejection, exchange(invalid, 422, '{}'))).toBe('fail');
  });

  it('negative-rejection: a body meant to be invalid that the document accepts after all is not judged', () => {
    const base = exchange({ kind: 'invalid-body', what: '"id" set to 2^53+N.5' }, 200, '{"name":"Fern"}');
    const sent = (body: string): Exchange => ({
      ...base,
      plan: { ...base.plan, body },
      request: { ...base.request, body },
    });
    expect(negativeRejection.judge(sent('{"id":7,"name":"Fern"}'), context, [])).toBeUndefined();
    expect(outcome(negativeRejection, sent('{"id":7.5,"name":"Fern"}'))).toBe('fail');
    expect(outcome(negativeRejection, sent('{"id":7,"name":"Fern",}'))).toBe('fail');
  });

  it('negative-rejection: says when an invalid body accepted is a valid NewPlant once its strings are trimmed', async () => {
    const lengths = {
      ...context,
      contract: await loadContract(
        fileURLToPath(new URL('../src/fixtures/documents/01-name-length.yaml', import.meta.url)),
      ),
    };
    const accepted = (body: string): Exchange => {
      const base = exchange({ kind: 'invalid-body', what: 'name longer than maxLength 64' }, 200, '{"name":"x"}');
      return { ...base, plan: { ...base.plan, body }, request: { ...base.request, body } };
    };
    const reason = (body: string) => negativeRejection.judge(accepted(body), lengths, [])?.reason ?? '';
    // 65 code points, the last a space: 64 once pydantic's str_strip_whitespace has cut it.
    expect(reason(`{"id":7,"name":"${'x'.repeat(64)} "}`)).toContain(ACCEPTED_ONCE_TRIMMED);
    expect(reason(`{"id":7,"name":"${'x'.repeat(65)}"}`)).not.toContain(ACCEPTED_ONCE_TRIMMED);
    expect(reason(`{"id":7,"name":"${'x'.repeat(64)}  x"}`)).not.toContain(ACCEPTED_ONCE_TRIMMED);
  });

  it('an invalid body accepted and echoed as an invalid Plant is one defect for negative-rejection and response-schema', () => {
    const tooLong: Intent = { kind: 'invalid-body', what: '"name" holds "xxxx": name longer than maxLength 3' };
    const answered = exchange(tooLong, 200, '{}');
    const defects = [negativeRejection, responseSchema].map((check) => check.judge(answered, context, [answered]));
    expect(defects.map((judged) => judged?.outcome)).toEqual(['fail', 'fail']);
    expect(defects[0]?.defect).toBeDefined();
    expect(defects[1]?.defect).toBe(defects[0]?.defect);
    const valid = exchange(VALID, 200, '{}');
    expect(responseSchema.judge(valid, context, [valid])?.defect).toBe(
      'the 200 body is not a valid Plant (required at "name")',
    );
  });

  it("an invalid body answered 200 with no body and no Content-Type (WEBrick after a SystemStackError) is one defect, negative-rejection's", () => {
    const deep: Intent = { kind: 'invalid-body', what: 'arrays nested 20,000 deep instead of an object' };
    const answered = exchange(deep, 200, '', { headers: {} });
    const checks = [negativeRejection, responseSchema, contentType];
    const judged = checks.map((check) => check.judge(answered, context, [answered]));
    expect(judged.map((verdict) => verdict?.outcome)).toEqual(['fail', 'fail', 'fail']);
    expect(new Set(judged.map((verdict) => verdict?.defect))).toEqual(new Set([judged[0]?.defect]));
    expect(judged[0]?.reason).toContain('no body and no Content-Type');
    const written = exchange(deep, 200, '{"name":"x"}');
    expect(negativeRejection.judge(written, context, [written])?.reason).not.toContain('no body');
    // A valid NewPlant answered so is the label's defect; so is a body sent with no Content-Type, which may be accepted.
    const valid = exchange(VALID, 200, '', { headers: {} });
    expect(contentType.judge(valid, context, [valid])?.defect).toBe('the 200 answer is labelled with no Content-Type');
    const unlabelled = exchange({ kind: 'media-type', what: 'no Content-Type', missing: true }, 200, '', {
      headers: {},
    });
    expect(responseSchema.judge(unlabelled, context, [unlabelled])?.defect).toBe(
      'the 200 answer is labelled with no Content-Type',
    );
  });

  it("negative-rejection: a 400 carrying the target's own repeat code means the invalid body was read as a NewPlant", () => {
    const invalid: Intent = { kind: 'invalid-body', what: '"id" set to true' };
    const asRepeat = exchange(invalid, 400, '{"error":1010,"message":"A plant with id True already exists"}');
    const distinct = { ...context, repeatErrorCode: '1010', repeatCodeIsDistinct: true };
    expect(outcome(negativeRejection, asRepeat, undefined, distinct)).toBe('fail');
    expect(outcome(negativeRejection, asRepeat, undefined, { ...distinct, repeatCodeIsDistinct: false })).toBe('pass');
    const other = exchange(invalid, 400, '{"error":1004,"message":"id must be an integer"}');
    expect(outcome(negativeRejection, other, undefined, distinct)).toBe('pass');
  });

  it('negative-rejection and documented-status: a 413 is fair for an invalid body over 16 KiB, not for a small one', () => {
    const invalid: Intent = { kind: 'invalid-body', what: 'arrays nested 20,000 deep instead of an object' };
    const big = exchange(invalid, 413, '{"error":1,"message":"too large"}');
    const large = { ...big, plan: { ...big.plan, body: '['.repeat(20_000) + ']'.repeat(20_000) } };
    expect(outcome(negativeRejection, large)).toBe('pass');
    expect(outcome(documentedStatus, large)).toBe('pass');
    expect(outcome(negativeRejection, big)).toBe('fail');
    expect(outcome(documentedStatus, big)).toBe('fail');
  });

  it('negative-rejection: accepting a wrong Content-Type fails, accepting none only warns; 415 is fine', () => {
    const media: Intent = { kind: 'media-type', what: 'text/plain' };
    expect(outcome(negativeRejection, exchange(media, 200, '{"name":"x"}'))).toBe('fail');
    expect(outcome(negativeRejection, exchange(media, 415, ''))).toBe('pass');
    const missing: Intent = { kind: 'media-type', what: 'no Content-Type', missing: true };
    expect(outcome(negativeRejection, exchange(missing, 200, '{"name":"x"}'))).toBe('warn');
    expect(outcome(negativeRejection, exchange(missing, 400, '{"error":1,"message":"no"}'))).toBe('pass');
  });

  it('auth-enforced: the right token without its scheme, accepted, is a warning', () => {
    const bare: Intent = { kind: 'auth', what: 'the right token without the "Bearer" scheme', lenient: true };
    expect(outcome(authEnforced, exchange(bare, 200, '{"name":"x"}'))).toBe('warn');
    expect(outcome(authEnforced, exchange(bare, 401, ''))).toBe('pass');
  });

  it('auth-enforced: 400, 401 and 403 pass, 2xx fails', () => {
    const auth: Intent = { kind: 'auth', what: 'a wrong token' };
    for (const status of [400, 401, 403]) expect(outcome(authEnforced, exchange(auth, status, ''))).toBe('pass');
    expect(outcome(authEnforced, exchange(auth, 200, '{"name":"x"}'))).toBe('fail');
  });

  it("auth-enforced: a credential accepted right after the right token on one connection names the parser's header cache", () => {
    const flipped: Intent = { kind: 'auth', what: 'the right token with every letter in the other case' };
    const onOneConnection = (ex: Exchange): Exchange => ({ ...ex, plan: { ...ex.plan, sameConnection: true } });
    const right = onOneConnection(exchange(VALID, 200, '{"name":"Fern"}'));
    const accepted = onOneConnection(exchange(flipped, 200, '{"name":"x"}'));
    const reason = (all: readonly Exchange[]) => authEnforced.judge(accepted, context, all)?.reason ?? '';
    expect(reason([right, accepted])).toContain('setHeaderCacheSize(0)');
    expect(reason([accepted])).not.toContain('setHeaderCacheSize');
    expect(authEnforced.judge(accepted, context, [right, accepted])?.defect).toBe(
      'a request with the right token with every letter in the other case accepted',
    );
  });
});

describe('a document that asks for no credential (security: [] or none declared)', () => {
  const open: JudgeContext = { ...context, contract: { ...contract, auth: 'none' } };
  const noHeader = (ex: Exchange): Exchange => ({ ...ex, plan: { ...ex.plan, auth: { kind: 'none' } } });
  const UNDECLARED = 'status 401 without a credential, which the document does not ask for';

  it('auth-enforced: a valid NewPlant with no Authorization header must not be refused with 401 or 403', () => {
    const auth: Intent = { kind: 'auth', what: 'no Authorization header' };
    expect(outcome(authEnforced, noHeader(exchange(auth, 200, '{"name":"x"}')), undefined, open)).toBe('pass');
    const refused = noHeader(exchange(auth, 401, '{"error":1,"message":"login"}'));
    expect(authEnforced.judge(refused, open, [refused])).toMatchObject({ outcome: 'fail', defect: UNDECLARED });
    // A wrong token sent anyway may be refused where anonymous calls are allowed.
    const wrong: Intent = { kind: 'auth', what: 'a random wrong bearer token' };
    expect(outcome(authEnforced, exchange(wrong, 401, ''), undefined, open)).toBeUndefined();
  });

  it('positive-acceptance and negative-rejection name a 401 without a credential as the same defect', () => {
    const valid = exchange(VALID, 401, '{"error":1,"message":"login"}');
    expect(positiveAcceptance.judge(valid, open, [valid])).toMatchObject({ outcome: 'fail', defect: UNDECLARED });
    const invalid = exchange({ kind: 'invalid-body', what: '"id" holds true' }, 401, '{"error":1,"message":"login"}');
    expect(negativeRejection.judge(invalid, open, [invalid])).toMatchObject({ outcome: 'fail', defect: UNDECLARED });
    // With the header sent (a token given), a 401 is the token's: the usual defects.
    const sent = { ...valid, request: { ...valid.request, headers: { authorization: 'Bearer $PLANTSTORE_TOKEN' } } };
    expect(positiveAcceptance.judge(sent, open, [sent])?.defect).toBe('status 401 for a valid NewPlant');
  });
});

describe('robustness', () => {
  it('no-server-error: 5xx, transport failures and floods fail; 503 is throttling', () => {
    expect(outcome(noServerError, exchange(VALID, 500, ''))).toBe('fail');
    expect(outcome(noServerError, exchange(VALID, 0, null, { transportError: 'timeout' }))).toBe('fail');
    expect(outcome(noServerError, exchange(VALID, 200, '{', { truncated: true }))).toBe('fail');
    expect(outcome(noServerError, exchange(VALID, 503, ''))).toBeUndefined();
    expect(outcome(noServerError, exchange(VALID, 400, '{}'))).toBe('pass');
  });

  it("no-server-error: a gateway's 502 or 504 is one defect whatever was asked, another 5xx one per kind of request", () => {
    const defect = (intent: Intent, status: number) => {
      const ex = exchange(intent, status, '<html>Bad Gateway</html>');
      const verdict = noServerError.judge(ex, context, [ex]);
      return verdict?.outcome === 'fail' ? verdict.defect : undefined;
    };
    const invalid: Intent = { kind: 'invalid-body', what: 'tag set to null' };
    for (const status of [502, 504]) expect(defect(VALID, status)).toBe(defect(invalid, status));
    expect(defect(VALID, 502)).not.toBe(defect(VALID, 504));
    expect(defect(VALID, 500)).not.toBe(defect(invalid, 500));
  });

  it('no-server-error: a 5xx to a member of another JSON type is one defect whether null, an array or a number showed it', () => {
    // chi + a type assertion tag.(string) under Recoverer: an empty 500 for "tag": null, [] or 5 alike; which value was
    // smallest in a seed named the finding, so a baseline churned between seeds.
    const defect = (what: string) => {
      const ex = exchange({ kind: 'invalid-body', what }, 500, '');
      const verdict = noServerError.judge(ex, context, [ex]);
      return verdict?.outcome === 'fail' ? verdict.defect : undefined;
    };
    const nullTag = defect('"tag" holds null: tag not of type string: a null (keyword type)');
    expect(nullTag).toBe(defect('"tag" holds an array: tag not of type string: an array (keyword type)'));
    expect(nullTag).toBe(defect('"tag" set to null'));
    expect(nullTag).toBe(defect('"name" holds a number: name not of type string: a number (keyword type)'));
    // Ruby's data['id'].to_i raises on {} as on true (a NoMethodError): the id's rewrites of another type alike.
    expect(nullTag).toBe(defect('"id" set to {}'));
    expect(nullTag).toBe(defect('"id" set to "abc"'));
    expect(nullTag).toContain('another JSON type');
    // Other breaks keep their own defect: a missing member, malformed JSON.
    expect(defect('required "name" left out (keyword required)')).not.toBe(nullTag);
    expect(defect('a trailing comma before a closing bracket')).not.toBe(nullTag);
    // A body that is no object at all is named so: a member's break shrunk to the body `null` showed "a member".
    const nullBody = defect('the body not of type object: a null (keyword type)');
    expect(nullBody).toBe('status 500 for an invalid body (a JSON value other than an object, null included)');
    expect(defect('the body not of type object: an array (keyword type)')).toBe(nullBody);
  });

  it('no-server-error: a 5xx or a dropped answer to a body with no Content-Type and to one of another type is one defect', () => {
    // Express 5 leaves req.body undefined when no parser ran: a handler that never checks the label fails on both,
    // and each run sends both; which came first in a seed's order must not name the finding (a baseline would churn).
    const defect = (intent: Intent, extra: Partial<RecordedResponse> = {}) => {
      const ex = exchange(intent, extra.transportError ? 0 : 500, '', extra);
      const verdict = noServerError.judge(ex, context, [ex]);
      return verdict?.outcome === 'fail' ? verdict.defect : undefined;
    };
    const missing: Intent = { kind: 'media-type', what: 'no Content-Type', missing: true };
    const text: Intent = { kind: 'media-type', what: 'Content-Type text/plain' };
    expect(defect(missing)).toBe(defect(text));
    expect(defect(missing, { transportError: 'connection-reset' })).toBe(
      defect(text, { transportError: 'connection-reset' }),
    );
    expect(defect(missing)).toBe('status 500 for a body with a missing or wrong Content-Type');
    expect(defect(missing)).not.toBe(defect(VALID));
  });

  it('repeated-id: 200 and 400 pass after a stored original; anything else fails', () => {
    const first = exchange(VALID, 200, '{"name":"Fern"}');
    const again = (status: number) => exchange({ kind: 'repeat' }, status, '');
    expect(outcome(repeatedId, again(200), [first, again(200)])).toBe('pass');
    expect(outcome(repeatedId, again(400), [first, again(400)])).toBe('pass');
    expect(outcome(repeatedId, again(409), [first, again(409)])).toBe('fail');
    expect(outcome(repeatedId, again(500), [exchange(VALID, 500, ''), again(500)])).toBeUndefined();
  });

  it("repeated-id leaves a gateway's 502 or 504 to no-server-error: one finding for a service behind it that failed", () => {
    const first = exchange(VALID, 200, '{"name":"Fern"}');
    const again = (status: number) => exchange({ kind: 'repeat' }, status, '<html>Bad Gateway</html>');
    for (const status of [502, 504]) {
      expect(outcome(repeatedId, again(status), [first, again(status)])).toBeUndefined();
      expect(outcome(noServerError, again(status), [first, again(status)])).toBe('fail');
    }
    expect(outcome(repeatedId, again(500), [first, again(500)])).toBe('fail');
  });
});

describe('fixed ids and repeats', () => {
  const fixed: Intent = { ...VALID, idMayRepeat: true };
  const withCode = (code: number) => exchange(fixed, 400, `{"error":${code},"message":"m"}`);

  it("excuses a 400 on a fixed id that carries the target's own repeat code", () => {
    const knowsCode = { ...context, repeatErrorCode: '1010' };
    expect(outcome(positiveAcceptance, withCode(1010), undefined, knowsCode)).toBe('warn');
  });

  it('fails a 400 on a fixed id when the target holds nothing from an earlier run (it accepted the canary)', () => {
    const fresh = { ...context, targetHoldsEarlierRun: false, repeatErrorCode: '400' };
    expect(outcome(positiveAcceptance, withCode(400), undefined, fresh)).toBe('fail');
    const minusZero = exchange(writtenAs(fixed, 'integer-spelling', '-0'), 400, '{"error":400,"message":"m"}');
    const plain = exchange(VALID, 200, '{"name":"Fern"}');
    expect(outcome(integerSpellingsCheck, minusZero, [plain, minusZero], fresh)).toBe('fail');
    expect(outcome(integerSpellingsCheck, minusZero, [plain, minusZero])).toBe('warn');
  });

  it("excuses a 400 on a fixed id that says 'repeat' by the target's own account, even with no earlier run", () => {
    const fresh = { ...context, targetHoldsEarlierRun: false };
    // Another client stored 2^63-1: the target's distinct repeat code says so.
    expect(
      outcome(positiveAcceptance, withCode(1010), undefined, {
        ...fresh,
        repeatErrorCode: '1010',
        repeatCodeIsDistinct: true,
      }),
    ).toBe('warn');
    // One code for every 400, but the repeat message: the same words, another id.
    const shape = { ...fresh, repeatErrorCode: '400', repeatMessageShape: 'A plant with id # already exists' };
    const sameWords = exchange(
      fixed,
      400,
      '{"error":400,"message":"A plant with id 9223372036854775807 already exists"}',
    );
    expect(outcome(positiveAcceptance, sameWords, undefined, shape)).toBe('warn');
    const otherWords = exchange(fixed, 400, '{"error":400,"message":"id must be from -9223372036854775807"}');
    expect(outcome(positiveAcceptance, otherWords, undefined, shape)).toBe('fail');
  });

  it('warns of a 400 on a fixed id when nothing was learned about repeats (the first valid NewPlant got a 500)', () => {
    // An inets server whose 2 KB+ answers crash: the run's first valid NewPlant had a long name and got 500, and an
    // earlier run had stored 2^63-1 ("A plant with id 9223372036854775807 already exists", error 1010).
    const unknown = {
      ...context,
      targetRejectsRepeats: undefined,
      targetHoldsEarlierRun: undefined,
      repeatsUnasked: true,
    };
    expect(outcome(positiveAcceptance, withCode(1010), undefined, unknown)).toBe('warn');
    expect(positiveAcceptance.judge(withCode(1010), unknown, [])?.reason).toContain('not known');
    // A fresh id refused stays a failure; so does any refusal once the target is known to accept repeats.
    expect(outcome(positiveAcceptance, exchange(VALID, 400, '{"error":1010,"message":"m"}'), undefined, unknown)).toBe(
      'fail',
    );
    expect(outcome(positiveAcceptance, withCode(1010), undefined, { ...unknown, targetRejectsRepeats: false })).toBe(
      'fail',
    );
    // A target that refused the run's first valid NewPlant (a blank name) was asked: its refusals are not excused.
    expect(outcome(positiveAcceptance, withCode(1010), undefined, { ...unknown, repeatsUnasked: false })).toBe('fail');
  });

  it('fails a 400 on a fixed id whose error code says it is not about a repeat', () => {
    const knowsCode = { ...context, repeatErrorCode: '1010' };
    expect(outcome(positiveAcceptance, withCode(406), undefined, knowsCode)).toBe('fail');
  });
});
