// One plain state per order, from the gateway's status, its order-stage and what this desk's
// journal knows (approved captures, refunds, voids and cancels of ours). Every screen that
// shows an order's state uses this function; the payout, card and recurring screens too.

import { stageSuffix, type OrderFigures } from './figures';

export type OrderStateCode =
  | 'approved'
  | 'partly-captured'
  | 'captured'
  | 'partly-refunded'
  | 'refunded'
  | 'voided'
  | 'hold-cancelled'
  | 'declined'
  | 'processing'
  | 'waiting-3ds'
  | 'unknown';

export interface OrderState {
  code: OrderStateCode;
  /** A few words for the pill, e.g. "Partly refunded". */
  label: string;
  /** One sentence for the clerk. */
  text: string;
}

export interface OrderStateInput {
  status: string;
  orderStage?: string | null;
  /** The status carries a 3-D Secure hand-off (html or redirect-to) for the customer. */
  threeDsHandOff?: boolean;
  figures: Pick<
    OrderFigures,
    | 'kind'
    | 'amountMinor'
    | 'settledCapturedMinor'
    | 'settledRefundedMinor'
    | 'capturedAtLeast'
    | 'refundedAtLeast'
    | 'voided'
    | 'cancelled'
  >;
}

const state = (code: OrderStateCode, label: string, text: string): OrderState => ({
  code,
  label,
  text,
});

const DECLINED_TEXT: Record<string, string> = {
  declined: 'Declined by the bank; nothing was charged.',
  error: 'Declined for a technical reason; nothing was charged.',
  filtered: 'Declined by fraud control; nothing was charged.',
};

export function orderState(input: OrderStateInput): OrderState {
  const { status, figures } = input;
  const suffix = stageSuffix(input.orderStage);

  if (status === 'processing') {
    if (input.threeDsHandOff || suffix === '3d_method' || suffix === '3d_validating')
      return state(
        'waiting-3ds',
        'Waiting for 3-D Secure',
        'The customer has not finished the bank’s 3-D Secure check yet.',
      );
    if (suffix === 'form_waiting')
      return state(
        'processing',
        'Processing',
        'Waiting for the customer to complete the payment page.',
      );
    return state('processing', 'Processing', 'The gateway has not decided yet.');
  }
  if (status in DECLINED_TEXT) return state('declined', 'Declined', DECLINED_TEXT[status]!);
  if (status !== 'approved')
    return state('unknown', 'Unknown', "Unknown: it needs a person at the gateway's side.");

  if (figures.voided || suffix === 'voided')
    return state('voided', 'Voided', 'Voided before it settled; nothing was charged.');
  if (figures.kind === 'hold') {
    if (figures.cancelled || suffix === 'cancelled')
      return state(
        'hold-cancelled',
        'Hold cancelled',
        'The hold was released; nothing more can be captured.',
      );
    if (
      suffix === 'captured' ||
      (figures.amountMinor > 0n && figures.settledCapturedMinor >= figures.amountMinor)
    )
      return state('captured', 'Captured', 'The whole hold was captured.');
    if (
      suffix === 'partially_captured' ||
      figures.capturedAtLeast ||
      figures.settledCapturedMinor > 0n
    )
      return state('partly-captured', 'Partly captured', 'Part of the hold was captured.');
    return state('approved', 'Approved', 'Approved: the amount is held on the card.');
  }
  if (figures.kind === 'payment') {
    if (
      suffix === 'reversed' ||
      (figures.amountMinor > 0n && figures.settledRefundedMinor >= figures.amountMinor)
    )
      return state('refunded', 'Refunded', 'The whole amount was refunded.');
    if (
      suffix === 'partially_reversed' ||
      figures.refundedAtLeast ||
      figures.settledRefundedMinor > 0n
    )
      return state('partly-refunded', 'Partly refunded', 'Part of the amount was refunded.');
  }
  return state('approved', 'Approved', 'Approved: the gateway accepted it.');
}
