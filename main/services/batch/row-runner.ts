// One row of a batch through the single-action path (OrderService, journaled before it leaves),
// followed to its end: the row's state in the batch plan, a new action id only after the last
// one provably never arrived, and the journal's failures that pause the whole batch. Kept apart
// from batch.ts (loading, starting, pausing, the lanes and the batch's view) because a row's
// rules are the part a reviewer of money safety reads on its own. RecentChecks holds the
// statuses the file's check read, reused once per order while recent (docs/protocol.md
// "Batches from a CSV").

import { formatMinor } from '../../gateway/amount';
import { ServerError, TransportError, UnreadableResponseError } from '../../gateway/errors';
import type { StatusResponse } from '../../gateway/response';
import { toStoreError } from '../../store/errors';
import { IN_FLIGHT, type JournalPort } from '../../store/journal/port';
import type { Batch, BatchRow, Batches } from '../../store/sqlite/batches';
import { ServiceError } from '../errors';
import type { CheckedStatus, OrderService } from '../orders/orders';

/** Codes of a journal entry closed as never having reached the gateway: safe to send anew. */
const NEVER_ARRIVED = ['NOT_RECEIVED', 'NOT_SENT'];
/** New action ids a row may get after its last one provably never arrived. */
const MAX_ATTEMPTS = 5;
/** How often a row still in flight after its follow-up ended is asked about again. */
const MAX_FOLLOW_ROUNDS = 40;

/**
 * How long the status the file's check read stands in for the status read before sending a
 * row (docs/protocol.md "Batches from a CSV": safe because the rules still count every journal
 * entry of the order and the gateway refuses more than is left). Covers a clerk reviewing the
 * totals and a 1,000-row batch at the gateway's pace; an older check is read again.
 */
export const BATCH_CHECK_FRESH_MS = 10 * 60_000;

/** A failure of reading, not a refusal: the gateway's 500, a lost connection, a garbled answer. */
const passing = (error: unknown) =>
  error instanceof ServerError ||
  error instanceof TransportError ||
  error instanceof UnreadableResponseError;
/**
 * The journal cannot take this row nor any after it: away or busy (retryable), or refusing the
 * person's role (a team login taken out of paydesk_finance mid-batch). The batch pauses.
 */
export function pausesBatch(error: unknown) {
  const storeError = toStoreError(error);
  return storeError?.retryable || storeError?.code === 'NOT_ALLOWED' ? storeError : undefined;
}
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The part of a batch's run a row reads and sets: the clerk's pause or cancel. */
export interface RowRun {
  stop: 'pause' | 'cancel' | null;
}

/** What the row runner tells and asks the batch service it works for. */
export interface RowRunnerOwner {
  /** The app is quitting: a row still in flight is left so for the next start. */
  closing(): boolean;
  /** The batch paused by itself (the journal could not take a row), and why. */
  pausedBy(batchId: number, reason: string): void;
}

/**
 * Per batch, per gateway orderid: the status its file's check read, until a row of that order
 * is sent with it (once) or the batch ends. Kept in memory: after a restart every row reads
 * its order's status again.
 */
export class RecentChecks {
  private readonly byBatch = new Map<number, Map<string, CheckedStatus>>();

  constructor(private readonly now: () => number) {}

  set(batchId: number, statuses: Map<string, CheckedStatus>): void {
    this.byBatch.set(batchId, statuses);
  }

  forget(batchId: number): void {
    this.byBatch.delete(batchId);
  }

  /**
   * The status the file's check read for this order, when it is recent; used once (the first
   * row of the order sent in this batch), so a second row of the same order reads it again.
   */
  take(batchId: number, orderid: string | null): StatusResponse | undefined {
    const statuses = this.byBatch.get(batchId);
    const checked = orderid ? statuses?.get(orderid) : undefined;
    if (!checked || !orderid) return undefined;
    statuses?.delete(orderid);
    return this.now() - checked.readAt <= BATCH_CHECK_FRESH_MS ? checked.status : undefined;
  }
}

export class RowRunner {
  constructor(
    private readonly store: Batches,
    private readonly journal: JournalPort,
    private readonly orders: OrderService,
    private readonly checks: RecentChecks,
    private readonly owner: RowRunnerOwner,
  ) {}

  /** One row through the single-action path, followed until it is final. Never throws. */
  async run(batch: Batch, row: BatchRow, run: RowRun): Promise<void> {
    try {
      if (row.operation === 'status') {
        const view = await this.orders.lookup(batch.profileId, {
          ...(row.orderid ? { orderid: row.orderid } : {}),
          ...(row.refClientOrderId ? { client_orderid: row.refClientOrderId } : {}),
        });
        this.store.setRow(batch.id, row.line, { state: 'done', status: view.status });
        return;
      }
      let actionId = row.actionId as string;
      if (row.state === 'ready') this.store.setRow(batch.id, row.line, { state: 'sending' });
      let attempt = row.attempt;
      for (let round = 0; round < MAX_FOLLOW_ROUNDS; round++) {
        let thrown: unknown;
        try {
          // A new action id is sent once; one the journal has is only asked about (resume).
          // Its order's status is the check's while recent (first try only; see RecentChecks).
          const checked = round === 0 ? this.checks.take(batch.id, row.orderid) : undefined;
          await this.act(batch, row, actionId, checked);
        } catch (error) {
          // The journal is away: nothing was sent that it did not record; pause (batch.ts).
          // A row that was waiting and whose first try stopped there is waiting again (a row
          // sent in an earlier run stays "sending": a cancel must not drop what may have left).
          if (pausesBatch(error)) {
            if (round === 0 && row.state === 'ready')
              this.store.setRow(batch.id, row.line, { state: 'ready' });
            throw error;
          }
          thrown = error;
        }
        let entry = await this.journal.get(actionId);
        if (!entry && passing(thrown) && round + 1 < MAX_FOLLOW_ROUNDS) {
          // The order's status could not be read before sending (a 500, a cut connection):
          // nothing was written, nothing left; the same action id is tried again, unless the
          // clerk paused or cancelled meanwhile: then the row waits again, as never started.
          if (run.stop) {
            this.store.setRow(batch.id, row.line, { state: 'ready' });
            return;
          }
          await sleep(100);
          continue;
        }
        if (!entry) {
          // Refused before the journal entry was written: nothing left Paydesk.
          this.store.setRow(batch.id, row.line, { state: 'failed', error: message(thrown) });
          return;
        }
        if (IN_FLIGHT.includes(entry.state)) entry = (await this.orders.settled(actionId)) ?? entry;
        if (entry.state === 'final') {
          const approved = entry.status === 'approved';
          this.store.setRow(batch.id, row.line, {
            state: approved ? 'done' : 'failed',
            status: entry.status,
            error: approved
              ? null
              : (entry.errorMessage ?? `The gateway answered ${entry.status}.`),
          });
          return;
        }
        if (entry.state === 'refused') {
          if (NEVER_ARRIVED.includes(entry.errorCode ?? '') && attempt + 1 < MAX_ATTEMPTS) {
            // Paused or cancelled meanwhile: nothing of this row is at the gateway, so it waits
            // again (a resume gives it a new action id through this same branch).
            if (run.stop) {
              this.store.setRow(batch.id, row.line, { state: 'ready' });
              return;
            }
            // Closed by the journal as never received: a new action, its id stored first.
            actionId = this.orders.openAction().clientOrderId;
            attempt++;
            this.store.newAttempt(batch.id, row.line, actionId);
            continue;
          }
          this.store.setRow(batch.id, row.line, {
            state: 'failed',
            status: 'not sent',
            error: entry.errorMessage ?? 'Refused.',
          });
          return;
        }
        // Still in flight (its follow-up paused or the process is closing): ask again shortly.
        if (this.owner.closing()) return;
        await sleep(50);
      }
      // Left in flight: the row stays "sending"; a resume or the next start asks again.
    } catch (error) {
      const storeError = pausesBatch(error);
      if (storeError) {
        // The journal is away, busy or refuses the role: the row stays as it is (its action id
        // kept), the batch pauses saying why, and a resume sends it only if the journal never
        // got its entry.
        run.stop ??= 'pause';
        this.owner.pausedBy(batch.id, storeError.message);
        return;
      }
      this.store.setRow(batch.id, row.line, { state: 'failed', error: message(error) });
    }
  }

  private act(batch: Batch, row: BatchRow, clientOrderId: string, checked?: StatusResponse) {
    const request = {
      profileId: batch.profileId,
      orderid: row.orderid ?? '',
      clientOrderId,
      ...(row.amountMinor !== null ? { amount: formatMinor(row.amountMinor, row.currency) } : {}),
      ...(row.reason ? { reason: row.reason } : {}),
      ...(row.note ? { note: row.note } : {}),
    };
    if (row.operation === 'capture') return this.orders.capture(request, checked);
    if (row.operation === 'refund') return this.orders.refund(request, checked);
    if (row.operation === 'void') return this.orders.void(request, checked);
    throw new ServiceError('INPUT', `Unknown operation ${row.operation}.`);
  }
}
