// Order use cases: look an order up, and capture, void, refund or cancel it. Every rule is
// checked before anything is sent; the journal entry is written before the request leaves;
// an action carries a client_orderid that the caller got when it opened the action and reuses
// on retry. One action id, one request, ever: calls with the same id run one after another in
// this process, a second process waits for the lease of the first, and a retry never sends
// (it asks `status`; see in-flight.ts for what becomes of a request that may have left).

import { formatMinor, parseAmount } from '../gateway/amount';
import { FOLLOW_UP_OPERATION, followUpFields } from '../gateway/follow-ups';
import { isFinalStatus, type StatusResponse } from '../gateway/response';
import type { Db } from '../store/database';
import type { Journal, JournalEntry } from '../store/journal';
import { ActionPath, type ActionPathOptions, type ActionResult } from './action-path';
import type { Connections } from './connection';
import { ServiceError } from './errors';
import { refuseCardData } from './free-text';
import {
  allowedActions,
  orderFigures,
  STATUS_WORDS,
  type ActionKind,
  type Allowance,
} from './order-rules';

export interface OrderRef {
  orderid?: string;
  client_orderid?: string;
}

export interface ActionView {
  allowed: boolean;
  /** The most that may be captured, refunded or released, as major-unit text. */
  max?: string;
  reason?: string;
}

export interface PendingView {
  clientOrderId: string;
  operation: string;
  amount: string | null;
  state: JournalEntry['state'];
}

/** An order as the screens show it: the gateway's word merged with the journal's. */
export interface OrderView {
  profileId: string;
  orderId: string;
  clientOrderId: string | null;
  status: string;
  statusText: string;
  final: boolean;
  transactionType: string | null;
  orderStage: string | null;
  currency: string | null;
  amount: string;
  captured: string;
  refunded: string;
  remainingCapturable: string;
  remainingRefundable: string;
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
  /** Part was captured or refunded outside Paydesk: the amounts above do not include it. */
  changedElsewhere: boolean;
  pending: PendingView[];
  /** Orders our captures of this preauth created (refund those). */
  captures: { orderId: string | null; amount: string | null; status: string | null }[];
  actions: Record<ActionKind, ActionView>;
}

export interface ActionRequest {
  profileId: string;
  /** The gateway's orderid of the order acted on. */
  orderid: string;
  /** From openAction(); the same one on every retry of this action. */
  clientOrderId: string;
  /** Major units; omitted means everything that is left. Not for void or cancel. */
  amount?: string;
  reason?: string;
  note?: string;
}

export type { ActionResult } from './action-path';

const OPERATION_OF: Record<ActionKind, 'CAPTURE' | 'VOID' | 'RETURN'> = FOLLOW_UP_OPERATION;

const REASON_REQUIRED: readonly ActionKind[] = ['refund', 'void', 'cancel'];

export type OrderServiceOptions = ActionPathOptions;

export class OrderService {
  constructor(
    db: Db,
    private readonly journal: Journal,
    private readonly connections: Connections,
    options: OrderServiceOptions,
    /** The one action path; the app shares it with every other service that moves money. */
    readonly path: ActionPath = new ActionPath(db, journal, connections, options),
  ) {}

  /** A fresh client_orderid for a new action; keep it and send it again on every retry. */
  openAction(): { clientOrderId: string } {
    return this.path.openAction();
  }

  async lookup(profileId: string, ref: OrderRef): Promise<OrderView> {
    const orderid = ref.orderid?.trim();
    const clientOrderId = ref.client_orderid?.trim();
    if (!orderid && !clientOrderId) {
      throw new ServiceError(
        'NOT_ALLOWED',
        'Enter an orderid or a client_orderid to look up.',
        'orderid',
      );
    }
    const { client } = await this.connections.clientFor(profileId);
    const status = await client.status({ orderid, client_orderid: clientOrderId });
    return this.view(profileId, status);
  }

  /** The address a customer must open to finish 3-D Secure, read from the gateway now. */
  async threeDsAddress(profileId: string, orderid: string): Promise<string> {
    const view = await this.lookup(profileId, { orderid });
    if (!view.threeDsAddress)
      throw new ServiceError(
        'NOT_ALLOWED',
        `Order ${orderid} is not waiting for 3-D Secure; there is no address to send.`,
      );
    return view.threeDsAddress;
  }

  private view(profileId: string, status: StatusResponse): OrderView {
    const orderId = status.orderId ?? '';
    const entries = orderId ? this.journal.forTarget(orderId) : [];
    const figures = orderFigures(status, entries);
    const actions = allowedActions(status, figures);
    const toView = (a: Allowance): ActionView =>
      a.allowed
        ? { allowed: true, ...(a.maxMinor !== undefined ? { max: formatMinor(a.maxMinor) } : {}) }
        : { allowed: false, reason: a.reason };
    return {
      profileId,
      orderId,
      clientOrderId: status.clientOrderId ?? null,
      status: status.status,
      statusText: STATUS_WORDS[status.status] ?? status.status,
      final: isFinalStatus(status.status),
      transactionType: status.transactionType ?? null,
      orderStage: status.orderStage ?? null,
      currency: status.currency ?? null,
      amount: formatMinor(figures.amountMinor),
      captured: formatMinor(figures.capturedMinor),
      refunded: formatMinor(figures.refundedMinor),
      remainingCapturable: formatMinor(figures.remainingCapturableMinor),
      remainingRefundable: formatMinor(figures.remainingRefundableMinor),
      card: {
        bin: status.card.bin,
        lastFour: status.card.lastFourDigits,
        type: status.card.cardType,
        holder: status.card.cardholderName,
        expMonth: status.card.expMonth,
        expYear: status.card.expYear,
        refId: status.card.cardRefId,
      },
      threeDsPending: status.status === 'processing' && Boolean(status.redirectTo || status.html),
      threeDsAddress:
        status.status === 'processing' && status.html && status.redirectTo
          ? status.redirectTo
          : null,
      changedElsewhere: figures.changedElsewhere,
      pending: figures.pending.map((e) => ({
        clientOrderId: e.clientOrderId,
        operation: e.operation,
        amount: e.amountMinor === null ? null : formatMinor(e.amountMinor),
        state: e.state,
      })),
      captures: entries
        .filter((e) => e.operation === 'CAPTURE')
        .map((e) => ({
          orderId: e.orderId,
          amount: e.amountMinor === null ? null : formatMinor(e.amountMinor),
          status: e.status,
        })),
      actions: {
        capture: toView(actions.capture),
        void: toView(actions.void),
        refund: toView(actions.refund),
        cancel: toView(actions.cancel),
      },
    };
  }

  capture(request: ActionRequest): Promise<ActionResult> {
    return this.act('capture', request);
  }

  void(request: ActionRequest): Promise<ActionResult> {
    return this.act('void', request);
  }

  refund(request: ActionRequest): Promise<ActionResult> {
    return this.act('refund', request);
  }

  /** Releases a preauth's hold (a return with the amount still held, when Paydesk knows it). */
  cancel(request: ActionRequest): Promise<ActionResult> {
    return this.act('cancel', request);
  }

  private act(kind: ActionKind, request: ActionRequest): Promise<ActionResult> {
    const operation = OPERATION_OF[kind];
    const reason = request.reason?.trim();
    const note = request.note?.trim();
    const requested = () =>
      kind === 'capture' || kind === 'refund' ? this.requestedAmount(request) : undefined;
    return this.path.run({
      what: `send a ${kind}`,
      profileId: request.profileId,
      clientOrderId: request.clientOrderId,
      // A retry of an action already recorded is the same action, or it is refused.
      mismatch: (existing) => {
        if (
          existing.operation !== operation ||
          existing.targetOrderId !== request.orderid ||
          existing.profileId !== request.profileId
        )
          return `This action id was used for a ${existing.operation} of order ${existing.targetOrderId}; open a new action.`;
        const again = this.requestedAmount(request);
        if (again && existing.amountMinor !== null && again.minor !== existing.amountMinor)
          return `This action was sent for ${formatMinor(existing.amountMinor)} ${existing.currency ?? ''}; a retry sends exactly that. Open a new action for another amount.`;
        return undefined;
      },
      before: async (client) => {
        if (REASON_REQUIRED.includes(kind) && !reason)
          throw new ServiceError('REASON', `Give a reason for the ${kind}.`, 'reason');
        if (reason === 'Other' && !note)
          throw new ServiceError(
            'REASON',
            'With the reason "Other", write a note that says what happened.',
            'note',
          );
        refuseCardData({ reason, note: request.note });
        return { status: await client.status({ orderid: request.orderid }), amount: requested() };
      },
      // The rules see the journal inside the IMMEDIATE transaction: a second refund of the same
      // order, from this window or another process, sees the first one as pending and stops.
      plan: ({ status, amount }, journal) => {
        const orderId = status.orderId ?? request.orderid;
        const figures = orderFigures(status, journal.forTarget(orderId));
        const allowance = allowedActions(status, figures)[kind];
        if (!allowance.allowed)
          throw new ServiceError(
            allowance.reason.includes('pending') ? 'PENDING' : 'NOT_ALLOWED',
            allowance.reason,
          );
        const currency = status.currency ?? '';
        let amountMinor: bigint | undefined = allowance.maxMinor;
        if (amount !== undefined) {
          if (allowance.maxMinor !== undefined && amount.minor > allowance.maxMinor) {
            throw new ServiceError(
              'AMOUNT',
              `${formatMinor(amount.minor)} ${currency} is more than what is left, ${formatMinor(allowance.maxMinor)} ${currency}.`,
              'amount',
            );
          }
          amountMinor = amount.minor;
        }
        // Amount and currency whenever Paydesk knows them (a capture always, a cancel with the
        // hold it releases): what the clerk confirmed is what is sent, in the form every
        // reading of the checksum accepts (gateway/follow-ups.ts, docs/protocol.md).
        const fields = followUpFields({
          kind,
          clientOrderId: request.clientOrderId.trim(),
          orderid: orderId,
          amountMinor,
          currency,
          comment: [reason, note].filter(Boolean).join(': '),
        });
        return {
          operation,
          fields,
          targetOrderId: orderId,
          ...(amountMinor !== undefined ? { amountMinor } : {}),
          ...(currency ? { currency } : {}),
          ...(reason ? { reason } : {}),
          ...(note ? { note } : {}),
        };
      },
    });
  }

  private requestedAmount(request: ActionRequest): { minor: bigint } | undefined {
    if (request.amount === undefined || request.amount.trim() === '') return undefined;
    return { minor: parseAmount(request.amount, 'amount').minor };
  }

  /** Resolves when the entry's background follow-up has ended (its final status, or given up). */
  settled(clientOrderId: string): Promise<JournalEntry | undefined> {
    return this.path.settled(clientOrderId);
  }

  /** At start: every entry whose final word is owed is asked about again (see in-flight.ts). */
  reconcile(): Promise<JournalEntry[]> {
    return this.path.reconcile();
  }

  /** A person settles an entry by hand, with a reason that goes into the journal. */
  settleByHand(
    clientOrderId: string,
    outcome: 'approved' | 'not-received',
    reason: string,
  ): JournalEntry {
    return this.path.settleByHand(clientOrderId, outcome, reason);
  }

  /** Stops following orders (the app is quitting); entries stay in flight for the next start. */
  close(): Promise<void> {
    return this.path.close();
  }
}
