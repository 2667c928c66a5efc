// What Paydesk can truthfully say about an order's money: the gateway's status (its amount and
// its order-stage) merged with the journal (every desk's entries of the order on a team). The status carries no running totals (see
// docs/protocol.md, "Order figures"), so captured and refunded amounts are the journal's; when
// the order-stage shows captures or refunds the journal cannot account for (done elsewhere),
// those figures are lower bounds ("at least") and what is left is unknown: only the gateway
// knows it, and it refuses more than that. Once the gateway has named what is left (a refusal
// of ours that said so, said.ts), that figure, less what we sent since, is what is left, and it
// carries the time it was said. Pure functions; money is bigint minor units.

import { parseAmount } from '../../gateway/amount';
import type { StatusResponse } from '../../gateway/response';
import type { JournalEntry } from '../../store/journal/types';
import { IN_FLIGHT } from '../../store/journal/types';
import { latestSaid, type GatewaySaidLeft, type LeftOf } from './said';

/** Which figures mean something for a transaction type. */
export type FigureKind = 'hold' | 'payment' | 'amount-only';

export interface OrderFigures {
  kind: FigureKind;
  amountMinor: bigint;
  /** Captures of a preauth: sent from Paydesk and not failed (pending ones count). */
  capturedMinor: bigint;
  /** True when more was captured than `capturedMinor`, outside Paydesk. */
  capturedAtLeast: boolean;
  /** Refunds of a payment: sent from Paydesk and not failed (pending ones count). */
  refundedMinor: bigint;
  refundedAtLeast: boolean;
  /** What may still be captured; undefined when only the gateway knows. */
  remainingCapturableMinor: bigint | undefined;
  /** What may still be refunded; undefined when only the gateway knows. */
  remainingRefundableMinor: bigint | undefined;
  /** Captures and refunds of ours that the gateway approved (for the order's state). */
  settledCapturedMinor: bigint;
  settledRefundedMinor: bigint;
  /** Operations of ours on this order whose final answer is still owed. */
  pending: JournalEntry[];
  voided: boolean;
  cancelled: boolean;
  /** The gateway reports captures or refunds the journal does not know (done elsewhere). */
  changedElsewhere: boolean;
  /**
   * What the gateway last said is left to capture or refund, and when: the remaining figure
   * above is that, less what Paydesk sent since (`sinceMinor`).
   */
  saidCapturable: SaidFigure | undefined;
  saidRefundable: SaidFigure | undefined;
}

export interface SaidFigure extends GatewaySaidLeft {
  /** What Paydesk sent since it was said (pending ones count), already taken off. */
  sinceMinor: bigint;
}

const LIVE_STATES: ReadonlySet<string> = new Set(IN_FLIGHT);
/** Transactions that take money and can be refunded (a capture is refunded on its own order). */
export const PAYMENT_TYPES: ReadonlySet<string> = new Set([
  'sale',
  'rebill',
  'recurring',
  'capture',
]);

export function figureKind(transactionType: string | undefined | null): FigureKind {
  if (transactionType === 'preauth') return 'hold';
  if (transactionType && PAYMENT_TYPES.has(transactionType)) return 'payment';
  return 'amount-only';
}

/** An entry counts against what is left while it may still succeed, and once it has. */
function counts(entry: JournalEntry): boolean {
  return LIVE_STATES.has(entry.state) || approved(entry);
}

const approved = (entry: JournalEntry) => entry.state === 'final' && entry.status === 'approved';

function sum(entries: readonly JournalEntry[]): bigint {
  return entries.reduce((total, e) => total + (e.amountMinor ?? 0n), 0n);
}

/** The stage's suffix after the type prefix: `sale_partially_reversed` -> `partially_reversed`. */
export function stageSuffix(stage: string | undefined | null): string {
  if (!stage) return '';
  for (const suffix of STAGE_SUFFIXES) if (stage.endsWith(`_${suffix}`)) return suffix;
  return '';
}

/** Longest first, so `partially_captured` is not read as `captured`. */
const STAGE_SUFFIXES = [
  'partially_captured',
  'partially_reversed',
  '3d_validating',
  'form_waiting',
  '3d_method',
  'processing',
  'cancelled',
  'captured',
  'reversed',
  'approved',
  'declined',
  'filtered',
  'checked',
  'unknown',
  'voided',
  'error',
];

export function orderFigures(
  status: StatusResponse,
  journal: readonly JournalEntry[],
): OrderFigures {
  const kind = figureKind(status.transactionType);
  const amountMinor = status.amount ? safeMinor(status.amount, status.currency) : 0n;
  const live = journal.filter(counts);
  const ofOperation = (operation: string) => live.filter((e) => e.operation === operation);
  const settledOf = (operation: string) =>
    sum(journal.filter((e) => e.operation === operation && approved(e)));
  const isHold = kind === 'hold';
  const suffix = stageSuffix(status.orderStage);

  const journalCaptured = isHold ? sum(ofOperation('CAPTURE')) : 0n;
  const journalRefunded = kind === 'payment' ? sum(ofOperation('RETURN')) : 0n;
  const cancelled = (isHold && ofOperation('RETURN').length > 0) || suffix === 'cancelled';
  // A voided order charged nothing: there is nothing to refund.
  const voided = ofOperation('VOID').length > 0 || suffix === 'voided';

  // The gateway's stage also knows what was done outside Paydesk. "Fully" is a known figure
  // (the whole amount); "partly" with nothing of ours to explain it is a lower bound.
  const fullyCaptured = isHold && suffix === 'captured';
  const fullyReversed = kind === 'payment' && suffix === 'reversed';
  // Once an entry of ours was written while the order showed outside activity, the stage can
  // no longer tell it apart from ours ("partly" either way): it stays a lower bound.
  const seenElsewhere = journal.some((e) => e.changedElsewhere);
  const capturedElsewhere =
    isHold && suffix === 'partially_captured' && (journalCaptured === 0n || seenElsewhere);
  const refundedElsewhere =
    kind === 'payment' &&
    suffix === 'partially_reversed' &&
    (journalRefunded === 0n || seenElsewhere);

  // What the gateway named, less what we sent since: the most that can be left now.
  const saidCapturable =
    isHold && !cancelled && !fullyCaptured
      ? saidFigure(journal, 'capture', 'CAPTURE', status.currency)
      : undefined;
  const saidRefundable =
    kind === 'payment' && !fullyReversed && !voided
      ? saidFigure(journal, 'refund', 'RETURN', status.currency)
      : undefined;

  const capturedMinor = fullyCaptured ? amountMinor : journalCaptured;
  const refundedMinor = fullyReversed ? amountMinor : journalRefunded;
  const remainingCapturableMinor = !isHold
    ? 0n
    : cancelled || fullyCaptured
      ? 0n
      : lowest(capturedElsewhere ? undefined : max0(amountMinor - capturedMinor), saidCapturable);
  const remainingRefundableMinor =
    kind !== 'payment'
      ? 0n
      : fullyReversed || voided
        ? 0n
        : lowest(refundedElsewhere ? undefined : max0(amountMinor - refundedMinor), saidRefundable);
  // With a named figure, what was done is the amount less what is left: known as of its time.
  const saidDone = (said: SaidFigure | undefined, remaining: bigint | undefined) =>
    said !== undefined && remaining !== undefined ? max0(amountMinor - remaining) : undefined;
  const capturedSaid = saidDone(saidCapturable, remainingCapturableMinor);
  const refundedSaid = saidDone(saidRefundable, remainingRefundableMinor);
  const settledSaid = (said: SaidFigure | undefined, operation: string) =>
    said === undefined
      ? undefined
      : max0(amountMinor - said.leftMinor) +
        sum(afterSaid(journal, said).filter((e) => e.operation === operation && approved(e)));

  return {
    kind,
    amountMinor,
    capturedMinor: capturedSaid ?? capturedMinor,
    // A named figure is as of its time: what was done elsewhere since is not in it, so what
    // was done stays a lower bound (and what is left the most that can be left).
    capturedAtLeast: capturedElsewhere,
    refundedMinor: refundedSaid ?? refundedMinor,
    refundedAtLeast: refundedElsewhere,
    remainingCapturableMinor,
    remainingRefundableMinor,
    settledCapturedMinor: fullyCaptured
      ? amountMinor
      : isHold
        ? (settledSaid(saidCapturable, 'CAPTURE') ?? settledOf('CAPTURE'))
        : 0n,
    settledRefundedMinor: fullyReversed
      ? amountMinor
      : kind === 'payment'
        ? (settledSaid(saidRefundable, 'RETURN') ?? settledOf('RETURN'))
        : 0n,
    pending: journal.filter((e) => LIVE_STATES.has(e.state)),
    voided,
    cancelled,
    changedElsewhere: capturedElsewhere || refundedElsewhere,
    saidCapturable,
    saidRefundable,
  };
}

/** The gateway's latest figure of `of`, less our entries of `operation` since that still count. */
function saidFigure(
  journal: readonly JournalEntry[],
  of: LeftOf,
  operation: string,
  currency: string | undefined,
): SaidFigure | undefined {
  const latest = latestSaid(journal, of, currency);
  if (!latest) return undefined;
  const sinceMinor = sum(latest.after.filter((e) => e.operation === operation && counts(e)));
  return { ...latest.said, sinceMinor };
}

function afterSaid(journal: readonly JournalEntry[], said: SaidFigure): JournalEntry[] {
  const index = journal.findIndex((e) => e.clientOrderId === said.clientOrderId);
  return journal.slice(index + 1);
}

/** The lower of what the journal knows and what the gateway said is left; either may be unknown. */
function lowest(journal: bigint | undefined, said: SaidFigure | undefined): bigint | undefined {
  const fromSaid = said === undefined ? undefined : max0(said.leftMinor - said.sinceMinor);
  if (journal === undefined) return fromSaid;
  if (fromSaid === undefined) return journal;
  return journal < fromSaid ? journal : fromSaid;
}

function safeMinor(text: string, currency: string | undefined): bigint {
  try {
    return parseAmount(text, 'amount', currency).minor;
  } catch {
    return 0n;
  }
}

const max0 = (n: bigint) => (n > 0n ? n : 0n);
