// The sandbox's state in SQLite (better-sqlite3; a file, or :memory:). Every integer comes
// back as a bigint (defaultSafeIntegers), so money is integer minor units end to end and never
// passes through a float. Times are milliseconds on the sandbox clock (clock.ts).

import Database from 'better-sqlite3';

import { Statements } from '../store/sqlite/statements';

export type TxKind =
  | 'sale'
  | 'preauth'
  | 'capture'
  | 'reversal'
  | 'cancel'
  | 'void'
  | 'account-verification'
  | 'rebill'
  | 'recurring'
  | 'payout'
  | 'transfer'
  | 'pan-eligibility';

export type TxStatus = 'processing' | 'approved' | 'declined' | 'error' | 'filtered' | 'unknown';

/**
 * Where a transaction that is still `processing` waits: `queued` until its due time,
 * `form` for the customer on a hosted page, `3ds-method` / `3ds-challenge` for 3DS,
 * `checked` for a registered payout waiting for payout-pay. `final` once it has a final status
 * (or `unknown`, which never moves by itself).
 */
export type TxStage = 'queued' | 'form' | '3ds-method' | '3ds-challenge' | 'checked' | 'final';

/** What processing will end in, decided when the card data arrives (cards.ts). */
export type TxPlan = 'approve' | 'decline' | 'unknown';

export interface TxRow {
  id: bigint;
  endpoint_id: string;
  client_orderid: string;
  operation: string;
  kind: TxKind;
  /** The transaction this one acts on (capture -> preauth, reversal -> sale, ...). */
  parent_id: bigint | null;
  status: TxStatus;
  stage: TxStage;
  plan: TxPlan;
  amount_minor: bigint;
  currency: string;
  email: string | null;
  card_bin: string | null;
  card_last4: string | null;
  card_type: string | null;
  card_holder: string | null;
  card_exp_month: string | null;
  card_exp_year: string | null;
  /** The card reference charged (rebill, recurring) or created from this order (create-card-ref). */
  card_ref_id: bigint | null;
  /** A payout's or transfer's destination, masked. */
  destination: string | null;
  redirect_url: string | null;
  server_callback_url: string | null;
  decline_code: string | null;
  decline_reason: string | null;
  approval_code: string | null;
  rrn: string | null;
  /** Secret part of the sandbox page addresses (hosted form, ACS) of this transaction. */
  page_token: string | null;
  /** Whether a 3DS challenge is part of this transaction's processing. */
  three_ds: bigint;
  comp_ind: string | null;
  due_at: bigint | null;
  final_at: bigint | null;
  /** Set when an approved void of this transaction completes. */
  voided_at: bigint | null;
  created_at: bigint;
}

export interface CardRefRow {
  id: bigint;
  endpoint_id: string;
  source_tx_id: bigint | null;
  card_bin: string;
  card_last4: string;
  card_type: string;
  card_holder: string;
  card_exp_month: string;
  card_exp_year: string;
  created_at: bigint;
}

export interface RecurringRow {
  id: bigint;
  endpoint_id: string;
  client_orderid: string;
  card_ref_id: bigint;
  amount_minor: bigint;
  currency: string;
  period: 'day' | 'week' | 'month';
  interval: bigint;
  /** Charges still to make; null for no end. */
  repeats_left: bigint | null;
  charges: bigint;
  next_due_at: bigint;
  /** The first due time; later due times are computed from it, so month ends do not drift. */
  anchor_at: bigint;
  server_callback_url: string | null;
  created_at: bigint;
}

export interface CallbackRow {
  id: bigint;
  tx_id: bigint;
  url: string;
  attempts: bigint;
  next_at: bigint;
  state: 'pending' | 'sending' | 'delivered' | 'failed';
  last_error: string | null;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS transactions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  endpoint_id TEXT NOT NULL,
  client_orderid TEXT NOT NULL,
  operation TEXT NOT NULL,
  kind TEXT NOT NULL,
  parent_id INTEGER REFERENCES transactions(id),
  status TEXT NOT NULL,
  stage TEXT NOT NULL,
  plan TEXT NOT NULL,
  amount_minor INTEGER NOT NULL CHECK (amount_minor >= 0),
  currency TEXT NOT NULL,
  email TEXT,
  card_bin TEXT, card_last4 TEXT, card_type TEXT, card_holder TEXT, card_exp_month TEXT, card_exp_year TEXT,
  card_ref_id INTEGER,
  destination TEXT,
  redirect_url TEXT,
  server_callback_url TEXT,
  decline_code TEXT, decline_reason TEXT,
  approval_code TEXT, rrn TEXT,
  page_token TEXT UNIQUE,
  three_ds INTEGER NOT NULL DEFAULT 0,
  comp_ind TEXT,
  due_at INTEGER,
  final_at INTEGER,
  voided_at INTEGER,
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS tx_client_orderid ON transactions (endpoint_id, client_orderid);
CREATE INDEX IF NOT EXISTS tx_parent ON transactions (parent_id);
CREATE INDEX IF NOT EXISTS tx_due ON transactions (stage, due_at);

CREATE TABLE IF NOT EXISTS card_refs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  endpoint_id TEXT NOT NULL,
  source_tx_id INTEGER REFERENCES transactions(id),
  card_bin TEXT NOT NULL, card_last4 TEXT NOT NULL, card_type TEXT NOT NULL, card_holder TEXT NOT NULL,
  card_exp_month TEXT NOT NULL, card_exp_year TEXT NOT NULL,
  created_at INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS recurring (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  endpoint_id TEXT NOT NULL,
  client_orderid TEXT NOT NULL,
  card_ref_id INTEGER NOT NULL REFERENCES card_refs(id),
  amount_minor INTEGER NOT NULL CHECK (amount_minor > 0),
  currency TEXT NOT NULL,
  period TEXT NOT NULL,
  interval INTEGER NOT NULL,
  repeats_left INTEGER,
  charges INTEGER NOT NULL DEFAULT 0,
  next_due_at INTEGER NOT NULL,
  anchor_at INTEGER NOT NULL,
  server_callback_url TEXT,
  created_at INTEGER NOT NULL
);

-- The first answer to each (merchant, operation, client_orderid), replayed for an identical repeat.
CREATE TABLE IF NOT EXISTS answers (
  endpoint_id TEXT NOT NULL,
  operation TEXT NOT NULL,
  client_orderid TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  fields TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (endpoint_id, operation, client_orderid)
);

CREATE TABLE IF NOT EXISTS nonces (
  consumer_key TEXT NOT NULL,
  nonce TEXT NOT NULL,
  seen_at INTEGER NOT NULL,
  PRIMARY KEY (consumer_key, nonce)
);
-- Old nonces are deleted on every signed request; without this that is a scan of the table.
CREATE INDEX IF NOT EXISTS nonces_seen ON nonces (seen_at);

CREATE TABLE IF NOT EXISTS callbacks (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  tx_id INTEGER NOT NULL REFERENCES transactions(id),
  url TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_at INTEGER NOT NULL,
  state TEXT NOT NULL,
  last_error TEXT
);
CREATE INDEX IF NOT EXISTS callbacks_due ON callbacks (state, next_at);
`;

// Ids that look like a gateway's rather than 1, 2, 3: first order 1000001, card ref 7770001, ...
const SEQUENCE_STARTS: Record<string, number> = {
  transactions: 1_000_000,
  card_refs: 7_770_000,
  recurring: 5_000_000,
};

export type Db = Database.Database;

export function openDb(file = ':memory:'): Db {
  const db = new Database(file);
  db.defaultSafeIntegers(true);
  // NORMAL, set before WAL so that the switch to WAL syncs less too: in WAL mode a commit is then
  // not synced to disk by itself; a killed process loses nothing, and a power cut only the last
  // commits of this pretend gateway, never its consistency. (Paydesk's journal stays FULL.)
  db.pragma('synchronous = NORMAL');
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  // One transaction: each statement on its own would be a commit, and a sync to disk, of its own.
  db.transaction(() => {
    db.exec(SCHEMA);
    for (const [table, start] of Object.entries(SEQUENCE_STARTS)) {
      const row = db.prepare('SELECT seq FROM sqlite_sequence WHERE name = ?').get(table);
      if (!row)
        db.prepare('INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)').run(table, start);
    }
  }).immediate();
  return db;
}

type Insertable<T> = Partial<Omit<T, 'id'>>;

/**
 * Rows sorted by id. The per-order lookups sort their few rows here rather than with ORDER BY:
 * SQLite plans a statement with a bound parameter and ORDER BY again on every run, which costs
 * many times the lookup itself, and the status answer makes several of these lookups.
 */
function inIdOrder<T extends { id: bigint }>(rows: T[]): T[] {
  return rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

function frozenRows<T extends object>(rows: T[]): readonly T[] {
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

/** The queries the sandbox runs, in one place, each statement prepared once. */
export class Store {
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
  private readonly memo: ReadMemo | undefined;

  constructor(readonly db: Db) {
    this.statements = new Statements(db);
    this.inTransaction = db.transaction((fn: () => unknown) => fn());
    this.memo = db.memory ? new ReadMemo() : undefined;
  }

  private statement(sql: string): Database.Statement {
    return this.statements.get(sql);
  }

  private insert(table: string, values: Record<string, unknown>): bigint {
    const names = Object.keys(values).filter((k) => values[k] !== undefined);
    const sql = `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map((n) => '@' + n).join(', ')})`;
    const params = Object.fromEntries(names.map((n) => [n, values[n]]));
    this.noteDue(values);
    const id = this.statement(sql).run(params).lastInsertRowid as bigint;
    this.memo?.clear();
    return id;
  }

  private update(table: string, id: bigint, patch: Record<string, unknown>): void {
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
