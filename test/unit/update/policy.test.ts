// The update's pure decisions: when a check is due, which offered version is newer, and when
// "Install and restart" is allowed, with the sentence the clerk reads when it is not.

import { describe, expect, it } from 'vitest';

import { CHECK_EVERY_MS, checkDue, installDecision, isNewer } from '../../../main/update/policy';

describe('checkDue', () => {
  const day = CHECK_EVERY_MS;
  it('checks at start, then once a day has passed since the last check', () => {
    expect(checkDue(null, 1_000)).toBe(true);
    expect(checkDue(1_000, 1_000 + day - 1)).toBe(false);
    expect(checkDue(1_000, 1_000 + day)).toBe(true);
    // A laptop that slept three days checks at its next tick.
    expect(checkDue(1_000, 1_000 + 3 * day)).toBe(true);
  });
});

describe('isNewer', () => {
  it.each([
    ['0.1.0', '0.2.0', true],
    ['0.1.0', '0.1.1', true],
    ['0.9.9', '1.0.0', true],
    ['1.2.0', '1.10.0', true],
    ['1.2.0-beta.1', '1.2.0', true],
    ['1.2.0-beta.2', '1.2.0-beta.10', true],
    ['1.2.0-alpha', '1.2.0-beta', true],
    ['v1.0.0', '1.0.1', true],
  ])('%s -> %s is newer', (running, offered, newer) => {
    expect(isNewer(running, offered)).toBe(newer);
  });

  it.each([
    ['0.2.0', '0.2.0'],
    ['0.2.0', '0.1.9'],
    ['1.10.0', '1.9.0'],
    ['1.2.0', '1.2.0-beta.1'],
    ['1.2.0', 'latest'],
    ['1.2.0', ''],
    ['garbage', '9.9.9'],
    ['1.2.0', '1.2.0+build.7'],
  ])('%s -> %s is not newer', (running, offered) => {
    expect(isNewer(running, offered)).toBe(false);
  });
});

describe('installDecision', () => {
  it('allows installing when nothing is in flight', () => {
    expect(installDecision({ entries: [], batches: [] })).toEqual({ allowed: true });
  });

  it('names the one refund in flight and its order', () => {
    expect(
      installDecision({ entries: [{ what: 'refund', orderId: '9001' }], batches: [] }),
    ).toEqual({
      allowed: false,
      reason:
        "Not now: a refund of order 9001 is waiting for the gateway's final answer. " +
        'Restarting would interrupt it. Install once its answer is in.',
    });
  });

  it('counts several operations, and a running batch says to pause it', () => {
    const decision = installDecision({
      entries: [
        { what: 'refund', orderId: '1' },
        { what: 'capture', orderId: '2' },
      ],
      batches: ['refunds-november.csv'],
    });
    expect(decision).toEqual({
      allowed: false,
      reason:
        "Not now: 2 operations are waiting for the gateway's final answer and the batch " +
        'refunds-november.csv is running. Restarting would interrupt them. Install once the batch ' +
        'has finished or is paused (Batch screen) and every answer is in.',
    });
  });

  it('a batch alone, and several batches', () => {
    expect(installDecision({ entries: [], batches: ['a.csv'] })).toEqual({
      allowed: false,
      reason:
        'Not now: the batch a.csv is running. Restarting would interrupt it. Install once the ' +
        'batch has finished or is paused (Batch screen) and every answer is in.',
    });
    const several = installDecision({ entries: [], batches: ['a.csv', 'b.csv'] });
    expect(several.allowed === false && several.reason).toMatch(
      /^Not now: 2 batches are running\. Restarting would interrupt them\./,
    );
  });
});
