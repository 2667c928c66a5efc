// The team journal's schema on PostgreSQL: numbered migrations like the SQLite ones
// (main/store/sqlite/migrations.ts). Never edit a migration that has shipped: add the next one.
//
// The database is the guard, not the app. Each person connects with their own LOGIN role, a
// member of one NOLOGIN group role; grants, row-level security and triggers decide what they may
// do, so a modified or buggy desk cannot do more than its person's role allows:
//   paydesk_support  reads profiles and the journal;
//   paydesk_finance  reads, writes journal entries (operator = its own login) and settles them;
//   paydesk_admin    reads, and alone changes the shared profiles.
// Nobody deletes or rewrites a journal entry; its state only moves forward.
//
// The operator is `session_user`, the login that connected, not `current_user`: a member may
// `SET ROLE paydesk_finance` and so change current_user to the group, but only a superuser can
// change session_user, so it names the person whatever they do inside their session.
//
// Secrets never come here: a profile holds the public parts (base URL, endpoint, login, the
// key's fingerprint); control keys and private keys stay in each desk's OS keychain.

import {
  MIGRATION_3_DESCRIPTION,
  MIGRATION_3_SQL,
  MIGRATION_4_DESCRIPTION,
  MIGRATION_4_SQL,
} from './migration-rules';
import { MIGRATION_5_DESCRIPTION, MIGRATION_5_SQL } from './migration-find';

export const SCHEMA = 'paydesk';
export const GROUP_ROLES = ['paydesk_support', 'paydesk_finance', 'paydesk_admin'] as const;
export type GroupRole = (typeof GROUP_ROLES)[number];

/** SQLSTATEs the triggers raise, so the app can say plainly what the database refused. */
export const TEAM_ERRORS = {
  /** A state move backwards, or any change to a final or refused entry. */
  notForward: 'PD001',
  /** A change to what was sent (operation, amount, target, operator, created_at, ...). */
  rewrite: 'PD002',
  /** DELETE or TRUNCATE of the journal or its answers. */
  removal: 'PD003',
  /** An operator or recorder other than the login writing the row (Postgres' own code). */
  forged: '42501',
  /** "Not received" before the quarantine ended: the gateway may still be processing it. */
  tooEarly: 'PD004',
  /** A change of an entry's state without its answer recorded in the same transaction. */
  unanswered: 'PD005',
  /** A pay of a payout by the login that checked it, on a profile with four eyes. */
  fourEyes: 'PD006',
} as const;

/** Serialises concurrent `team:init` runs (two-key advisory lock: 'PDSK', 0). */
export const INIT_LOCK_SQL = `SELECT pg_advisory_xact_lock(1346655051, 0);`;

/**
 * The three group roles. Roles belong to the whole cluster, not to one database, so they are
 * created (when missing) on every run rather than by a numbered migration.
 */
export const ROLES_SQL = `DO $roles$
DECLARE
  r text;
BEGIN
  FOREACH r IN ARRAY ARRAY['paydesk_support', 'paydesk_finance', 'paydesk_admin'] LOOP
    IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = r) THEN
      EXECUTE format('CREATE ROLE %I NOLOGIN', r);
    END IF;
  END LOOP;
END
$roles$;`;

/** The schema and the table that records which migrations were applied. */
export const BOOTSTRAP_SQL = `CREATE SCHEMA IF NOT EXISTS paydesk;
CREATE TABLE IF NOT EXISTS paydesk.schema_version (
  version     integer PRIMARY KEY,
  description text NOT NULL,
  applied_at  timestamptz NOT NULL DEFAULT now(),
  applied_by  text NOT NULL DEFAULT session_user
);`;

export interface PgMigration {
  version: number;
  description: string;
  sql: string;
}

// The SQLite journal's state machine (main/store/sqlite/journal.ts): 'unknown' is an unsettled entry.
const STATES = `'sending', 'acknowledged', 'final', 'refused', 'unknown'`;

export const PG_MIGRATIONS: readonly PgMigration[] = [
  {
    version: 1,
    description: 'grants to the group roles, shared profiles, the journal and its answers',
    sql: `
REVOKE ALL ON SCHEMA paydesk FROM PUBLIC;
GRANT USAGE ON SCHEMA paydesk TO paydesk_support, paydesk_finance, paydesk_admin;
GRANT SELECT ON paydesk.schema_version TO paydesk_support, paydesk_finance, paydesk_admin;

-- Who the connected person is, for the app to show only what their role allows (the database
-- still decides). A login in no Paydesk group sees no row at all: it cannot even read this.
CREATE VIEW paydesk.me AS
  SELECT session_user::text AS login,
         ARRAY(SELECT r FROM unnest(ARRAY['paydesk_support', 'paydesk_finance', 'paydesk_admin']) AS r
                WHERE pg_has_role(session_user, r, 'MEMBER')) AS roles;
GRANT SELECT ON paydesk.me TO paydesk_support, paydesk_finance, paydesk_admin;

-- Shared gateway connections. No column for a control key or a private key: those stay on
-- each desk. The fingerprint's format leaves no room to store a key in it.
CREATE TABLE paydesk.profiles (
  id              text PRIMARY KEY CHECK (id <> ''),
  name            text NOT NULL CHECK (name <> ''),
  environment     text NOT NULL CHECK (environment IN ('production', 'test', 'sandbox')),
  base_url        text NOT NULL CHECK (base_url <> ''),
  endpoint_id     text NOT NULL CHECK (endpoint_id <> ''),
  endpoint_kind   text NOT NULL DEFAULT 'endpoint' CHECK (endpoint_kind IN ('endpoint', 'group')),
  login           text NOT NULL CHECK (login <> ''),
  key_fingerprint text CHECK (key_fingerprint ~ '^[0-9A-F]{2}(:[0-9A-F]{2}){31}$'),
  created_at      timestamptz NOT NULL DEFAULT now(),
  updated_at      timestamptz NOT NULL DEFAULT now(),
  updated_by      text NOT NULL DEFAULT session_user
);
CREATE UNIQUE INDEX profiles_name ON paydesk.profiles (lower(name));

-- Who changed a profile and when is the server's word, not the desk's.
CREATE FUNCTION paydesk.profiles_stamp() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog AS $fn$
BEGIN
  IF TG_OP = 'INSERT' THEN
    NEW.created_at := now();
  ELSE
    NEW.created_at := OLD.created_at;
  END IF;
  NEW.updated_at := now();
  NEW.updated_by := session_user;
  RETURN NEW;
END
$fn$;
CREATE TRIGGER profiles_stamp BEFORE INSERT OR UPDATE ON paydesk.profiles
  FOR EACH ROW EXECUTE FUNCTION paydesk.profiles_stamp();

GRANT SELECT ON paydesk.profiles TO paydesk_support, paydesk_finance, paydesk_admin;
GRANT INSERT, UPDATE, DELETE ON paydesk.profiles TO paydesk_admin;

-- The journal: the SQLite journal's columns, plus the desk that wrote the entry. Money is
-- bigint minor units with its currency's code, never a float. sent_at: when the request may
-- first have left (an unsettled entry's quarantine counts from it); lease_*: which desk process
-- is sending it, so another desk reconciling waits instead of asking or sending; settled_*: the
-- login that settled it by hand, and why.
CREATE TABLE paydesk.journal (
  id                    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  client_orderid        text NOT NULL UNIQUE CHECK (client_orderid <> ''),
  profile_id            text NOT NULL REFERENCES paydesk.profiles (id),
  desk                  text NOT NULL CHECK (desk <> ''),
  operator              text NOT NULL DEFAULT session_user,
  operation             text NOT NULL CHECK (operation <> ''),
  target_orderid        text,
  target_client_orderid text,
  -- What the clerk did, in the words of JOURNAL_ACTIONS (common/contract.ts).
  action                text,
  -- The order showed captures or refunds made outside Paydesk when the entry was decided.
  changed_elsewhere     boolean NOT NULL DEFAULT false,
  orderid               text,
  amount_minor          bigint CHECK (amount_minor > 0),
  currency              text CHECK (currency ~ '^[A-Z]{3}$'),
  reason                text,
  note                  text,
  email                 text,
  summary               jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(summary) = 'object'),
  state                 text NOT NULL DEFAULT 'sending' CHECK (state IN (${STATES})),
  status                text,
  error_code            text,
  error_message         text,
  created_at            timestamptz NOT NULL DEFAULT now(),
  updated_at            timestamptz NOT NULL DEFAULT now(),
  final_at              timestamptz,
  sent_at               timestamptz,
  lease_owner           text,
  lease_until           timestamptz,
  settled_by            text,
  settle_reason         text,
  result                jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(result) = 'object'),
  CHECK (state <> 'final' OR status IS NOT NULL),
  CHECK ((settled_by IS NULL) = (settle_reason IS NULL))
);
CREATE INDEX journal_target ON paydesk.journal (profile_id, target_orderid);
CREATE INDEX journal_target_client ON paydesk.journal (target_client_orderid);
CREATE INDEX journal_orderid ON paydesk.journal (orderid);
CREATE INDEX journal_state ON paydesk.journal (state);
CREATE INDEX journal_created ON paydesk.journal (created_at);
CREATE INDEX journal_email ON paydesk.journal (email);

-- An entry is written before its request leaves: it starts as 'sending', with no answer yet,
-- stamped with the server's clock and written by the login that sends it.
CREATE FUNCTION paydesk.journal_before_insert() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog AS $fn$
BEGIN
  IF NEW.operator IS DISTINCT FROM session_user THEN
    RAISE EXCEPTION 'The operator of a journal entry is the login that writes it (%), not %.',
      session_user, NEW.operator USING ERRCODE = '42501';
  END IF;
  IF NEW.state <> 'sending' THEN
    RAISE EXCEPTION 'A journal entry is written before its request is sent: it starts as sending, not %.',
      NEW.state USING ERRCODE = 'PD001';
  END IF;
  IF num_nonnulls(NEW.orderid, NEW.status, NEW.error_code, NEW.error_message, NEW.final_at,
                  NEW.settled_by, NEW.settle_reason) > 0 THEN
    RAISE EXCEPTION 'A new journal entry has no answer yet (orderid, status, error, final_at, settled_by are set by its answers).'
      USING ERRCODE = 'PD001';
  END IF;
  NEW.created_at := now();
  NEW.updated_at := now();
  NEW.sent_at := now();
  RETURN NEW;
END
$fn$;

-- Entries only move forward, along the SQLite journal's state machine: sending -> acknowledged
-- -> final; sending or unknown -> refused; sending -> unknown; an entry still waiting (sending,
-- acknowledged, unknown) may be settled, final or refused. What was sent (every column but the
-- answer's and the lease) never changes, a gateway orderid once learned stays, a final or
-- refused entry is closed (it may only learn a gateway orderid it lacked), and who settled an
-- entry by hand is the login that did. A column added by a later migration is frozen too
-- unless listed here.
CREATE FUNCTION paydesk.journal_before_update() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog AS $fn$
DECLARE
  changed text;
BEGIN
  SELECT string_agg(n.key, ', ' ORDER BY n.key) INTO changed
    FROM jsonb_each(to_jsonb(NEW)) AS n
   WHERE n.key <> ALL (ARRAY['state', 'status', 'orderid', 'error_code', 'error_message', 'updated_at', 'final_at',
                             'lease_owner', 'lease_until', 'settled_by', 'settle_reason', 'result'])
     AND n.value IS DISTINCT FROM (to_jsonb(OLD) -> n.key);
  IF changed IS NOT NULL THEN
    RAISE EXCEPTION 'Journal entry % was sent as written: % cannot be changed.', OLD.client_orderid, changed
      USING ERRCODE = 'PD002';
  END IF;
  IF OLD.orderid IS NOT NULL AND NEW.orderid IS DISTINCT FROM OLD.orderid THEN
    RAISE EXCEPTION 'Journal entry % already has the gateway orderid %; it cannot become %.',
      OLD.client_orderid, OLD.orderid, coalesce(NEW.orderid, 'empty') USING ERRCODE = 'PD002';
  END IF;
  IF OLD.settled_by IS NOT NULL AND (NEW.settled_by, NEW.settle_reason) IS DISTINCT FROM (OLD.settled_by, OLD.settle_reason) THEN
    RAISE EXCEPTION 'Journal entry % was settled by hand by %; that cannot change.', OLD.client_orderid, OLD.settled_by
      USING ERRCODE = 'PD002';
  END IF;
  IF NEW.settled_by IS DISTINCT FROM OLD.settled_by AND NEW.settled_by IS DISTINCT FROM session_user THEN
    RAISE EXCEPTION 'An entry is settled by hand by the login that does it (%), not %.',
      session_user, NEW.settled_by USING ERRCODE = '42501';
  END IF;
  IF OLD.state IN ('final', 'refused') AND (NEW.state, NEW.status, NEW.error_code, NEW.error_message)
       IS DISTINCT FROM (OLD.state, OLD.status, OLD.error_code, OLD.error_message) THEN
    RAISE EXCEPTION 'Journal entry % is % and cannot change any more.', OLD.client_orderid, OLD.state
      USING ERRCODE = 'PD001';
  END IF;
  IF NEW.state <> OLD.state AND NOT (
       (OLD.state = 'sending')
    OR (OLD.state = 'unknown' AND NEW.state IN ('acknowledged', 'final', 'refused'))
    OR (OLD.state = 'acknowledged' AND NEW.state = 'final')
    OR (OLD.state = 'acknowledged' AND NEW.state = 'refused' AND NEW.settled_by IS NOT NULL)) THEN
    RAISE EXCEPTION 'Journal entry % is % and cannot become %.', OLD.client_orderid, OLD.state, NEW.state
      USING ERRCODE = 'PD001';
  END IF;
  IF NEW.settled_by IS NOT NULL AND OLD.settled_by IS NULL AND NEW.state NOT IN ('final', 'refused') THEN
    RAISE EXCEPTION 'Settling journal entry % by hand makes it final or refused.', OLD.client_orderid
      USING ERRCODE = 'PD001';
  END IF;
  NEW.updated_at := now();
  NEW.final_at := CASE WHEN OLD.state IN ('final', 'refused') THEN OLD.final_at
                       WHEN NEW.state IN ('final', 'refused') THEN now() END;
  -- Leaving 'sending' ends the lease: nobody is sending it any more.
  IF NEW.state <> OLD.state AND NEW.state <> 'sending' THEN
    NEW.lease_owner := NULL;
    NEW.lease_until := NULL;
  END IF;
  RETURN NEW;
END
$fn$;

-- Nothing is ever removed, not even by the table's owner.
CREATE FUNCTION paydesk.refuse_removal() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog AS $fn$
BEGIN
  RAISE EXCEPTION '% is an audit trail: nothing in it is ever deleted.', TG_TABLE_NAME USING ERRCODE = 'PD003';
END
$fn$;

CREATE TRIGGER journal_before_insert BEFORE INSERT ON paydesk.journal
  FOR EACH ROW EXECUTE FUNCTION paydesk.journal_before_insert();
CREATE TRIGGER journal_before_update BEFORE UPDATE ON paydesk.journal
  FOR EACH ROW EXECUTE FUNCTION paydesk.journal_before_update();
CREATE TRIGGER journal_no_delete BEFORE DELETE ON paydesk.journal
  FOR EACH ROW EXECUTE FUNCTION paydesk.refuse_removal();
CREATE TRIGGER journal_no_truncate BEFORE TRUNCATE ON paydesk.journal
  FOR EACH STATEMENT EXECUTE FUNCTION paydesk.refuse_removal();

ALTER TABLE paydesk.journal ENABLE ROW LEVEL SECURITY;
CREATE POLICY journal_read ON paydesk.journal FOR SELECT
  TO paydesk_support, paydesk_finance, paydesk_admin USING (true);
CREATE POLICY journal_write ON paydesk.journal FOR INSERT
  TO paydesk_finance WITH CHECK (operator = session_user AND state = 'sending');
CREATE POLICY journal_settle ON paydesk.journal FOR UPDATE
  TO paydesk_finance USING (true) WITH CHECK (true);

GRANT SELECT ON paydesk.journal TO paydesk_support, paydesk_finance, paydesk_admin;
GRANT INSERT (client_orderid, profile_id, desk, operator, operation, target_orderid, target_client_orderid,
  amount_minor, currency, reason, note, email, summary, lease_owner, lease_until, action, changed_elsewhere) ON paydesk.journal TO paydesk_finance;
GRANT UPDATE (state, status, orderid, error_code, error_message, lease_owner, lease_until, settled_by, settle_reason,
  result)
  ON paydesk.journal TO paydesk_finance;

-- Every answer an entry got, in the order it came (id): the request's own answer, each status
-- reply, each error, a person's settling by hand. Never changed, never removed.
CREATE TABLE paydesk.journal_answers (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  journal_id    bigint NOT NULL REFERENCES paydesk.journal (id),
  kind          text NOT NULL CHECK (kind IN ('answer', 'status', 'error', 'by-hand')),
  state         text NOT NULL CHECK (state IN (${STATES})),
  status        text,
  fields        jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(fields) = 'object'),
  error_code    text,
  error_message text,
  desk          text NOT NULL CHECK (desk <> ''),
  recorded_by   text NOT NULL DEFAULT session_user,
  received_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX journal_answers_entry ON paydesk.journal_answers (journal_id, id);

CREATE FUNCTION paydesk.journal_answers_before_insert() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog AS $fn$
BEGIN
  IF NEW.recorded_by IS DISTINCT FROM session_user THEN
    RAISE EXCEPTION 'An answer is recorded by the login that writes it (%), not %.',
      session_user, NEW.recorded_by USING ERRCODE = '42501';
  END IF;
  NEW.received_at := now();
  RETURN NEW;
END
$fn$;
CREATE FUNCTION paydesk.refuse_rewrite() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog AS $fn$
BEGIN
  RAISE EXCEPTION '% is an audit trail: a recorded row is never changed.', TG_TABLE_NAME USING ERRCODE = 'PD002';
END
$fn$;
CREATE TRIGGER journal_answers_before_insert BEFORE INSERT ON paydesk.journal_answers
  FOR EACH ROW EXECUTE FUNCTION paydesk.journal_answers_before_insert();
CREATE TRIGGER journal_answers_no_update BEFORE UPDATE ON paydesk.journal_answers
  FOR EACH ROW EXECUTE FUNCTION paydesk.refuse_rewrite();
CREATE TRIGGER journal_answers_no_delete BEFORE DELETE ON paydesk.journal_answers
  FOR EACH ROW EXECUTE FUNCTION paydesk.refuse_removal();
CREATE TRIGGER journal_answers_no_truncate BEFORE TRUNCATE ON paydesk.journal_answers
  FOR EACH STATEMENT EXECUTE FUNCTION paydesk.refuse_removal();

ALTER TABLE paydesk.journal_answers ENABLE ROW LEVEL SECURITY;
CREATE POLICY journal_answers_read ON paydesk.journal_answers FOR SELECT
  TO paydesk_support, paydesk_finance, paydesk_admin USING (true);
CREATE POLICY journal_answers_write ON paydesk.journal_answers FOR INSERT
  TO paydesk_finance WITH CHECK (recorded_by = session_user);

GRANT SELECT ON paydesk.journal_answers TO paydesk_support, paydesk_finance, paydesk_admin;
GRANT INSERT (journal_id, kind, state, status, fields, error_code, error_message, desk, recorded_by)
  ON paydesk.journal_answers TO paydesk_finance;
`,
  },
  {
    version: 2,
    description: "the one-time upload of a desk's local journal, with what the desk recorded",
    sql: `
-- A desk moving from its SQLite journal to the team's uploads its settled entries once
-- (docs/team.md, "Uploading a desk's journal"). An uploaded entry's operator is, like every
-- entry's, the login that wrote it, here the uploader: the database's word. What the desk itself
-- recorded is kept apart: recorded_operator (the desk's operator, "recorded on the desk as") and
-- recorded_settled_by (who settled it by hand there). uploaded_at marks the entry as uploaded.
ALTER TABLE paydesk.journal
  ADD COLUMN recorded_operator   text,
  ADD COLUMN recorded_settled_by text,
  ADD COLUMN uploaded_at         timestamptz;
ALTER TABLE paydesk.journal ADD CONSTRAINT journal_uploaded_recorded
  CHECK ((uploaded_at IS NULL) = (recorded_operator IS NULL));
CREATE INDEX journal_uploaded ON paydesk.journal (desk, uploaded_at) WHERE uploaded_at IS NOT NULL;

-- The insert rule of migration 1, plus one door for uploaded entries: only the upload function
-- below (running as the schema's owner) writes one, and only a settled one (final or refused,
-- as it was on the desk, with the desk's times). Everything else still starts as 'sending'.
CREATE OR REPLACE FUNCTION paydesk.journal_before_insert() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog AS $fn$
BEGIN
  IF NEW.operator IS DISTINCT FROM session_user THEN
    RAISE EXCEPTION 'The operator of a journal entry is the login that writes it (%), not %.',
      session_user, NEW.operator USING ERRCODE = '42501';
  END IF;
  IF num_nonnulls(NEW.uploaded_at, NEW.recorded_operator, NEW.recorded_settled_by) > 0 THEN
    IF current_user IS DISTINCT FROM
       (SELECT pg_get_userbyid(n.nspowner) FROM pg_namespace n WHERE n.nspname = 'paydesk') THEN
      RAISE EXCEPTION 'An uploaded journal entry is written only by paydesk.upload_local_entries.'
        USING ERRCODE = '42501';
    END IF;
    IF NEW.state NOT IN ('final', 'refused') THEN
      RAISE EXCEPTION 'Only a settled entry (final or refused) is uploaded; % is %.',
        NEW.client_orderid, NEW.state USING ERRCODE = 'PD001';
    END IF;
    NEW.uploaded_at := now();
    NEW.lease_owner := NULL;
    NEW.lease_until := NULL;
    RETURN NEW;
  END IF;
  IF NEW.state <> 'sending' THEN
    RAISE EXCEPTION 'A journal entry is written before its request is sent: it starts as sending, not %.',
      NEW.state USING ERRCODE = 'PD001';
  END IF;
  IF num_nonnulls(NEW.orderid, NEW.status, NEW.error_code, NEW.error_message, NEW.final_at,
                  NEW.settled_by, NEW.settle_reason) > 0 THEN
    RAISE EXCEPTION 'A new journal entry has no answer yet (orderid, status, error, final_at, settled_by are set by its answers).'
      USING ERRCODE = 'PD001';
  END IF;
  NEW.created_at := now();
  NEW.updated_at := now();
  NEW.sent_at := now();
  RETURN NEW;
END
$fn$;

-- Uploads a batch of a desk's settled entries in one transaction; the desk calls it in batches,
-- so a crash loses at most the batch in hand, and a second run skips what is there. Each entry
-- is a JSON object of the SQLite journal's columns (amount_minor as a string: exact). The
-- caller's word is taken for what the desk recorded, never for who uploads: operator is
-- session_user, and the desk's operator goes to recorded_operator. Returns, per entry,
-- 'uploaded', 'present' (uploaded before from this desk) or 'clash' (the id is another entry's).
-- SECURITY DEFINER: it runs as the schema's owner, past the column grants, so it checks its
-- caller itself (finance or admin) and writes only settled entries.
CREATE FUNCTION paydesk.upload_local_entries(p_desk text, p_entries jsonb)
RETURNS TABLE (entry text, outcome text)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog AS $fn$
DECLARE
  e jsonb;
  v_id text;
  written integer;
  found_desk text;
  found_uploaded timestamptz;
BEGIN
  IF NOT (pg_has_role(session_user, 'paydesk_finance', 'MEMBER')
          OR pg_has_role(session_user, 'paydesk_admin', 'MEMBER')) THEN
    RAISE EXCEPTION 'Only a finance or admin login uploads a desk''s journal; % is neither.', session_user
      USING ERRCODE = '42501';
  END IF;
  IF coalesce(p_desk, '') = '' THEN
    RAISE EXCEPTION 'Name the desk whose journal this is.' USING ERRCODE = '22023';
  END IF;
  IF jsonb_typeof(p_entries) IS DISTINCT FROM 'array' THEN
    RAISE EXCEPTION 'The entries to upload are a JSON array.' USING ERRCODE = '22023';
  END IF;
  FOR e IN SELECT value FROM jsonb_array_elements(p_entries) LOOP
    v_id := e ->> 'client_orderid';
    IF coalesce(e ->> 'operator', '') = '' THEN
      RAISE EXCEPTION 'Entry % has no operator recorded on the desk.', v_id USING ERRCODE = '22023';
    END IF;
    INSERT INTO paydesk.journal AS j (
      client_orderid, profile_id, desk, operator, recorded_operator, operation, target_orderid,
      target_client_orderid, action, changed_elsewhere, orderid, amount_minor, currency, reason,
      note, email, summary, state, status, error_code, error_message, created_at, updated_at,
      final_at, sent_at, settled_by, recorded_settled_by, settle_reason, result, uploaded_at)
    VALUES (
      v_id, e ->> 'profile_id', p_desk, session_user, e ->> 'operator', e ->> 'operation',
      e ->> 'target_orderid', e ->> 'target_client_orderid', e ->> 'action',
      coalesce((e ->> 'changed_elsewhere')::boolean, false), e ->> 'orderid',
      (e ->> 'amount_minor')::bigint, e ->> 'currency', e ->> 'reason', e ->> 'note', e ->> 'email',
      coalesce(e -> 'summary', '{}'), e ->> 'state', e ->> 'status', e ->> 'error_code',
      e ->> 'error_message', (e ->> 'created_at')::timestamptz,
      coalesce((e ->> 'updated_at')::timestamptz, (e ->> 'created_at')::timestamptz),
      (e ->> 'final_at')::timestamptz, (e ->> 'sent_at')::timestamptz,
      CASE WHEN e ->> 'settled_by' IS NOT NULL THEN session_user END, e ->> 'settled_by',
      CASE WHEN e ->> 'settled_by' IS NOT NULL
           THEN coalesce(e ->> 'settle_reason', 'settled by hand on the desk') END,
      coalesce(e -> 'result', '{}'), now())
    ON CONFLICT (client_orderid) DO NOTHING;
    GET DIAGNOSTICS written = ROW_COUNT;
    entry := v_id;
    IF written = 1 THEN
      outcome := 'uploaded';
    ELSE
      SELECT j.desk, j.uploaded_at INTO found_desk, found_uploaded
        FROM paydesk.journal j WHERE j.client_orderid = v_id;
      outcome := CASE WHEN found_uploaded IS NOT NULL AND found_desk = p_desk THEN 'present' ELSE 'clash' END;
    END IF;
    RETURN NEXT;
  END LOOP;
END
$fn$;
REVOKE ALL ON FUNCTION paydesk.upload_local_entries(text, jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION paydesk.upload_local_entries(text, jsonb) TO paydesk_finance, paydesk_admin;
`,
  },
  { version: 3, description: MIGRATION_3_DESCRIPTION, sql: MIGRATION_3_SQL },
  { version: 4, description: MIGRATION_4_DESCRIPTION, sql: MIGRATION_4_SQL },
  { version: 5, description: MIGRATION_5_DESCRIPTION, sql: MIGRATION_5_SQL },
  {
    // The daily close (store/postgres/reports.ts): the entries of a range of days by their
    // written-at time, including every column the summary reads (an index-only scan).
    version: 6,
    description: 'the daily close: the journal by written-at time, with what the summary reads',
    sql: `
CREATE INDEX journal_report ON paydesk.journal (created_at)
  INCLUDE (action, profile_id, currency, operator, state, status, amount_minor);
`,
  },
];
