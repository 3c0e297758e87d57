/** A body this small comes in one segment with its head unless the server writes them apart. */
const SMALL_BODY_BYTES = 16 * 1024;
/** The body's wait that marks a delayed ACK (Linux delays one 40 ms at least). */
const DELAYED_BODY_MS = 30;
/** Answers seen so before every later request goes on a connection of its own. */
const SIGNS_NEEDED = 3;

/**
 * Watches for small answers whose body comes some 40 ms after a head that came at once: a server that writes
 * the head and the body in two writes with Nagle's algorithm on (Python's `http.server`, Java's
 * `com.sun.net.httpserver`) holds the body until the client acknowledges the head, which the client's kernel
 * delays on a keep-alive connection. Measured against `ThreadingHTTPServer`: 50 requests one after another
 * took 1,062-1,078 ms on keep-alive connections and 51-54 ms on a connection each, whose first segments the
 * kernel acknowledges at once. A head that itself took a while (a distant target, where a new connection costs
 * a round trip) is no sign.
 */
export class DelayedBodies {
  private signs = 0;

  /** Whether later requests should each close their connection after the answer (`Connection: close`). */
  get connectionPerRequest(): boolean {
    return this.signs >= SIGNS_NEEDED;
  }

  /** One answer read whole on a pooled connection: how long its head and then its body took. */
  observe(headMs: number, bodyMs: number, bodyBytes: number): void {
    if (bodyBytes <= SMALL_BODY_BYTES && bodyMs >= DELAYED_BODY_MS && bodyMs >= 3 * headMs) this.signs++;
  }
}
