import { isRefusalStatus, type RefusalStatus, type SuccessStatus } from '../contract/index.js';
import { PASS, warn, type CheckDefinition, type Verdict } from '../runner/check.js';
import type { Intent } from '../runner/probe.js';

/**
 * The proxy's own check of positive acceptance, as far as one session of traffic can tell: it only ever
 * warns. A correct server refuses a valid NewPlant whose id it held before the proxy started (an earlier
 * session, another client), and the proxy cannot see that; so a refusal it cannot explain is worth a
 * look, never a failure (exit 0 stays exit 0).
 */
export const FRESH_ID_CHECK: CheckDefinition = {
  id: 'fresh-id-accepted',
  title: 'A valid NewPlant with an id new to the session is accepted',
  rule: 'Rule 1: a valid NewPlant sent with valid authentication is answered 200 with a Plant. The proxy warns (never fails) when a valid NewPlant whose id it has not seen in this session is refused, sent with a credential the server accepted a valid NewPlant with earlier in the session: either the server refuses valid NewPlants, or it held that id before the proxy started (an earlier session, another client), which a correct server refuses as a repeat. `plantstore test` against a server started empty tells the two apart (positive-acceptance).',
  probes: [],
  judge: () => undefined,
};

/** Answers that say something about the credential, the path or the load rather than the plant. */
const NOT_ABOUT_THE_PLANT = new Set([401, 403, 404, 405, 407, 408, 429]);

/** Credentials remembered: a session's clients use a few. */
const CREDENTIALS_KEPT = 32;

/**
 * Remembers the credentials (Authorization values, in memory only: never written) a valid NewPlant was
 * accepted with, and judges each valid NewPlant by {@link FRESH_ID_CHECK}. On a document that asks no
 * credential (`security: []`) a request without one counts as one credential: there is only one client.
 */
export class FreshIdRefusals {
  private readonly accepted = new Set<string>();

  constructor(
    private readonly refusal: RefusalStatus,
    private readonly open: boolean,
    private readonly success: SuccessStatus,
  ) {}

  /**
   * The verdict on one exchange: `undefined` unless the request is a valid NewPlant with an id new to the
   * session and a credential accepted before; then a pass when it is accepted, a warning when refused.
   */
  judge(intent: Intent, authorization: string | undefined, status: number): Verdict | undefined {
    const credential = authorization ?? (this.open ? '' : undefined);
    if ((intent.kind !== 'valid' && intent.kind !== 'valid-variant') || credential === undefined) return undefined;
    const proven = this.accepted.has(credential);
    if (status >= 200 && status <= 299) {
      this.remember(credential, proven);
      return proven && !intent.idMayRepeat ? PASS : undefined;
    }
    if (!proven || intent.idMayRepeat) return undefined;
    if (NOT_ABOUT_THE_PLANT.has(status) || !isRefusalStatus(this.refusal, status)) return undefined;
    return warn(
      `A valid NewPlant whose id no earlier request of this session carried was refused ${status}, with a credential the server accepted a valid NewPlant with earlier in the session. A correct server refuses it only when it held that id before the proxy started (an earlier session, another client); otherwise it refuses a valid NewPlant (rule 1: ${this.success.documented} with a Plant). Run plantstore test against it started empty to tell (positive-acceptance).`,
      { defect: `status ${status} for a valid NewPlant with an id new to the session` },
    );
  }

  private remember(authorization: string, known: boolean): void {
    if (known) return;
    if (this.accepted.size >= CREDENTIALS_KEPT) {
      const [oldest] = this.accepted;
      if (oldest !== undefined) this.accepted.delete(oldest);
    }
    this.accepted.add(authorization);
  }
}
