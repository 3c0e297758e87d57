import { createRequire } from 'node:module';
import type * as Undici from 'undici';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);

describe("the runner's undici", () => {
  it('loads Client, Pool (with their request API), parseHeaders and headerNameToString without the index, the ones the index exports', async () => {
    const index = require.resolve('undici');
    const { Client, headerNameToString, parseHeaders, Pool } = await import('./undici.js');
    await import('../run.js');
    // vitest gives each test file a process of its own, so nothing else here loaded undici's index.
    expect(Object.keys(require.cache)).not.toContain(index);
    expect(typeof Pool.prototype.request).toBe('function');
    expect(typeof Client.prototype.request).toBe('function');
    const undici = require('undici') as typeof Undici;
    expect(Client).toBe(undici.Client);
    expect(Pool).toBe(undici.Pool);
    expect(parseHeaders).toBe(undici.util.parseHeaders);
    expect(headerNameToString).toBe(undici.util.headerNameToString);
  });
});
