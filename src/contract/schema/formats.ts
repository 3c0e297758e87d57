import fc from 'fast-check';

/**
 * Generators of strings valid under ajv-formats' full `format` semantics (the ones `check` applies),
 * and strings each format refuses, for invalid variants.
 */

/**
 * `fc.stringMatching(regex)`, built on first draw: building parses the regex, and all of them together
 * cost about 16 ms at module load in processes that may never generate a format. Draws, shrinks and
 * values are the built arbitrary's own.
 */
function matching(regex: RegExp): fc.Arbitrary<string> {
  return new Deferred(() => fc.stringMatching(regex));
}

class Deferred<T> extends fc.Arbitrary<T> {
  private built: fc.Arbitrary<T> | undefined;

  constructor(private readonly build: () => fc.Arbitrary<T>) {
    super();
  }

  private get arbitrary(): fc.Arbitrary<T> {
    this.built ??= this.build();
    return this.built;
  }

  generate(random: fc.Random, biasFactor: number | undefined): fc.Value<T> {
    return this.arbitrary.generate(random, biasFactor);
  }

  canShrinkWithoutContext(value: unknown): value is T {
    return this.arbitrary.canShrinkWithoutContext(value);
  }

  shrink(value: T, context: unknown): fc.Stream<fc.Value<T>> {
    return this.arbitrary.shrink(value, context);
  }
}

const pad = (value: number, width = 2): string => String(value).padStart(width, '0');
const hex = (width: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), minLength: width, maxLength: width });

function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

// Years from 1: year 0000 is RFC 3339 but Python's datetime (and others) cannot hold it.
const date = fc
  .tuple(fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }))
  .map(([year, month, day]) => `${pad(year, 4)}-${pad(month)}-${pad(Math.min(day, daysIn(year, month)))}`);

// Upper-case T and Z, offsets with a colon: RFC 3339 allows lower case (and ajv a space or `+0100`), but
// Go's time.Time, Python's fromisoformat and most parsers refuse those, and the contract is judged on
// what a document's readers agree on. Schemathesis draws the same way (Python's isoformat).
const zone = fc.oneof(
  fc.constantFrom('Z', '+00:00'),
  fc
    .tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
    .map(([sign, h, m]) => `${sign}${pad(h)}:${pad(m)}`),
);
const fraction = fc.option(
  fc.integer({ min: 0, max: 999999 }).map((value) => `.${value}`),
  { nil: '' },
);
const time = fc
  .tuple(
    fc.integer({ min: 0, max: 23 }),
    fc.integer({ min: 0, max: 59 }),
    fc.integer({ min: 0, max: 59 }),
    fraction,
    zone,
  )
  .map(([h, m, s, f, z]) => `${pad(h)}:${pad(m)}:${pad(s)}${f}${z}`);

const label = fc
  .tuple(matching(/^[a-z0-9]$/), matching(/^(?:[a-z0-9-]{0,12}[a-z0-9])?$/))
  .map(([first, rest]) => first + rest);
const hostname = fc.array(label, { minLength: 1, maxLength: 4 }).map((labels) => labels.join('.'));
const domain = fc
  .tuple(fc.array(label, { minLength: 1, maxLength: 3 }), matching(/^[a-z]{2,6}$/))
  .map(([labels, top]) => [...labels, top].join('.'));
const ipv4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((parts) => parts.join('.'));
const ipv6 = fc.oneof(
  fc
    .array(fc.nat(0xffff), { minLength: 8, maxLength: 8 })
    .map((parts) => parts.map((part) => part.toString(16)).join(':')),
  fc
    .tuple(fc.array(fc.nat(0xffff), { maxLength: 3 }), fc.array(fc.nat(0xffff), { maxLength: 3 }))
    .map(
      ([head, tail]) =>
        `${head.map((part) => part.toString(16)).join(':')}::${tail.map((part) => part.toString(16)).join(':')}`,
    ),
);
// E-mail addresses as their readers agree: RFC 5321 also allows `/`, `%`, `!` and more in the local part,
// and any top-level label, but zod's and validator.js's `email` refuse those characters, and Apache Commons
// checks the top-level domain against IANA's list. Invalid values are unchanged.
const EMAIL_TOP_LEVEL = ['com', 'org', 'net', 'io', 'dev', 'info'];
const local = matching(/^[a-zA-Z0-9]{1,10}(?:[._+-][a-zA-Z0-9]{1,6})?$/);
const mailDomain = fc
  .tuple(fc.array(label, { minLength: 1, maxLength: 2 }), fc.constantFrom(...EMAIL_TOP_LEVEL))
  .map(([labels, top]) => [...labels, top].join('.'));
const segment = matching(/^[a-zA-Z0-9._~-]{0,10}$/);
const uri = fc
  .tuple(
    fc.constantFrom('https', 'http', 'urn', 'ftp'),
    domain,
    fc.array(segment, { maxLength: 3 }),
    fc.option(matching(/^[a-z0-9=&]{1,10}$/), { nil: undefined }),
  )
  .map(([scheme, host, path, query]) =>
    scheme === 'urn' ? `urn:${host}` : `${scheme}://${host}/${path.join('/')}${query === undefined ? '' : `?${query}`}`,
  );

// A version (1 to 8) and RFC 9562's variant (8, 9, a or b) where those digits stand: ajv-formats takes any hex
// digits, but zod 4's `uuid()` and Java's strict parsers want them.
const uuid = fc
  .tuple(hex(8), hex(4), fc.constantFrom(...'12345678'), hex(3), fc.constantFrom(...'89abAB'), hex(3), hex(12))
  .map(([a, b, version, c, variant, d, e]) => `${a}-${b}-${version}${c}-${variant}${d}-${e}`);

/**
 * NSwag's (NJsonSchema's) `format: guid`, a .NET `System.Guid`: the forms `Guid.Parse` reads, 32 hex digits
 * with hyphens (D), without (N), in braces (B) or in parentheses (P). Valid values are sent as UUIDs (D).
 */
export const GUID_PATTERN =
  /^(?:[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}|[0-9a-fA-F]{32}|\{[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}\}|\([0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}\))$/;

/**
 * OpenAPI's `format: byte`, RFC 4648 base64 with its padding and nothing else. ajv-formats' own pattern
 * carries the `m` flag, so any text with a line break in it (`"not base64\n"`: an empty line matches) passed.
 */
export const BYTE_PATTERN = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const byte = fc.uint8Array({ maxLength: 30 }).map((bytes) => Buffer.from(bytes).toString('base64'));

const FORMATS: Readonly<Record<string, fc.Arbitrary<string>>> = {
  date,
  time,
  'date-time': fc.tuple(date, time).map(([d, t]) => `${d}T${t}`),
  'iso-time': time,
  'iso-date-time': fc.tuple(date, time).map(([d, t]) => `${d}T${t}`),
  duration: fc.constantFrom('P1D', 'PT1H30M', 'P1Y2M3DT4H5M6S', 'P2W', 'PT0S'),
  uri,
  'uri-reference': fc.oneof(uri, fc.constantFrom('/relative/path', 'x?y=1', '#fragment', '')),
  iri: uri,
  'iri-reference': uri,
  'uri-template': fc.constantFrom('https://example.com/{id}', '/plants{?tag,limit}', 'plain'),
  url: fc
    .tuple(fc.constantFrom('https', 'http'), domain, segment)
    .map(([scheme, host, path]) => `${scheme}://${host}/${path}`),
  email: fc.tuple(local, mailDomain).map(([user, host]) => `${user}@${host}`),
  'idn-email': fc.tuple(local, mailDomain).map(([user, host]) => `${user}@${host}`),
  hostname,
  'idn-hostname': hostname,
  ipv4,
  ipv6,
  regex: fc.constantFrom('^a+$', '[0-9]{2}', '.*', '(x|y)?'),
  uuid,
  guid: uuid,
  'json-pointer': fc.constantFrom('', '/a', '/a~1b/0', '/~0'),
  'json-pointer-uri-fragment': fc.constantFrom('#', '#/a', '#/a~1b/0'),
  'relative-json-pointer': fc.constantFrom('0', '1/a', '2#'),
  byte,
};

/**
 * Valid strings of a format, or `undefined` when any string is valid: `password`, `binary` and
 * formats ajv-formats does not know are annotations, as JSON Schema 2020-12 says.
 */
export function formatArbitrary(format: string): fc.Arbitrary<string> | undefined {
  return Object.hasOwn(FORMATS, format) ? FORMATS[format] : undefined;
}

/** Strings a format refuses (each well-formed JSON), shortest first, for invalid variants. */
export const INVALID_FORMAT_TEXT: Readonly<Record<string, readonly string[]>> = {
  date: ['2024-02-30', '2024-13-01', '24-01-01', 'today'],
  time: ['25:00:00Z', '12:00:00', '12:60:00Z', 'noon'],
  'date-time': ['2024-02-30T00:00:00Z', '2024-01-01T25:00:00Z', '2024-01-01 00:00:00', 'now'],
  'iso-time': ['25:00:00', 'noon'],
  'iso-date-time': ['2024-02-30T00:00:00', 'now'],
  duration: ['P', 'PT', '1D', 'P1H'],
  uri: ['x', 'no scheme', '/relative', '1http://x'],
  'uri-reference': ['\\\\', 'a b', 'http://x y'],
  'uri-template': ['{', 'a{b', '{a b}'],
  url: ['x', 'example.com', 'https://'],
  email: ['@', 'a@', '@b.c', 'not-an-email', 'a@b@c.d'],
  hostname: ['-', '-bad-', 'a..b', 'under_score', 'a b'],
  ipv4: ['1', '256.1.1.1', '1.2.3', '01.2.3.4.5'],
  ipv6: [':', '1::2::3', 'g::1', '12345::'],
  regex: ['[', '(', '*a', 'a{2,1}'],
  uuid: ['0', 'not-a-uuid', '123e4567-e89b-12d3-a456-42661417400g', '123e4567e89b12d3a456426614174000'],
  guid: ['0', 'not-a-guid', '123e4567-e89b-12d3-a456-42661417400g', '123e4567-e89b12d3-a456-426614174000'],
  'json-pointer': ['a', '/~2', '#/a'],
  'json-pointer-uri-fragment': ['/a', 'a'],
  'relative-json-pointer': ['-1', '/a', 'a'],
  byte: ['!', 'a', 'abc', '====', 'a b='],
};

/**
 * Strings a format refuses that a common parser of another language reads as one, each with the parser: a
 * server checking the format with it accepts them. Each is sent every run, as an invalid boundary.
 */
export const LENIENT_FORMAT_TEXT: Readonly<Record<string, readonly { text: string; reader: string }[]>> = {
  date: [
    { text: '20240101', reader: "Python's date.fromisoformat" },
    { text: '2024-W01-1', reader: "Python's date.fromisoformat" },
    { text: '2024-1-5', reader: "Python's strptime('%Y-%m-%d') and JavaScript's Date.parse" },
    { text: '2024/01/05', reader: "JavaScript's Date.parse" },
  ],
  time: [
    { text: '120000Z', reader: "Python's time.fromisoformat" },
    { text: '12:00Z', reader: "Java's OffsetTime.parse" },
  ],
  duration: [
    { text: 'pt1h', reader: "Java's Duration.parse" },
    { text: 'PT1.5S', reader: "Java's Duration.parse" },
    { text: '-PT1H', reader: "Java's Duration.parse" },
  ],
  byte: [
    {
      text: 'YWJj!ZGVm',
      reader: "Python's base64.b64decode without validate=True and Node's Buffer.from(s, 'base64')",
    },
    { text: 'YWJj-_8=', reader: "Node's Buffer.from(s, 'base64') (the URL-safe alphabet)" },
    { text: 'YWJj\nZGVm', reader: "Python's base64.b64decode without validate=True and Java's MIME decoder" },
  ],
  ipv4: [
    { text: '127.1', reader: "Python's socket.inet_aton" },
    { text: '0x7f.0.0.1', reader: "Python's socket.inet_aton" },
  ],
  'date-time': [
    { text: '2024-01-01T00:00:00', reader: "Python's datetime.fromisoformat and Java's LocalDateTime.parse" },
    { text: '20240101T000000Z', reader: "Python's datetime.fromisoformat" },
    { text: '2024-01-01T00:00Z', reader: "Java's OffsetDateTime.parse" },
  ],
};

const YEAR = '(?:[1-9][0-9]{3}|0[1-9][0-9]{2}|00[1-9][0-9]|000[1-9])';
const DAY = '(?:0[1-9]|1[0-9]|2[0-8])';
const MONTH = '(?:0[1-9]|1[0-2])';
const TIME = '(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]+)?(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])';
const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const EMAIL_LOCAL = '[a-zA-Z0-9]+(?:[._+-][a-zA-Z0-9]+)*';
const EMAIL_ATOM = "[a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]+";

/**
 * For formats whose strings can be built to a length: a pattern whose every match is valid under
 * the format (a part of it, chosen to reach every length the format allows, or most), and the
 * format's own longest string where it has one. Used when a format meets `minLength`/`maxLength`.
 * `outside`, where given, is a wider pattern of the format for strings one code point outside a
 * length bound: the valid ones keep to what the format's readers agree on (see `local` above), a
 * string refused for its length may be any the format allows (`a@b.c` below `minLength: 6`).
 */
export const FORMAT_SHAPES: Readonly<
  Record<string, { readonly pattern: string; readonly outside?: string; readonly longest?: number }>
> = {
  date: { pattern: `^${YEAR}-${MONTH}-${DAY}$` },
  time: { pattern: `^${TIME}$` },
  'date-time': { pattern: `^${YEAR}-${MONTH}-${DAY}T${TIME}$` },
  email: {
    pattern: `^${EMAIL_LOCAL}@(?:${LABEL}\\.)+(?:${EMAIL_TOP_LEVEL.join('|')})$`,
    outside: `^${EMAIL_ATOM}(?:\\.${EMAIL_ATOM})*@(?:${LABEL}\\.)+${LABEL}$`,
  },
  hostname: { pattern: `^${LABEL}(?:\\.${LABEL})*\\.?$`, longest: 253 },
  uri: { pattern: '^[a-zA-Z][a-zA-Z0-9+.-]*:(?://[a-z0-9.-]*)?(?:[a-zA-Z0-9._~-]|/)+$' },
  'uri-reference': { pattern: '^[a-zA-Z0-9._~-]*(?:/[a-zA-Z0-9._~-]*)*$' },
  uuid: {
    pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$',
    outside: '^(?:urn:uuid:)?[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$',
  },
  guid: {
    pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$',
    outside: '^[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12}$',
  },
  ipv4: { pattern: `^${OCTET}(?:\\.${OCTET}){3}$` },
  byte: { pattern: '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$' },
  duration: {
    pattern: '^P(?:[0-9]+W|(?:[0-9]+D|[0-9]+Y(?:[0-9]+M)?(?:[0-9]+D)?)(?:T[0-9]+H(?:[0-9]+M)?(?:[0-9]+S)?)?)$',
  },
  'json-pointer': { pattern: '^(?:/(?:[^~/]|~0|~1)*)*$' },
  'relative-json-pointer': { pattern: '^(?:0|[1-9][0-9]*)(?:#|(?:/(?:[^~/]|~0|~1)*)*)$' },
};
