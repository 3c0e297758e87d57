import { Client } from 'undici';

/** How a target copes with a second connection while a first stays open. */
export type ConnectionCapacity = 'concurrent' | 'one-at-a-time' | 'unknown';

/** How long a second connection may wait before the target counts as serving one at a time. */
const SECOND_CONNECTION_WAIT_MS = 2_000;

/**
 * Opens a keep-alive connection, gets one answer on it, then asks again on a second connection while
 * the first stays open. A single-threaded HTTP/1.1 server (Python's `HTTPServer` with
 * `protocol_version = "HTTP/1.1"`, for instance) keeps reading the first connection and never gets
 * to the second: run concurrently, every other request would time out, and a correct target would
 * fail for how it is deployed. Both requests carry no credential, so nothing is stored.
 */
export async function probeConnectionCapacity(baseUrl: string, timeoutMs: number): Promise<ConnectionCapacity> {
  const url = new URL(baseUrl);
  const path = `${url.pathname.replace(/\/+$/, '')}/plants`;
  const first = new Client(url.origin, { keepAliveTimeout: 30_000 });
  const second = new Client(url.origin);
  // Errors of idle sockets surface on requests; nothing else to do.
  first.on('connectionError', () => undefined);
  second.on('connectionError', () => undefined);
  try {
    if (!(await answers(first, path, Math.min(timeoutMs, 10_000)))) return 'unknown';
    return (await answers(second, path, Math.min(timeoutMs, SECOND_CONNECTION_WAIT_MS)))
      ? 'concurrent'
      : 'one-at-a-time';
  } finally {
    await Promise.all([first.destroy().catch(() => undefined), second.destroy().catch(() => undefined)]);
  }
}

/** Whether a credential-less POST gets any complete answer within `waitMs`. */
async function answers(client: Client, path: string, waitMs: number): Promise<boolean> {
  try {
    const response = await client.request({
      method: 'POST',
      path,
      headers: { 'content-type': 'application/json', 'user-agent': 'plantstore-conformance' },
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
