// Order use cases: look an order up, and capture, void, refund or cancel it. Every rule is
// checked before anything is sent; the journal entry is written before the request leaves;
// an action carries a client_orderid that the caller got when it opened the action and reuses
// on retry, so a retry after a lost answer asks `status` first and never pays out twice.

import { randomBytes } from 'node:crypto';

import { formatMinor, parseAmount } from '../gateway/amount';
import type { GatewayClient } from '../gateway/client';
import type { PreparedRequest } from '../gateway/request';
import { AuthError, GatewayError, TransportError, ValidationError } from '../gateway/errors';
import { waitForFinal, type WaitOptions } from '../gateway/poll';
import { isFinalStatus, type StatusResponse } from '../gateway/response';
import { requireWritable, type Db } from '../store/database';
import type { Journal, JournalEntry } from '../store/journal';
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
  };
  /** A 3DS challenge is waiting for the customer. */
  threeDsPending: boolean;
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

export interface ActionResult {
  entry: JournalEntry;
  /** True when this call sent nothing because the action was already recorded. */
  replayed: boolean;
}

const OPERATION_OF: Record<ActionKind, 'CAPTURE' | 'VOID' | 'RETURN'> = {
  capture: 'CAPTURE',
  void: 'VOID',
  refund: 'RETURN',
  cancel: 'RETURN',
};

const REASON_REQUIRED: readonly ActionKind[] = ['refund', 'void', 'cancel'];

export interface OrderServiceOptions {
  operator: string;
  /** Options for following an order to its final status (tests pass a fast clock). */
  wait?: Omit<WaitOptions, 'signal' | 'onStep'>;
  onEntryChanged?: (entry: JournalEntry) => void;
}

export class OrderService {
  /** Background follow-ups, by client_orderid, so callers and tests can await them. */
  private readonly following = new Map<string, Promise<JournalEntry>>();
  private readonly stop = new AbortController();

  constructor(
    private readonly db: Db,
    private readonly journal: Journal,
    private readonly connections: Connections,
    private readonly options: OrderServiceOptions,
  ) {}

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
    const { client } = await this.connections.clientFor(profileId);
    const status = await client.status({ orderid, client_orderid: clientOrderId });
    return this.view(profileId, status);
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
      },
      threeDsPending: status.status === 'processing' && Boolean(status.redirectTo || status.html),
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

  /** Releases a preauth's hold (a return without amount). */
  cancel(request: ActionRequest): Promise<ActionResult> {
    return this.act('cancel', request);
  }

  private async act(kind: ActionKind, request: ActionRequest): Promise<ActionResult> {
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
    const requested =
      kind === 'capture' || kind === 'refund' ? this.requestedAmount(request) : undefined;

    // The rules and the journal entry in one SQLite transaction: a second refund of the same
    // order, from this window or another process, sees the first one as pending and stops.
    const { entry, prepared } = this.db
      .transaction(() => {
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
              `${formatMinor(requested.minor)} ${currency} is more than what is left, ${formatMinor(allowance.maxMinor)} ${currency}.`,
              'amount',
            );
          }
          amountMinor = requested.minor;
        }
        const fields: Record<string, string> = { client_orderid: clientOrderId, orderid: orderId };
        // A full capture or refund is sent with its amount too: what the clerk confirmed is what is sent.
        if ((kind === 'capture' || kind === 'refund') && amountMinor !== undefined) {
          fields.amount = formatMinor(amountMinor);
          fields.currency = currency;
        }
        const comment = [reason, request.note?.trim()].filter(Boolean).join(': ');
        if (comment) fields.comment = comment;
        // Built and signed before the journal entry: a request that cannot be built leaves no entry.
        const prepared = client.prepare(operation, fields);
        const entry = this.journal.begin({
          clientOrderId,
          profileId: request.profileId,
          operator: this.options.operator,
          operation,
          targetOrderId: orderId,
          ...(amountMinor !== undefined ? { amountMinor } : {}),
          ...(currency ? { currency } : {}),
          ...(reason ? { reason } : {}),
          ...(request.note?.trim() ? { note: request.note.trim() } : {}),
          fields,
        });
        return { entry, prepared };
        // IMMEDIATE: the write lock is taken before the rules read, so another process waits its
        // turn (busy timeout) instead of failing "database is locked" when this read must become a write.
      })
      .immediate();
    this.changed(entry);
    return { entry: await this.send(client, entry, prepared), replayed: false };
  }

  private requestedAmount(
    request: ActionRequest,
  ): { minor: bigint; currency?: string } | undefined {
    if (request.amount === undefined || request.amount.trim() === '') return undefined;
    return { minor: parseAmount(request.amount, 'amount').minor };
  }

  /** Sends a journaled request and records the answer; a lost answer leaves the entry unknown. */
  private async send(
    client: GatewayClient,
    entry: JournalEntry,
    prepared: PreparedRequest,
  ): Promise<JournalEntry> {
    try {
      const ack = await client.sendPrepared(prepared, 'async-response');
      const acknowledged = this.journal.acknowledge(entry.clientOrderId, ack.orderId);
      this.changed(acknowledged);
      this.follow(client, acknowledged);
      return acknowledged;
    } catch (error) {
      if (error instanceof ValidationError || error instanceof AuthError) {
        this.changed(
          this.journal.refuse(entry.clientOrderId, {
            code: error instanceof ValidationError ? error.gatewayCode : error.code,
            message: error.message,
          }),
        );
      } else if (error instanceof GatewayError) {
        const unknown = this.journal.markUnknown(entry.clientOrderId, {
          code: error.code,
          message: error.message,
        });
        this.changed(unknown);
        this.follow(client, unknown);
      }
      throw error;
    }
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
    const requested = this.requestedAmount(request);
    if (requested && existing.amountMinor !== null && requested.minor !== existing.amountMinor) {
      throw new ServiceError(
        'ACTION_MISMATCH',
        `This action was sent for ${formatMinor(existing.amountMinor)} ${existing.currency ?? ''}; a retry sends exactly that. Open a new action for another amount.`,
        'amount',
      );
    }
    if (existing.state !== 'sending' && existing.state !== 'unknown')
      return { entry: existing, replayed: true };
    // The answer was lost: ask the gateway whether it has the request before sending anything.
    const { client } = await this.connections.clientFor(existing.profileId);
    const found = await this.statusByClientOrderId(client, existing);
    if (found) return { entry: this.adopt(client, existing, found), replayed: true };
    // The journal's summary of a capture, void or return is the whole request (no card data).
    const prepared = client.prepare(OPERATION_OF[kind], { ...existing.summary });
    return { entry: await this.send(client, existing, prepared), replayed: false };
  }

  /** The gateway's status of our own request, or undefined when the gateway has no record of it. */
  private async statusByClientOrderId(
    client: GatewayClient,
    entry: JournalEntry,
  ): Promise<StatusResponse | undefined> {
    try {
      return await client.status({
        client_orderid: entry.clientOrderId,
        ...(entry.orderId ? { orderid: entry.orderId } : {}),
      });
    } catch (error) {
      if (error instanceof ValidationError) return undefined;
      throw error;
    }
  }

  private adopt(client: GatewayClient, entry: JournalEntry, status: StatusResponse): JournalEntry {
    let current = entry;
    if (current.state !== 'acknowledged')
      current = this.journal.acknowledge(entry.clientOrderId, status.orderId);
    if (isFinalStatus(status.status)) {
      current = this.journal.finish(entry.clientOrderId, {
        status: status.status,
        ...(status.orderId ? { orderId: status.orderId } : {}),
        ...(status.errorMessage ? { errorMessage: status.errorMessage } : {}),
        ...(status.errorCode ? { errorCode: status.errorCode } : {}),
      });
    } else {
      this.follow(client, current);
    }
    this.changed(current);
    return current;
  }

  /** Follows an entry to its final status in the background, polling with the published cadence. */
  private follow(client: GatewayClient, entry: JournalEntry): void {
    if (this.following.has(entry.clientOrderId)) return;
    const ref = {
      client_orderid: entry.clientOrderId,
      ...(entry.orderId ? { orderid: entry.orderId } : {}),
    };
    const source = {
      status: async () => {
        const found = await this.statusByClientOrderId(
          client,
          this.journal.get(entry.clientOrderId) ?? entry,
        );
        if (!found)
          throw new TransportError('TRANSPORT', 'The gateway has no record of this request yet.');
        return found;
      },
    };
    const done = waitForFinal(source, ref, { ...this.options.wait, signal: this.stop.signal })
      .then((outcome) => {
        const current = this.journal.get(entry.clientOrderId) ?? entry;
        if (!outcome.final) return current;
        return this.adopt(client, current, outcome.response);
      })
      // Stopped or unreachable: the entry stays in flight and is reconciled at the next start.
      .catch(() => entry)
      .finally(() => this.following.delete(entry.clientOrderId));
    this.following.set(entry.clientOrderId, done);
  }

  /** Resolves when the entry's background follow-up has ended (its final status, or given up). */
  settled(clientOrderId: string): Promise<JournalEntry | undefined> {
    return this.following.get(clientOrderId) ?? Promise.resolve(this.journal.get(clientOrderId));
  }

  /**
   * At start: every entry left in flight is reconciled by asking `status` with its
   * client_orderid, never by sending again. One the gateway has no record of was never
   * processed, and is closed as refused so the clerk can open the action anew.
   */
  async reconcile(): Promise<JournalEntry[]> {
    const results: JournalEntry[] = [];
    for (const entry of this.journal.inFlight()) {
      try {
        const { client } = await this.connections.clientFor(entry.profileId);
        const found = await this.statusByClientOrderId(client, entry);
        if (found) {
          results.push(this.adopt(client, entry, found));
        } else {
          const closed = this.journal.refuse(entry.clientOrderId, {
            code: 'NOT_RECEIVED',
            message:
              'The gateway has no record of this request: it was not processed. Open the action again to retry.',
          });
          this.changed(closed);
          results.push(closed);
        }
      } catch {
        // The gateway or keychain is unreachable now: the entry stays in flight for the next try.
        results.push(entry);
      }
    }
    return results;
  }

  private changed(entry: JournalEntry): void {
    this.options.onEntryChanged?.(entry);
  }

  /** Stops following orders (the app is quitting); entries stay in flight for the next start. */
  async close(): Promise<void> {
    this.stop.abort();
    await Promise.allSettled([...this.following.values()]);
  }
}
