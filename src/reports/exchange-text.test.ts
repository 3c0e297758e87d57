/* eslint-disable no-control-regex -- these tests look for control characters in the output */
import { describe, expect, it } from 'vitest';
import { counted, failureText, oneLine, printable, requestText, responseText, truncate } from './exchange-text.js';
import { sampleReport } from '../fixtures/sample-reports.js';

describe('printable', () => {
  it('spells control, invisible and bidi characters, noncharacters and lone surrogates as <U+XXXX>', () => {
    expect(printable('a\u0000b\u001b[31m\u202e\u200b\ufffe\udc00\ud800\u0085')).toBe(
      'a<U+0000>b<U+001B>[31m<U+202E><U+200B><U+FFFE><U+DC00><U+D800><U+0085>',
    );
  });

  it('spells private-use, soft-hyphen and tag characters and astral noncharacters by code point', () => {
    expect(printable('\ue000|\u{10fffd}|\u00ad|\u{e0041}|\u{1fffe}|😀', { keepLines: true })).toBe(
      '<U+E000>|<U+10FFFD>|<U+00AD>|<U+E0041>|<U+1FFFE>|😀',
    );
  });

  it('keeps astral characters, combining marks and right-to-left letters', () => {
    expect(printable('😀 e\u0301 שלום')).toBe('😀 e\u0301 שלום');
  });

  it('keeps newlines and tabs only when asked, and always spells carriage returns', () => {
    expect(printable('a\n\tb\r')).toBe('a<U+000A><U+0009>b<U+000D>');
    expect(printable('a\n\tb\r', { keepLines: true })).toBe('a\n\tb<U+000D>');
  });
});

describe('truncate', () => {
  it('says how much was cut', () => {
    expect(truncate('abcdef', 4)).toBe('abcd… (2 more characters)');
    expect(truncate('abc', 4)).toBe('abc');
  });

  it('never splits a surrogate pair', () => {
    expect(truncate('ab😀cd', 3)).toBe('ab… (4 more characters)');
  });
});

describe('oneLine', () => {
  it('flattens line breaks and cuts to length', () => {
    expect(oneLine('first\n  second\nthird', 100)).toBe('first second third');
    expect(oneLine('x'.repeat(50), 10)).toBe(`${'x'.repeat(9)}…`);
  });

  it('stays within its width even when characters are spelled out', () => {
    expect(oneLine('\u0000'.repeat(10), 20)).toHaveLength(20);
    expect(oneLine('ab😀', 3)).toBe('ab…');
  });
});

describe('exchange text', () => {
  const [first, timeout, cut] = [
    sampleReport().checks[0]?.failures[0],
    sampleReport().checks[4]?.failures[0],
    sampleReport().checks[4]?.failures[1],
  ];

  it('renders a request as request line, headers and body', () => {
    const text = requestText(first!.request, { maxBody: 1000 });
    expect(text.split('\n').slice(0, 3)).toEqual([
      'POST http://127.0.0.1:4010/plants',
      'authorization: Bearer $PLANTSTORE_TOKEN',
      'content-type: application/json',
    ]);
    expect(text).toContain('{"id":9223372036854775807');
  });

  it('shows the exact bytes of a body that is not UTF-8', () => {
    expect(requestText(cut!.request, { maxBody: 100 })).toContain('exact bytes as base64: 7aCA');
  });

  it('says when no HTTP response came, and why', () => {
    expect(responseText(timeout!.response, { maxBody: 100 })).toBe('no HTTP response (timeout) after 5000 ms');
  });

  it('cuts long bodies and says the runner cut one', () => {
    const text = responseText(cut!.response, { maxBody: 50 });
    expect(text).toContain('(99950 more characters)');
    expect(text).toContain('body cut short by the runner');
  });

  it('puts reason, request, response, curl and replay in a failure', () => {
    const text = failureText(first!, { maxBody: 100 });
    for (const part of [
      'Reason: ',
      'Request:',
      'Response:',
      'HTTP 500',
      'curl: curl -sS',
      'replay: plantstore test --seed 42',
    ]) {
      expect(text).toContain(part);
    }
    expect(text).not.toMatch(/[\u0000\u001b\ud800]/u);
  });
});

describe('counted', () => {
  it('uses the singular for one only', () => {
    expect([0, 1, 2].map((n) => counted(n, 'case'))).toEqual(['0 cases', '1 case', '2 cases']);
  });
});
