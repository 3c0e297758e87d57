import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonDepthError, nestingDepth, numberText, parseExactJson, parseLosslessJson } from './exact-json.js';
import { NOT_PLAIN, numberEnd, parsePlainJson } from './plain-json.js';

/** Everything a caller can see of a parse: the values, their prototypes, every number's text, or the error. */
function outcome(parse: (text: string) => unknown, text: string): unknown {
  try {
    return { value: shape(parse(text)) };
  } catch (error) {
    return { error: `${(error as Error).name}: ${(error as Error).message}` };
  }
}

function shape(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).map(([key, item]) => {
    const index = Array.isArray(value) ? Number(key) : key;
    return [key, shape(item), numberText(value, index) ?? null];
  });
  return { array: Array.isArray(value), nullPrototype: Object.getPrototypeOf(value) === null, entries };
}

/** JSON texts, spaced in different ways, and the same texts broken by a few edits. */
const texts = fc.oneof(
  fc.tuple(fc.jsonValue(), fc.constantFrom(undefined, 1, '\t', ' \r\n')).map(([value, space]) => {
    return JSON.stringify(value, null, space) ?? 'null';
  }),
  fc
    .tuple(fc.json(), fc.array(fc.tuple(fc.nat(), fc.nat(2), fc.constantFrom(...'{}[]",:\\0-1.eE+ tfnu\u0001'))))
    .map(([text, edits]) =>
      edits.reduce((edited, [at, cut, char]) => {
        const place = at % (edited.length + 1);
        return edited.slice(0, place) + char + edited.slice(place + cut);
      }, text),
    ),
  fc.constantFrom(
    '{"id": 1, "id": 1}',
    '{"id": 1, "id": 2}',
    '{"__proto__": {"polluted": true}, "constructor": 1}',
    '[1e400, -1e400, 9007199254740993, -0, 1.50, 2E+3]',
    '"\\ud800"',
    '01',
    '\ufeff{}',
    '',
  ),
);

/** The depth limit as it was first applied: counted on the whole text before any parsing. */
function depthFirst(text: string, maxDepth: number): unknown {
  const depth = nestingDepth(text);
  if (depth > maxDepth) throw new JsonDepthError(`JSON nests ${depth} levels deep; at most ${maxDepth} are accepted`);
  return parseLosslessJson(text);
}

/** Texts nested a few levels around the others, or hundreds of levels, whole or cut short. */
const nestedTexts = fc
  .tuple(texts, fc.oneof(fc.nat(6), fc.integer({ min: 250, max: 262 })), fc.boolean(), fc.boolean())
  .map(([text, levels, objects, cut]) => {
    const [open, close] = objects ? ['{"a":', '}'] : ['[', ']'];
    const nested = `${open.repeat(levels)}${text}${close.repeat(levels)}`;
    return cut ? nested.slice(0, -1) : nested;
  });

describe('parsePlainJson', () => {
  it('meets the depth limit as a count of the whole text first would: the same values and errors', () => {
    fc.assert(
      fc.property(nestedTexts, fc.constantFrom(1, 3, 6, 256, 300), (text, maxDepth) => {
        expect(outcome((input) => parseExactJson(input, maxDepth), text)).toEqual(
          outcome((input) => depthFirst(input, maxDepth), text),
        );
      }),
      { numRuns: 500, seed: 17 },
    );
  });

  it('answers exactly what lossless-json does, or leaves the text to it', () => {
    fc.assert(
      fc.property(texts, (text) => {
        expect(outcome(parseExactJson, text)).toEqual(outcome(parseLosslessJson, text));
      }),
      { numRuns: 2_000, seed: 13 },
    );
  });

  it('takes ordinary bodies itself and leaves repeated keys to lossless-json', () => {
    const remembered: string[] = [];
    const remember = (_parent: object, key: string | number, text: string): void => {
      remembered.push(`${key}=${text}`);
    };
    const plain = parsePlainJson('{"id": 9007199254740993, "name": "Fern \\"2\\"", "tags": [1.0]}', remember);
    expect(plain).not.toBe(NOT_PLAIN);
    expect(remembered).toEqual(['id=9007199254740993', '0=1.0']);
    expect(parsePlainJson('{"id": 1, "id": 1}', remember)).toBe(NOT_PLAIN);
  });

  it('ends a number where the sticky number regex it replaces ends its match, or finds none where it finds none', () => {
    const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    const regexEnd = (text: string, at: number): number => {
      NUMBER.lastIndex = at;
      const match = NUMBER.exec(text);
      return match === null ? -1 : at + match[0].length;
    };
    const numberish = fc.oneof(
      fc.array(fc.constantFrom(...'-+0123456789.eE x,]'), { maxLength: 14 }).map((codes) => codes.join('')),
      fc.double().map(String),
      fc.bigInt().map(String),
      fc.constantFrom('-', '-0', '01', '1.', '1.e5', '1e', '1e+', '1E-7', '-0.0e-0', '1.5e', '2e+3x', '0x1'),
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 3 }), numberish, (before, text) => {
        const whole = before + text;
        expect(numberEnd(whole, before.length)).toBe(regexEnd(whole, before.length));
      }),
      { numRuns: 5_000, seed: 29 },
    );
  });
});
