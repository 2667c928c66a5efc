// Batches from a CSV: loaded and checked into a stored batch (every row's action id fixed before
// anything is sent), then run row by row through OrderService, the same journaled path as a
// single action: written to the journal before it leaves, never sent twice, a lost answer
// settled by `status`. Rows of different orders run side by side (`concurrency` lanes); the rows
// of one order run one after another in one lane. Pause and cancel stop taking new rows at once
// (a row whose try provably never left goes back to waiting rather than being tried again); a
// row already sent is followed to its final status, and until it is the batch shows "pausing"
// or "cancelling". After a crash the batch is found "running",
// shown paused and interrupted; resuming sends a row whose action id is in the journal never
// again (OrderService asks `status` instead).
//
// The batch plan (its rows, their action ids and states) stays in this desk's SQLite, also on a
// team: a batch is run from one desk. Each row's journal entry goes through OrderService to the
// journal port like any single action, so on a team every desk sees and counts it. When the
// journal cannot be reached mid-batch (the team's server stopped), the row in hand is left as it
// is and the batch pauses: nothing is sent that was not journaled, and resuming it later asks
// about a row whose action id the journal has, and sends only one it has not. A journal that
// refuses the person's role mid-batch (their team login left paydesk_finance) pauses it the
// same way, with the store's reason: every row after would be refused alike.
//
// One row's way to its end (the action path, the check's reuse, a new action id) lives in
// row-runner.ts; this file loads, starts, pauses and cancels batches and runs their lanes.

import { formatMinor } from '../../gateway/amount';
import type { JournalEntry, JournalPort } from '../../store/journal/port';
import { Batches, type Batch, type BatchRow, type BatchRowState } from '../../store/sqlite/batches';
import type { Db } from '../../store/sqlite/database';
import type { Profiles } from '../../store/sqlite/profiles';
import { withoutCardData } from './card-data';
import { checkBatch, confirmationText, totalsOf, type BatchTotal } from './check';
import type * as BatchCsv from './csv';
import { ServiceError } from '../errors';
import { RecentChecks, RowRunner, sleep } from './row-runner';
import type { CheckedStatus, OrderService } from '../orders/orders';

/** The CSV reader and writer (csv-parse), loaded when a file is first loaded, not at start. */
const batchCsv = (): Promise<typeof BatchCsv> => import('./csv');

export const DEFAULT_BATCH_CONCURRENCY = 4;
/** Kept importable from here, where the batch's callers look for it. */
export { BATCH_CHECK_FRESH_MS } from './row-runner';

export interface BatchRowView {
  line: number;
  operation: string;
  orderid: string | null;
  clientOrderId: string | null;
  amount: string | null;
  currency: string | null;
  reason: string | null;
  note: string | null;
  problem: string | null;
  warning: string | null;
  state: BatchRowState;
  status: string | null;
  error: string | null;
}

export interface BatchProgress {
  total: number;
  done: number;
  failed: number;
  left: number;
  /** Rows sent and not yet final (part of `left`). */
  sending: number;
  invalid: number;
  cancelled: number;
  /** Rows finished per second since this run started; null before the first one. */
  ratePerSecond: number | null;
  /** Seconds until the rows left are done at that rate; null when unknown. */
  secondsLeft: number | null;
}

export interface BatchView {
  id: number;
  profileId: string;
  fileName: string;
  state: Batch['state'];
  interrupted: boolean;
  /** Why the batch paused by itself (the journal could not be reached), while it stays paused. */
  pausedBecause: string | null;
  /** While running: pause or cancel was asked and the rows being sent are reaching their end. */
  stopping: 'pause' | 'cancel' | null;
  concurrency: number;
  createdAt: string;
  totals: BatchTotal[];
  /** On production profiles the clerk types this to start the batch. */
  confirmation: string;
  needsConfirmation: boolean;
  progress: BatchProgress;
}

export interface BatchServiceOptions {
  operator: string;
  onChanged?: (batch: BatchView) => void;
  /** The clock the check's age is read on (tests move it); Date.now by default. */
  now?: () => number;
}

function rowView(r: BatchRow): BatchRowView {
  return {
    line: r.line,
    operation: r.operation,
    orderid: r.orderid,
    clientOrderId: r.actionId ?? r.refClientOrderId,
    amount: r.amountMinor === null ? null : formatMinor(r.amountMinor, r.currency),
    currency: r.currency,
    reason: r.reason,
    note: r.note,
    problem: r.problem,
    warning: r.warning,
    state: r.state,
    status: r.status,
    error: r.error,
  };
}

interface Run {
  stop: 'pause' | 'cancel' | null;
  startedAt: number;
  finishedAtStart: number;
  done: Promise<void>;
}

export class BatchService {
  readonly store: Batches;
  private readonly runs = new Map<number, Run>();
  private closing = false;
  /** Totals never change once a batch is stored: computed once per batch. */
  private readonly totals = new Map<number, BatchTotal[]>();
  /** Batches that paused by themselves because the journal could not be reached, and why. */
  private readonly pausedBecause = new Map<number, string>();
  private readonly now = () => (this.options.now ?? Date.now)();
  /** The statuses the file's check read, reused once per order while recent (row-runner.ts). */
  private readonly checks = new RecentChecks(this.now);
  private readonly rowRunner: RowRunner;

  constructor(
    /** This desk's database, which holds the batch plans (never the journal). */
    db: Db,
    private readonly journal: JournalPort,
    private readonly profiles: Profiles,
    private readonly orders: OrderService,
    private readonly options: BatchServiceOptions,
  ) {
    this.store = new Batches(db);
    this.rowRunner = new RowRunner(this.store, journal, orders, this.checks, {
      closing: () => this.closing,
      pausedBy: (batchId, reason) => this.pausedBecause.set(batchId, reason),
    });
  }

  /**
   * At start: batches that were running when the last process ended are paused and marked
   * interrupted; the journal's reconcile settles their rows in flight, and the clerk resumes.
   */
  recover(): BatchView[] {
    return this.store.markInterrupted().map((b) => this.view(b));
  }

  /** Parses and checks a file, and stores it as a batch ready to start (nothing is sent). */
  async load(
    profileId: string,
    fileName: string,
    text: string,
    concurrency = DEFAULT_BATCH_CONCURRENCY,
  ): Promise<{ batch: BatchView; rows: BatchRowView[] }> {
    if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 32)
      throw new ServiceError('INPUT', 'Run between 1 and 32 rows at a time.', 'concurrency');
    this.profileOf(profileId);
    // Card data is taken out first: nothing after this line sees it (card-data.ts).
    const file = withoutCardData((await batchCsv()).parseBatchCsv(text));
    const statuses = new Map<string, CheckedStatus>();
    const checked = await checkBatch(
      file.rows,
      async (ref) => {
        const { view, checked: status } = await this.orders.check(profileId, ref, this.now);
        if (view.orderId) statuses.set(view.orderId, status);
        return view;
      },
      () => this.orders.openAction().clientOrderId,
      concurrency,
    );
    const batch = this.store.create(
      { profileId, operator: this.options.operator, fileName, header: file.header, concurrency },
      checked.rows,
    );
    this.checks.set(batch.id, statuses);
    return { batch: this.view(batch), rows: this.rows(batch.id) };
  }

  get(batchId: number): BatchView {
    return this.view(this.batchOf(batchId));
  }

  list(): BatchView[] {
    return this.store.list().map((b) => this.view(b));
  }

  rows(batchId: number): BatchRowView[] {
    return this.store.rows(batchId).map(rowView);
  }

  /** Starts (or resumes) a batch. On production profiles `confirmation` must be its totals. */
  start(batchId: number, confirmation?: string): BatchView {
    const batch = this.batchOf(batchId);
    if (batch.state === 'done' || batch.state === 'cancelled')
      throw new ServiceError('NOT_ALLOWED', `This batch is ${batch.state}; load the file again.`);
    if (this.runs.has(batchId)) return this.view(batch);
    const view = this.view(batch);
    if (view.needsConfirmation && confirmation?.trim() !== view.confirmation)
      throw new ServiceError(
        'NOT_ALLOWED',
        `Type the totals exactly to start this batch on a production profile: ${view.confirmation}`,
        'confirmation',
      );
    this.pausedBecause.delete(batchId);
    this.launch(batch, null);
    return this.get(batchId);
  }

  private launch(batch: Batch, stop: Run['stop']): void {
    this.store.setState(batch.id, 'running');
    const counts = this.store.counts(batch.id);
    const run: Run = {
      stop,
      startedAt: Date.now(),
      finishedAtStart: counts.done + counts.failed,
      done: Promise.resolve(),
    };
    this.runs.set(batch.id, run);
    run.done = this.execute(batch, run)
      .catch(() => undefined) // the database closed under a quitting app: the next start resumes
      .finally(() => {
        this.runs.delete(batch.id);
        if (!this.closing) this.changed(batch.id);
      });
    this.changed(batch.id);
  }

  /** Stops taking new rows; the rows being sent reach their final status. Resume with start. */
  pause(batchId: number): BatchView {
    const run = this.runs.get(batchId);
    if (run) run.stop ??= 'pause';
    return this.get(batchId);
  }

  /** Stops sending: rows not sent become cancelled; rows already sent reach their final status. */
  cancel(batchId: number): BatchView {
    const batch = this.batchOf(batchId);
    const run = this.runs.get(batchId);
    if (run) run.stop = 'cancel';
    else if (batch.state !== 'done' && batch.state !== 'cancelled') {
      this.store.cancelWaiting(batchId);
      // Rows sent before an interruption still go to their end (a run that only follows them);
      // the batch is cancelled when none is left in flight.
      if (this.store.counts(batchId).sending === 0) this.store.setState(batchId, 'cancelled');
      else this.launch(batch, 'cancel');
    }
    this.changed(batchId);
    return this.get(batchId);
  }

  /** Resolves when the batch's current run has stopped (finished, paused or cancelled). */
  async idle(batchId: number): Promise<void> {
    await this.runs.get(batchId)?.done;
  }

  /** The result file; each row's outcome as the journal (port) has it now. */
  async resultCsv(batchId: number): Promise<string> {
    this.batchOf(batchId);
    const rows = this.store.rows(batchId);
    const entries = new Map<string, JournalEntry>();
    for (const row of rows) {
      if (!row.actionId) continue;
      const entry = await this.journal.get(row.actionId);
      if (entry) entries.set(row.actionId, entry);
    }
    return (await batchCsv()).resultCsv(this.batchOf(batchId).header ?? undefined, rows, entries);
  }

  /** The file names of the batches this process is running now (pausing ones included). */
  running(): string[] {
    return [...this.runs.keys()].map((id) => this.batchOf(id).fileName);
  }

  /**
   * The app is quitting: no new row starts, and the rows being sent get a moment to end. What
   * is still in flight stays so in the journal; the batch stays "running" in the database, so
   * the next start shows it interrupted, reconciles those rows by status, and the clerk resumes.
   */
  async close(graceMs = 2_000): Promise<void> {
    this.closing = true;
    for (const run of this.runs.values()) run.stop ??= 'pause';
    await Promise.race([Promise.all([...this.runs.values()].map((r) => r.done)), sleep(graceMs)]);
  }

  private async execute(batch: Batch, run: Run): Promise<void> {
    // One lane per order: its rows in the order of the file, one after another.
    const byOrder = new Map<string, BatchRow[]>();
    for (const row of this.store.rows(batch.id)) {
      if (row.state !== 'ready' && row.state !== 'sending') continue;
      const key = row.orderid ?? `line:${row.line}`;
      byOrder.set(key, [...(byOrder.get(key) ?? []), row]);
    }
    // Rows that were in flight when the last run stopped go first.
    const groups = [...byOrder.values()].sort(
      (a, b) =>
        Number(b.some((r) => r.state === 'sending')) - Number(a.some((r) => r.state === 'sending')),
    );
    let next = 0;
    const lane = async () => {
      while (next < groups.length) {
        const group = groups[next++] as BatchRow[];
        for (const row of group) {
          const current = this.store.row(batch.id, row.line) as BatchRow;
          // A row already sent goes to its end even when the clerk paused or cancelled.
          if (current.state !== 'sending' && run.stop) return;
          await this.rowRunner.run(batch, current, run);
          this.changed(batch.id);
        }
      }
    };
    await Promise.all(Array.from({ length: batch.concurrency }, lane));
    if (this.closing) return; // left "running": the next start shows it interrupted
    if (run.stop === 'cancel') this.store.cancelWaiting(batch.id);
    const counts = this.store.counts(batch.id);
    if (counts.ready === 0 && counts.sending === 0) {
      this.store.setState(batch.id, run.stop === 'cancel' ? 'cancelled' : 'done');
      this.checks.forget(batch.id);
    } else this.store.setState(batch.id, 'paused');
  }

  private view(batch: Batch): BatchView {
    let totals = this.totals.get(batch.id);
    if (!totals) {
      totals = totalsOf(this.store.rows(batch.id));
      this.totals.set(batch.id, totals);
    }
    const counts = this.store.counts(batch.id);
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    const left = counts.ready + counts.sending;
    const run = this.runs.get(batch.id);
    let ratePerSecond: number | null = null;
    let secondsLeft: number | null = null;
    if (run) {
      const finished = counts.done + counts.failed - run.finishedAtStart;
      const elapsed = (Date.now() - run.startedAt) / 1000;
      if (finished > 0 && elapsed > 0) {
        ratePerSecond = finished / elapsed;
        secondsLeft = Math.ceil(left / ratePerSecond);
      }
    }
    return {
      id: batch.id,
      profileId: batch.profileId,
      fileName: batch.fileName,
      state: batch.state,
      interrupted: batch.interrupted,
      pausedBecause: batch.state === 'paused' ? (this.pausedBecause.get(batch.id) ?? null) : null,
      stopping: batch.state === 'running' ? (run?.stop ?? null) : null,
      concurrency: batch.concurrency,
      createdAt: batch.createdAt,
      totals,
      confirmation: confirmationText(totals),
      needsConfirmation: this.profileOf(batch.profileId).environment === 'production',
      progress: {
        total,
        done: counts.done,
        failed: counts.failed,
        left,
        sending: counts.sending,
        invalid: counts.invalid,
        cancelled: counts.cancelled,
        ratePerSecond,
        secondsLeft,
      },
    };
  }

  private batchOf(batchId: number): Batch {
    const batch = this.store.get(batchId);
    if (!batch) throw new ServiceError('INPUT', `There is no batch ${batchId}.`);
    return batch;
  }

  private profileOf(profileId: string) {
    const profile = this.profiles.get(profileId);
    if (!profile) throw new ServiceError('INPUT', `There is no profile ${profileId}.`, 'profileId');
    return profile;
  }

  private changed(batchId: number): void {
    if (this.options.onChanged) this.options.onChanged(this.get(batchId));
  }
}
