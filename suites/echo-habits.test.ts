import { describe, expect, it } from 'vitest';
import { CORRECT_STEPS, faultyTarget } from '../src/fixtures/base/plant-service.js';
import { runConformance } from '../src/index.js';
import {
  CUT_AT_NUL,
  HTML_ESCAPED,
  NONCHARACTERS_REPLACED,
  NON_ASCII_REPLACED,
  stringHabit,
  TRIMMED,
  trimmedJsonText,
} from './echo-habits.js';

describe('stringHabit', () => {
  it('names trimming at either end or both, as JavaScript, Python and Go trim', () => {
    expect(stringHabit('  padded  ', 'padded')).toBe(TRIMMED);
    expect(stringHabit('  padded  ', 'padded  ')).toBe(TRIMMED);
    expect(stringHabit('  padded  ', '  padded')).toBe(TRIMMED);
    expect(stringHabit(' ', '')).toBe(TRIMMED);
    expect(stringHabit('\u001f\u0085x\u3000', 'x')).toBe(TRIMMED);
    // JavaScript's trim keeps U+001C, which Python's strip would cut: what was cut is whitespace somewhere.
    expect(stringHabit(' \u001c ', '\u001c')).toBe(TRIMMED);
  });

  it('names noncharacters written as U+FFFD, in the BMP and in the last plane', () => {
    expect(stringHabit('a\ufffe\ufdd0', 'a\ufffd\ufffd')).toBe(NONCHARACTERS_REPLACED);
    expect(stringHabit('\udbff\udfff', '\ufffd')).toBe(NONCHARACTERS_REPLACED);
  });

  it('names characters beyond ASCII written as "?" or U+FFFD, per code point, UTF-16 unit or UTF-8 byte', () => {
    // Java's new String(bytes) and getBytes() under LANG=POSIX: each UTF-8 byte read as U+FFFD, written as "?".
    expect(stringHabit('é 🌱', '?? ????')).toBe(NON_ASCII_REPLACED);
    expect(stringHabit('é 🌱', '? ?')).toBe(NON_ASCII_REPLACED);
    expect(stringHabit('é 🌱', '? ??')).toBe(NON_ASCII_REPLACED);
    expect(stringHabit('é 🌱', '\ufffd\ufffd \ufffd\ufffd\ufffd\ufffd')).toBe(NON_ASCII_REPLACED);
    // Only some replaced, an ASCII string changed, or "?" for another count: another difference.
    expect(stringHabit('é 🌱', '? 🌱')).toBeUndefined();
    expect(stringHabit('a?', 'a??')).toBeUndefined();
    expect(stringHabit('é', '???')).toBeUndefined();
  });

  it('names HTML escaping of & < > " \' as Go, Python, PHP and lodash write it', () => {
    expect(stringHabit('<b>&"\'', '&lt;b&gt;&amp;&quot;&#39;')).toBe(HTML_ESCAPED);
    expect(stringHabit('"\'', '&#34;&#39;')).toBe(HTML_ESCAPED);
    expect(stringHabit("it's", 'it&#x27;s')).toBe(HTML_ESCAPED);
    expect(stringHabit("it's", 'it&#039;s')).toBe(HTML_ESCAPED);
    // A literal entity sent is escaped once more.
    expect(stringHabit('&amp;', '&amp;amp;')).toBe(HTML_ESCAPED);
    // Entities decoded (the opposite), or another character escaped: not this habit.
    expect(stringHabit('&lt;', '<')).toBeUndefined();
    expect(stringHabit('é', '&eacute;')).toBeUndefined();
  });

  it('names strings cut at their first U+0000, as C strings (cJSON valuestring)', () => {
    expect(stringHabit('a\u0000b', 'a')).toBe(CUT_AT_NUL);
    expect(stringHabit('\u0000!', '')).toBe(CUT_AT_NUL);
    // All that follows the NUL is whitespace too: still the one habit, not trimming besides it (one finding for cJSON).
    expect(stringHabit('\u0000', '')).toBe(CUT_AT_NUL);
    expect(stringHabit(' x\u0000 ', ' x')).toBe(CUT_AT_NUL);
    // Cut at both ends (Java's trim cuts U+0000 as it cuts spaces): trimming.
    expect(stringHabit('\u0000x\u0000', 'x')).toBe(TRIMMED);
    expect(stringHabit('a\u0000b\u0000c', 'a\u0000b')).toBeUndefined();
  });

  it('names nothing for other changes: cut inside, another value, case, a value of another type', () => {
    expect(stringHabit('pad ded', 'padded')).toBeUndefined();
    expect(stringHabit(' padded ', 'padde')).toBeUndefined();
    // Cut to a length where whitespace follows: a trimmer would have cut the space left at the end too.
    expect(stringHabit('\u007f\ud800\udc00 \u007f  ', '\u007f\ud800\udc00 \u007f ')).toBeUndefined();
    expect(stringHabit('  x', ' x')).toBeUndefined();
    expect(stringHabit('Fern', 'fern')).toBeUndefined();
    expect(stringHabit('a\ufffe', 'a')).toBeUndefined();
    expect(stringHabit('12', 12)).toBeUndefined();
    expect(stringHabit('same', 'same')).toBeUndefined();
  });
});

describe('trimmedJsonText', () => {
  it('cuts the whitespace at the ends of string values at any depth, never of member names', () => {
    expect(trimmedJsonText('{"id":1,"name":"  Fern\\u3000","care":{" water ":" \\n x"}}')).toBe(
      '{"id":1,"name":"Fern","care":{" water ":"x"}}',
    );
    expect(trimmedJsonText('{"name" : "\\" a \\" "}')).toBe('{"name" : "\\" a \\""}');
  });

  it('is undefined when no string changes, or for a text that is not JSON', () => {
    expect(trimmedJsonText('{"name": "\\ "}')).toBeUndefined();
    expect(trimmedJsonText('"\u0001 "')).toBeUndefined();
    expect(trimmedJsonText('{"id":1,"name":"Fern"," tag ":"x y"}')).toBeUndefined();
  });

  it('is undefined, never a throw, for an invalid body holding a string JSON cannot read', () => {
    // A raw control character and a bad escape, as negative-rejection's invalid bodies send them.
    // (In these TypeScript literals \u0007 and \t are the raw characters, which JSON does not allow in a string.)
    expect(trimmedJsonText('{"name":"\u0007 x\t ","tag":" a "}')).toBeUndefined();
    expect(trimmedJsonText('{"name": "\\ ", "tag": " a "}')).toBeUndefined();
  });
});

/**
 * A Java server on an ASCII default charset (LANG=POSIX): `new String(bytes)` reads each UTF-8 byte beyond ASCII as
 * U+FFFD, and `getBytes()` writes each as `?`, in every field it echoes.
 */
const platformCharset = faultyTarget(
  { name: 'platform-charset', defect: 'characters beyond ASCII echoed as ?', expectedFailures: ['echo'] },
  {
    plantAnswer: (plant) =>
      CORRECT_STEPS.plantAnswer({
        ...plant,
        name: asciiBytes(plant.name),
        ...(plant.tag === undefined ? {} : { tag: asciiBytes(plant.tag) }),
      }),
  },
);

function asciiBytes(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((byte) => (byte < 0x80 ? String.fromCharCode(byte) : '?')).join('');
}

describe('a server echoing characters beyond ASCII as "?"', () => {
  it('has one echo finding, whichever fields showed it', async () => {
    for (const seed of [7, 42]) {
      const target = await platformCharset.start();
      try {
        const report = await runConformance({
          baseUrl: target.url,
          token: target.token,
          seed,
          runs: 60,
          concurrency: 4,
        });
        expect(report.checks.filter((check) => check.status === 'fail').map((check) => check.id)).toEqual(['echo']);
        expect((report.findings ?? []).map((finding) => finding.title)).toEqual([NON_ASCII_REPLACED]);
      } finally {
        await target.close();
      }
    }
  }, 120_000);
});
