import { describe, expect, it } from 'vitest';
import { loadContract } from '../src/contract/index.js';
import type { JudgeContext } from '../src/runner/check.js';
import type { Exchange } from '../src/runner/http/client.js';
import { noServerError } from './robustness.js';

const contract = await loadContract();
const context: JudgeContext = { contract, targetRejectsRepeats: true, targetHoldsEarlierRun: true };

/** no-server-error's defect for a 500 to the invalid body `what` describes. */
function crashDefect(what: string): string | undefined {
  const exchange: Exchange = {
    plan: {
      method: 'POST',
      path: '/plants',
      auth: { kind: 'token', scheme: 'Bearer' },
      contentType: 'application/json',
      body: '[]',
      intent: { kind: 'invalid-body', what },
    },
    request: { method: 'POST', url: 'http://127.0.0.1/plants', headers: {}, body: '[]' },
    response: { status: 500, headers: { 'content-type': 'text/html' }, body: '<h1>500</h1>', durationMs: 1 },
  };
  const verdict = noServerError.judge(exchange, context, [exchange]);
  return verdict?.outcome === 'fail' ? verdict.defect : undefined;
}

describe('no-server-error', () => {
  it('names a crash on any whole body that is no object one defect, whichever a seed met first', () => {
    // A Flask handler calling data.get() on what get_json() returned fails on [], "Fern", 42 and true alike.
    const nonObject = 'status 500 for an invalid body (a JSON value other than an object, null included)';
    for (const what of [
      'the body not of type object: a null (keyword type)',
      'a JSON array instead of an object',
      'JSON null instead of an object',
      'a JSON string instead of an object',
      'a JSON number instead of an object',
      'a JSON boolean instead of an object',
      'a valid NewPlant wrapped in an array',
    ])
      expect(crashDefect(what), what).toBe(nonObject);
    // Arrays nested 20,000 deep overflow a recursive parser (Python's json): another cause, its own defect.
    expect(crashDefect('arrays nested 20,000 deep instead of an object')).not.toBe(nonObject);
    expect(crashDefect('truncated JSON')).not.toBe(nonObject);
  });
});
