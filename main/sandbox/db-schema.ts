// The sandbox's database opened: its tables (their rows are db-rows.ts), ids that look like a
// gateway's, and how it syncs to disk. Apart from the queries (db.ts, db-core.ts) because it runs
// once, when the sandbox starts: the tables are created where missing, in one transaction.

import Database from 'better-sqlite3';

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
