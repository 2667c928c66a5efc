// The pace of a reconciliation: at most `perSecond` status requests a second (retries count),
// evenly spaced, and at most `atOnce` waiting for their answer. A gateway that answers 500 or
// does not answer in time is asked again after a growing pause, within the same pace, and after
// `attempts` tries the line is "could not be read". The gateway is someone else's production
// system: a reconciliation must never look like a flood.

import { RECONCILE_PACE } from '../../../common/reconcile-contract';

export interface PaceSettings {
  /** Status requests a second, retries included. */
  perSecond: number;
  /** Requests waiting for their answer at once. */
  atOnce: number;
}

export const DEFAULT_PACE: PaceSettings = {
  perSecond: RECONCILE_PACE.perSecond.default,
  atOnce: RECONCILE_PACE.atOnce.default,
};
/** Bounds a person may set: the screen and the contract refuse anything outside. */
export const PACE_LIMITS = RECONCILE_PACE;

export interface RetryPolicy {
  /** Tries of one line before it is "could not be read". */
  attempts: number;
  /** The pause before the second try; doubled before each one after, up to maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs: number;
  /** How long one status request may wait for its answer. */
  timeoutMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  attempts: 4,
  backoffMs: 1_000,
  maxBackoffMs: 8_000,
  timeoutMs: 15_000,
};

/** The pause before try number `attempt` (2, 3, ...). */
export function backoffBefore(attempt: number, policy: RetryPolicy): number {
  return Math.min(policy.backoffMs * 2 ** Math.max(0, attempt - 2), policy.maxBackoffMs);
}

/**
 * How far behind its schedule the pace may catch up: a busy process that woke late sends the
 * slots it missed at once, up to this much of them, so it keeps its rate over time without
 * ever sending more than this burst above it.
 */
const CATCH_UP_MS = 250;

/**
 * Hands out request slots 1/perSecond apart. A slot is a promise that resolves at its time; a
 * stopped pace resolves every waiting slot with false (nothing more is sent).
 */
export class Pace {
  private next = Number.NEGATIVE_INFINITY;
  private stopped = false;
  private readonly waiting = new Set<{ timer: NodeJS.Timeout; resolve: (go: boolean) => void }>();

  constructor(
    private perSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  setRate(perSecond: number): void {
    this.perSecond = perSecond;
  }

  /** Resolves true when this request may leave, false when the pace was stopped meanwhile. */
  slot(): Promise<boolean> {
    if (this.stopped) return Promise.resolve(false);
    const now = this.now();
    const at =
      this.next === Number.NEGATIVE_INFINITY ? now : Math.max(now - CATCH_UP_MS, this.next);
    this.next = at + 1000 / this.perSecond;
    const delay = at - now;
    if (delay <= 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter = {
        timer: setTimeout(() => {
          this.waiting.delete(waiter);
          resolve(!this.stopped);
        }, delay),
        resolve,
      };
      this.waiting.add(waiter);
    });
  }

  /** A pause that a stop cuts short (resolves false then). */
  wait(ms: number): Promise<boolean> {
    if (this.stopped) return Promise.resolve(false);
    return new Promise((resolve) => {
      const waiter = {
        timer: setTimeout(() => {
          this.waiting.delete(waiter);
          resolve(!this.stopped);
        }, ms),
        resolve,
      };
      this.waiting.add(waiter);
    });
  }

  stop(): void {
    this.stopped = true;
    for (const waiter of this.waiting) {
      clearTimeout(waiter.timer);
      waiter.resolve(false);
    }
    this.waiting.clear();
  }
}
