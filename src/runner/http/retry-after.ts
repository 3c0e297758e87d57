import { setTimeout as delay } from 'node:timers/promises';
import type { RecordedResponse } from '../report.js';
import type { Exchange, TargetClient } from './client.js';

/** The longest `Retry-After` the runner waits out; a longer one (a maintenance window) stays a throttled answer. */
export const MAX_RETRY_AFTER_MS = 10_000;
/** How many times one request is sent again after a throttled answer asked it to wait. */
export const RETRY_AFTER_ATTEMPTS = 5;

/**
 * How long a 429 or 503 answer asks the client to wait before sending again, from its `Retry-After`
 * (RFC 9110 §10.2.3: delay-seconds or an HTTP date); `undefined` for any other answer or a value it cannot read.
 */
export function retryAfterMs(response: RecordedResponse, now = Date.now()): number | undefined {
  if (response.status !== 429 && response.status !== 503) return undefined;
  const value = response.headers['retry-after']?.trim();
  if (value === undefined || value === '') return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // An HTTP date names its day first; Date.parse would take "-1" for a year.
  const at = /^[A-Za-z]/.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** What bounds {@link honouringRetryAfter}'s waiting. */
export interface RetryAfterLimits {
  /** `Date.now()` after which no request waits to be sent again: the run's budget. */
  readonly deadline: number;
  /** The first wait after a 429 that names none, doubled at each attempt; default {@link UNANNOUNCED_WAIT_MS}. */
  readonly unannouncedWaitMs?: number;
}

/**
 * The first wait after a 429 without `Retry-After` (then twice as long at each of the {@link RETRY_AFTER_ATTEMPTS}: 7.75 s in all). Rate limiters
 * that count requests per second (echo's RateLimiter, express-rate-limit with its headers off) answer so; sent
 * again at once, the request would meet the same limit.
 */
export const UNANNOUNCED_WAIT_MS = 250;

/**
 * The client, its sends waiting out a 429 or 503 answer's `Retry-After` (up to {@link MAX_RETRY_AFTER_MS}, at
 * most {@link RETRY_AFTER_ATTEMPTS} times, never past the deadline) and sending the same request again: a rate
 * limiter in front of a staging target (nginx `limit_req`) answers so for a request its service never saw, and
 * the answer that follows is the service's own. A 429 without `Retry-After` is sent again after a growing wait
 * ({@link UNANNOUNCED_WAIT_MS}); a 503 without it, or an answer asking for longer, is returned as it came (a note
 * about the run, never judged). A sequence on one connection is sent again, whole, only when every answer of it
 * asked so: one that reached the service would meet its own repeat.
 */
export function honouringRetryAfter(client: TargetClient, limits: RetryAfterLimits): TargetClient {
  async function again<T extends readonly Exchange[]>(first: T, resend: () => Promise<T>): Promise<T> {
    let exchanges = first;
    for (let attempt = 0; attempt < RETRY_AFTER_ATTEMPTS; attempt++) {
      const unannounced = (limits.unannouncedWaitMs ?? UNANNOUNCED_WAIT_MS) * 2 ** attempt;
      const wait = waitAskedBy(exchanges, limits.deadline, unannounced);
      if (wait === undefined) break;
      await delay(wait);
      exchanges = await resend();
    }
    return exchanges;
  }
  const send: TargetClient['send'] = async (...request) => {
    const [exchange] = await again([await client.send(...request)], async () => [await client.send(...request)]);
    return exchange;
  };
  if (client.sendOnOneConnection === undefined) return { ...client, send };
  const sendOnOneConnection: NonNullable<TargetClient['sendOnOneConnection']> = async (...requests) =>
    again(await client.sendOnOneConnection!(...requests), () => client.sendOnOneConnection!(...requests));
  return { ...client, send, sendOnOneConnection };
}

/**
 * The wait every answer asks for (the longest), when each asks for one the deadline and the cap allow; a 429
 * without `Retry-After` asks for `unannounced`.
 */
function waitAskedBy(exchanges: readonly Exchange[], deadline: number, unannounced: number): number | undefined {
  let longest = 0;
  for (const { response } of exchanges) {
    const wait = retryAfterMs(response) ?? (isUnannouncedThrottle(response) ? unannounced : undefined);
    if (wait === undefined || wait > MAX_RETRY_AFTER_MS) return undefined;
    longest = Math.max(longest, wait);
  }
  return exchanges.length === 0 || Date.now() + longest > deadline ? undefined : longest;
}

/** A 429 without a `Retry-After` header (one the runner cannot read is not waited out: it may mean hours). */
function isUnannouncedThrottle(response: RecordedResponse): boolean {
  return response.status === 429 && response.headers['retry-after'] === undefined;
}
