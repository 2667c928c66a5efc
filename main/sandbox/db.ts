// The sandbox's state in SQLite (better-sqlite3; a file, or :memory:): the queries it runs, by
// table, each statement prepared once. What they stand on (the memo of reads, the due times, the
// writes every table goes through) is db-core.ts; the tables are db-schema.ts and their rows
// db-rows.ts, both exported from here too, so the rest of the sandbox imports its database from
// one place.

import { frozenRows, inIdOrder, StoreCore, type Insertable } from './db-core';
import type { CallbackRow, CardRefRow, RecurringRow, TxRow } from './db-rows';

export type {
  CallbackRow,
  CardRefRow,
  RecurringRow,
  TxKind,
  TxPlan,
  TxRow,
  TxStage,
  TxStatus,
} from './db-rows';
export { openDb, type Db } from './db-schema';

/** The queries the sandbox runs, in one place, each statement prepared once. */
export class Store extends StoreCore {
  // Transactions -------------------------------------------------------------------------

  insertTx(
    values: Insertable<TxRow> &
      Pick<
        TxRow,
        | 'endpoint_id'
        | 'client_orderid'
        | 'operation'
        | 'kind'
        | 'amount_minor'
        | 'currency'
        | 'created_at'
      >,
  ): TxRow {
    const id = this.insert('transactions', {
      status: 'processing',
      stage: 'queued',
      plan: 'approve',
      ...values,
    });
    return this.tx(id)!;
  }

  updateTx(id: bigint, patch: Partial<Omit<TxRow, 'id'>>): TxRow {
    this.update('transactions', id, patch);
    return this.tx(id)!;
  }

  tx(id: bigint): TxRow | undefined {
    const memo = this.memo?.tx;
    if (memo?.has(id)) return memo.get(id);
    const row = this.statement('SELECT * FROM transactions WHERE id = ?').get(id) as
      TxRow | undefined;
    memo?.set(id, row && Object.freeze(row));
    return row;
  }

  /** The transaction with this id if it belongs to this endpoint. */
  txOf(endpointId: string, id: bigint): TxRow | undefined {
    const tx = this.tx(id);
    return tx?.endpoint_id === endpointId ? tx : undefined;
  }

  /** The latest transaction carrying this client_orderid: what `status` by client_orderid reports. */
  latestByClientOrderId(endpointId: string, clientOrderId: string): TxRow | undefined {
    return this.allByClientOrderId(endpointId, clientOrderId).at(-1);
  }

  allByClientOrderId(endpointId: string, clientOrderId: string): readonly TxRow[] {
    const memo = this.memo?.byClientOrderId;
    const key = `${endpointId.length}:${endpointId}${clientOrderId}`; // unambiguous for any two texts
    const known = memo?.get(key);
    if (known) return known;
    const rows = inIdOrder(
      this.statement('SELECT * FROM transactions WHERE endpoint_id = ? AND client_orderid = ?').all(
        endpointId,
        clientOrderId,
      ) as TxRow[],
    );
    memo?.set(key, frozenRows(rows));
    return rows;
  }

  byPageToken(token: string): TxRow | undefined {
    return this.statement('SELECT * FROM transactions WHERE page_token = ?').get(token) as
      TxRow | undefined;
  }

  children(parentId: bigint): readonly TxRow[] {
    const memo = this.memo?.children;
    const known = memo?.get(parentId);
    if (known) return known;
    const rows = inIdOrder(
      this.statement('SELECT * FROM transactions WHERE parent_id = ?').all(parentId) as TxRow[],
    );
    memo?.set(parentId, frozenRows(rows));
    return rows;
  }

  dueTx(now: number): TxRow[] {
    return this.statement(
      "SELECT * FROM transactions WHERE stage = 'queued' AND due_at <= ? ORDER BY due_at, id",
    ).all(now) as TxRow[];
  }

  listTx(endpointId?: string): TxRow[] {
    return (
      endpointId === undefined
        ? this.statement('SELECT * FROM transactions ORDER BY id').all()
        : this.statement('SELECT * FROM transactions WHERE endpoint_id = ? ORDER BY id').all(
            endpointId,
          )
    ) as TxRow[];
  }

  // Card references ----------------------------------------------------------------------

  insertCardRef(values: Omit<CardRefRow, 'id'>): CardRefRow {
    const id = this.insert('card_refs', { ...values });
    return this.statement('SELECT * FROM card_refs WHERE id = ?').get(id) as CardRefRow;
  }

  cardRef(endpointId: string, id: bigint): CardRefRow | undefined {
    return this.statement('SELECT * FROM card_refs WHERE id = ? AND endpoint_id = ?').get(
      id,
      endpointId,
    ) as CardRefRow | undefined;
  }

  cardRefOfTx(txId: bigint): CardRefRow | undefined {
    const memo = this.memo?.cardRefOfTx;
    if (memo?.has(txId)) return memo.get(txId);
    const row = this.statement('SELECT * FROM card_refs WHERE source_tx_id = ?').get(txId) as
      CardRefRow | undefined;
    memo?.set(txId, row && Object.freeze(row));
    return row;
  }

  /** Every card reference of an endpoint, oldest first (read-only views for tests). */
  listCardRefs(endpointId: string): CardRefRow[] {
    return this.db
      .prepare('SELECT * FROM card_refs WHERE endpoint_id = ? ORDER BY id')
      .all(endpointId) as CardRefRow[];
  }

  // Recurring payments -------------------------------------------------------------------

  listRecurring(endpointId: string): RecurringRow[] {
    return this.db
      .prepare('SELECT * FROM recurring WHERE endpoint_id = ? ORDER BY id')
      .all(endpointId) as RecurringRow[];
  }

  insertRecurring(values: Omit<RecurringRow, 'id' | 'charges'>): RecurringRow {
    const id = this.insert('recurring', { ...values });
    return this.recurring(id)!;
  }

  recurring(id: bigint): RecurringRow | undefined {
    return this.statement('SELECT * FROM recurring WHERE id = ?').get(id) as
      RecurringRow | undefined;
  }

  dueRecurring(now: number): RecurringRow[] {
    return this.statement(
      'SELECT * FROM recurring WHERE next_due_at <= ? AND (repeats_left IS NULL OR repeats_left > 0) ORDER BY next_due_at, id',
    ).all(now) as RecurringRow[];
  }

  updateRecurring(id: bigint, patch: Partial<Omit<RecurringRow, 'id'>>): void {
    this.update('recurring', id, patch);
  }

  // Answers (idempotency) ----------------------------------------------------------------

  answer(
    endpointId: string,
    operation: string,
    clientOrderId: string,
  ): { fingerprint: string; fields: string } | undefined {
    return this.statement(
      'SELECT fingerprint, fields FROM answers WHERE endpoint_id = ? AND operation = ? AND client_orderid = ?',
    ).get(endpointId, operation, clientOrderId) as
      { fingerprint: string; fields: string } | undefined;
  }

  saveAnswer(
    endpointId: string,
    operation: string,
    clientOrderId: string,
    fingerprint: string,
    fields: string,
    now: number,
  ): void {
    this.statement(
      'INSERT INTO answers (endpoint_id, operation, client_orderid, fingerprint, fields, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    ).run(endpointId, operation, clientOrderId, fingerprint, fields, now);
  }

  // Nonces -------------------------------------------------------------------------------

  /** Records a nonce; false when it was already seen since `notBefore`. */
  claimNonce(consumerKey: string, nonce: string, now: number, notBefore: number): boolean {
    this.statement('DELETE FROM nonces WHERE seen_at < ?').run(notBefore);
    const seen = this.statement('SELECT 1 FROM nonces WHERE consumer_key = ? AND nonce = ?').get(
      consumerKey,
      nonce,
    );
    if (seen) return false;
    this.statement('INSERT INTO nonces (consumer_key, nonce, seen_at) VALUES (?, ?, ?)').run(
      consumerKey,
      nonce,
      now,
    );
    return true;
  }

  // Callbacks ----------------------------------------------------------------------------

  queueCallback(txId: bigint, url: string, at: number): void {
    this.insert('callbacks', { tx_id: txId, url, attempts: 0, next_at: at, state: 'pending' });
  }

  dueCallbacks(now: number): CallbackRow[] {
    return this.statement(
      "SELECT * FROM callbacks WHERE state = 'pending' AND next_at <= ? ORDER BY next_at, id",
    ).all(now) as CallbackRow[];
  }

  updateCallback(id: bigint, patch: Partial<Omit<CallbackRow, 'id'>>): void {
    this.update('callbacks', id, patch);
  }

  callbacksOf(txId: bigint): CallbackRow[] {
    return inIdOrder(
      this.statement('SELECT * FROM callbacks WHERE tx_id = ?').all(txId) as CallbackRow[],
    );
  }
}
