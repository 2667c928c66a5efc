// Order use cases: look an order up, and capture, void, refund or cancel it. Every rule is
// checked before anything is sent; the journal entry is written before the request leaves;
// an action carries a client_orderid that the caller got when it opened the action and reuses
// on retry. One action id, one request, ever: calls with the same id run one after another in
// this process, a second process waits for the lease of the first, and a retry never sends
// (it asks `status`; see in-flight.ts for what becomes of a request that may have left).
//
// The journal is a JournalPort: this desk's SQLite or a team's PostgreSQL. The figures count
// every entry of the order the journal holds (every desk's, on a team). The recent orders list
// stays in this desk's SQLite: it is what this desk looked up.

import { formatMinor, parseAmount } from '../../gateway/amount';
import { FOLLOW_UP_OPERATION, followUpFields } from '../../gateway/follow-ups';
import { ValidationError } from '../../gateway/errors';
import type { StatusResponse } from '../../gateway/response';
import { ORDERID_MESSAGE } from '../../../common/text-rules';
import { storeFaultOf, type Db } from '../../store/sqlite/database';
import { StoreError } from '../../store/errors';
import type { JournalEntry, JournalPort } from '../../store/journal/port';
import { RecentOrders, type RecentOrder } from '../../store/sqlite/recent-orders';
import type { ActionPath } from '../action/path';
import { type ActionPathOptions, type ActionResult } from '../action/path';
import type { Connections } from '../connection';
import { ServiceError } from '../errors';
import { refuseCardData } from '../free-text';
import { journalAction } from '../action/journal-action';
import { allowedActions, orderFigures, type ActionKind } from './rules';
import type { ProfileNameOf } from './timeline';
import { orderView, type OrderView } from './view';

export interface OrderRef {
  orderid?: string;
  client_orderid?: string;
}

export type { ActionView, OrderView, PendingView } from './view';

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

export type { ActionResult } from '../action/path';

/** The gateway's status of an order as a lookup read it, and when it asked (a batch's check). */
export interface CheckedStatus {
  status: StatusResponse;
  /** Date.now() as the status request left: the status is at least this fresh. */
  readAt: number;
}

const OPERATION_OF: Record<ActionKind, 'CAPTURE' | 'VOID' | 'RETURN'> = FOLLOW_UP_OPERATION;

/** What a desk finding the order held is told the holder is doing. */
const DOING: Record<ActionKind, string> = {
  capture: 'capturing',
  void: 'voiding',
  refund: 'refunding',
  cancel: 'cancelling the hold of',
};

const REASON_REQUIRED: readonly ActionKind[] = ['refund', 'void', 'cancel'];

export type OrderServiceOptions = ActionPathOptions;

export class OrderService {
  constructor(
    /** This desk's own database: the recent orders it looked up (never the journal). */
    private readonly db: Db,
    private readonly journal: JournalPort,
    private readonly connections: Connections,
    /** The one action path; the app shares it with every other service that moves money. */
    readonly path: ActionPath,
    /** A profile's name as the profiles list has it (undefined once removed), for the timeline. */
    private readonly profileName: ProfileNameOf = () => undefined,
  ) {}

  /** A fresh client_orderid for a new action; keep it and send it again on every retry. */
  openAction(): { clientOrderId: string } {
    return this.path.openAction();
  }

  async lookup(profileId: string, ref: OrderRef): Promise<OrderView> {
    return (await this.check(profileId, ref)).view;
  }

  /** The lookup, with the status it read and when: a batch sends its rows on it while recent. */
  async check(
    profileId: string,
    ref: OrderRef,
    now: () => number = Date.now,
  ): Promise<{ view: OrderView; checked: CheckedStatus }> {
    const orderid = ref.orderid?.trim();
    const clientOrderId = ref.client_orderid?.trim();
    if (!orderid && !clientOrderId) {
      throw new ServiceError(
        'NOT_ALLOWED',
        'Enter an orderid or a client_orderid to look up.',
        'orderid',
      );
    }
    if (orderid && !/^\d+$/.test(orderid)) {
      // Never sent: the gateway's orderid is digits; a shop id typed here is a mistake to fix.
      throw new ServiceError('INPUT', ORDERID_MESSAGE, 'orderid');
    }
    const { client } = await this.connections.clientFor(profileId);
    try {
      const readAt = now();
      const status = await client.status({ orderid, client_orderid: clientOrderId });
      return { view: await this.view(profileId, status), checked: { status, readAt } };
    } catch (error) {
      // A status request carries only the ids: a refusal means the gateway has no such order
      // here. That is an answer, not a failure.
      if (error instanceof ValidationError) {
        throw new ServiceError(
          'NOT_FOUND',
          `The gateway has no order with ${orderid ? `orderid ${orderid}` : `client_orderid ${clientOrderId}`} for this profile. Check the reference and the profile.`,
          orderid ? 'orderid' : 'client_orderid',
        );
      }
      throw error;
    }
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

  private async view(profileId: string, status: StatusResponse): Promise<OrderView> {
    const orderId = status.orderId ?? '';
    // Read when the answer came, before the journal: the page says "as read at" this time.
    const readAt = new Date().toISOString();
    let entries: readonly JournalEntry[] = [];
    let journalUnreadable: string | undefined;
    try {
      entries = orderId ? await this.journal.ofOrder(orderId) : [];
    } catch (error) {
      // A lookup is the gateway's answer and is still given with the journal away (a team's
      // database down); only the journal's figures become unknown, and no action is offered.
      if (!(error instanceof StoreError)) throw error;
      journalUnreadable = error.message;
    }
    const view = orderView(
      profileId,
      status,
      { entries, readAt },
      journalUnreadable,
      this.profileName,
    );
    this.remember(profileId, status, view.stateLabel);
    return view;
  }

  private recentStore?: RecentOrders;
  private get recent(): RecentOrders {
    return (this.recentStore ??= new RecentOrders(this.db));
  }

  /** Orders this desk looked up or acted on, newest first; `query` narrows them. */
  recentOrders(profileId: string, query?: string): RecentOrder[] {
    return this.recent.list(profileId, query);
  }

  /** Adds the order to the recent list; a read-only store simply does not remember it. */
  private remember(profileId: string, status: StatusResponse, stateLabel?: string): void {
    if (!status.orderId || storeFaultOf(this.db)) return;
    try {
      this.recent.seen({
        profileId,
        orderId: status.orderId,
        clientOrderId: status.clientOrderId ?? null,
        email: status.email ?? null,
        lastFour: status.card.lastFourDigits ?? null,
        transactionType: status.transactionType ?? null,
        amount: status.amount ?? null,
        currency: status.currency ?? null,
        stateLabel: stateLabel ?? null,
      });
    } catch {
      // Remembering is a convenience: a lookup is answered even when it cannot be written.
    }
  }

  // `checked`: the order's status read a moment ago (a batch's check, still recent), used in
  // place of the status read before sending. The rules below still count every journal entry of
  // the order, read under its claim, and the gateway refuses more than is left.
  capture(request: ActionRequest, checked?: StatusResponse): Promise<ActionResult> {
    return this.act('capture', request, checked);
  }

  void(request: ActionRequest, checked?: StatusResponse): Promise<ActionResult> {
    return this.act('void', request, checked);
  }

  refund(request: ActionRequest, checked?: StatusResponse): Promise<ActionResult> {
    return this.act('refund', request, checked);
  }

  /** Releases a preauth's hold (a return with the amount still held, when Paydesk knows it). */
  cancel(request: ActionRequest): Promise<ActionResult> {
    return this.act('cancel', request);
  }

  private act(
    kind: ActionKind,
    request: ActionRequest,
    checked?: StatusResponse,
  ): Promise<ActionResult> {
    const operation = OPERATION_OF[kind];
    const reason = request.reason?.trim();
    const note = request.note?.trim();
    const requested = (currency: string | undefined) =>
      kind === 'capture' || kind === 'refund' ? this.requestedAmount(request, currency) : undefined;
    // The order read before acting is remembered (recent orders). On the desk's SQLite the plan
    // runs inside the transaction that writes the action's entry ahead, and the row joins that
    // commit. Otherwise (a team's journal: nothing slow while the order is held) it is written
    // once the action is done; and again on its own when the action fails or is refused (the
    // plan's write may have been rolled back with it).
    let seen: StatusResponse | undefined;
    let joined = false;
    const run = this.path.run({
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
        const again = this.requestedAmount(request, existing.currency);
        if (again && existing.amountMinor !== null && again.minor !== existing.amountMinor)
          return `This action was sent for ${formatMinor(existing.amountMinor, existing.currency)} ${existing.currency ?? ''}; a retry sends exactly that. Open a new action for another amount.`;
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
        if (checked && checked.orderId === request.orderid)
          return { status: checked, amount: requested(checked.currency) };
        const status = await client.status({ orderid: request.orderid });
        seen = status;
        return { status, amount: requested(status.currency) };
      },
      // The order is held while the rules read the journal and the entry is written: a second
      // refund of the same order, from this window, another process or another desk, sees the
      // first one as pending and stops (or is told who is working on the order right now).
      order: ({ status }) => ({ orderId: status.orderId ?? request.orderid, doing: DOING[kind] }),
      plan: ({ status, amount }, entriesOfOrder) => {
        const orderId = status.orderId ?? request.orderid;
        const figures = orderFigures(status, entriesOfOrder);
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
              `${formatMinor(amount.minor, currency)} ${currency} is more than what is left, ${formatMinor(allowance.maxMinor, currency)} ${currency}.`,
              'amount',
            );
          }
          amountMinor = amount.minor;
        } else if ((kind === 'capture' || kind === 'refund') && amountMinor === undefined) {
          // Captures or refunds were made outside Paydesk: only the gateway knows what is left.
          throw new ServiceError(
            'AMOUNT',
            `Part of this order was ${kind === 'capture' ? 'captured' : 'refunded'} outside Paydesk, so Paydesk cannot know what is left; enter the amount to ${kind}.`,
            'amount',
          );
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
        // A void moves the whole order: the journal records that amount, though none is sent.
        if (kind === 'void')
          amountMinor = figures.amountMinor > 0n ? figures.amountMinor : undefined;
        if (this.db.inTransaction) {
          this.remember(request.profileId, status);
          joined = true;
        }
        return {
          operation,
          fields,
          action: journalAction(kind, amountMinor, figures.amountMinor),
          ...(figures.changedElsewhere ? { changedElsewhere: true } : {}),
          targetOrderId: orderId,
          // The shop's id and the customer's e-mail, from the status read before acting, so
          // the journal finds the entry by what a clerk knows.
          ...(status.clientOrderId ? { targetClientOrderId: status.clientOrderId } : {}),
          ...(status.email ? { email: status.email } : {}),
          ...(status.card.lastFourDigits ? { cardLastFour: status.card.lastFourDigits } : {}),
          ...(amountMinor !== undefined ? { amountMinor } : {}),
          ...(currency ? { currency } : {}),
          ...(reason ? { reason } : {}),
          ...(note ? { note } : {}),
        };
      },
    });
    return run.then(
      (result) => {
        if (seen && !joined) this.remember(request.profileId, seen);
        return result;
      },
      (error: unknown) => {
        if (seen) this.remember(request.profileId, seen);
        throw error;
      },
    );
  }

  /** The amount asked for, read with the order currency's decimals (JPY none, KWD three). */
  private requestedAmount(
    request: ActionRequest,
    currency: string | null | undefined,
  ): { minor: bigint } | undefined {
    if (request.amount === undefined || request.amount.trim() === '') return undefined;
    return { minor: parseAmount(request.amount, 'amount', currency).minor };
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
  ): Promise<JournalEntry> {
    return this.path.settleByHand(clientOrderId, outcome, reason);
  }

  /** Stops following orders (the app is quitting); entries stay in flight for the next start. */
  close(): Promise<void> {
    return this.path.close();
  }
}
