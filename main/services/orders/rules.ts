// The spec's rules for what may be done to an order, applied to the gateway's status merged
// with what the journal knows. Pure functions: the screens show the same answers the services
// enforce. Money is bigint minor units.

import type { StatusResponse } from '../../gateway/response';
import { PAYMENT_TYPES, type OrderFigures } from './figures';

export { orderFigures, type OrderFigures } from './figures';

export type ActionKind = 'capture' | 'void' | 'refund' | 'cancel';

/**
 * Allowed, up to `maxMinor`; without `maxMinor` only the gateway knows what is left (captures
 * or refunds were made outside Paydesk): the clerk enters the amount and the gateway decides.
 */
export type Allowance = { allowed: true; maxMinor?: bigint } | { allowed: false; reason: string };

const PENDING_WORDS: Record<string, string> = {
  CAPTURE: 'capture',
  RETURN: 'refund',
  VOID: 'void',
};

/** Allowed up to what is left; unknown (outside activity) leaves the maximum to the gateway. */
function upTo(remaining: bigint | undefined, noneLeft: string): Allowance {
  if (remaining === undefined) return { allowed: true };
  return remaining <= 0n
    ? { allowed: false, reason: noneLeft }
    : { allowed: true, maxMinor: remaining };
}

/** What may be done to the order now, and up to which amount; each refusal says why. */
export function allowedActions(
  status: StatusResponse,
  figures: OrderFigures,
): Record<ActionKind, Allowance> {
  const type = status.transactionType ?? '';
  const approved = status.status === 'approved';
  const notApproved = (what: string): Allowance => ({
    allowed: false,
    reason: `Only an approved order can be ${what}; this one is ${status.status}.`,
  });
  const busy = (): Allowance | undefined => {
    const pending = figures.pending[0];
    return pending
      ? {
          allowed: false,
          reason: `A ${PENDING_WORDS[pending.operation] ?? pending.operation} of this order is still pending (${pending.clientOrderId}); wait for its final status.`,
        }
      : undefined;
  };

  const capture: Allowance =
    type !== 'preauth'
      ? { allowed: false, reason: 'Only a preauth can be captured.' }
      : !approved
        ? notApproved('captured')
        : (busy() ??
          (figures.cancelled
            ? { allowed: false, reason: 'The hold was cancelled.' }
            : upTo(figures.remainingCapturableMinor, 'The preauth is fully captured.')));

  const cancel: Allowance =
    type !== 'preauth'
      ? { allowed: false, reason: 'Only a preauth hold can be cancelled; refund a sale instead.' }
      : !approved
        ? notApproved('cancelled')
        : (busy() ??
          (figures.cancelled
            ? { allowed: false, reason: 'The hold is already cancelled.' }
            : upTo(
                figures.remainingCapturableMinor,
                'Nothing is left on hold; refund the capture instead.',
              )));

  const refund: Allowance = !PAYMENT_TYPES.has(type)
    ? {
        allowed: false,
        reason:
          type === 'preauth'
            ? 'A preauth is not refunded: capture it, or cancel the hold.'
            : `A ${type || 'transaction of this type'} cannot be refunded.`,
      }
    : !approved
      ? notApproved('refunded')
      : (busy() ??
        (figures.voided
          ? { allowed: false, reason: 'The order was voided; nothing was charged.' }
          : upTo(figures.remainingRefundableMinor, 'The order is fully refunded.')));

  const voidAction: Allowance = !PAYMENT_TYPES.has(type)
    ? {
        allowed: false,
        reason:
          type === 'preauth'
            ? 'A preauth is released by cancelling the hold, not by a void.'
            : 'Only an approved sale or capture can be voided.',
      }
    : !approved
      ? notApproved('voided')
      : (busy() ??
        (figures.voided
          ? { allowed: false, reason: 'The order is already voided.' }
          : figures.refundedMinor > 0n || figures.changedElsewhere
            ? { allowed: false, reason: 'The order has refunds; it can no longer be voided.' }
            : { allowed: true }));

  return { capture, cancel, refund, void: voidAction };
}
