import { describe, expect, it } from 'vitest';
import { loadContract } from '../src/contract/index.js';
import type { JudgeContext } from '../src/runner/check.js';
import { DOUBLES_DEFECT } from '../src/runner/defects.js';
import type { Exchange } from '../src/runner/http/client.js';
import type { Intent } from '../src/runner/probe.js';
import { positiveAcceptance } from './acceptance.js';

const contract = await loadContract();
const context: JudgeContext = { contract, targetRejectsRepeats: true, targetHoldsEarlierRun: false };
const VALID: Intent = { kind: 'valid', strings: { name: 'Fern' }, idMayRepeat: false };

/** A valid NewPlant with this id's text, refused with a 400 whose Error message is Jackson's. */
function refusedWith(id: string, message: string): Exchange {
  const sent = `{"name":"Fern","id":${id}}`;
  const body = JSON.stringify({ error: 1001, message });
  return {
    plan: {
      method: 'POST',
      path: '/plants',
      auth: { kind: 'token', scheme: 'Bearer' },
      contentType: 'application/json',
      body: sent,
      intent: VALID,
    },
    request: { method: 'POST', url: 'http://127.0.0.1/plants', headers: {}, body: sent },
    response: { status: 400, headers: { 'content-type': 'application/json' }, body, durationMs: 1 },
  };
}

const LONG_RANGE = 'out of range of long (-9223372036854775808 - 9223372036854775807)';

describe("positive-acceptance on Jackson's range messages", () => {
  it('does not read the range bound a refusal quotes as the id read through a double', () => {
    // Debian's jackson-databind 2.14.0 beside jackson-core 2.14.1 refuses 2^63-2 bound to a long, quoting 2^63-1.
    const verdict = positiveAcceptance.judge(
      refusedWith('9223372036854775806', `Numeric value (9223372036854775806) ${LONG_RANGE}`),
      context,
      [],
    );
    expect(verdict?.outcome).toBe('fail');
    expect(verdict?.defect).not.toBe(DOUBLES_DEFECT);
    expect(verdict?.reason).toContain('out of range of long, but every int64');
    // A refusal quoting another id with the same double still shows it.
    const doubled = positiveAcceptance.judge(
      refusedWith('9223372036854775806', 'a plant with id 9223372036854775807 exists'),
      context,
      [],
    );
    expect(doubled?.defect).toBe(DOUBLES_DEFECT);
  });

  it('says an id called out of range of int was held in a 32-bit integer', () => {
    const reason = positiveAcceptance.judge(
      refusedWith('2147483648', 'Numeric value (2147483648) out of range of int (-2147483648 - 2147483647)'),
      context,
      [],
    )?.reason;
    expect(reason).toContain('out of range of int: the target holds it in a 32-bit integer');
    expect(reason).not.toContain('out of range of long');
  });
});
