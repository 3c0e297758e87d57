import { describe, expect, it } from 'vitest';
import { faultyTarget } from '../fixtures/base/plant-service.js';
import { runConformance } from '../index.js';

/** A JSON text's bytes with each surrogate escape (`\udc00`) written as its raw three bytes, as Nim 1.6's std/json does. */
function withRawSurrogates(text: string): Buffer {
  const pieces: Buffer[] = [];
  let from = 0;
  for (const match of text.matchAll(/\\(?:u([0-9a-f]{4})|.)/gi)) {
    const unit = match[1] === undefined ? Number.NaN : Number.parseInt(match[1], 16);
    if (!(unit >= 0xd800 && unit <= 0xdfff)) continue;
    pieces.push(Buffer.from(text.slice(from, match.index)));
    pieces.push(Buffer.from([0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]));
    from = match.index + match[0].length;
  }
  pieces.push(Buffer.from(text.slice(from)));
  return Buffer.concat(pieces);
}

/** The correct service but for its answer writer: a lone surrogate goes back as bytes that are not UTF-8. */
const rawSurrogates = faultyTarget(
  { name: 'raw-surrogates', defect: 'lone surrogates answered as raw bytes', expectedFailures: [] },
  {
    write(res, answer) {
      const body = withRawSurrogates(answer.body);
      res.writeHead(answer.status, { ...answer.headers, 'content-length': String(body.length) });
      res.end(body);
    },
  },
);

describe('an answer whose bytes are not UTF-8', () => {
  it('is no JSON text: a store writing lone surrogates back as raw bytes fails one finding, its bytes kept', async () => {
    const target = await rawSurrogates.start();
    try {
      const report = await runConformance({ baseUrl: target.url, token: target.token, seed: 42 });
      expect(report.verdict).toBe('not-conformant');
      expect((report.findings ?? []).map((finding) => finding.title)).toEqual(['the 200 body is not JSON']);
      const bytes = Buffer.from(report.findings?.[0]?.counterexample.response.bodyBase64 ?? '', 'base64');
      expect(bytes.includes(Buffer.from([0xed]))).toBe(true);
    } finally {
      await target.close();
    }
  }, 60_000);
});
