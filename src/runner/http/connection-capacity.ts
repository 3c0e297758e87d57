import { setTimeout as delay } from 'node:timers/promises';
import { Client } from './undici.js';
import { REQUEST_HEADERS } from './client.js';

/**
 * How many connections a target serves at once, as far as the probe went: `wanted` when it served
 * them all, fewer when later connections got no answer while earlier ones stayed open, `undefined`
 * when even the first got none (nothing to learn; the run goes on as asked).
 */
export type ConnectionCapacity = number | undefined;

/** How long the other connections may wait, at least, before they count as not served. */
const OTHER_CONNECTIONS_WAIT_MS = 2_000;

/**
 * Gets one answer on a keep-alive connection, then asks on `wanted - 1` more connections at once
 * while the first stays open. A server with a fixed number of workers that each hold a keep-alive
 * connection (a single-threaded HTTP/1.1 server holds one) never gets to the rest: run at full
 * concurrency, their requests would time out and a correct target would fail for how it is deployed.
 * The wait scales with the first answer's time, so a slow but concurrent server is not mistaken for
 * a limited one. Every request carries no credential, so nothing is stored.
 */
export async function probeConnectionCapacity(
  baseUrl: string,
  timeoutMs: number,
  wanted: number,
  plantsPath = '/plants',
): Promise<ConnectionCapacity> {
  const url = new URL(baseUrl);
  const path = `${url.pathname.replace(/\/+$/, '')}${plantsPath}`;
  const clients: Client[] = [];
  const open = (options: ConstructorParameters<typeof Client>[1]): Client => {
    const client = new Client(url.origin, options);
    // Errors of idle sockets surface on requests; nothing else to do.
    client.on('connectionError', () => undefined);
    clients.push(client);
    return client;
  };
  try {
    const firstWait = Math.min(timeoutMs, 10_000);
    const first = open({ keepAliveTimeout: 30_000, connectTimeout: firstWait });
    const started = performance.now();
    if (!(await answers(first, path, firstWait))) return undefined;
    const firstAnswerMs = performance.now() - started;
    const wait = Math.ceil(Math.min(timeoutMs, Math.max(OTHER_CONNECTIONS_WAIT_MS, 3 * firstAnswerMs)));
    // A connection the target never accepts (its listen backlog full, the one thread busy with the first) must
    // give up at `wait` too: undici's connect timeout (10 s by default) does not heed the request's abort signal.
    const others = Array.from({ length: Math.max(0, wanted - 1) }, () => open({ connectTimeout: wait }));
    const served = await inWaves(others, (client) => answers(client, path, wait));
    return 1 + served.filter(Boolean).length;
  } finally {
    await Promise.all(clients.map((client) => client.destroy().catch(() => undefined)));
  }
}

/** Connections opened at once, at most. */
export const CONNECTIONS_AT_ONCE = 4;
/** How long a wave may go unanswered before the next one starts anyway (a limited server answers none). */
const WAVE_WAIT_MS = 20;

/**
 * `each` of the items, {@link CONNECTIONS_AT_ONCE} at a time, each wave once the one before got its answers or
 * after {@link WAVE_WAIT_MS}: a listen backlog of 5 (Python's `socketserver`, so `http.server`, whose one thread
 * accepts and starts a thread per connection) drops the connections beyond it, which come back a second later,
 * the kernel's first SYN retransmission. Measured against `ThreadingHTTPServer`: 16 connections at once, 7 to 9
 * answered after 1.0-1.2 s; in waves of 4, 2 ms apart, one in about 30 still after 1.0 s.
 */
export async function inWaves<T, R>(items: readonly T[], each: (item: T) => Promise<R>): Promise<R[]> {
  const started: Promise<R>[] = [];
  for (let first = 0; first < items.length; first += CONNECTIONS_AT_ONCE) {
    const wave = items.slice(first, first + CONNECTIONS_AT_ONCE).map(each);
    started.push(...wave);
    if (first + CONNECTIONS_AT_ONCE < items.length) {
      const waiting = new AbortController();
      await Promise.race([Promise.allSettled(wave), delay(WAVE_WAIT_MS, undefined, { signal: waiting.signal })]).catch(
        () => undefined,
      );
      waiting.abort();
    }
  }
  return Promise.all(started);
}

/** Whether a credential-less POST gets any complete answer within `waitMs`. */
async function answers(client: Client, path: string, waitMs: number): Promise<boolean> {
  try {
    const response = await client.request({
      method: 'POST',
      path,
      headers: { ...REQUEST_HEADERS, 'content-type': 'application/json' },
      body: '{}',
      headersTimeout: waitMs,
      bodyTimeout: waitMs,
      signal: AbortSignal.timeout(waitMs),
    });
    // A small cap: only that an answer came matters, not what it says.
    let read = 0;
    for await (const chunk of response.body) {
      read += (chunk as Buffer).length;
      if (read > 64 * 1024) break;
    }
    return true;
  } catch {
    return false;
  }
}
