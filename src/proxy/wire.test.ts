import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bodyReader,
  isInvalidValueCode,
  isTokenCode,
  keepsAlive,
  parseRequestHead,
  parseResponseHead,
  requestFraming,
  requestLine,
  responseFraming,
  statusLine,
  type RequestHead,
  type ResponseHead,
} from './wire.js';

/** Feeds `wire` to a chunked reader in the given pieces: the content it decoded and the bytes it took. */
function readChunked(wire: Buffer, cuts: readonly number[]): { content: Buffer; taken: number; done: boolean } {
  const reader = bodyReader({ kind: 'chunked' });
  const content: Buffer[] = [];
  let taken = 0;
  let start = 0;
  for (const end of [...cuts, wire.length]) {
    if (reader.done || end <= start) continue;
    const piece = wire.subarray(start, end);
    const took = reader.take(piece, { add: (part) => content.push(Buffer.from(part)) });
    if (took < 0) return { content: Buffer.concat(content), taken: -1, done: false };
    taken += took;
    start = end;
  }
  return { content: Buffer.concat(content), taken, done: reader.done };
}

function chunked(parts: readonly Buffer[], trailer = ''): Buffer {
  const pieces = parts.flatMap((part) => [Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]);
  return Buffer.concat([...pieces, Buffer.from(`0\r\n${trailer}\r\n`)]);
}

describe('the wire', () => {
  it('decodes chunked bodies however the bytes are split, and stops at their end (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ minLength: 1, maxLength: 40 }), { maxLength: 6 }),
        fc.array(fc.nat({ max: 400 })),
        fc.constantFrom('', 'X-Trailer: 1\r\n'),
        (parts, cuts, trailer) => {
          const body = chunked(
            parts.map((part) => Buffer.from(part)),
            trailer,
          );
          const next = Buffer.from('POST /plants HTTP/1.1\r\n');
          const wire = Buffer.concat([body, next]);
          const read = readChunked(
            wire,
            [...cuts].sort((a, b) => a - b),
          );
          expect(read.done).toBe(true);
          expect(read.taken).toBe(body.length);
          expect(read.content.equals(Buffer.concat(parts.map((part) => Buffer.from(part))))).toBe(true);
        },
      ),
    );
  });

  it('refuses chunks whose size is not hexadecimal', () => {
    expect(readChunked(Buffer.from('zz\r\nabc\r\n0\r\n\r\n'), []).taken).toBe(-1);
  });

  it('reads a request head as sent: method, target, version and headers in their own case and order', () => {
    const head = parseRequestHead('POST /plants?x=1 HTTP/1.1\r\nHost: a\r\nX-Case: Kept \r\nauthorization: bearer t');
    expect(head).toEqual({
      method: 'POST',
      target: '/plants?x=1',
      minorVersion: 1,
      rawHeaders: ['Host', 'a', 'X-Case', 'Kept', 'authorization', 'bearer t'],
    });
  });

  it('refuses what is not an HTTP/1.x head: a bad request line, a folded or nameless header, a control character', () => {
    expect(parseRequestHead('GET /')).toBeTypeOf('string');
    expect(parseRequestHead('GET / HTTP/2.0')).toBeTypeOf('string');
    expect(parseRequestHead('GET / HTTP/1.1\r\nX-A: 1\r\n folded')).toBeTypeOf('string');
    expect(parseRequestHead('GET / HTTP/1.1\r\n: 1')).toBeTypeOf('string');
    expect(parseResponseHead('HTTP/1.1 200 OK\r\nX-Bad: a\u0001b')).toBe('unforwardable-header');
    expect(parseResponseHead('SSH-2.0-OpenSSH')).toBe('not-http');
    // The first bad line says why: a value no one may send, or a line that is not a header.
    expect(parseResponseHead('HTTP/1.1 200 OK\r\nX-Bad: a\u0001b\r\nno colon')).toBe('unforwardable-header');
    expect(parseResponseHead('HTTP/1.1 200 OK\r\nno colon\r\nX-Bad: a\u0001b')).toBe('not-http');
    expect(parseResponseHead('HTTP/1.1 200 OK\r\nX-Bad: a\rb')).toBe('unforwardable-header');
  });

  it('reads header lines as a line-by-line reading of RFC 9112 would: each split at its first colon, the value trimmed of spaces and tabs', () => {
    /** The reading to agree with: split into lines, each line a token, a colon and a value without the spaces and tabs around it. */
    const byLines = (lines: readonly string[]): string[] | 'refused' => {
      const raw: string[] = [];
      for (const line of lines) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon);
        const value = line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '');
        if (colon <= 0 || !/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name) || /[^\t\x20-\x7e\x80-\xff]/.test(value))
          return 'refused';
        raw.push(name, value);
      }
      return raw;
    };
    const name = fc.constantFrom('Host', 'x-A', 'v', '', 'a b', 'X\r');
    const colon = fc.constantFrom(':', ': ', '');
    const piece = fc.constantFrom(' ', '\t', 'v', 'a b', ':', '\u0001', '\u00e9', '\r', '\n');
    const value = fc.array(piece, { maxLength: 5 }).map((pieces) => pieces.join(''));
    const line = fc.tuple(name, colon, value).map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 5 }), (lines) => {
        const head = parseRequestHead(['GET / HTTP/1.1', ...lines].join('\r\n'));
        const expected = byLines(
          lines
            .join('\r\n')
            .split('\r\n')
            .filter((_, i) => lines.length > 0 || i > 0),
        );
        if (expected === 'refused') expect(head).toBeTypeOf('string');
        else expect(head).toEqual({ method: 'GET', target: '/', minorVersion: 1, rawHeaders: expected });
      }),
      { numRuns: 2000 },
    );
  });

  it('reads a head off the bytes it was decoded from as it reads its text, whatever bytes follow it', () => {
    // The wire's heads are parsed with their bytes, which go on past the head (its blank line, a body,
    // the next request): nothing at or past the head's end may be read, or a line cut short at the
    // head's end would be read on into what follows (a colon, the LF of a CR).
    const piece = fc.constantFrom(' ', '\t', 'v', 'Host', ':', ': ', '\r\n', '\r', '\n', '\u0001', '\u00e9', '\u00ff');
    // Request lines that stop short of their parts, or go on past them, as well as whole ones.
    const text = fc
      .tuple(
        fc.constantFrom(
          'GET / HTTP/1.1',
          'POST /p?q=\u00e9 HTTP/1.0',
          'GET',
          'GET /',
          'GET / HTTP/1.1 ',
          'HTTP/1.1 200 OK',
        ),
        fc.array(piece, { maxLength: 12 }),
      )
      .map(([line, pieces]) => `${line}\r\n${pieces.join('')}`);
    const after = fc.constantFrom('', '\r\n\r\n{"id":1}', ':', '\n', ': b\r\n', 'x');
    fc.assert(
      fc.property(text, after, (head, rest) => {
        const bytes = Buffer.from(head + rest, 'latin1');
        expect(parseRequestHead(head, bytes)).toEqual(parseRequestHead(head));
        expect(parseResponseHead(head, bytes)).toEqual(parseResponseHead(head));
      }),
      { numRuns: 5_000, seed: 29 },
    );
    expect(parseRequestHead('GET', Buffer.from('GET / HTTP/1.1', 'latin1'))).toBeTypeOf('string');
    expect(parseRequestHead('GET / HTTP/1.1\r\nX-A', Buffer.from('GET / HTTP/1.1\r\nX-A: b', 'latin1'))).toBe(
      'not-http',
    );
    expect(
      parseResponseHead('HTTP/1.1 200 OK\r\nX-A: b\r', Buffer.from('HTTP/1.1 200 OK\r\nX-A: b\r\n', 'latin1')),
    ).toBe('unforwardable-header');
  });

  it('frames a request by Transfer-Encoding or Content-Length, and refuses both at once or a bad length', () => {
    const request = (...rawHeaders: string[]): RequestHead => ({
      method: 'POST',
      target: '/',
      minorVersion: 1,
      rawHeaders,
    });
    expect(requestFraming(request('Content-Length', '12'))).toEqual({ kind: 'length', length: 12 });
    expect(requestFraming(request('Transfer-Encoding', 'gzip, chunked'))).toEqual({ kind: 'chunked' });
    expect(requestFraming(request())).toEqual({ kind: 'none' });
    expect(requestFraming(request('Content-Length', '0'))).toEqual({ kind: 'none' });
    expect(requestFraming(request('Content-Length', '1', 'Transfer-Encoding', 'chunked'))).toBeTypeOf('string');
    expect(requestFraming(request('Content-Length', '1', 'Content-Length', '2'))).toBeTypeOf('string');
    expect(requestFraming(request('Content-Length', '-1'))).toBeTypeOf('string');
    expect(requestFraming(request('Transfer-Encoding', 'gzip'))).toBeTypeOf('string');
  });

  it('frames an answer: none for HEAD, 204 and 304, else chunks, a length or the close', () => {
    const answer = (status: number, ...rawHeaders: string[]): ResponseHead => ({
      status,
      statusText: '',
      minorVersion: 1,
      rawHeaders,
    });
    expect(responseFraming(answer(200, 'Content-Length', '5'), 'HEAD')).toEqual({ kind: 'none' });
    expect(responseFraming(answer(204), 'POST')).toEqual({ kind: 'none' });
    expect(responseFraming(answer(304, 'Transfer-Encoding', 'chunked'), 'GET')).toEqual({ kind: 'none' });
    expect(responseFraming(answer(200, 'Transfer-Encoding', 'chunked'), 'POST')).toEqual({ kind: 'chunked' });
    expect(responseFraming(answer(200, 'Content-Length', '5'), 'POST')).toEqual({ kind: 'length', length: 5 });
    expect(responseFraming(answer(200), 'POST')).toEqual({ kind: 'close' });
  });

  it('keeps a connection alive by default in HTTP/1.1 and only when asked in HTTP/1.0', () => {
    expect(keepsAlive([], 1)).toBe(true);
    expect(keepsAlive(['Connection', 'Upgrade, close'], 1)).toBe(false);
    expect(keepsAlive([], 0)).toBe(false);
    expect(keepsAlive(['connection', 'Keep-Alive'], 0)).toBe(true);
  });
});

describe('the characters of header lines', () => {
  const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
  const INVALID_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

  it('reads a code unit as part of an HTTP token as the token regex does, on any code unit up to 0x17f', () => {
    for (let code = 0; code <= 0x17f; code++) expect(isTokenCode(code)).toBe(TOKEN.test(String.fromCharCode(code)));
    expect(isTokenCode(NaN)).toBe(false);
  });

  it('finds a code unit a value may not hold as the value regex does, on any code unit up to 0x17f', () => {
    for (let code = 0; code <= 0x17f; code++)
      expect(isInvalidValueCode(code)).toBe(INVALID_VALUE.test(String.fromCharCode(code)));
  });

  it('reads request and status lines as the regexes they replace do, on lines near and far from them (property)', () => {
    const REQUEST_LINE = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+) ([\x21-\x7e\x80-\xff]+) HTTP\/1\.([01])$/;
    const STATUS_LINE = /^HTTP\/1\.([01]) ([1-9]\d\d)(?: ([^\r\n]*))?$/;
    const piece = fc.constantFrom(
      'GET',
      'POST',
      'a',
      ' ',
      '  ',
      '/',
      '/plants',
      '?x=1',
      'HTTP/1.1',
      'HTTP/1.0',
      'HTTP/1.2',
      'HTTP/2',
      ' HTTP/1.1',
      '\u00e9',
      '\u0100',
      '\r',
      '\n',
      '\t',
      '\u007f',
      ':',
      '200',
      '099',
      '2000',
      '404',
      ' OK',
      ' ',
      'Not Found',
      '1',
    );
    const lines = fc.oneof(
      fc.array(piece, { maxLength: 6 }).map((pieces) => pieces.join('')),
      fc
        .tuple(fc.constantFrom('GET ', 'POST ', 'HTTP/1.1 ', 'HTTP/1.0 '), fc.array(piece, { maxLength: 4 }))
        .map(([start, pieces]) => start + pieces.join('')),
    );
    fc.assert(
      fc.property(lines, (line) => {
        const request = REQUEST_LINE.exec(line);
        expect(requestLine(line, line.length)).toEqual(
          request === null ? undefined : [request[1], request[2], Number(request[3])],
        );
        const status = STATUS_LINE.exec(line);
        expect(statusLine(line, line.length)).toEqual(
          status === null ? undefined : [Number(status[1]), Number(status[2]), status[3]],
        );
      }),
      { numRuns: 5_000, seed: 23 },
    );
    expect(requestLine('GET / HTTP/1.1', 14)).toEqual(['GET', '/', 1]);
    expect(statusLine('HTTP/1.1 200 OK', 15)).toEqual([1, 200, 'OK']);
    expect(statusLine('HTTP/1.0 204', 12)).toEqual([0, 204, undefined]);
  });
});
