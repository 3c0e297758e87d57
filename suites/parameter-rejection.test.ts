import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../src/contract/index.js';
import type { JudgeContext } from '../src/runner/check.js';
import type { Exchange } from '../src/runner/http/client.js';
import { negativeRejection } from './rejection.js';

const context: JudgeContext = { contract: await loadContract(), targetRejectsRepeats: true };

/** A valid NewPlant sent with a missing X-Request-ID header, answered `status`. */
function answered(status: number): Exchange {
  const body = '{"id":7,"name":"Fern"}';
  return {
    plan: {
      method: 'POST',
      path: '/plants?api-version=2025-06-01',
      auth: { kind: 'token', scheme: 'Bearer' },
      contentType: 'application/json',
      body,
      intent: {
        kind: 'invalid-parameter',
        what: 'required header "X-Request-ID" left out',
        parameter: 'header "X-Request-ID"',
      },
    },
    request: { method: 'POST', url: 'http://127.0.0.1/plants?api-version=2025-06-01', headers: {}, body },
    response: { status, headers: { 'content-type': 'application/json' }, body: '{}', durationMs: 1 },
  };
}

describe('negative-rejection on a request breaking a parameter', () => {
  it('passes a refusal: 400, or 401 and 403 (a parameter may be a credential)', () => {
    for (const status of [400, 401, 403])
      expect(negativeRejection.judge(answered(status), context, [])).toEqual({ outcome: 'pass' });
  });

  it('fails an acceptance with one defect per parameter, and another refusal status as the refusal status it is', () => {
    const accepted = negativeRejection.judge(answered(200), context, []);
    expect([accepted?.outcome, accepted?.defect]).toEqual([
      'fail',
      'a request breaking the header "X-Request-ID" parameter accepted',
    ]);
    expect(accepted?.reason).toContain('required header "X-Request-ID" left out');
    const unprocessable = negativeRejection.judge(answered(422), context, []);
    expect([unprocessable?.outcome, unprocessable?.defect]).toEqual(['fail', 'status 422 for a request it refuses']);
  });

  it('leaves a server error to no-server-error', () => {
    expect(negativeRejection.judge(answered(500), context, [])).toBeUndefined();
  });

  it("takes the document's own refusal status: 422 where its Error is documented under 422 (FastAPI)", async () => {
    const fastapi = await loadContract(
      fileURLToPath(new URL('../src/http/test-documents/fastapi-generated-3.0.json', import.meta.url)),
    );
    expect(negativeRejection.judge(answered(422), { ...context, contract: fastapi }, [])).toEqual({ outcome: 'pass' });
  });
});
