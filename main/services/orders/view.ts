// An order as the screens show it: the gateway's status merged with this desk's journal, in
// one object, so every part of the Orders screen reads the same figures and the same state; and
// its page: who made it, the customer's e-mail, and its timeline (timeline.ts).

import { formatMinor } from '../../gateway/amount';
import { isFinalStatus, type StatusResponse } from '../../gateway/response';
import type { JournalEntry } from '../../store/journal/types';
import type { FigureKind, SaidFigure } from './figures';
import { allowedActions, orderFigures, type ActionKind, type Allowance } from './rules';
import { orderState, type OrderStateCode } from './state';
import {
  orderCreated,
  orderTimeline,
  type OrderCreated,
  type ProfileNameOf,
  type TimelineItem,
} from './timeline';

export type { OrderCreated, TimelineItem } from './timeline';

/** What the gateway said is left, when, and what Paydesk sent since (already taken off). */
export interface SaidView {
  amount: string;
  at: string;
  since: string | null;
}

export interface ActionView {
  allowed: boolean;
  /** The most that may be captured, refunded or released, as major-unit text; absent when only the gateway knows. */
  max?: string;
  reason?: string;
}

export interface PendingView {
  clientOrderId: string;
  operation: string;
  amount: string | null;
  state: JournalEntry['state'];
}

export interface OrderView {
  profileId: string;
  orderId: string;
  clientOrderId: string | null;
  /** The gateway's status word (approved, declined, processing, ...). */
  status: string;
  /** One plain state from status, order-stage and the journal (see order-state.ts). */
  state: OrderStateCode;
  stateLabel: string;
  statusText: string;
  final: boolean;
  transactionType: string | null;
  orderStage: string | null;
  currency: string | null;
  /** Which figures mean something for this type: a hold's captures, a payment's refunds, or only its amount. */
  figureKind: FigureKind;
  amount: string;
  /** Null when the figure means nothing for this type. */
  captured: string | null;
  /** More was captured outside Paydesk: `captured` is a lower bound. */
  capturedAtLeast: boolean;
  refunded: string | null;
  refundedAtLeast: boolean;
  /** Null when the figure means nothing for this type, or only the gateway knows it. */
  remainingCapturable: string | null;
  remainingRefundable: string | null;
  card: {
    bin?: string;
    lastFour?: string;
    type?: string;
    holder?: string;
    expMonth?: string;
    expYear?: string;
    /** The card reference of this order's card, when it was saved. */
    refId?: string;
  };
  /** A 3DS challenge is waiting for the customer. */
  threeDsPending: boolean;
  /** The address the customer must open to finish 3-D Secure, while it waits. */
  threeDsAddress: string | null;
  /** Captures or refunds were made outside Paydesk: their amount is not in the figures. */
  changedElsewhere: boolean;
  /**
   * Why the journal could not be read for this lookup (a team's database away): the gateway's
   * facts are shown, the journal's figures are unknown and no action is offered.
   */
  journalUnreadable: string | null;
  pending: PendingView[];
  /** Orders our captures of this preauth created (refund those). */
  captures: { orderId: string | null; amount: string | null; status: string | null }[];
  actions: Record<ActionKind, ActionView>;
  /** The customer's e-mail the gateway gave with the order. */
  email: string | null;
  /** When this status was read from the gateway. */
  readAt: string;
  created: OrderCreated;
  /** The gateway named what is left (remainingCapturable / remainingRefundable come from it). */
  remainingCapturableSaid: SaidView | null;
  remainingRefundableSaid: SaidView | null;
  timeline: TimelineItem[];
}

/** The journal's entries of an order, as the lookup read them. */
export interface OrderEntries {
  /** Every entry acting on it or being it, oldest first (JournalPort.ofOrder). */
  entries: readonly JournalEntry[];
  /** When the status was read. */
  readAt: string;
}

export function orderView(
  profileId: string,
  status: StatusResponse,
  ofOrder: readonly JournalEntry[] | OrderEntries,
  journalUnreadable?: string,
  /** Names the profile of an entry made on another one; without it, every one is "removed". */
  profileName: ProfileNameOf = () => undefined,
): OrderView {
  const orderId = status.orderId ?? '';
  const read = Array.isArray(ofOrder)
    ? { entries: ofOrder as readonly JournalEntry[], readAt: new Date().toISOString() }
    : (ofOrder as OrderEntries);
  // The figures count what acts on the order (JournalPort.forTarget's entries), as the rules do.
  const entries = read.entries.filter((e) => e.targetOrderId === orderId);
  const figures = orderFigures(status, entries);
  const currency = status.currency;
  const money = (minor: bigint | undefined): string | null =>
    minor === undefined ? null : formatMinor(minor, currency);
  const actions = allowedActions(status, figures);
  const threeDsPending =
    status.status === 'processing' && Boolean(status.redirectTo || status.html);
  const state = orderState({
    status: status.status,
    orderStage: status.orderStage ?? null,
    threeDsHandOff: threeDsPending,
    figures,
  });
  const toView = (a: Allowance): ActionView =>
    journalUnreadable
      ? {
          allowed: false,
          reason: `Paydesk cannot journal it now: ${journalUnreadable}`,
        }
      : a.allowed
        ? {
            allowed: true,
            ...(a.maxMinor !== undefined ? { max: formatMinor(a.maxMinor, currency) } : {}),
          }
        : { allowed: false, reason: a.reason };
  // With the journal unread, what Paydesk captured or refunded is unknown: no figure, not zero.
  const hold = figures.kind === 'hold' && !journalUnreadable;
  const payment = figures.kind === 'payment' && !journalUnreadable;
  return {
    profileId,
    orderId,
    clientOrderId: status.clientOrderId ?? null,
    status: status.status,
    state: state.code,
    stateLabel: state.label,
    statusText: state.text,
    final: isFinalStatus(status.status),
    transactionType: status.transactionType ?? null,
    orderStage: status.orderStage ?? null,
    currency: status.currency ?? null,
    figureKind: figures.kind,
    amount: formatMinor(figures.amountMinor, currency),
    captured: hold ? formatMinor(figures.capturedMinor, currency) : null,
    capturedAtLeast: figures.capturedAtLeast,
    refunded: payment ? formatMinor(figures.refundedMinor, currency) : null,
    refundedAtLeast: figures.refundedAtLeast,
    remainingCapturable: hold ? money(figures.remainingCapturableMinor) : null,
    remainingRefundable: payment ? money(figures.remainingRefundableMinor) : null,
    card: {
      bin: status.card.bin,
      lastFour: status.card.lastFourDigits,
      type: status.card.cardType,
      holder: status.card.cardholderName,
      expMonth: status.card.expMonth,
      expYear: status.card.expYear,
      refId: status.card.cardRefId,
    },
    threeDsPending,
    threeDsAddress:
      status.status === 'processing' && status.html && status.redirectTo ? status.redirectTo : null,
    // Known only by comparing with the journal: with the journal unread it is not guessed.
    changedElsewhere: !journalUnreadable && figures.changedElsewhere,
    journalUnreadable: journalUnreadable ?? null,
    pending: figures.pending.map((e) => ({
      clientOrderId: e.clientOrderId,
      operation: e.operation,
      amount: e.amountMinor === null ? null : formatMinor(e.amountMinor, currency),
      state: e.state,
    })),
    captures: entries
      .filter((e) => e.operation === 'CAPTURE')
      .map((e) => ({
        orderId: e.orderId,
        amount: e.amountMinor === null ? null : formatMinor(e.amountMinor, currency),
        status: e.status,
      })),
    actions: {
      capture: toView(actions.capture),
      void: toView(actions.void),
      refund: toView(actions.refund),
      cancel: toView(actions.cancel),
    },
    email: status.email ?? null,
    readAt: read.readAt,
    created: orderCreated(read.entries, orderId),
    remainingCapturableSaid: hold ? saidView(figures.saidCapturable, currency) : null,
    remainingRefundableSaid: payment ? saidView(figures.saidRefundable, currency) : null,
    timeline: orderTimeline({
      orderId,
      profileId,
      profileName,
      status,
      entries: read.entries,
      figures,
      stateLabel: state.label,
      readAt: read.readAt,
      journalUnreadable: journalUnreadable !== undefined,
    }),
  };
}

function saidView(said: SaidFigure | undefined, currency: string | undefined): SaidView | null {
  if (!said) return null;
  return {
    amount: formatMinor(said.leftMinor, currency),
    at: said.at,
    since: said.sinceMinor > 0n ? formatMinor(said.sinceMinor, currency) : null,
  };
}
