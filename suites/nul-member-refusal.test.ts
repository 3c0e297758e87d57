import { describe, expect, it } from 'vitest';
import { loadContract } from '../src/contract/index.js';
import type { JudgeContext } from '../src/runner/check.js';
import type { Exchange } from '../src/runner/http/client.js';
import { positiveAcceptance } from './acceptance.js';

const contract = await loadContract();
const context: JudgeContext = { contract, targetRejectsRepeats: true, targetHoldsEarlierRun: true };

/** A valid NewPlant holding `members` beside its id and name, refused with `message`. */
function refused(members: Record<string, unknown>, message: string): Exchange {
  const body = JSON.stringify({ name: '', id: 1059078894549, ...members });
  return {
    plan: {
      method: 'POST',
      path: '/plants',
      auth: { kind: 'token', scheme: 'Bearer' },
      contentType: 'application/json',
      body,
      intent: { kind: 'valid', strings: { name: '' }, idMayRepeat: false },
    },
    request: { method: 'POST', url: 'http://127.0.0.1/plants', headers: {}, body },
    response: {
      status: 400,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ error: 2, message }),
      durationMs: 1,
    },
  };
}

describe('a valid NewPlant holding a "\\u0000" member name and a "__proto__" member, refused', () => {
  const member = { '': JSON.parse('{"__proto__": null}') as unknown, plantstore: { '\u0000': 1 } };

  it('is refused for the NUL name where the answer speaks of a property name (PHP decoding into objects)', () => {
    const verdict = positiveAcceptance.judge(
      refused(member, 'the body is not valid JSON: The decoded property name is invalid'),
      context,
      [],
    );
    expect(verdict?.defect).toBe('status 400 for a valid NewPlant');
    expect(verdict?.reason).toContain("PHP's json_decode refuses it when decoding into objects");
    expect(verdict?.reason).not.toContain('prototype poisoning');
  });

  it('is refused for the "__proto__" member where the answer says only "not valid JSON" (Fastify)', () => {
    const verdict = positiveAcceptance.judge(refused(member, 'Body is not valid JSON'), context, []);
    expect(verdict?.defect).toBe('status 400 for a valid NewPlant with a "__proto__" or "constructor" member');
  });
});
