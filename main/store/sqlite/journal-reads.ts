// The journal's reads on SQLite: one entry, its history, what is in flight, an order's entries,
// and the filtered pages, totals and batches (journal-pages.ts). Journal (journal.ts) adds the
// writes, which keep to the state machine.

import type Database from 'better-sqlite3';

import type { Db } from './database';
import { IN_FLIGHT_SQL, type JournalFilter } from '../journal/filter';
import { JournalPages } from './journal-pages';
import { entryOfRow, stepOfRow, type JournalRow, type StepRow } from '../journal/row';
import type { JournalEntry, JournalStep, Page } from '../journal/types';
import type { JournalTotals } from '../journal/totals';
import { Statements } from './statements';

export class JournalReads {
  /** Statements by their SQL text, compiled once (the texts never carry values). */
  private readonly statements: Statements;

  constructor(protected readonly db: Db) {
    this.statements = new Statements(db);
  }

  protected statement(sql: string): Database.Statement {
    return this.statements.get(sql);
  }

  get(clientOrderId: string): JournalEntry | undefined {
    const row = this.statement('SELECT * FROM journal WHERE client_orderid = ?')
      .safeIntegers(true)
      .get(clientOrderId) as JournalRow | undefined;
    return row ? entryOfRow(row) : undefined;
  }

  /** Every state the entry went through, oldest first (written by a trigger, migration 5). */
  history(clientOrderId: string): JournalStep[] {
    const rows = this.statement(
      `SELECT state, status, orderid, error_code, error_message, at FROM journal_history
         WHERE client_orderid = ? ORDER BY id`,
    ).all(clientOrderId) as StepRow[];
    return rows.map(stepOfRow);
  }

  /** Entries whose final answer is still owed, oldest first: what a start must reconcile. */
  inFlight(profileId?: string): JournalEntry[] {
    const rows = this.statement(
      `SELECT * FROM journal WHERE ${IN_FLIGHT_SQL}
         ${profileId ? 'AND profile_id = @profileId' : ''} ORDER BY id`,
    )
      .safeIntegers(true)
      .all(profileId ? { profileId } : {}) as JournalRow[];
    return rows.map(entryOfRow);
  }

  /** Every entry acting on an order (captures, refunds, voids of it), oldest first. */
  forTarget(orderId: string): JournalEntry[] {
    // Sorted here, not by ORDER BY: SQLite reads the few rows from journal_target either way,
    // and an ORDER BY would build a temporary B-tree on every run of this query (once per
    // action on an order, under its claim), rows or none.
    const rows = this.statement('SELECT * FROM journal WHERE target_orderid = ?')
      .safeIntegers(true)
      .all(orderId) as JournalRow[];
    return rows.map(entryOfRow).sort((a, b) => a.id - b.id);
  }

  /** Every entry acting on an order or being it, oldest first (an order's page). */
  ofOrder(orderId: string): JournalEntry[] {
    // An OR of the two indexed columns: SQLite answers it from journal_target and journal_orderid.
    // Sorted here, as forTarget: an ORDER BY would sort the few rows in a temporary B-tree on
    // every run, rows or none.
    const rows = this.statement(
      'SELECT * FROM journal WHERE target_orderid = @orderId OR orderid = @orderId',
    )
      .safeIntegers(true)
      .all({ orderId }) as JournalRow[];
    return rows.map(entryOfRow).sort((a, b) => a.id - b.id);
  }

  /** Every entry of these profiles, oldest first (a desk's journal uploaded to its team). */
  ofProfiles(profileIds: readonly string[]): JournalEntry[] {
    const rows = this.statement(
      'SELECT * FROM journal WHERE profile_id IN (SELECT value FROM json_each(?)) ORDER BY id',
    )
      .safeIntegers(true)
      .all(JSON.stringify(profileIds)) as JournalRow[];
    return rows.map(entryOfRow);
  }

  /** Pages and export batches (journal-pages.ts); made on first use. */
  private pagesOf?: JournalPages;
  private get pages(): JournalPages {
    this.pagesOf ??= new JournalPages(this.db);
    return this.pagesOf;
  }

  /** One page of the filter's entries, newest first, by offset; any page costs about the same. */
  search(filter: JournalFilter = {}, offset = 0, limit = 100): Page<JournalEntry> {
    const page = this.pages.page(filter, Math.max(0, offset), Math.max(1, Math.min(limit, 1000)));
    return { rows: (page.rows as JournalRow[]).map(entryOfRow), total: page.total, offset, limit };
  }

  /** The filter's totals per currency and action (journal/totals.ts). */
  totals(filter: JournalFilter = {}): JournalTotals {
    return this.pages.totals(filter);
  }

  /**
   * Every entry matching the filter, newest first, read `batchSize` at a time by short
   * queries (the export yields to the event loop between batches).
   */
  *iterateBatches(filter: JournalFilter = {}, batchSize = 1000): Generator<JournalEntry[]> {
    for (const rows of this.pages.batches(filter, batchSize))
      yield (rows as JournalRow[]).map(entryOfRow);
  }

  /** Every entry matching the filter, newest first. */
  *iterate(filter: JournalFilter = {}): Generator<JournalEntry> {
    for (const batch of this.iterateBatches(filter)) yield* batch;
  }
}
