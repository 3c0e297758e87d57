/**
 * One timer for every deadline of a proxy. A socket's own timeout is a timer moved on every read
 * and write; here a connection notes activity by copying a tick count (no clock read, no timer
 * touched), and one interval sweeps every watched thing, which decides whether it waited too long.
 */

/** Something with a deadline: a connection, or an exchange waiting for one. */
export interface Watched {
  /** Called on each sweep with the tick count; acts when it has been idle too long. */
  sweep(tick: number): void;
}

/** Ticks of at most this long: deadlines are met give or take half a second. */
const LONGEST_TICK_MS = 250;
/** Ticks of at least this long, however short the shortest deadline. */
const SHORTEST_TICK_MS = 10;

/** The tick count and the things swept on each tick. */
export class Sweeper {
  /** Ticks since the sweeper started; what watched things note as their last activity. */
  tick = 0;
  readonly tickMs: number;
  private readonly watched = new Set<Watched>();
  private timer: NodeJS.Timeout | undefined;

  /** A sweeper fine enough for deadlines of `shortestMs` (ticks of a tenth of it, between 10 and 250 ms). */
  constructor(shortestMs: number) {
    this.tickMs = Math.min(LONGEST_TICK_MS, Math.max(SHORTEST_TICK_MS, Math.floor(shortestMs / 10)));
  }

  /**
   * Whether more than `ms` have surely gone by since the tick `since` (the tick under way when
   * something was last active began up to one tick before it): true between `ms` and `ms` plus two ticks.
   */
  elapsed(since: number, ms: number): boolean {
    return (this.tick - since - 1) * this.tickMs >= ms;
  }

  watch(thing: Watched): void {
    this.watched.add(thing);
    if (this.timer === undefined) {
      this.timer = setInterval(() => this.sweep(), this.tickMs);
      this.timer.unref();
    }
  }

  unwatch(thing: Watched): void {
    this.watched.delete(thing);
  }

  /** Stops the timer; nothing is swept after. */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.watched.clear();
  }

  private sweep(): void {
    const tick = ++this.tick;
    for (const thing of this.watched) thing.sweep(tick);
  }
}
