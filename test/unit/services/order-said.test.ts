// What the gateway said is left, read back from the refusals in the journal (orders/said.ts),
// and how the figures use it: the latest figure, less what Paydesk sent since, never more than
// the journal knows, only in the order's currency, and only from a refusal that named it.

import { describe, expect, it } from 'vitest';

import { orderFigures } from '../../../main/services/orders/figures';
import { allowedActions } from '../../../main/services/orders/rules';
import { orderState } from '../../../main/services/orders/state';
import type { JournalEntry } from '../../../main/store/journal/types';
import { journalEntry, statusAnswer } from '../../support/entries';

const refusal = (message: string, at: string, operation = 'RETURN'): JournalEntry =>
  journalEntry(operation, {
    state: 'refused',
    status: null,
    errorCode: '3',
    errorMessage: message,
    finalAt: at,
    amountMinor: 10_000n,
  });
/** A refund of ours, written (as the service writes it) while the order showed outside refunds. */
const refund = (minor: bigint, state: JournalEntry['state'] = 'final', status = 'approved') =>
  journalEntry('RETURN', {
    amountMinor: minor,
    state,
    status: state === 'final' ? status : null,
    changedElsewhere: true,
  });

const partlyRefunded = statusAnswer({ orderStage: 'sale_partially_reversed' });
const RETURN_LEFT = (left: string) =>
  `A return of 100.00 EUR is above what is left to return, ${left} EUR (the sum of returns never exceeds the original 100.00 EUR).`;

describe('what the gateway said is left', () => {
  it('is unknown, "at least", before the gateway names a figure', () => {
    const f = orderFigures(partlyRefunded, []);
    expect(f).toMatchObject({ refundedAtLeast: true, saidRefundable: undefined });
    expect(f.remainingRefundableMinor).toBeUndefined();
  });

  it('takes the latest figure, with its time, less the refunds of ours since that still count', () => {
    const f = orderFigures(partlyRefunded, [
      refusal(RETURN_LEFT('70.00'), '2026-03-14T09:00:00.000Z'),
      refusal(RETURN_LEFT('60.00'), '2026-03-14T10:00:00.000Z'),
      refund(1_000n), // approved: counts
      refund(500n, 'final', 'declined'), // declined: gave nothing back
      refund(250n, 'acknowledged'), // pending: counts until it fails
    ]);
    expect(f.saidRefundable).toMatchObject({
      of: 'refund',
      leftMinor: 6_000n,
      at: '2026-03-14T10:00:00.000Z',
      sinceMinor: 1_250n,
    });
    expect(f.remainingRefundableMinor).toBe(4_750n);
    expect(f.refundedMinor).toBe(5_250n);
    // As of the figure's time: what was refunded elsewhere since is not in it.
    expect(f.refundedAtLeast).toBe(true);
    // Refunds made elsewhere are still a fact of the order.
    expect(f.changedElsewhere).toBe(true);
  });

  it('caps what a clerk may send at the named figure, and a figure of nothing left refuses', () => {
    const named = orderFigures(partlyRefunded, [
      refusal(RETURN_LEFT('30.00'), '2026-03-14T10:00:00.000Z'),
    ]);
    expect(allowedActions(partlyRefunded, named).refund).toEqual({
      allowed: true,
      maxMinor: 3_000n,
    });
    const none = orderFigures(partlyRefunded, [
      refusal('Order 1000001 (a sale) is already fully returned.', '2026-03-14T10:00:00.000Z'),
    ]);
    expect(none.remainingRefundableMinor).toBe(0n);
    expect(allowedActions(partlyRefunded, none).refund.allowed).toBe(false);
    expect(
      orderState({ status: 'approved', orderStage: 'sale_partially_reversed', figures: none }).code,
    ).toBe('refunded');
  });

  it('never raises what the journal knows is left', () => {
    const f = orderFigures(statusAnswer({ orderStage: 'sale_partially_reversed' }), [
      journalEntry('RETURN', { amountMinor: 9_000n }),
      refusal(RETURN_LEFT('20.00'), '2026-03-14T10:00:00.000Z'),
    ]);
    expect(f.remainingRefundableMinor).toBe(1_000n);
  });

  it('reads what is left of a hold from a refused capture or cancel', () => {
    const hold = statusAnswer({
      transactionType: 'preauth',
      orderStage: 'auth_partially_captured',
    });
    const f = orderFigures(hold, [
      refusal(
        'Capture of 100.00 EUR is above what is left of the hold, 40.00 EUR.',
        '2026-03-14T10:00:00.000Z',
        'CAPTURE',
      ),
    ]);
    expect(f).toMatchObject({
      remainingCapturableMinor: 4_000n,
      capturedMinor: 6_000n,
      capturedAtLeast: true,
    });
  });

  it('ignores refusals that name no figure, another currency, or that the gateway never gave', () => {
    for (const message of [
      'Only an approved order can be refunded.',
      RETURN_LEFT('30.00').replace(/EUR/g, 'USD'),
    ]) {
      const f = orderFigures(partlyRefunded, [refusal(message, '2026-03-14T10:00:00.000Z')]);
      expect(f.remainingRefundableMinor).toBeUndefined();
    }
    // A final entry that happens to carry such words is not a refusal.
    const final = journalEntry('RETURN', { errorMessage: RETURN_LEFT('30.00'), amountMinor: 100n });
    expect(orderFigures(partlyRefunded, [final]).saidRefundable).toBeUndefined();
  });
});
