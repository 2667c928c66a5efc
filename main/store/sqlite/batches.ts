// Batches and their rows as stored (migrations 7 and 10). A row's action id is written with the
// batch, before anything is sent, and every action id a row is ever sent with is kept in
// batch_actions: the link from a journal entry (its client_orderid) to its batch. The file's
// header and each line's cells are kept as given for the result file; the batch service takes
// card data out of them before they reach here (services/batch/card-data.ts).

import type Database from 'better-sqlite3';

import type { Db } from './database';
import { withoutFsync } from './durability';
import { Statements } from './statements';

export type BatchState = 'ready' | 'running' | 'paused' | 'cancelled' | 'done';
export type BatchRowState = 'invalid' | 'ready' | 'sending' | 'done' | 'failed' | 'cancelled';
export type BatchOperation = 'capture' | 'refund' | 'void' | 'status';

export interface NewBatchRow {
  line: number;
  operation: string;
  orderid: string | null;
  refClientOrderId: string | null;
  amountMinor: bigint | null;
  currency: string | null;
  reason: string | null;
  note: string | null;
  problem: string | null;
  warning: string | null;
  /** Null for rows that send nothing (status, or a row with a problem). */
  actionId: string | null;
  /** The line's cells as given, in the file's order; null for rows stored before they were kept. */
  cells: string[] | null;
}

export interface BatchRow extends NewBatchRow {
  batchId: number;
  attempt: number;
  state: BatchRowState;
  status: string | null;
  error: string | null;
}

export interface Batch {
  id: number;
  profileId: string;
  operator: string;
  fileName: string;
  /** The file's header as written; null for batches stored before it was kept. */
  header: string[] | null;
  state: BatchState;
  concurrency: number;
  /** The process running it stopped (crash or quit) while it was running. */
  interrupted: boolean;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

interface RawBatch {
  id: bigint;
  profile_id: string;
  operator: string;
  file_name: string;
  header: string | null;
  state: BatchState;
  concurrency: bigint;
  interrupted: bigint;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

interface RawRow {
  batch_id: bigint;
  line: bigint;
  operation: string;
  orderid: string | null;
  ref_client_orderid: string | null;
  amount_minor: bigint | null;
  currency: string | null;
  reason: string | null;
  note: string | null;
  problem: string | null;
  warning: string | null;
  action_id: string | null;
  cells: string | null;
  attempt: bigint;
  state: BatchRowState;
  status: string | null;
  error: string | null;
}

const toBatch = (r: RawBatch): Batch => ({
  id: Number(r.id),
  profileId: r.profile_id,
  operator: r.operator,
  fileName: r.file_name,
  header: r.header === null ? null : (JSON.parse(r.header) as string[]),
  state: r.state,
  concurrency: Number(r.concurrency),
  interrupted: r.interrupted === 1n,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  finishedAt: r.finished_at,
});

const toRow = (r: RawRow): BatchRow => ({
  batchId: Number(r.batch_id),
  line: Number(r.line),
  operation: r.operation,
  orderid: r.orderid,
  refClientOrderId: r.ref_client_orderid,
  amountMinor: r.amount_minor,
  currency: r.currency,
  reason: r.reason,
  note: r.note,
  problem: r.problem,
  warning: r.warning,
  actionId: r.action_id,
  cells: r.cells === null ? null : (JSON.parse(r.cells) as string[]),
  attempt: Number(r.attempt),
  state: r.state,
  status: r.status,
  error: r.error,
});

const now = () => new Date().toISOString();

export class Batches {
  /** Every integer read as a bigint (ids, lines, attempts, amounts). */
  private readonly statements: Statements;

  constructor(private readonly db: Db) {
    this.statements = new Statements(db, (s) => s.safeIntegers(true));
  }

  private statement(sql: string): Database.Statement {
    return this.statements.get(sql);
  }

  /** The batch and all its rows in one transaction: nothing of it exists until all of it does. */
  create(
    batch: {
      profileId: string;
      operator: string;
      fileName: string;
      header: readonly string[];
      concurrency: number;
    },
    rows: readonly NewBatchRow[],
  ): Batch {
    return this.db
      .transaction(() => {
        const at = now();
        const { lastInsertRowid } = this.statement(
          `INSERT INTO batches (profile_id, operator, file_name, header, state, concurrency, created_at, updated_at)
           VALUES (?, ?, ?, ?, 'ready', ?, ?, ?)`,
        ).run(
          batch.profileId,
          batch.operator,
          batch.fileName,
          JSON.stringify(batch.header),
          batch.concurrency,
          at,
          at,
        );
        const id = Number(lastInsertRowid);
        const insert = this.statement(
          `INSERT INTO batch_rows (batch_id, line, operation, orderid, ref_client_orderid, amount_minor,
             currency, reason, note, problem, warning, action_id, cells, state, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        );
        const link = this.statement(
          'INSERT INTO batch_actions (action_id, batch_id, line) VALUES (?, ?, ?)',
        );
        for (const r of rows) {
          insert.run(
            id,
            r.line,
            r.operation,
            r.orderid,
            r.refClientOrderId,
            r.amountMinor,
            r.currency,
            r.reason,
            r.note,
            r.problem,
            r.warning,
            r.actionId,
            r.cells === null ? null : JSON.stringify(r.cells),
            r.problem ? 'invalid' : 'ready',
            at,
          );
          if (r.actionId) link.run(r.actionId, id, r.line);
        }
        return this.get(id) as Batch;
      })
      .immediate();
  }

  get(id: number): Batch | undefined {
    const raw = this.statement('SELECT * FROM batches WHERE id = ?').get(id) as
      RawBatch | undefined;
    return raw ? toBatch(raw) : undefined;
  }

  list(limit = 50): Batch[] {
    return (
      this.statement('SELECT * FROM batches ORDER BY id DESC LIMIT ?').all(limit) as RawBatch[]
    ).map(toBatch);
  }

  rows(batchId: number): BatchRow[] {
    return (
      this.statement('SELECT * FROM batch_rows WHERE batch_id = ? ORDER BY line').all(
        batchId,
      ) as RawRow[]
    ).map(toRow);
  }

  row(batchId: number, line: number): BatchRow | undefined {
    const raw = this.statement('SELECT * FROM batch_rows WHERE batch_id = ? AND line = ?').get(
      batchId,
      line,
    ) as RawRow | undefined;
    return raw ? toRow(raw) : undefined;
  }

  counts(batchId: number): Record<BatchRowState, number> {
    const counts: Record<BatchRowState, number> = {
      invalid: 0,
      ready: 0,
      sending: 0,
      done: 0,
      failed: 0,
      cancelled: 0,
    };
    const raw = this.statement(
      'SELECT state, COUNT(*) AS n FROM batch_rows WHERE batch_id = ? GROUP BY state',
    ).all(batchId) as { state: BatchRowState; n: bigint }[];
    for (const r of raw) counts[r.state] = Number(r.n);
    return counts;
  }

  setState(batchId: number, state: BatchState, interrupted = false): Batch {
    const at = now();
    this.statement(
      `UPDATE batches SET state = ?, interrupted = ?, updated_at = ?,
         finished_at = CASE WHEN ? IN ('done', 'cancelled') THEN ? ELSE finished_at END
       WHERE id = ?`,
    ).run(state, interrupted ? 1 : 0, at, state, at, batchId);
    return this.get(batchId) as Batch;
  }

  /** Batches whose process stopped while they ran: paused, marked interrupted. */
  markInterrupted(): Batch[] {
    const running = (
      this.statement("SELECT * FROM batches WHERE state = 'running'").all() as RawBatch[]
    ).map(toBatch);
    for (const b of running) this.setState(b.id, 'paused', true);
    return running.map((b) => this.get(b.id) as Batch);
  }

  /**
   * A row's progress. "sending" is fsync'd (a row shown waiting must never have left: cancel
   * drops waiting rows). Its end (done, failed, waiting again) commits without waiting for the
   * disk (durability.ts's withoutFsync: safe from a crash, not from a power cut until the next
   * fsync'd commit): a row whose end a power cut took shows "sending", and a resume or cancel
   * asks the journal about its stored action id, never sending it again.
   */
  setRow(
    batchId: number,
    line: number,
    change: { state: BatchRowState; status?: string | null; error?: string | null },
  ): void {
    const write = () =>
      this.statement(
        `UPDATE batch_rows SET state = ?, status = COALESCE(?, status), error = ?, updated_at = ?
         WHERE batch_id = ? AND line = ?`,
      ).run(change.state, change.status ?? null, change.error ?? null, now(), batchId, line);
    if (change.state === 'sending') write();
    else withoutFsync(this.db, write);
  }

  /**
   * A new action id for a row whose last one the journal closed as never received: stored, and
   * linked, before it is sent.
   */
  newAttempt(batchId: number, line: number, actionId: string): void {
    this.db
      .transaction(() => {
        this.statement(
          `UPDATE batch_rows SET action_id = ?, attempt = attempt + 1, state = 'sending', updated_at = ?
           WHERE batch_id = ? AND line = ?`,
        ).run(actionId, now(), batchId, line);
        this.statement(
          'INSERT INTO batch_actions (action_id, batch_id, line) VALUES (?, ?, ?)',
        ).run(actionId, batchId, line);
      })
      .immediate();
  }

  /** Every action id sent for the batch: the journal entries that belong to it. */
  actionIds(batchId: number): string[] {
    return (
      this.statement('SELECT action_id FROM batch_actions WHERE batch_id = ? ORDER BY line').all(
        batchId,
      ) as { action_id: string }[]
    ).map((r) => r.action_id);
  }

  /** Rows not yet started become cancelled (cancel: what was sent goes on to its end). */
  cancelWaiting(batchId: number): void {
    this.statement(
      `UPDATE batch_rows SET state = 'cancelled', error = 'Cancelled before it was sent.', updated_at = ?
       WHERE batch_id = ? AND state = 'ready'`,
    ).run(now(), batchId);
  }
}
