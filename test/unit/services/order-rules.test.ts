// What may be done to an order (main/services/orders/rules.ts), rule by rule, on the status and
// figures alone: the refusal a clerk reads for each case and the maximum a form offers. No
// gateway, no journal file: a change to a rule fails here at once.

import { describe, expect, it } from 'vitest';

import type { StatusResponse } from '../../../main/gateway/response';
import { orderFigures } from '../../../main/services/orders/figures';
import {
  allowedActions,
  type ActionKind,
  type Allowance,
} from '../../../main/services/orders/rules';
import type { JournalEntry } from '../../../main/store/journal/types';
import { journalEntry, statusAnswer } from '../../support/entries';

const SALE = statusAnswer();
const HOLD = statusAnswer({ transactionType: 'preauth', orderStage: 'auth_approved' });

function actions(status: StatusResponse, journal: JournalEntry[] = []) {
  return allowedActions(status, orderFigures(status, journal));
}

const refund = (minor: bigint, state: JournalEntry['state'] = 'final') =>
  journalEntry('RETURN', { amountMinor: minor, state });
const capture = (minor: bigint, state: JournalEntry['state'] = 'final') =>
  journalEntry('CAPTURE', { amountMinor: minor, state });

describe('an approved sale', () => {
  it('may be refunded up to its amount and voided; not captured or cancelled', () => {
    expect(actions(SALE)).toEqual({
      refund: { allowed: true, maxMinor: 10000n },
      void: { allowed: true },
      capture: { allowed: false, reason: 'Only a preauth can be captured.' },
      cancel: {
        allowed: false,
        reason: 'Only a preauth hold can be cancelled; refund a sale instead.',
      },
    });
  });

  it('after a partial refund: the rest may be refunded, and it can no longer be voided', () => {
    const a = actions(SALE, [refund(2500n)]);
    expect(a.refund).toEqual({ allowed: true, maxMinor: 7500n });
    expect(a.void).toEqual({
      allowed: false,
      reason: 'The order has refunds; it can no longer be voided.',
    });
  });

  it('fully refunded: nothing more to refund', () => {
    expect(actions(SALE, [refund(10000n)]).refund).toEqual({
      allowed: false,
      reason: 'The order is fully refunded.',
    });
  });

  it('refunded outside Paydesk: the refund has no maximum (the gateway decides) and no void', () => {
    const elsewhere = statusAnswer({ orderStage: 'sale_partially_reversed' });
    const a = actions(elsewhere);
    expect(a.refund).toEqual({ allowed: true });
    expect(a.void).toEqual({
      allowed: false,
      reason: 'The order has refunds; it can no longer be voided.',
    });
  });

  it('voided: neither refunded nor voided again', () => {
    const a = actions(SALE, [journalEntry('VOID')]);
    expect(a.refund).toEqual({
      allowed: false,
      reason: 'The order was voided; nothing was charged.',
    });
    expect(a.void).toEqual({ allowed: false, reason: 'The order is already voided.' });
  });

  it('with an operation of ours still pending: every action waits for its final status', () => {
    const pending = journalEntry('RETURN', {
      amountMinor: 100n,
      state: 'acknowledged',
      clientOrderId: 'pd-pending-1',
    });
    const a = actions(SALE, [pending]);
    const waiting = {
      allowed: false,
      reason: 'A refund of this order is still pending (pd-pending-1); wait for its final status.',
    };
    expect(a.refund).toEqual(waiting);
    expect(a.void).toEqual(waiting);
  });

  it('a pending capture and void are named in the clerk’s words', () => {
    const hold = (operation: string) =>
      actions(HOLD, [journalEntry(operation, { state: 'sending', clientOrderId: 'pd-x' })]);
    const reason = (allowance: Allowance) => (allowance.allowed ? '' : allowance.reason);
    expect(reason(hold('CAPTURE').capture)).toMatch(/^A capture of this order is still pending/);
    expect(reason(hold('VOID').cancel)).toMatch(/^A void of this order is still pending/);
  });

  it('an answer lost on the way (unknown) still blocks: it may have been processed', () => {
    expect(actions(SALE, [refund(100n, 'unknown')]).refund).toMatchObject({ allowed: false });
  });

  it('a refused or declined refund of ours blocks nothing and counts for nothing', () => {
    const declined = journalEntry('RETURN', { amountMinor: 500n, status: 'declined' });
    expect(actions(SALE, [refund(500n, 'refused'), declined])).toMatchObject({
      refund: { allowed: true, maxMinor: 10000n },
      void: { allowed: true },
    });
  });
});

describe('an approved preauth (a hold)', () => {
  it('may be captured or cancelled up to its amount; not refunded or voided', () => {
    expect(actions(HOLD)).toEqual({
      capture: { allowed: true, maxMinor: 10000n },
      cancel: { allowed: true, maxMinor: 10000n },
      refund: {
        allowed: false,
        reason: 'A preauth is not refunded: capture it, or cancel the hold.',
      },
      void: {
        allowed: false,
        reason: 'A preauth is released by cancelling the hold, not by a void.',
      },
    });
  });

  it('partly captured: the rest may be captured or released', () => {
    const a = actions(HOLD, [capture(3000n)]);
    expect(a.capture).toEqual({ allowed: true, maxMinor: 7000n });
    expect(a.cancel).toEqual({ allowed: true, maxMinor: 7000n });
  });

  it('fully captured: nothing to capture, nothing left on hold', () => {
    const a = actions(HOLD, [capture(10000n)]);
    expect(a.capture).toEqual({ allowed: false, reason: 'The preauth is fully captured.' });
    expect(a.cancel).toEqual({
      allowed: false,
      reason: 'Nothing is left on hold; refund the capture instead.',
    });
  });

  it('cancelled (a RETURN of ours on the hold): neither captured nor cancelled again', () => {
    const a = actions(HOLD, [journalEntry('RETURN', { amountMinor: 10000n })]);
    expect(a.capture).toEqual({ allowed: false, reason: 'The hold was cancelled.' });
    expect(a.cancel).toEqual({ allowed: false, reason: 'The hold is already cancelled.' });
  });

  it('cancelled at the gateway (its stage) is the same', () => {
    const a = actions(statusAnswer({ transactionType: 'preauth', orderStage: 'auth_cancelled' }));
    expect(a.capture).toEqual({ allowed: false, reason: 'The hold was cancelled.' });
  });

  it('captured outside Paydesk: capture and cancel have no maximum', () => {
    const a = actions(
      statusAnswer({ transactionType: 'preauth', orderStage: 'auth_partially_captured' }),
    );
    expect(a.capture).toEqual({ allowed: true });
    expect(a.cancel).toEqual({ allowed: true });
  });
});

describe('an order that is not approved', () => {
  const KINDS: ActionKind[] = ['capture', 'cancel', 'refund', 'void'];
  const WORDS: Record<ActionKind, string> = {
    capture: 'captured',
    cancel: 'cancelled',
    refund: 'refunded',
    void: 'voided',
  };

  for (const state of ['processing', 'declined', 'error', 'filtered', 'unknown'] as const) {
    it(`(${state}) may not be touched, and the refusal says its state`, () => {
      const sale = actions(statusAnswer({ status: state }));
      const hold = actions(statusAnswer({ status: state, transactionType: 'preauth' }));
      for (const kind of KINDS) {
        const subject = kind === 'capture' || kind === 'cancel' ? hold : sale;
        expect(subject[kind]).toEqual({
          allowed: false,
          reason: `Only an approved order can be ${WORDS[kind]}; this one is ${state}.`,
        });
      }
    });
  }
});

describe('transactions that are neither sale nor hold', () => {
  it('the other payments (capture, rebill, recurring) are refunded like a sale', () => {
    for (const type of ['capture', 'rebill', 'recurring'])
      expect(actions(statusAnswer({ transactionType: type })).refund).toEqual({
        allowed: true,
        maxMinor: 10000n,
      });
  });

  it('a payout or a transaction without a type cannot be refunded or voided, and says which', () => {
    expect(actions(statusAnswer({ transactionType: 'payout' })).refund).toEqual({
      allowed: false,
      reason: 'A payout cannot be refunded.',
    });
    expect(actions(statusAnswer({ transactionType: undefined })).refund).toEqual({
      allowed: false,
      reason: 'A transaction of this type cannot be refunded.',
    });
    expect(actions(statusAnswer({ transactionType: 'transfer' })).void).toEqual({
      allowed: false,
      reason: 'Only an approved sale or capture can be voided.',
    });
  });
});
