// The order's one plain state and its figures, over every order-stage the sandbox emits
// (main/sandbox/engine.ts orderStage) and over mixes of this desk's journal and activity
// outside Paydesk that only the order-stage reveals.

import { describe, expect, it } from 'vitest';

import type { StatusResponse } from '../../../main/gateway/response';
import { orderFigures } from '../../../main/services/orders/figures';
import { allowedActions } from '../../../main/services/orders/rules';
import { orderState, type OrderStateCode } from '../../../main/services/orders/state';
import type { JournalEntry } from '../../../main/store/journal/types';
import { journalEntry, statusAnswer } from '../../support/entries';

/** The sandbox's transaction kinds and the order-stage prefix of each. */
const PREFIX: Record<string, string> = {
  sale: 'sale',
  preauth: 'auth',
  capture: 'capture',
  reversal: 'reversal',
  cancel: 'cancel',
  void: 'void',
  'account-verification': 'verify',
  rebill: 'rebill',
  recurring: 'recurring',
  payout: 'payout',
  transfer: 'transfer',
  'pan-eligibility': 'pan_eligibility',
};
const PAYMENTS = ['sale', 'capture', 'rebill', 'recurring'];

function status(type: string, status: string, stage: string, extra: Partial<StatusResponse> = {}) {
  return statusAnswer({
    status: status as StatusResponse['status'],
    transactionType: type,
    orderStage: `${PREFIX[type]}_${stage}`,
    ...extra,
  });
}

function entry(
  operation: 'CAPTURE' | 'RETURN' | 'VOID',
  amount: bigint | null,
  state: JournalEntry['state'],
  result: string | null = state === 'final' ? 'approved' : null,
): JournalEntry {
  return journalEntry(operation, { amountMinor: amount, state, status: result });
}

function stateOf(s: StatusResponse, journal: JournalEntry[] = []): OrderStateCode {
  const figures = orderFigures(s, journal);
  return orderState({
    status: s.status,
    orderStage: s.orderStage ?? null,
    threeDsHandOff: Boolean(s.html || s.redirectTo),
    figures,
  }).code;
}

describe('order state over every order-stage the sandbox emits', () => {
  for (const type of Object.keys(PREFIX)) {
    describe(type, () => {
      it('waiting stages', () => {
        expect(stateOf(status(type, 'processing', 'processing'))).toBe('processing');
        expect(stateOf(status(type, 'processing', 'form_waiting'))).toBe('processing');
        expect(stateOf(status(type, 'processing', 'checked'))).toBe('processing');
        expect(stateOf(status(type, 'processing', '3d_method'))).toBe('waiting-3ds');
        expect(stateOf(status(type, 'processing', '3d_validating'))).toBe('waiting-3ds');
      });
      it('final failures and the unanswered', () => {
        for (const failed of ['declined', 'error', 'filtered'])
          expect(stateOf(status(type, failed, failed))).toBe('declined');
        expect(stateOf(status(type, 'unknown', 'unknown'))).toBe('unknown');
      });
      it('approved stages', () => {
        expect(stateOf(status(type, 'approved', 'approved'))).toBe('approved');
        expect(stateOf(status(type, 'approved', 'voided'))).toBe('voided');
        if (type === 'preauth') {
          expect(stateOf(status(type, 'approved', 'cancelled'))).toBe('hold-cancelled');
          expect(stateOf(status(type, 'approved', 'captured'))).toBe('captured');
          expect(stateOf(status(type, 'approved', 'partially_captured'))).toBe('partly-captured');
        }
        if (PAYMENTS.includes(type)) {
          expect(stateOf(status(type, 'approved', 'reversed'))).toBe('refunded');
          expect(stateOf(status(type, 'approved', 'partially_reversed'))).toBe('partly-refunded');
        }
      });
    });
  }

  it('a status the client does not know is Unknown, never Approved', () => {
    expect(stateOf(status('sale', 'weird', 'approved'))).toBe('unknown');
  });

  it('a 3DS hand-off in the status means waiting for 3-D Secure whatever the stage says', () => {
    const s = status('sale', 'processing', 'processing', { redirectTo: 'https://acs' });
    expect(stateOf(s)).toBe('waiting-3ds');
  });
});

describe('state and figures from the journal and from outside activity', () => {
  it('a sale refunded elsewhere: refunded is a lower bound, what is left is unknown, the refund has no maximum', () => {
    const s = status('sale', 'approved', 'partially_reversed');
    const f = orderFigures(s, []);
    expect(f).toMatchObject({
      refundedMinor: 0n,
      refundedAtLeast: true,
      remainingRefundableMinor: undefined,
      changedElsewhere: true,
    });
    expect(stateOf(s)).toBe('partly-refunded');
    expect(allowedActions(s, f).refund).toEqual({ allowed: true });
    expect(allowedActions(s, f).void).toMatchObject({ allowed: false });
  });

  it('a refund of ours on an order refunded elsewhere: refunded stays "at least", what is left unknown', () => {
    const s = status('sale', 'approved', 'partially_reversed');
    const ours = { ...entry('RETURN', 1000n, 'final'), changedElsewhere: true };
    const f = orderFigures(s, [ours]);
    expect(f).toMatchObject({
      refundedMinor: 1000n,
      refundedAtLeast: true,
      remainingRefundableMinor: undefined,
    });
    expect(allowedActions(s, f).refund).toEqual({ allowed: true });
    // Fully reversed is known again, whoever did it.
    expect(orderFigures(status('sale', 'approved', 'reversed'), [ours])).toMatchObject({
      refundedMinor: 10000n,
      refundedAtLeast: false,
      remainingRefundableMinor: 0n,
    });
  });

  it('a capture of ours on a hold captured elsewhere: captured stays "at least"', () => {
    const s = status('preauth', 'approved', 'partially_captured');
    const ours = { ...entry('CAPTURE', 2000n, 'final'), changedElsewhere: true };
    expect(orderFigures(s, [ours])).toMatchObject({
      capturedMinor: 2000n,
      capturedAtLeast: true,
      remainingCapturableMinor: undefined,
    });
  });

  it('a sale partly refunded from Paydesk: the journal accounts for the stage, the figures are known', () => {
    const s = status('sale', 'approved', 'partially_reversed');
    const f = orderFigures(s, [entry('RETURN', 2500n, 'final')]);
    expect(f).toMatchObject({
      refundedMinor: 2500n,
      refundedAtLeast: false,
      remainingRefundableMinor: 7500n,
    });
    expect(allowedActions(s, f).refund).toEqual({ allowed: true, maxMinor: 7500n });
  });

  it('a refund still pending counts against what is left, but the state waits for it', () => {
    const s = status('sale', 'approved', 'approved');
    const journal = [entry('RETURN', 4000n, 'acknowledged')];
    const f = orderFigures(s, journal);
    expect(f.refundedMinor).toBe(4000n);
    expect(f.remainingRefundableMinor).toBe(6000n);
    expect(stateOf(s, journal)).toBe('approved');
    expect(allowedActions(s, f).refund).toMatchObject({ allowed: false });
  });

  it('a pending refund explains a partly reversed stage: no outside activity is claimed', () => {
    const s = status('sale', 'approved', 'partially_reversed');
    const f = orderFigures(s, [entry('RETURN', 4000n, 'unknown')]);
    expect(f).toMatchObject({ refundedAtLeast: false, remainingRefundableMinor: 6000n });
  });

  it('a declined or refused refund of ours counts for nothing', () => {
    const s = status('sale', 'approved', 'approved');
    const journal = [entry('RETURN', 4000n, 'final', 'declined'), entry('RETURN', 100n, 'refused')];
    expect(orderFigures(s, journal)).toMatchObject({
      refundedMinor: 0n,
      remainingRefundableMinor: 10000n,
    });
    expect(stateOf(s, journal)).toBe('approved');
  });

  it('an approved refund of ours the stage does not show yet still makes the order partly refunded', () => {
    expect(stateOf(status('sale', 'approved', 'approved'), [entry('RETURN', 100n, 'final')])).toBe(
      'partly-refunded',
    );
    expect(
      stateOf(status('sale', 'approved', 'approved'), [entry('RETURN', 10000n, 'final')]),
    ).toBe('refunded');
  });

  it('a sale fully reversed elsewhere: the whole amount is known to be refunded', () => {
    const s = status('sale', 'approved', 'reversed');
    const f = orderFigures(s, []);
    expect(f).toMatchObject({
      refundedMinor: 10000n,
      refundedAtLeast: false,
      remainingRefundableMinor: 0n,
    });
    expect(allowedActions(s, f).refund).toMatchObject({ allowed: false });
  });

  it('a void of ours makes the order voided, with nothing left to refund', () => {
    const s = status('sale', 'approved', 'approved');
    const journal = [entry('VOID', null, 'final')];
    expect(stateOf(s, journal)).toBe('voided');
    expect(orderFigures(s, journal).remainingRefundableMinor).toBe(0n);
  });

  it('a preauth captured elsewhere: captured is a lower bound, capture and cancel have no maximum', () => {
    const s = status('preauth', 'approved', 'partially_captured');
    const f = orderFigures(s, []);
    expect(f).toMatchObject({
      capturedAtLeast: true,
      remainingCapturableMinor: undefined,
      refundedMinor: 0n,
    });
    expect(allowedActions(s, f).capture).toEqual({ allowed: true });
    expect(allowedActions(s, f).cancel).toEqual({ allowed: true });
    expect(stateOf(s)).toBe('partly-captured');
  });

  it('a preauth partly captured from Paydesk: known figures and Partly captured', () => {
    const s = status('preauth', 'approved', 'partially_captured');
    const journal = [entry('CAPTURE', 3000n, 'final')];
    expect(orderFigures(s, journal)).toMatchObject({
      capturedMinor: 3000n,
      capturedAtLeast: false,
      remainingCapturableMinor: 7000n,
    });
    expect(stateOf(s, journal)).toBe('partly-captured');
  });

  it('a preauth whose hold we cancelled is Hold cancelled, even before the stage says so', () => {
    const s = status('preauth', 'approved', 'approved');
    const journal = [entry('RETURN', 10000n, 'final')];
    expect(stateOf(s, journal)).toBe('hold-cancelled');
    expect(allowedActions(s, orderFigures(s, journal)).capture).toMatchObject({ allowed: false });
  });

  it('a payout shows only its amount: no refund or capture figures, and no refund', () => {
    const s = status('payout', 'approved', 'approved');
    const f = orderFigures(s, []);
    expect(f.kind).toBe('amount-only');
    expect(f.remainingRefundableMinor).toBe(0n);
    expect(allowedActions(s, f).refund).toEqual({
      allowed: false,
      reason: 'A payout cannot be refunded.',
    });
  });
});
