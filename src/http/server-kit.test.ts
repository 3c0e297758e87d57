import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loggedTarget, readBody, readBodyThen, type BodyResult } from './server-kit.js';

/** A request body as a stream with the request's headers, fed chunk by chunk. */
function fakeRequest(headers: Record<string, string> = {}): PassThrough & IncomingMessage {
  return Object.assign(new PassThrough(), { headers }) as unknown as PassThrough & IncomingMessage;
}

describe('loggedTarget', () => {
  it('hides query values, where clients put tokens (access_token), and keeps the path', () => {
    expect(loggedTarget('/plants?access_token=s3cret&debug')).toBe('/plants?access_token=…&debug');
    expect(loggedTarget('/plants')).toBe('/plants');
    expect(loggedTarget(undefined)).toBe('/');
  });

  it('cuts a long target to 200 characters', () => {
    expect(loggedTarget(`/${'p'.repeat(500)}`)).toHaveLength(200);
  });
});

describe('readBody', () => {
  it('reads a body of one chunk or of several as the same bytes', async () => {
    for (const chunks of [['{"id":1,"name":"Fern"}'], ['{"id":1,', '"name":', '"Fern"}'], []]) {
      const req = fakeRequest();
      const read = readBody(req, 1024);
      for (const chunk of chunks) req.write(Buffer.from(chunk));
      req.end();
      const result = await read;
      expect(result.ok && result.body.toString('utf8')).toBe(chunks.join(''));
    }
  });

  it('refuses a body past the limit, streamed or declared, and answers a declared one after the caller returns', async () => {
    const streamed = fakeRequest();
    const read = readBody(streamed, 4);
    streamed.write(Buffer.from('{"id":'));
    expect(await read).toMatchObject({ ok: false, problem: { code: 1009 } });
    const results: BodyResult[] = [];
    readBodyThen(fakeRequest({ 'content-length': '5' }), 4, (result) => results.push(result));
    expect(results).toEqual([]);
    await Promise.resolve();
    expect(results).toMatchObject([{ ok: false, problem: { code: 1009 } }]);
  });

  it('says a body that ends early was incomplete', async () => {
    const req = fakeRequest();
    const read = readBody(req, 1024);
    req.write(Buffer.from('{"id"'));
    req.destroy();
    expect(await read).toMatchObject({ ok: false, problem: { code: 1012 } });
  });
});
