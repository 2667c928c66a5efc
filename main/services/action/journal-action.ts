// What the clerk did, in the journal's words: one place decides whether a capture or refund was
// partial and that a return on a preauth is a cancel of its hold, so the Journal screen, its
// filter and the CSV never have to guess from the gateway's operation name.

import type { RequestOperation } from '../../gateway/operations';
import type { JournalAction } from '../../../common/journal-actions';
import type { ActionKind } from '../orders/rules';

/**
 * `amountMinor` is what this action moves; `orderAmountMinor` the order's whole amount. A
 * capture or refund of less than the whole order is partial (also when part of it was moved
 * earlier or outside Paydesk: the clerk did not take or give back the whole order).
 */
export function journalAction(
  kind: ActionKind,
  amountMinor: bigint | undefined,
  orderAmountMinor: bigint,
): JournalAction {
  if (kind === 'void') return 'void';
  if (kind === 'cancel') return 'cancel-hold';
  const partial = amountMinor !== undefined && amountMinor < orderAmountMinor;
  if (kind === 'capture') return partial ? 'partial-capture' : 'capture';
  return partial ? 'partial-refund' : 'refund';
}

/**
 * What the clerk did, for operations that are one act whatever their amount (payouts, cards,
 * subscriptions, links). Captures, voids and returns are told apart by journalAction above.
 */
export const ACTION_OF_OPERATION: Partial<Record<RequestOperation, JournalAction>> = {
  PAYOUT: 'payout',
  PAYOUT_V4_CHECK: 'payout-check',
  PAYOUT_V4_PAY: 'payout-pay',
  CARDREF: 'save-card',
  CARDREF_V4: 'save-card',
  REBILL: 'rebill',
  CREATE_RP_V4: 'subscription',
  SALEFORM: 'payment-link',
  PREAUTHFORM: 'hold-link',
};
