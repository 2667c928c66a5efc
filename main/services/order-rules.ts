// The spec's rules for what may be done to an order, applied to the gateway's status merged
// with what the journal knows. Pure functions: the screens show the same answers the services
// enforce. Money is bigint minor units.

import { parseAmount } from '../gateway/amount';
import type { StatusResponse } from '../gateway/response';
import type { JournalEntry } from '../store/journal';

export type ActionKind = 'capture' | 'void' | 'refund' | 'cancel';

export type Allowance = { allowed: true; maxMinor?: bigint } | { allowed: false; reason: string };

export interface OrderFigures {
  amountMinor: bigint;
  capturedMinor: bigint;
  refundedMinor: bigint;
  remainingCapturableMinor: bigint;
  remainingRefundableMinor: bigint;
  /** Operations of ours on this order whose final answer is still owed. */
  pending: JournalEntry[];
  voided: boolean;
  cancelled: boolean;
  /** The gateway reports partial captures or refunds the journal does not know (done elsewhere). */
  changedElsewhere: boolean;
}

const LIVE_STATES = new Set(['sending', 'acknowledged', 'unknown']);
const SALE_LIKE = new Set(['sale', 'rebill', 'recurring', 'capture']);

/** An entry counts against what is left while it may still succeed, and once it has. */
function counts(entry: JournalEntry): boolean {
  return LIVE_STATES.has(entry.state) || (entry.state === 'final' && entry.status === 'approved');
}

function sum(entries: JournalEntry[]): bigint {
  return entries.reduce((total, e) => total + (e.amountMinor ?? 0n), 0n);
}

export function orderFigures(status: StatusResponse, journal: JournalEntry[]): OrderFigures {
  const amountMinor = status.amount ? safeMinor(status.amount) : 0n;
  const live = journal.filter(counts);
  const captures = live.filter((e) => e.operation === 'CAPTURE');
  const returns = live.filter((e) => e.operation === 'RETURN');
  const isPreauth = status.transactionType === 'preauth';
  const capturedMinor = sum(captures);
  const cancelled = isPreauth && returns.length > 0;
  const refundedMinor = isPreauth ? 0n : sum(returns);
  const stage = status.orderStage ?? '';
  // The gateway's order stage also knows what was done outside Paydesk: a fully captured
  // preauth or a fully reversed sale has nothing left, whatever our journal saw.
  const fullyCaptured =
    isPreauth && stage.endsWith('_captured') && !stage.endsWith('_partially_captured');
  const fullyReversed =
    !isPreauth && stage.endsWith('_reversed') && !stage.endsWith('_partially_reversed');
  // A voided order charged nothing: there is nothing to refund.
  const voided = live.some((e) => e.operation === 'VOID') || stage.endsWith('_voided');
  return {
    amountMinor,
    capturedMinor: fullyCaptured ? amountMinor : capturedMinor,
    refundedMinor: fullyReversed ? amountMinor : refundedMinor,
    remainingCapturableMinor:
      isPreauth && !cancelled && !fullyCaptured ? max0(amountMinor - capturedMinor) : 0n,
    remainingRefundableMinor:
      isPreauth || fullyReversed || voided ? 0n : max0(amountMinor - refundedMinor),
    pending: journal.filter((e) => LIVE_STATES.has(e.state)),
    voided,
    cancelled: cancelled || stage.endsWith('_cancelled'),
    changedElsewhere:
      (isPreauth && stage.endsWith('_partially_captured') && capturedMinor === 0n) ||
      (!isPreauth && stage.endsWith('_partially_reversed') && refundedMinor === 0n),
  };
}

function safeMinor(text: string): bigint {
  try {
    return parseAmount(text).minor;
  } catch {
    return 0n;
  }
}

const max0 = (n: bigint) => (n > 0n ? n : 0n);

const PENDING_WORDS: Record<string, string> = {
  CAPTURE: 'capture',
  RETURN: 'refund',
  VOID: 'void',
};

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
            : figures.remainingCapturableMinor <= 0n
              ? { allowed: false, reason: 'The preauth is fully captured.' }
              : { allowed: true, maxMinor: figures.remainingCapturableMinor }));

  const cancel: Allowance =
    type !== 'preauth'
      ? { allowed: false, reason: 'Only a preauth hold can be cancelled; refund a sale instead.' }
      : !approved
        ? notApproved('cancelled')
        : (busy() ??
          (figures.cancelled
            ? { allowed: false, reason: 'The hold is already cancelled.' }
            : figures.remainingCapturableMinor <= 0n
              ? { allowed: false, reason: 'Nothing is left on hold; refund the capture instead.' }
              : { allowed: true, maxMinor: figures.remainingCapturableMinor }));

  const refund: Allowance = !SALE_LIKE.has(type)
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
          : figures.remainingRefundableMinor <= 0n
            ? { allowed: false, reason: 'The order is fully refunded.' }
            : { allowed: true, maxMinor: figures.remainingRefundableMinor }));

  const voidAction: Allowance = !SALE_LIKE.has(type)
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

export const STATUS_WORDS: Record<string, string> = {
  approved: 'Approved: the gateway accepted it.',
  declined: 'Declined by the bank.',
  error: 'Declined for a technical reason.',
  filtered: 'Declined by fraud control.',
  processing: 'Processing: the gateway has not decided yet.',
  unknown: "Unknown: it needs a person at the gateway's side.",
};
