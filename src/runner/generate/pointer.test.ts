import { describe, expect, it } from 'vitest';
import { parseExactJson } from '../../contract/index.js';
import { valueAt } from './pointer.js';

describe('valueAt', () => {
  const root = parseExactJson('{"a/b":{"~x":[1, 9007199254740993]},"n":null}');

  it('follows escaped keys and array indexes, and gives a number its text as written', () => {
    expect(valueAt(root, '/a~1b/~0x/1')).toEqual({ present: true, value: 9007199254740992, text: '9007199254740993' });
    expect(valueAt(root, '/n')).toEqual({ present: true, value: null });
    expect(valueAt(root, '')).toEqual({ present: true, value: root });
  });

  it('finds nothing past the end of an array, at a missing key, or inside a scalar', () => {
    expect(valueAt(root, '/a~1b/~0x/2')).toEqual({ present: false });
    expect(valueAt(root, '/a/b')).toEqual({ present: false });
    expect(valueAt(root, '/n/0')).toEqual({ present: false });
  });
});
