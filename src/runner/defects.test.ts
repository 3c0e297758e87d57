import { describe, expect, it } from 'vitest';
import { parseExactJson } from '../contract/exact-json.js';
import {
  brokenRule,
  requestKind,
  roundedAt,
  roundedThroughDouble,
  shapeOf,
  statusDefect,
  typeReading,
  namesMember,
  unknownMemberDefect,
} from './defects.js';
import type { PlannedRequest } from './probe.js';

describe('shapeOf', () => {
  it('keeps a nested field path, so a finding names the field it is about', () => {
    expect(shapeOf('"care.water" holds null: care.water not of type integer')).toBe(
      '"care.water" holds null: care.water not of type integer',
    );
  });

  it('keeps a path through array items, its index as #', () => {
    expect(shapeOf('"photos[0].width" holds true: photos[0].width not of type integer')).toBe(
      '"photos[#].width" holds true: photos[#].width not of type integer',
    );
  });

  it('keeps the labels 2^53 and 2^63 and replaces the values beside them', () => {
    expect(shapeOf('"id" set to 2^53+N.5')).toBe('"id" set to 2^53+N.5');
    expect(shapeOf('"id" holds 9223372036854775808: id 2^63, just outside maximum')).toBe(
      '"id" holds #: id 2^63, just outside maximum',
    );
  });

  it('keeps the digits of a word (int64, UTF-16) and replaces the numbers beside them', () => {
    expect(shapeOf('"id" holds 9223372036854775808: id one above the int64 maximum 9223372036854775807')).toBe(
      '"id" holds #: id one above the int64 maximum #',
    );
    expect(shapeOf('"name" of 17 UTF-16 units, -3 over')).toBe('"name" of # UTF-16 units, # over');
  });

  it('still replaces quoted values that are not names', () => {
    expect(shapeOf('"name" holds "a b\\n"')).toBe('"name" holds "…"');
  });
});

describe('requestKind', () => {
  const variant = (aspect: 'integer-spelling' | 'scheme' | 'media-type'): PlannedRequest =>
    ({ intent: { kind: 'valid-variant', writtenAs: { aspect, written: 'x' } } }) as unknown as PlannedRequest;

  it('names what a valid variant writes another way in plain words', () => {
    expect(requestKind(variant('integer-spelling'))).toBe('a valid NewPlant with its id written as 1.0, 1e2 or -0');
    expect(requestKind(variant('scheme'))).toBe('a valid NewPlant with its auth scheme in another letter case');
    expect(requestKind(variant('media-type'))).toBe('a valid NewPlant with its media type written another way');
  });
});

describe('one defect for one cause', () => {
  it('names a credential under another scheme without the scheme a seed or a client happened to use', () => {
    const auth = (what: string): PlannedRequest => ({ intent: { kind: 'auth', what } }) as unknown as PlannedRequest;
    const kinds = ['Basic', 'Token', 'Digest'].map((scheme) =>
      requestKind(auth(`the right token under another scheme (${scheme})`), true),
    );
    expect(new Set(kinds)).toEqual(new Set(['a request with the right token under a scheme other than Bearer']));
    expect(requestKind(auth('another scheme (Basic) with a password'), true)).toBe(
      'a request with a scheme other than Bearer with a password',
    );
    expect(requestKind(auth('another scheme (Negotiate)'), true)).toBe('a request with a scheme other than Bearer');
  });

  it('names a body of another media type without the type a seed or a client happened to send', () => {
    const labelled = (what: string, missing?: true): PlannedRequest =>
      ({ intent: { kind: 'media-type', what, ...(missing ? { missing } : {}) } }) as unknown as PlannedRequest;
    const kinds = ['text/plain', 'application/xml', 'application/x-www-form-urlencoded', '"text/html;;"'].map((type) =>
      requestKind(labelled(`Content-Type ${type}`), true),
    );
    expect(new Set(kinds)).toEqual(new Set(['a body labelled with a media type the document does not take']));
    expect(requestKind(labelled('no Content-Type', true), true)).toBe('a body sent with no Content-Type');
  });

  it('names a required member renamed to upper case by its kind, not its field: binders match every member that way', () => {
    const renamed = (field: string): PlannedRequest => ({
      method: 'POST',
      path: '/plants',
      auth: { kind: 'token', scheme: 'Bearer' },
      contentType: 'application/json',
      body: '{}',
      intent: { kind: 'invalid-body', what: `required "${field}" written as "${field.toUpperCase()}"` },
    });
    expect(requestKind(renamed('name'), true)).toBe('an invalid body (a required member named in upper case)');
    expect(requestKind(renamed('id'), true)).toBe(requestKind(renamed('name'), true));
  });
});

describe('the cause of an invalid body accepted', () => {
  it('keeps text after a valid NewPlant apart from a body that is not an object', () => {
    const trailing = brokenRule('a valid NewPlant followed by text after its closing brace');
    expect(trailing).not.toBe(brokenRule('the body not of type object: a null (keyword type)'));
    expect(trailing).not.toBe(brokenRule('JSON null instead of an object'));
    expect(brokenRule('JSON null instead of an object')).toBe(brokenRule('a JSON array instead of an object'));
  });

  it("keeps an id's fraction and its range apart from its presence and type, rewrite or keyword alike", () => {
    const missing = brokenRule('"id": id missing (required) (keyword required)');
    const fractions = ['"id" set to N.5', '"id" set to -N.25', '"id" set to 1e-3', '"id" set to 2^53+N.5'];
    const fraction = brokenRule('"id" holds 0.5: id not of type integer: a number with a fraction (keyword type)');
    for (const what of fractions) expect(brokenRule(what), what).toBe(fraction);
    const range = brokenRule('"id" holds 9223372036854775808: id one above the int64 maximum # (keyword format)');
    for (const what of ['"id" set to N0000000000000000000', '"id" set to 9999999999… (10000 characters)'])
      expect(brokenRule(what), what).toBe(range);
    // Written with an exponent, an integer past int64 is what a reader of leading digits takes as 1 (0.5 as 0).
    for (const what of ['"id" set to 1e19', '"id" set to -9.3e18', '"id" set to the fraction 1.5'])
      expect(brokenRule(what), what).toBe(fraction);
    expect(new Set([missing, fraction, range]).size).toBe(3);
    expect(brokenRule('"id" holds an array: id not of type integer: an array (keyword type)')).toBe(missing);
  });

  it('titles an integer one past its format on either side as the range it leaves, whichever a seed met', () => {
    const title = (what: string) =>
      requestKind({ intent: { kind: 'invalid-body', what } } as unknown as PlannedRequest, true);
    const above = '"id" holds 9223372036854775808: id one above the int64 maximum 9223372036854775807 (keyword format)';
    const below =
      '"id" holds -9223372036854775809: id one below the int64 minimum -9223372036854775808 (keyword format)';
    expect(title(above)).toBe('an invalid body ("id" set to an integer outside int64)');
    expect(title(below)).toBe(title(above));
    expect(title('"id" set to 9999999999… (10000 characters)')).toBe(title(above));
    expect(
      title('"care.count" holds 2147483648: care.count one above the int32 maximum 2147483647 (keyword format)'),
    ).toBe('an invalid body ("care.count" set to an integer outside int32)');
  });

  it('titles a member a closed object does not declare without the label repeating it', () => {
    const intent = {
      kind: 'invalid-body',
      what: '"unexpected" holds null: unexpected present though additionalProperties is false (an undeclared property "unexpected") (keyword additionalProperties)',
    };
    expect(requestKind({ intent } as unknown as PlannedRequest, true)).toBe(
      'an invalid body ("unexpected": a member the document does not declare, where additionalProperties is false)',
    );
  });

  it('titles a fraction or a range by its kind, whichever value a seed met first', () => {
    const plan = (what: string) => ({ intent: { kind: 'invalid-body', what } }) as unknown as PlannedRequest;
    for (const what of ['"id" set to N.5', '"id" set to -N.25', '"id" set to 1e-3'])
      expect(requestKind(plan(what), true)).toBe('an invalid body ("id" set to a number with a fraction)');
    expect(requestKind(plan('"id" set to 18446744073709551616'), true)).toBe(
      'an invalid body ("id" set to an integer outside int64)',
    );
    // 2^53+N.5 keeps its words: a double holds it whole, the sign of integers read as doubles.
    expect(requestKind(plan('"id" set to 2^53+N.5'), true)).toBe('an invalid body ("id" set to 2^53+N.5)');
  });
});

describe('a 413 from a body size limit', () => {
  const sized = (kind: 'valid' | 'invalid-body', bytes: number): PlannedRequest =>
    ({
      body: `{"id":1,"name":"${'a'.repeat(bytes - 20)}"}`,
      intent: kind === 'valid' ? { kind } : { kind, what: 'id with 10,000 digits' },
    }) as unknown as PlannedRequest;

  it('is one defect for a valid NewPlant and an invalid body of 16 KiB or less', () => {
    const valid = statusDefect(413, sized('valid', 5_000));
    expect(valid).toBe('status 413 (a body size limit) for a body of 16 KiB or less');
    expect(statusDefect(413, sized('invalid-body', 10_000))).toBe(valid);
  });

  it('keeps the words of a larger valid NewPlant and of every other status', () => {
    expect(statusDefect(413, sized('valid', 20_000))).toBe('status 413 for a valid NewPlant');
    expect(statusDefect(422, sized('invalid-body', 5_000))).toBe('status 422 for a request it refuses');
  });
});

describe('a valid NewPlant refused for a member the document does not name', () => {
  const declared = new Set(['id', 'name', 'tag']);
  const title = 'status 400 for a valid NewPlant with a member the document does not name';

  it('is its own defect when the answer says the member is unknown, in the words of common stacks', () => {
    for (const answer of [
      '{"error":400,"message":"invalid body: json: unknown field \\"__proto__\\""}',
      '{"error":1,"message":"Unrecognized field \\"x\\" (class Plant), not marked as ignorable"}',
      '{"detail":[{"type":"extra_forbidden","loc":["body","x"],"msg":"Extra inputs are not permitted"}]}',
      '{"error":1,"message":"property x should not exist"}',
      '{"error":1,"message":"\\"x\\" is not allowed"}',
      '{"error":1,"message":"must NOT have additional properties"}',
    ])
      expect(unknownMemberDefect(400, ['id', 'name', 'x', '__proto__'], declared, answer), answer).toBe(title);
  });

  it('is not when the body holds no such member, or the answer speaks of something else', () => {
    const lengths = '{"error":422,"message":"tag: must be 1 to 32 characters"}';
    expect(unknownMemberDefect(400, ['id', 'name', 'tag'], declared, '{"message":"unknown field"}')).toBeUndefined();
    expect(unknownMemberDefect(400, ['id', 'name', ''], declared, lengths)).toBeUndefined();
    expect(unknownMemberDefect(401, ['id', 'name', 'x'], declared, 'unknown token')).toBeUndefined();
  });
});

describe('a type read leniently is one defect for every field', () => {
  const invalid = (what: string): PlannedRequest =>
    ({ intent: { kind: 'invalid-body', what } }) as unknown as PlannedRequest;
  const kind = (what: string): string => requestKind(invalid(what), true);

  it('names a null accepted for any property by its kind (Go zero values, pydantic Optional, ajv coerceTypes)', () => {
    const nulls = [
      '"tag" holds null: tag not of type string: a null (keyword type)',
      '"care.light" holds null: care.light not of type string: a null (keyword type)',
      '"tags" holds null: tags not of type array: a null (keyword type)',
      '"id" set to null',
    ];
    expect(new Set(nulls.map(kind))).toEqual(
      new Set(['an invalid body (null for a property the document does not let be null)']),
    );
    expect(nulls.map(typeReading)).toEqual(['null', 'null', 'null', 'null']);
  });

  it('names a value converted from another type by its kind (ajv coerceTypes, arrays included; pydantic 1 lax int and str; Jackson)', () => {
    const scalars = [
      '"id" holds true: id not of type integer: a boolean (keyword type)',
      '"name" holds true: name not of type string: a boolean (keyword type)',
      '"…" holds true: labels[#] not of type string: a boolean (keyword type)',
      '"name" holds 0: name not of type string or null: an integer (keyword type)',
      '"id" set to the numeric string "12"',
      '"id" set to "N"',
      // Jackson's default ObjectMapper reads "" for a long as 0, as it reads "12" as 12 (hj10's pojo-defaults).
      '"id" set to ""',
      '"name" set to the number 12',
      '"flag" set to the string "true"',
      '"tags" holds true: tags not of type array: a boolean (keyword type)',
      '"id" set to [1]',
    ];
    expect(new Set(scalars.map(typeReading))).toEqual(new Set(['converted']));
    expect(new Set(scalars.map(kind)).size).toBe(1);
  });

  it('hides what a field holds even when it reads like a name, so a shrink step changing a letter is the same defect', () => {
    // A name under ^[A-Z][a-z]+$ one code point past maxLength: before, each letter lowered made another defect, so
    // a shrink never took one (300 candidates sent, the name as generated).
    const [first, lowered] = [
      'Chdhdebaaebfgdffafdddgchacfcedegebfbdfcbe',
      'Ahdhdebaaebfgdffafdddgchacfcedegebfbdfcbe',
    ].map((name) => kind(`"name" holds "${name}": name one code point longer than maxLength 40 (keyword maxLength)`));
    expect(first).toBe(lowered);
    expect(first).toBe(
      'an invalid body ("name" holds "…": name one code point longer than maxLength # (keyword maxLength))',
    );
    expect(kind('"care.light" holds "MEDIUM": care.light not one of enum ["low","high"] (keyword enum)')).toBe(
      'an invalid body ("care.light" holds "…": care.light not one of enum ["low","high"] (keyword enum))',
    );
  });

  it('keeps the field where no lenient reader converts the wrong type, or it is not a type at all', () => {
    for (const what of [
      '"id" holds 1.5: id not of type integer: a number with a fraction (keyword type)',
      '"care" holds "text": care not of type object: a string (keyword type)',
      '"tags" holds an object: tags not of type array: an object (keyword type)',
      '"id" set to the fraction 1.5',
      '"id" set to "abc"',
      '"tag" holds "…": tag one code point longer than maxLength 20 (keyword maxLength)',
    ]) {
      expect(typeReading(what), what).toBeUndefined();
      expect(kind(what)).toContain('"');
    }
  });
});

describe('double rounding', () => {
  it('recognises a number beyond 2^53 answered as another number that is the same double', () => {
    expect(roundedThroughDouble('9223372036854775807', '9223372036854776000')).toBe(true);
    expect(roundedThroughDouble('9223372036854775807', '9.223372036854776e18')).toBe(true);
    expect(roundedThroughDouble('9223372036854775808', '9223372036854776000')).toBe(true);
    expect(roundedThroughDouble('9007199254740993.5', '9007199254740994')).toBe(true);
    expect(roundedThroughDouble('-9007199254740993', '-9007199254740992')).toBe(true);
  });

  it('is not fooled by the same value written another way, by safe numbers or by other values', () => {
    expect(roundedThroughDouble('9007199254740993', '9007199254740993.0')).toBe(false);
    expect(roundedThroughDouble('9223372036854775807', '9223372036854775807')).toBe(false);
    expect(roundedThroughDouble('92233720368547758070', '9223372036854775807e1')).toBe(false);
    expect(roundedThroughDouble('12', '12.0')).toBe(false);
    expect(roundedThroughDouble('9007199254740992', '9007199254740992')).toBe(false);
    expect(roundedThroughDouble('9223372036854775807', '9223372036854774784')).toBe(false);
    expect(roundedThroughDouble('1.5', '1')).toBe(false);
  });

  it('looks at the place named: a member, a nested path, an array item', () => {
    const sent = parseExactJson('{"id":9223372036854775807,"care":{"leaves":[1,9007199254740993]},"n":1}');
    const answered = parseExactJson('{"id":9223372036854776000,"care":{"leaves":[1,9007199254740992]},"n":1}');
    expect(roundedAt(sent, answered, 'id')).toBe(true);
    expect(roundedAt(sent, answered, 'care.leaves.1')).toBe(true);
    expect(roundedAt(sent, answered, 'care.leaves[1]')).toBe(true);
    expect(roundedAt(sent, answered, 'care.leaves.0')).toBe(false);
    expect(roundedAt(sent, answered, 'n')).toBe(false);
    expect(roundedAt(sent, answered, 'missing')).toBe(false);
    expect(roundedAt(sent, parseExactJson('{"id":"9223372036854776000"}'), 'id')).toBe(false);
  });
});

describe('namesMember', () => {
  it('finds a member named as a word in any letter case, as refusals name fields, and never a key with no word in it', () => {
    expect(namesMember('{"name":["This field may not be blank."]}', 'name')).toBe(true);
    expect(namesMember("Key: 'NewPlant.Name' Error:Field validation for 'Name' failed", 'name')).toBe(true);
    expect(namesMember('param is missing or the value is empty: name', 'name')).toBe(true);
    expect(namesMember('{"error":4,"message":"a plant with this id exists"}', 'name')).toBe(false);
    expect(namesMember('unknown field "nickname"', 'name')).toBe(false);
    expect(namesMember('"tag-line" is not allowed', 'tag')).toBe(false);
    expect(namesMember('anything at all', '')).toBe(false);
    expect(namesMember('"$ref" is not allowed', '$ref')).toBe(true);
  });
});
