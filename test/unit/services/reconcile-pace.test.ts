// The pace of a reconciliation: requests no closer than 1/perSecond apart whoever asks, retries
// after a growing pause, and a stop that lets nothing more leave.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { backoffBefore, DEFAULT_RETRY, Pace } from '../../../main/services/reconcile/pace';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('Pace', () => {
  it('hands out slots evenly spaced at the rate, to several askers at once', async () => {
    const pace = new Pace(5, () => Date.now());
    const start = Date.now();
    const at: number[] = [];
    const asks = Array.from({ length: 6 }, () =>
      pace.slot().then(() => at.push(Date.now() - start)),
    );
    await vi.advanceTimersByTimeAsync(2_000);
    await Promise.all(asks);
    expect(at).toEqual([0, 200, 400, 600, 800, 1000]);
  });

  it('catches up a late start of its askers with a bounded burst, never more', async () => {
    const pace = new Pace(100, () => Date.now());
    expect(await pace.slot()).toBe(true);
    await vi.advanceTimersByTimeAsync(1_000); // nobody asked for a second
    const start = Date.now();
    const at: number[] = [];
    const asks = Array.from({ length: 40 }, () =>
      pace.slot().then(() => at.push(Date.now() - start)),
    );
    await vi.advanceTimersByTimeAsync(1_000);
    await Promise.all(asks);
    // 250 ms of missed slots at 10 ms each (and the one due now) at once, then 10 ms apart.
    expect(at.filter((t) => t === 0)).toHaveLength(26);
    expect(at.slice(26)).toEqual(Array.from({ length: 14 }, (_, i) => (i + 1) * 10));
  });

  it('lets nothing more leave once stopped, also a slot already waiting', async () => {
    const pace = new Pace(1, () => Date.now());
    expect(await pace.slot()).toBe(true);
    const waiting = pace.slot();
    pace.stop();
    expect(await waiting).toBe(false);
    expect(await pace.slot()).toBe(false);
    expect(await pace.wait(10)).toBe(false);
  });

  it('pauses longer before each retry, up to its bound', () => {
    expect([2, 3, 4, 5, 6].map((n) => backoffBefore(n, DEFAULT_RETRY))).toEqual([
      1_000, 2_000, 4_000, 8_000, 8_000,
    ]);
  });
});
