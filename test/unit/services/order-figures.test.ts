// An order's money figures (main/services/orders/figures.ts) from the gateway's status and the
// journal: what counts against what is left, what is settled, what only the gateway knows. The
// cases the order's state depends on are in order-state.test.ts; these are the figures' own.

import { describe, expect, it } from 'vitest';

import { figureKind, orderFigures, stageSuffix } from '../../../main/services/orders/figures';
import { journalEntry, statusAnswer } from '../../support/entries';

const SALE = statusAnswer();
const HOLD = statusAnswer({ transactionType: 'preauth', orderStage: 'auth_approved' });

describe('which figures a transaction has', () => {
  it('a preauth holds, the payments are refunded, everything else shows its amount only', () => {
    expect(figureKind('preauth')).toBe('hold');
    for (const type of ['sale', 'capture', 'rebill', 'recurring'])
      expect(figureKind(type)).toBe('payment');
    for (const type of ['payout', 'transfer', 'reversal', '', undefined, null])
      expect(figureKind(type)).toBe('amount-only');
  });

  it('an amount-only order has nothing to capture or refund, whatever the journal says', () => {
    const payout = statusAnswer({ transactionType: 'payout', orderStage: 'payout_approved' });
    expect(orderFigures(payout, [journalEntry('RETURN', { amountMinor: 100n })])).toMatchObject({
      kind: 'amount-only',
      amountMinor: 10000n,
      refundedMinor: 0n,
      capturedMinor: 0n,
      remainingRefundableMinor: 0n,
      remainingCapturableMinor: 0n,
    });
  });
});

describe('the order-stage', () => {
  it('is read by its suffix, the longest first', () => {
    expect(stageSuffix('auth_partially_captured')).toBe('partially_captured');
    expect(stageSuffix('sale_partially_reversed')).toBe('partially_reversed');
    expect(stageSuffix('auth_captured')).toBe('captured');
    expect(stageSuffix('pan_eligibility_3d_validating')).toBe('3d_validating');
    expect(stageSuffix('sale_approved')).toBe('approved');
  });

  it('an unknown, empty or missing stage has no suffix', () => {
    expect(stageSuffix('sale_somethingnew')).toBe('');
    expect(stageSuffix('')).toBe('');
    expect(stageSuffix(undefined)).toBe('');
    expect(stageSuffix(null)).toBe('');
  });
});

describe('the amount', () => {
  it('is read in the currency’s minor units', () => {
    expect(orderFigures(statusAnswer({ amount: '1500', currency: 'JPY' }), []).amountMinor).toBe(
      1500n,
    );
    expect(orderFigures(statusAnswer({ amount: '1.500', currency: 'BHD' }), []).amountMinor).toBe(
      1500n,
    );
  });

  it('a missing or unreadable amount is zero, and leaves nothing to refund', () => {
    for (const amount of [undefined, 'ten', '1e3', '-5.00'])
      expect(orderFigures(statusAnswer({ amount }), [])).toMatchObject({
        amountMinor: 0n,
        remainingRefundableMinor: 0n,
      });
  });
});

describe('refunds of a payment', () => {
  it('pending ones count against what is left but are not settled', () => {
    const f = orderFigures(SALE, [
      journalEntry('RETURN', { amountMinor: 1000n }),
      journalEntry('RETURN', { amountMinor: 200n, state: 'sending' }),
      journalEntry('RETURN', { amountMinor: 30n, state: 'acknowledged' }),
      journalEntry('RETURN', { amountMinor: 4n, state: 'unknown' }),
    ]);
    expect(f).toMatchObject({
      refundedMinor: 1234n,
      settledRefundedMinor: 1000n,
      remainingRefundableMinor: 8766n,
    });
    expect(f.pending.map((e) => e.state)).toEqual(['sending', 'acknowledged', 'unknown']);
  });

  it('refused, declined and failed ones count for nothing', () => {
    const f = orderFigures(SALE, [
      journalEntry('RETURN', { amountMinor: 1000n, state: 'refused' }),
      journalEntry('RETURN', { amountMinor: 1000n, status: 'declined' }),
      journalEntry('RETURN', { amountMinor: 1000n, status: 'error' }),
    ]);
    expect(f).toMatchObject({ refundedMinor: 0n, remainingRefundableMinor: 10000n, pending: [] });
  });

  it('what is left never goes below zero', () => {
    const f = orderFigures(SALE, [journalEntry('RETURN', { amountMinor: 12000n })]);
    expect(f).toMatchObject({ refundedMinor: 12000n, remainingRefundableMinor: 0n });
  });

  it('captures in the journal of a payment are not its figures', () => {
    const f = orderFigures(SALE, [journalEntry('CAPTURE', { amountMinor: 500n })]);
    expect(f).toMatchObject({ capturedMinor: 0n, settledCapturedMinor: 0n, refundedMinor: 0n });
  });

  it('voided at the gateway (its stage): nothing to refund', () => {
    const f = orderFigures(statusAnswer({ orderStage: 'sale_voided' }), []);
    expect(f).toMatchObject({ voided: true, remainingRefundableMinor: 0n });
  });

  it('a void of ours still pending already leaves nothing to refund', () => {
    const f = orderFigures(SALE, [journalEntry('VOID', { state: 'acknowledged' })]);
    expect(f).toMatchObject({ voided: true, remainingRefundableMinor: 0n });
  });
});

describe('captures of a hold', () => {
  it('count against what may be captured; a RETURN on a hold is its cancel, not a refund', () => {
    const f = orderFigures(HOLD, [
      journalEntry('CAPTURE', { amountMinor: 2500n }),
      journalEntry('CAPTURE', { amountMinor: 500n, state: 'acknowledged' }),
    ]);
    expect(f).toMatchObject({
      capturedMinor: 3000n,
      settledCapturedMinor: 2500n,
      remainingCapturableMinor: 7000n,
      cancelled: false,
      refundedMinor: 0n,
      remainingRefundableMinor: 0n,
    });
    const cancelled = orderFigures(HOLD, [journalEntry('RETURN', { amountMinor: 10000n })]);
    expect(cancelled).toMatchObject({
      cancelled: true,
      refundedMinor: 0n,
      remainingCapturableMinor: 0n,
    });
  });

  it('fully captured at the gateway: the whole amount, known', () => {
    const f = orderFigures(
      statusAnswer({ transactionType: 'preauth', orderStage: 'auth_captured' }),
      [],
    );
    expect(f).toMatchObject({
      capturedMinor: 10000n,
      settledCapturedMinor: 10000n,
      capturedAtLeast: false,
      remainingCapturableMinor: 0n,
      changedElsewhere: false,
    });
  });
});

describe('activity outside Paydesk', () => {
  it('is claimed only when the journal cannot account for the stage', () => {
    const partly = statusAnswer({ orderStage: 'sale_partially_reversed' });
    expect(orderFigures(partly, []).changedElsewhere).toBe(true);
    expect(
      orderFigures(partly, [journalEntry('RETURN', { amountMinor: 100n })]).changedElsewhere,
    ).toBe(false);
  });

  it('once an entry of ours saw it, the stage stays a lower bound', () => {
    const partly = statusAnswer({ orderStage: 'sale_partially_reversed' });
    const ours = journalEntry('RETURN', { amountMinor: 100n, changedElsewhere: true });
    expect(orderFigures(partly, [ours])).toMatchObject({
      refundedMinor: 100n,
      refundedAtLeast: true,
      remainingRefundableMinor: undefined,
      changedElsewhere: true,
    });
  });
});
