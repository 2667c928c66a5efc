// Order use cases: look an order up, and capture, void, refund or cancel it. Every rule is
// checked before anything is sent; the journal entry is written before the request leaves;
// an action carries a client_orderid that the caller got when it opened the action and reuses
// on retry. One action id, one request, ever: calls with the same id run one after another in
// this process, a second process waits for the lease of the first, and a retry never sends
// (it asks `status`; see in-flight.ts for what becomes of a request that may have left).

import { randomBytes } from 'node:crypto';

import { formatMinor, parseAmount } from '../gateway/amount';
import { FOLLOW_UP_OPERATION, followUpFields } from '../gateway/follow-ups';
import { ValidationError } from '../gateway/errors';
import type { PreparedRequest } from '../gateway/request';
import type { StatusResponse } from '../gateway/response';
import { ORDERID_MESSAGE } from '../../preload/contract';
import { requireWritable, storeFaultOf, type Db } from '../store/database';
import { JournalError, type Journal, type JournalEntry } from '../store/journal';
import { RecentOrders, type RecentOrder } from '../store/recent-orders';
import type { Connections } from './connection';
import { ServiceError } from './errors';
import { refuseCardData } from './free-text';
import { InFlight, type InFlightOptions } from './in-flight';
import { journalAction } from './journal-action';
import { allowedActions, orderFigures, type ActionKind } from './order-rules';
import { orderView, type OrderView } from './order-view';

export interface OrderRef {
  orderid?: string;
  client_orderid?: string;
}

export type { ActionView, OrderView, PendingView } from './order-view';

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

export interface ActionResult {
  entry: JournalEntry;
  /** True when this call sent nothing because the action was already recorded. */
  replayed: boolean;
}

const OPERATION_OF: Record<ActionKind, 'CAPTURE' | 'VOID' | 'RETURN'> = FOLLOW_UP_OPERATION;

const REASON_REQUIRED: readonly ActionKind[] = ['refund', 'void', 'cancel'];

export type OrderServiceOptions = InFlightOptions;

/** An action id already in the journal (claimed), or the entry just begun and its request. */
type Claim =
  | { claimed: JournalEntry }
  | { claimed?: undefined; entry: JournalEntry; prepared: PreparedRequest };

export class OrderService {
  private readonly inFlight: InFlight;
  /** The tail of the calls made with each action id: the next one waits for it. */
  private readonly byActionId = new Map<string, Promise<unknown>>();

  constructor(
    private readonly db: Db,
    private readonly journal: Journal,
    private readonly connections: Connections,
    private readonly options: OrderServiceOptions,
  ) {
    this.inFlight = new InFlight(journal, connections, options);
  }

  /** A fresh client_orderid for a new action; keep it and send it again on every retry. */
  openAction(): { clientOrderId: string } {
    return { clientOrderId: `pd-${Date.now().toString(36)}-${randomBytes(6).toString('hex')}` };
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
    if (orderid && !/^\d+$/.test(orderid)) {
      // Never sent: the gateway's orderid is digits; a shop id typed here is a mistake to fix.
      throw new ServiceError('INPUT', ORDERID_MESSAGE, 'orderid');
    }
    const { client } = await this.connections.clientFor(profileId);
    try {
      const status = await client.status({ orderid, client_orderid: clientOrderId });
      return this.view(profileId, status);
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

  private view(profileId: string, status: StatusResponse): OrderView {
    const orderId = status.orderId ?? '';
    const view = orderView(profileId, status, orderId ? this.journal.forTarget(orderId) : []);
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
    const clientOrderId = request.clientOrderId.trim();
    // Calls with one action id run one after another: the second sees what the first did.
    const before = this.byActionId.get(clientOrderId) ?? Promise.resolve();
    const run = before.then(() => this.actOnce(kind, request));
    const tail = run.catch(() => undefined);
    this.byActionId.set(clientOrderId, tail);
    void tail.then(() => {
      if (this.byActionId.get(clientOrderId) === tail) this.byActionId.delete(clientOrderId);
    });
    return run;
  }

  private async actOnce(kind: ActionKind, request: ActionRequest): Promise<ActionResult> {
    // Read-only (damaged or unwritable database): nothing can be journaled, so nothing is sent.
    requireWritable(this.db, `send a ${kind}`);
    const operation = OPERATION_OF[kind];
    const clientOrderId = request.clientOrderId.trim();
    if (!/^pd-[a-z0-9-]{6,64}$/.test(clientOrderId)) {
      throw new ServiceError(
        'ACTION_MISMATCH',
        'This action has no valid id; open the action again.',
        'clientOrderId',
      );
    }
    const reason = request.reason?.trim();
    if (REASON_REQUIRED.includes(kind) && !reason) {
      throw new ServiceError('REASON', `Give a reason for the ${kind}.`, 'reason');
    }
    if (reason === 'Other' && !request.note?.trim()) {
      throw new ServiceError(
        'REASON',
        'With the reason "Other", write a note that says what happened.',
        'note',
      );
    }
    refuseCardData({ reason, note: request.note });

    // A retry of an action already recorded: never send blindly.
    const existing = this.journal.get(clientOrderId);
    if (existing) return this.resume(existing, kind, request);

    const { client } = await this.connections.clientFor(request.profileId);
    const status = await client.status({ orderid: request.orderid });
    this.remember(request.profileId, status);
    const requested =
      kind === 'capture' || kind === 'refund'
        ? this.requestedAmount(request, status.currency)
        : undefined;

    // The rules and the journal entry in one IMMEDIATE SQLite transaction: a second refund of
    // the same order, from this window or another process, sees the first one as pending and
    // stops; the same action id claimed meanwhile by another process is resumed, not sent.
    const claim = this.db
      .transaction((): Claim => {
        const claimed = this.journal.get(clientOrderId);
        if (claimed) return { claimed };
        const orderId = status.orderId ?? request.orderid;
        const figures = orderFigures(status, this.journal.forTarget(orderId));
        const allowance = allowedActions(status, figures)[kind];
        if (!allowance.allowed)
          throw new ServiceError(
            allowance.reason.includes('pending') ? 'PENDING' : 'NOT_ALLOWED',
            allowance.reason,
          );
        const currency = status.currency ?? '';
        let amountMinor: bigint | undefined = allowance.maxMinor;
        if (requested !== undefined) {
          if (requested.currency && requested.currency !== currency) {
            throw new ServiceError(
              'AMOUNT',
              `The order is in ${currency}; the amount must be in ${currency} too.`,
              'amount',
            );
          }
          if (allowance.maxMinor !== undefined && requested.minor > allowance.maxMinor) {
            throw new ServiceError(
              'AMOUNT',
              `${formatMinor(requested.minor, currency)} ${currency} is more than what is left, ${formatMinor(allowance.maxMinor, currency)} ${currency}.`,
              'amount',
            );
          }
          amountMinor = requested.minor;
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
          clientOrderId,
          orderid: orderId,
          amountMinor,
          currency,
          comment: [reason, request.note?.trim()].filter(Boolean).join(': '),
        });
        // Built and signed before the journal entry: a request that cannot be built leaves no entry.
        const prepared = client.prepare(operation, fields);
        // A void moves the whole order: the journal records that amount, though none is sent.
        if (kind === 'void')
          amountMinor = figures.amountMinor > 0n ? figures.amountMinor : undefined;
        const entry = this.journal.begin({
          clientOrderId,
          profileId: request.profileId,
          operator: this.options.operator,
          operation,
          action: journalAction(kind, amountMinor, figures.amountMinor),
          ...(figures.changedElsewhere ? { changedElsewhere: true } : {}),
          targetOrderId: orderId,
          // The shop's id and the customer's e-mail, from the status read before acting, so
          // the journal finds the entry by what a clerk knows.
          ...(status.clientOrderId ? { targetClientOrderId: status.clientOrderId } : {}),
          ...(status.email ? { email: status.email } : {}),
          ...(amountMinor !== undefined ? { amountMinor } : {}),
          ...(currency ? { currency } : {}),
          ...(reason ? { reason } : {}),
          ...(request.note?.trim() ? { note: request.note.trim() } : {}),
          fields,
          lease: this.inFlight.lease(),
        });
        return { entry, prepared };
        // IMMEDIATE: the write lock is taken before the rules read, so another process waits its
        // turn (busy timeout) instead of failing "database is locked" when this read must become a write.
      })
      .immediate();
    if (claim.claimed) return this.resume(claim.claimed, kind, request);
    const { entry, prepared } = claim;
    this.changed(entry);
    return { entry: await this.inFlight.send(client, entry, prepared), replayed: false };
  }

  /** The amount asked for, read with the order currency's decimals (JPY none, KWD three). */
  private requestedAmount(
    request: ActionRequest,
    currency: string | null | undefined,
  ): { minor: bigint; currency?: string } | undefined {
    if (request.amount === undefined || request.amount.trim() === '') return undefined;
    return { minor: parseAmount(request.amount, 'amount', currency).minor };
  }

  /** A retry with a client_orderid already in the journal. */
  private async resume(
    existing: JournalEntry,
    kind: ActionKind,
    request: ActionRequest,
  ): Promise<ActionResult> {
    if (
      existing.operation !== OPERATION_OF[kind] ||
      existing.targetOrderId !== request.orderid ||
      existing.profileId !== request.profileId
    ) {
      throw new ServiceError(
        'ACTION_MISMATCH',
        `This action id was used for a ${existing.operation} of order ${existing.targetOrderId}; open a new action.`,
      );
    }
    const requested = this.requestedAmount(request, existing.currency);
    if (requested && existing.amountMinor !== null && requested.minor !== existing.amountMinor) {
      throw new ServiceError(
        'ACTION_MISMATCH',
        `This action was sent for ${formatMinor(existing.amountMinor, existing.currency)} ${existing.currency ?? ''}; a retry sends exactly that. Open a new action for another amount.`,
        'amount',
      );
    }
    // Never sent again: what is known, or the gateway's status, or "unsettled, still asking".
    return this.inFlight.resume(existing);
  }

  /** Resolves when the entry's background follow-up has ended (its final status, or given up). */
  settled(clientOrderId: string): Promise<JournalEntry | undefined> {
    return this.inFlight.settled(clientOrderId);
  }

  /** At start: every entry whose final word is owed is asked about again (see in-flight.ts). */
  reconcile(): Promise<JournalEntry[]> {
    return this.inFlight.reconcile();
  }

  /** A person settles an entry by hand, with a reason that goes into the journal. */
  settleByHand(
    clientOrderId: string,
    outcome: 'approved' | 'not-received',
    reason: string,
  ): JournalEntry {
    try {
      return this.inFlight.settleByHand(clientOrderId, outcome, reason);
    } catch (error) {
      if (error instanceof JournalError) throw new ServiceError('NOT_ALLOWED', error.message);
      throw error;
    }
  }

  private changed(entry: JournalEntry): void {
    this.options.onEntryChanged?.(entry);
  }

  /** Stops following orders (the app is quitting); entries stay in flight for the next start. */
  close(): Promise<void> {
    return this.inFlight.close();
  }
}
