// Numbered schema migrations. Never edit a migration that has shipped: add the next one.
// Money is stored as INTEGER minor units; secrets are never stored here (they live in the
// OS keychain, see main/secrets/).

export const MIGRATIONS: readonly string[] = [
  // 1: profiles, their key history, and the journal.
  `
  CREATE TABLE profiles (
    id              TEXT PRIMARY KEY,
    name            TEXT NOT NULL UNIQUE COLLATE NOCASE,
    environment     TEXT NOT NULL CHECK (environment IN ('production', 'test', 'sandbox')),
    base_url        TEXT NOT NULL,
    endpoint_id     TEXT NOT NULL,
    endpoint_kind   TEXT NOT NULL DEFAULT 'endpoint' CHECK (endpoint_kind IN ('endpoint', 'group')),
    login           TEXT NOT NULL,
    key_fingerprint TEXT,
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL
  );

  CREATE TABLE profile_keys (
    profile_id  TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
    fingerprint TEXT NOT NULL,
    environment TEXT NOT NULL,
    attached_at TEXT NOT NULL,
    retired_at  TEXT,
    PRIMARY KEY (profile_id, fingerprint)
  );

  CREATE TABLE journal (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    client_orderid  TEXT NOT NULL UNIQUE,
    profile_id      TEXT NOT NULL REFERENCES profiles(id),
    operator        TEXT NOT NULL,
    operation       TEXT NOT NULL,
    target_orderid  TEXT,
    orderid         TEXT,
    amount_minor    INTEGER CHECK (amount_minor IS NULL OR amount_minor > 0),
    currency        TEXT,
    reason          TEXT,
    note            TEXT,
    email           TEXT,
    summary         TEXT NOT NULL,
    state           TEXT NOT NULL CHECK (state IN ('sending', 'acknowledged', 'final', 'refused', 'unknown')),
    status          TEXT,
    error_code      TEXT,
    error_message   TEXT,
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL,
    final_at        TEXT
  );
  CREATE INDEX journal_target ON journal(target_orderid);
  CREATE INDEX journal_orderid ON journal(orderid);
  CREATE INDEX journal_state ON journal(state);
  CREATE INDEX journal_created ON journal(created_at);
  CREATE INDEX journal_email ON journal(email);
  `,
  // 2: the profile of the sandbox Paydesk runs itself (started with the app, seeded with demo orders).
  `ALTER TABLE profiles ADD COLUMN embedded INTEGER NOT NULL DEFAULT 0 CHECK (embedded IN (0, 1));`,
  // 3: never twice. When the request may have left (sent_at: the quarantine of an unsettled entry
  // counts from it), which process is sending it (a lease, so a second process waits instead of
  // sending), and who settled an entry by hand and why.
  `
  ALTER TABLE journal ADD COLUMN sent_at TEXT;
  ALTER TABLE journal ADD COLUMN lease_owner TEXT;
  ALTER TABLE journal ADD COLUMN lease_until TEXT;
  ALTER TABLE journal ADD COLUMN settled_by TEXT;
  ALTER TABLE journal ADD COLUMN settle_reason TEXT;
  `,
];
