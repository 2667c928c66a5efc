// The sandbox's business clock: wall time plus an offset that tests (and a curious user) can
// move forward. Processing delays, settlement, recurring schedules and callback retries all read
// it, so a month of subscription charges runs in one call instead of a month.
//
// OAuth timestamps are checked against the wall clock instead (see auth.ts): the client signs
// with its own real clock, which nobody can move.

export type ClockListener = () => void;

export class SandboxClock {
  private offsetMs = 0;
  private readonly listeners = new Set<ClockListener>();

  constructor(private readonly wallNow: () => number = Date.now) {}

  /** Milliseconds since the epoch, on the sandbox's (movable) time line. */
  now(): number {
    return this.wallNow() + this.offsetMs;
  }

  /** Moves time forward; due work (final statuses, charges, callback retries) runs at once. */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) {
      throw new RangeError(`The sandbox clock only moves forward; got ${ms} ms.`);
    }
    this.offsetMs += ms;
    this.notify();
  }

  /** Jumps to a moment in the future; the past is refused so recorded orders stay consistent. */
  set(to: Date | number): void {
    const target = typeof to === 'number' ? to : to.getTime();
    this.advance(Math.max(0, target - this.now()));
  }

  onChange(listener: ClockListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}
