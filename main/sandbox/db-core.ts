// What every query of the sandbox's store (db.ts) stands on: each statement prepared once, the
// insert and update every table's writes go through, the reads remembered between writes on an
// in-memory database, the earliest due times that let a request skip the due-work pass, and the
// one transaction wrapper. Apart from the per-table queries so that these rules, which every
// write must keep (a write empties the memo and lowers the due times), read in one place.

import type Database from 'better-sqlite3';

import { Statements } from '../store/sqlite/statements';
import type { CardRefRow, TxRow } from './db-rows';
import type { Db } from './db-schema';

export type Insertable<T> = Partial<Omit<T, 'id'>>;

/**
 * Rows sorted by id. The per-order lookups sort their few rows here rather than with ORDER BY:
 * SQLite plans a statement with a bound parameter and ORDER BY again on every run, which costs
 * many times the lookup itself, and the status answer makes several of these lookups.
 */
export function inIdOrder<T extends { id: bigint }>(rows: T[]): T[] {
  return rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export function frozenRows<T extends object>(rows: T[]): readonly T[] {
  for (const row of rows) Object.freeze(row);
  return Object.freeze(rows);
}

/** What Store remembers between writes (see Store.memo); a missing row is remembered too. */
class ReadMemo {
  readonly tx = new Map<bigint, TxRow | undefined>();
  readonly children = new Map<bigint, readonly TxRow[]>();
  readonly byClientOrderId = new Map<string, readonly TxRow[]>();
  readonly cardRefOfTx = new Map<bigint, CardRefRow | undefined>();

  clear(): void {
    this.tx.clear();
    this.children.clear();
    this.byClientOrderId.clear();
    this.cardRefOfTx.clear();
  }
}

/** The machinery under Store's queries (db.ts): statements, writes, memo, due times, transactions. */
export class StoreCore {
  /**
   * Statements by their SQL text, compiled on first use and kept: compiling is most of the cost
   * of a small query. The texts are fixed or built from column names only (never from values),
   * so the map stays small.
   */
  private readonly statements: Statements;
  /**
   * No queued transaction (txDue), or no recurring charge (planDue), is due before this sandbox
   * time (ms), so a request can skip the due-work pass, or its recurring half, without reading
   * the tables. Lowered whenever a due time is written; recomputed from the tables after a pass.
   * Apart: a refund becomes due at once with no delay, and its pass need not read the plans.
   */
  private txDue = -Infinity;
  private planDue = -Infinity;
  /**
   * Reads since the last write, for an in-memory database only (no other connection can change
   * it; a file may be changed by another process, so it is always read). A client polling
   * `status` reads the same order, its follow-ups and its card reference over and over, and each
   * SQLite read pays for a walk through SQLite's code that other processes have pushed out of
   * the CPU's caches between two requests. Every write through this class empties it, and so
   * does every transaction that fails (its writes were rolled back); rows and lists are frozen,
   * so no caller can change what the next reader is given.
   */
  protected readonly memo: ReadMemo | undefined;

  constructor(readonly db: Db) {
    this.statements = new Statements(db);
    this.inTransaction = db.transaction((fn: () => unknown) => fn());
    this.memo = db.memory ? new ReadMemo() : undefined;
  }

  protected statement(sql: string): Database.Statement {
    return this.statements.get(sql);
  }

  protected insert(table: string, values: Record<string, unknown>): bigint {
    const names = Object.keys(values).filter((k) => values[k] !== undefined);
    const sql = `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map((n) => '@' + n).join(', ')})`;
    const params = Object.fromEntries(names.map((n) => [n, values[n]]));
    this.noteDue(values);
    const id = this.statement(sql).run(params).lastInsertRowid as bigint;
    this.memo?.clear();
    return id;
  }

  protected update(table: string, id: bigint, patch: Record<string, unknown>): void {
    const names = Object.keys(patch).filter((k) => patch[k] !== undefined);
    if (names.length === 0) return;
    const sql = `UPDATE ${table} SET ${names.map((n) => `${n} = @${n}`).join(', ')} WHERE id = @id`;
    this.noteDue(patch);
    this.statement(sql).run({ ...Object.fromEntries(names.map((n) => [n, patch[n]])), id });
    this.memo?.clear();
  }

  private noteDue(values: Record<string, unknown>): void {
    const tx = values.due_at;
    if (typeof tx === 'bigint' && Number(tx) < this.txDue) this.txDue = Number(tx);
    const plan = values.next_due_at;
    if (typeof plan === 'bigint' && Number(plan) < this.planDue) this.planDue = Number(plan);
  }

  /** False when no transaction or recurring charge can be due at `now` (no table is read). */
  mayHaveDueWork(now: number): boolean {
    return now >= this.txDue || now >= this.planDue;
  }

  /** False when no recurring charge can be due at `now` (no table is read). */
  recurringMayBeDue(now: number): boolean {
    return now >= this.planDue;
  }

  /** Recomputes the earliest due time of queued transactions (after finalizing them). */
  refreshTransactionsDue(): void {
    const tx = this.statement(
      "SELECT MIN(due_at) AS at FROM transactions WHERE stage = 'queued'",
    ).get() as { at: bigint | null };
    this.txDue = tx.at === null ? Infinity : Number(tx.at);
  }

  /** Recomputes both earliest due times from the tables (after a whole due-work pass). */
  refreshDueHint(): void {
    this.refreshTransactionsDue();
    const plan = this.statement(
      'SELECT MIN(next_due_at) AS at FROM recurring WHERE repeats_left IS NULL OR repeats_left > 0',
    ).get() as { at: bigint | null };
    this.planDue = plan.at === null ? Infinity : Number(plan.at);
  }

  /** One transaction wrapper, made once: `db.transaction` builds a new function per call. */
  private readonly inTransaction: (fn: () => unknown) => unknown;

  /** Runs `fn` in one SQLite transaction: an answer and the order it reports commit together. */
  atomically<T>(fn: () => T): T {
    try {
      return this.inTransaction(fn) as T;
    } catch (error) {
      // Rolled back: what was read after its writes never happened.
      this.memo?.clear();
      throw error;
    }
  }
}
