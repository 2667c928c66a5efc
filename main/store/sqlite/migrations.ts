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
  // 4: indexes the Journal screen's filters need (journal-pages.ts), each holding the id, so a
  // page's position is found by stepping over ids in an index, never over whole rows:
  // journal_ids for no filter (the table itself holds whole rows), (status, created_at) for
  // "status and a date range", and email without case, which the BINARY journal_email index
  // cannot serve.
  `
  CREATE INDEX journal_ids ON journal(id);
  CREATE INDEX journal_status_created ON journal(status, created_at);
  CREATE INDEX journal_operation ON journal(operation);
  CREATE INDEX journal_profile ON journal(profile_id);
  CREATE INDEX journal_email_nocase ON journal(email COLLATE NOCASE);
  `,
  // 5: what the gateway answered beyond its status, for operations that register something: the
  // card reference, the subscription, the hosted-form link, the payout's masked destination.
  // JSON of named answer fields; never a card number (masked before it is written).
  `ALTER TABLE journal ADD COLUMN result TEXT;`,
  // 6: the journal as an audit trail. What the clerk did (action: capture, partial-capture,
  // refund, partial-refund, void, cancel-hold; the gateway's operation stays in \`operation\`),
  // and the target order's shop id (its client_orderid), so a search by the shop's id finds it.
  // changed_elsewhere: when the entry was written the order showed captures or refunds made
  // outside Paydesk; the order-stage alone cannot tell that again once ours are added to them.
  // Entries written before this know only the operation: the action is read from it (a RETURN
  // is a refund; a cancel of a hold written before cannot be told apart).
  `
  ALTER TABLE journal ADD COLUMN action TEXT;
  ALTER TABLE journal ADD COLUMN target_client_orderid TEXT;
  ALTER TABLE journal ADD COLUMN changed_elsewhere INTEGER NOT NULL DEFAULT 0
    CHECK (changed_elsewhere IN (0, 1));
  UPDATE journal SET action = CASE operation WHEN 'CAPTURE' THEN 'capture' WHEN 'VOID' THEN 'void'
    WHEN 'RETURN' THEN 'refund' WHEN 'PAYOUT' THEN 'payout' WHEN 'PAYOUT_V4_CHECK' THEN 'payout-check'
    WHEN 'PAYOUT_V4_PAY' THEN 'payout-pay' WHEN 'CARDREF' THEN 'save-card'
    WHEN 'CARDREF_V4' THEN 'save-card' WHEN 'REBILL' THEN 'rebill'
    WHEN 'CREATE_RP_V4' THEN 'subscription' WHEN 'SALEFORM' THEN 'payment-link'
    WHEN 'PREAUTHFORM' THEN 'hold-link' END WHERE action IS NULL;
  CREATE INDEX journal_target_client ON journal(target_client_orderid);
  CREATE INDEX journal_action ON journal(action);

  -- Orders this desk looked up or acted on, newest first: support finds an order again by the
  -- shop's id, the orderid, the e-mail or the card's last four digits (never more of the card).
  CREATE TABLE recent_orders (
    profile_id       TEXT NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
    orderid          TEXT NOT NULL,
    client_orderid   TEXT,
    email            TEXT,
    last_four        TEXT CHECK (last_four IS NULL OR length(last_four) = 4),
    transaction_type TEXT,
    amount           TEXT,
    currency         TEXT,
    state_label      TEXT,
    seen_at          TEXT NOT NULL,
    PRIMARY KEY (profile_id, orderid)
  );
  CREATE INDEX recent_orders_seen ON recent_orders(profile_id, seen_at);

  -- Every state an entry went through, in order (written, acknowledged, final, refused,
  -- unknown...), by the database itself, so no code path that answers an entry can skip it.
  CREATE TABLE journal_history (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    client_orderid TEXT NOT NULL,
    state          TEXT NOT NULL,
    status         TEXT,
    orderid        TEXT,
    error_code     TEXT,
    error_message  TEXT,
    at             TEXT NOT NULL
  );
  CREATE INDEX journal_history_entry ON journal_history(client_orderid, id);
  CREATE TRIGGER journal_history_insert AFTER INSERT ON journal BEGIN
    INSERT INTO journal_history (client_orderid, state, status, orderid, error_code, error_message, at)
    VALUES (NEW.client_orderid, NEW.state, NEW.status, NEW.orderid, NEW.error_code, NEW.error_message,
      NEW.created_at);
  END;
  CREATE TRIGGER journal_history_update AFTER UPDATE ON journal
  WHEN OLD.state IS NOT NEW.state OR OLD.status IS NOT NEW.status OR OLD.orderid IS NOT NEW.orderid
    OR OLD.error_code IS NOT NEW.error_code OR OLD.error_message IS NOT NEW.error_message
  BEGIN
    INSERT INTO journal_history (client_orderid, state, status, orderid, error_code, error_message, at)
    VALUES (NEW.client_orderid, NEW.state, NEW.status, NEW.orderid, NEW.error_code, NEW.error_message,
      NEW.updated_at);
  END;
  `,
  // 7: batches from a CSV (main/services/batch*.ts). Every row, with the action id it will be
  // sent with, is stored before the first request; batch_actions holds every action id a row was
  // sent with (a new one only after the journal closed the last as not received or not sent),
  // so each journal entry of a batch is linked to it by its client_orderid.
  `
  CREATE TABLE batches (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    profile_id   TEXT NOT NULL REFERENCES profiles(id),
    operator     TEXT NOT NULL,
    file_name    TEXT NOT NULL,
    state        TEXT NOT NULL CHECK (state IN ('ready', 'running', 'paused', 'cancelled', 'done')),
    concurrency  INTEGER NOT NULL CHECK (concurrency BETWEEN 1 AND 32),
    interrupted  INTEGER NOT NULL DEFAULT 0 CHECK (interrupted IN (0, 1)),
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL,
    finished_at  TEXT
  );
  CREATE TABLE batch_rows (
    batch_id         INTEGER NOT NULL REFERENCES batches(id),
    line             INTEGER NOT NULL,
    operation        TEXT NOT NULL,
    orderid          TEXT,
    ref_client_orderid TEXT,
    amount_minor     INTEGER CHECK (amount_minor IS NULL OR amount_minor > 0),
    currency         TEXT,
    reason           TEXT,
    note             TEXT,
    problem          TEXT,
    warning          TEXT,
    action_id        TEXT UNIQUE,
    attempt          INTEGER NOT NULL DEFAULT 0,
    state            TEXT NOT NULL CHECK (state IN ('invalid', 'ready', 'sending', 'done', 'failed', 'cancelled')),
    status           TEXT,
    error            TEXT,
    updated_at       TEXT NOT NULL,
    PRIMARY KEY (batch_id, line)
  );
  CREATE INDEX batch_rows_state ON batch_rows(batch_id, state);
  CREATE TABLE batch_actions (
    action_id  TEXT PRIMARY KEY,
    batch_id   INTEGER NOT NULL REFERENCES batches(id),
    line       INTEGER NOT NULL
  );
  CREATE INDEX batch_actions_batch ON batch_actions(batch_id);
  `,
  // 8: the Journal screen's status filter in the page's own order (newest id first), with the
  // date in the index: its first page is the first 100 matches met walking down the index,
  // instead of every match of the date range sorted by id (journal-pages.ts says which index
  // a page's query leaves to the date range).
  `
  CREATE INDEX journal_status_id ON journal(status, id, created_at);
  `,
  // 9: team mode (docs/team.md). Profiles mirrored from the team's paydesk.profiles, so every
  // read stays synchronous: team_role 'shared' is such a mirror (its id is the shared id the team
  // journal references; team_key_fingerprint the team's key, key_fingerprint this desk's own);
  // 'set-aside' is a local profile kept but not listed while the desk is on a team
  // (team_profile_id: the shared profile with its gateway identity, if any). team_uploads: each
  // upload of this desk's journal to a team, with its counts.
  `
  ALTER TABLE profiles ADD COLUMN team_role TEXT CHECK (team_role IS NULL OR team_role IN ('shared', 'set-aside'));
  ALTER TABLE profiles ADD COLUMN team_key_fingerprint TEXT;
  ALTER TABLE profiles ADD COLUMN team_updated_by TEXT;
  ALTER TABLE profiles ADD COLUMN team_profile_id TEXT;
  CREATE TABLE team_uploads (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    team        TEXT NOT NULL,
    login       TEXT NOT NULL,
    desk        TEXT NOT NULL,
    uploaded    INTEGER NOT NULL CHECK (uploaded >= 0),
    present     INTEGER NOT NULL CHECK (present >= 0),
    sandbox     INTEGER NOT NULL CHECK (sandbox >= 0),
    finished_at TEXT NOT NULL
  );
  `,
  // 10: a batch keeps its file's header and each line's cells as given (card data already taken
  // out), so its result file gives the shop back its own columns (services/batch/csv.ts). JSON
  // arrays of text; NULL for batches stored before.
  `
  ALTER TABLE batches ADD COLUMN header TEXT;
  ALTER TABLE batch_rows ADD COLUMN cells TEXT;
  `,
  // 11: four eyes on two-step payouts, per profile: paid by someone other than who checked it.
  `
  ALTER TABLE profiles ADD COLUMN payout_four_eyes INTEGER NOT NULL DEFAULT 0 CHECK (payout_four_eyes IN (0, 1));
  `,
  // 12: leaving a team gives the desk back what it had (docs/team-internals.md, "Leaving").
  // team_copy: the row is the desk's copy of a team's shared profile (made by the mirror), never
  // the desk's own; after leaving it is set aside under a parked name, team_name keeping the
  // team's, and comes back if the desk joins again. desk_name: the name the desk gave its own
  // profile before a shared one took it, given back when the desk leaves.
  `
  ALTER TABLE profiles ADD COLUMN team_copy INTEGER NOT NULL DEFAULT 0 CHECK (team_copy IN (0, 1));
  ALTER TABLE profiles ADD COLUMN team_name TEXT;
  ALTER TABLE profiles ADD COLUMN desk_name TEXT;
  UPDATE profiles SET team_copy = 1
   WHERE team_role = 'shared' OR (team_role = 'set-aside' AND name = '(removed) ' || id);
  `,
  // 13: the Journal screen finds an entry by what a clerk has in hand (journal-find). The card's
  // last four digits: a capture, void or refund takes them from the order's status read before
  // acting, an entry whose request carries a card number from that number (masked in the
  // summary). Entries written before keep them only where their summary holds a card number:
  // a capture, void or refund written before this cannot be found by the card. Indexes for the
  // search by amount and by the last four (a prefix of an id is served by the ids' own indexes,
  // GLOB keeping letter case), and journal_totals: the totals' groups and amounts, so the
  // totals of the whole journal (or of a status, state, operation or currency) are one walk of
  // it in the groups' order, not a scan of every row sorted (journal-pages.ts).
  `
  ALTER TABLE journal ADD COLUMN card_last_four TEXT
    CHECK (card_last_four IS NULL OR card_last_four GLOB '[0-9][0-9][0-9][0-9]');
  UPDATE journal SET card_last_four = substr(card, -4) FROM (
    SELECT id AS card_id, COALESCE(json_extract(summary, '$.credit_card_number'),
                                   json_extract(summary, '$."destination-card-no"')) AS card
      FROM journal WHERE summary LIKE '%card%'
  ) WHERE id = card_id AND card GLOB '*[0-9][0-9][0-9][0-9]' AND length(card) >= 12;
  CREATE INDEX journal_card_last_four ON journal(card_last_four);
  CREATE INDEX journal_amount ON journal(amount_minor);
  CREATE INDEX journal_totals ON journal(currency, action, operation, state, status, amount_minor);
  `,
  // 14: the daily close (store/sqlite/reports.ts): the entries of a range of days by their
  // written-at time, holding every column the summary reads, so a month is summed from the
  // index alone without reading the table's rows.
  `
  CREATE INDEX journal_report ON journal(created_at, action, profile_id, currency, operator, state,
    status, amount_minor);
  `,
  // 15: reconciliation runs (services/reconcile/): a run asks the gateway's `status` about every
  // journal entry of a date range and profile (and each order they act on) and keeps, line by
  // line, what the gateway said and every disagreement found, so a run resumes after a restart
  // and never asks twice about a line it has done. Each desk's own runs, also on a team.
  `
  CREATE TABLE reconcile_runs (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    profile_id      TEXT NOT NULL,
    operator        TEXT NOT NULL,
    date_from       TEXT NOT NULL,
    date_to         TEXT NOT NULL,
    journal_store   TEXT NOT NULL CHECK (journal_store IN ('sqlite', 'postgres')),
    state           TEXT NOT NULL CHECK (state IN ('running', 'paused', 'done')),
    per_second      REAL NOT NULL CHECK (per_second > 0),
    at_once         INTEGER NOT NULL CHECK (at_once BETWEEN 1 AND 256),
    paused_because  TEXT,
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL,
    finished_at     TEXT
  );
  CREATE TABLE reconcile_lines (
    run_id          INTEGER NOT NULL REFERENCES reconcile_runs(id),
    seq             INTEGER NOT NULL,
    kind            TEXT NOT NULL CHECK (kind IN ('entry', 'order')),
    ref             TEXT NOT NULL,
    subject         TEXT NOT NULL,
    state           TEXT NOT NULL CHECK (state IN ('todo', 'agrees', 'differs', 'unreadable', 'not-askable')),
    attempts        INTEGER NOT NULL DEFAULT 0,
    gateway         TEXT,
    findings        TEXT,
    error           TEXT,
    read_at         TEXT,
    PRIMARY KEY (run_id, seq)
  );
  CREATE INDEX reconcile_lines_state ON reconcile_lines(run_id, state);
  `,
  // 16: every write of an entry pays for each index of the journal. The e-mail search finds a part
  // of an address (13), which no index serves: journal_email and journal_email_nocase serve no
  // query. journal_status_created is covered by journal_status_id (status, id, created_at), which
  // reads the dates in the index, and journal_created by journal_report (14), which starts with
  // created_at (docs/performance.md, "Journal indexes"). The history trigger fires only when a
  // column it records is written, not on a lease's renewal or a result's detail. IF EXISTS:
  // another migration may have dropped an index already.
  `
  DROP INDEX IF EXISTS journal_email;
  DROP INDEX IF EXISTS journal_email_nocase;
  DROP INDEX IF EXISTS journal_status_created;
  DROP INDEX IF EXISTS journal_created;
  DROP TRIGGER journal_history_update;
  CREATE TRIGGER journal_history_update
  AFTER UPDATE OF state, status, orderid, error_code, error_message ON journal
  WHEN OLD.state IS NOT NEW.state OR OLD.status IS NOT NEW.status OR OLD.orderid IS NOT NEW.orderid
    OR OLD.error_code IS NOT NEW.error_code OR OLD.error_message IS NOT NEW.error_message
  BEGIN
    INSERT INTO journal_history (client_orderid, state, status, orderid, error_code, error_message, at)
    VALUES (NEW.client_orderid, NEW.state, NEW.status, NEW.orderid, NEW.error_code, NEW.error_message,
      NEW.updated_at);
  END;
  `,
  // 17: every commit writes each page it changed to the WAL, and the next write-ahead's fsync
  // waits for them all (docs/performance.md, "Refunds against the fair reference"). The orderid
  // is NULL until the gateway answers, and most entries carry no card: their indexes hold only
  // the rows that have one (partial indexes), which every query on them implies (an equality or
  // a GLOB on the column is NOT NULL), so an entry written ahead writes no page of the orderid's
  // index, nor of the card's when it has none.
  `
  DROP INDEX journal_orderid;
  CREATE INDEX journal_orderid ON journal(orderid) WHERE orderid IS NOT NULL;
  DROP INDEX journal_card_last_four;
  CREATE INDEX journal_card_last_four ON journal(card_last_four) WHERE card_last_four IS NOT NULL;
  `,
];
