// Team schema migrations 3 and 4: the desks' rules for closing an entry, and four eyes on
// two-step payouts, held by the database for anyone connected with a team login, whatever client
// they use (psql included). Kept apart from migrations.ts only for length; they are of
// PG_MIGRATIONS and, like them, never edited once shipped.
//
// What migrations 1 and 2 left open to a finance login with plain SQL, and how it is closed:
// - an entry closed without a trace (`UPDATE ... SET state = 'refused'` on another desk's
//   refund): every change of an entry's state, status or settler must come with its answer
//   row (paydesk.journal_answers) recorded in the same transaction by the same login, matching
//   what the entry became. A deferred constraint trigger checks it at COMMIT, after the desks'
//   own order (UPDATE, then INSERT of the answer);
// - "not received" before the quarantine: the gateway may still be processing the request, so
//   an entry is refused as NOT_RECEIVED only once paydesk.rules' quarantine has passed since it
//   may have left (sent_at). Settling by hand stays possible at any time, with the person's
//   login and reason on it;
// - another desk's refusal: "the gateway refused it" and "it never left" are known only to the
//   desk that sent the request, so only the entry's operator records them; any other login
//   closes an entry by the gateway's status, as not received after the quarantine, or by hand;
// - an answer under a closed entry: answers are taken only while the entry is open, plus the
//   one answer that records the change made to it in the same transaction;
// - another desk's lease: the lease fields change only by the login that holds the lease
//   (lease_holder, the server's word) or once it has run out;
// - a closed entry's result rewritten: it may only gain what it lacked.
// SQLSTATEs: PD004 (too early: the quarantine), PD005 (a change without its answer), plus
// migration 1's PD001 and 42501.

export const MIGRATION_3_DESCRIPTION =
  "closing an entry only by the desks' rules: its answer, the quarantine, leases by their holder";

export const MIGRATION_3_SQL = `
-- The team's rules the database applies, one row, set by the DBA (the schema's owner):
--   UPDATE paydesk.rules SET quarantine = interval '2 hours';
-- quarantine: how long after a request may have left before "the gateway has no record of it"
-- may close it as not received. Keep it equal to the desks' (Paydesk's default: 1 hour).
CREATE TABLE paydesk.rules (
  only_row   boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  quarantine interval NOT NULL DEFAULT interval '1 hour' CHECK (quarantine >= interval '0')
);
INSERT INTO paydesk.rules DEFAULT VALUES;
GRANT SELECT ON paydesk.rules TO paydesk_support, paydesk_finance, paydesk_admin;

-- Who holds an entry's lease: the login that set it (the lease_owner text names a desk process,
-- which only the desk can vouch for). Set by the triggers only; no login has a grant on it.
ALTER TABLE paydesk.journal ADD COLUMN lease_holder text;
UPDATE paydesk.journal SET lease_holder = operator WHERE lease_owner IS NOT NULL;

CREATE FUNCTION paydesk.journal_lease_holder() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog AS $fn$
BEGIN
  NEW.lease_holder := CASE WHEN NEW.lease_owner IS NULL THEN NULL ELSE session_user END;
  RETURN NEW;
END
$fn$;
-- After journal_before_insert (triggers fire by name), which clears an uploaded entry's lease.
CREATE TRIGGER journal_lease_holder BEFORE INSERT ON paydesk.journal
  FOR EACH ROW EXECUTE FUNCTION paydesk.journal_lease_holder();

-- Migration 1's rules (forward only, what was sent is frozen, a settler by hand is the login
-- that does it), plus the desks' rules for leaving flight, leases and closed entries.
CREATE OR REPLACE FUNCTION paydesk.journal_before_update() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog AS $fn$
DECLARE
  changed text;
  quarantine_end timestamptz;
  lease_changed boolean := (NEW.lease_owner, NEW.lease_until) IS DISTINCT FROM (OLD.lease_owner, OLD.lease_until);
BEGIN
  SELECT string_agg(n.key, ', ' ORDER BY n.key) INTO changed
    FROM jsonb_each(to_jsonb(NEW)) AS n
   WHERE n.key <> ALL (ARRAY['state', 'status', 'orderid', 'error_code', 'error_message', 'updated_at', 'final_at',
                             'lease_owner', 'lease_until', 'lease_holder', 'settled_by', 'settle_reason', 'result'])
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
  IF OLD.state IN ('final', 'refused') AND NOT (NEW.result @> OLD.result) THEN
    RAISE EXCEPTION 'Journal entry % is %: its result may only gain what it lacked.', OLD.client_orderid, OLD.state
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
  IF NEW.settled_by IS NOT NULL AND OLD.settled_by IS NULL THEN
    IF NEW.state NOT IN ('final', 'refused') THEN
      RAISE EXCEPTION 'Settling journal entry % by hand makes it final or refused.', OLD.client_orderid
        USING ERRCODE = 'PD001';
    END IF;
    IF btrim(coalesce(NEW.settle_reason, '')) = '' THEN
      RAISE EXCEPTION 'Settling journal entry % by hand needs a reason.', OLD.client_orderid
        USING ERRCODE = 'PD001';
    END IF;
  END IF;
  -- Refused by the gateway's answer, not by hand: "not received" after the quarantine, anything
  -- else ("refused by the gateway", "never left") only by the login that sent it.
  IF NEW.state = 'refused' AND OLD.state <> 'refused' AND NEW.settled_by IS NULL THEN
    IF NEW.error_code IS NOT DISTINCT FROM 'NOT_RECEIVED' THEN
      SELECT coalesce(OLD.sent_at, OLD.created_at) + r.quarantine INTO quarantine_end FROM paydesk.rules r;
      IF quarantine_end IS NULL OR now() < quarantine_end THEN
        RAISE EXCEPTION 'Journal entry % may still be processed by the gateway: it can be closed as not received only after its quarantine, at % (the team database''s clock). Until then it stays pending; settle it by hand if you know better.',
          OLD.client_orderid, to_char(quarantine_end AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS "UTC"')
          USING ERRCODE = 'PD004';
      END IF;
    ELSIF OLD.operator IS DISTINCT FROM session_user THEN
      RAISE EXCEPTION 'Only the login that sent journal entry % (%) learns that the gateway refused it or that it never left; % may settle it by the gateway''s status, as not received after its quarantine, or by hand with a reason.',
        OLD.client_orderid, OLD.operator, session_user USING ERRCODE = '42501';
    END IF;
  END IF;
  IF lease_changed AND NEW.state = OLD.state THEN
    IF OLD.lease_owner IS NOT NULL AND OLD.lease_until > now() AND OLD.lease_holder IS DISTINCT FROM session_user THEN
      RAISE EXCEPTION 'Journal entry % is being sent by % (login %) until %; only that login changes its lease until then.',
        OLD.client_orderid, OLD.lease_owner, coalesce(OLD.lease_holder, 'unknown'),
        to_char(OLD.lease_until AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS "UTC"')
        USING ERRCODE = '42501';
    END IF;
    IF NEW.lease_owner IS NOT NULL AND NEW.state <> 'sending' THEN
      RAISE EXCEPTION 'Journal entry % is %: only an entry being sent has a lease.', OLD.client_orderid, OLD.state
        USING ERRCODE = 'PD001';
    END IF;
  END IF;
  NEW.updated_at := now();
  NEW.final_at := CASE WHEN OLD.state IN ('final', 'refused') THEN OLD.final_at
                       WHEN NEW.state IN ('final', 'refused') THEN now() END;
  -- Leaving 'sending' ends the lease: nobody is sending it any more.
  IF NEW.state <> OLD.state AND NEW.state <> 'sending' THEN
    NEW.lease_owner := NULL;
    NEW.lease_until := NULL;
  END IF;
  NEW.lease_holder := CASE WHEN NEW.lease_owner IS NULL THEN NULL
                           WHEN lease_changed THEN session_user
                           ELSE OLD.lease_holder END;
  RETURN NEW;
END
$fn$;

-- Every change of an entry's state, status or settler comes with its answer: a row of
-- journal_answers for this entry, written in the same transaction by the same login, saying
-- what the entry became (a settling by hand as 'by-hand', anything else as the gateway's).
-- Checked at COMMIT, so the desks' order (the entry, then its answer) passes.
CREATE FUNCTION paydesk.journal_require_answer() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog AS $fn$
DECLARE
  by_hand boolean := NEW.settled_by IS NOT NULL AND OLD.settled_by IS NULL;
BEGIN
  IF NOT EXISTS (
    SELECT 1 FROM paydesk.journal_answers a
     WHERE a.journal_id = NEW.id
       AND a.recorded_by = session_user
       AND a.received_at = now()
       AND a.state = NEW.state
       AND a.status IS NOT DISTINCT FROM NEW.status
       AND (a.kind = 'by-hand') = by_hand
       AND (NEW.state <> 'refused' OR a.error_code IS NOT DISTINCT FROM NEW.error_code)) THEN
    RAISE EXCEPTION 'Journal entry % became % without its answer: record in paydesk.journal_answers, in the same transaction and as the same login, the gateway''s answer (or your settling by hand, kind by-hand) that made it so.',
      NEW.client_orderid, NEW.state || coalesce(' (' || NEW.status || ')', '')
      USING ERRCODE = 'PD005';
  END IF;
  RETURN NULL;
END
$fn$;
CREATE CONSTRAINT TRIGGER journal_answered AFTER UPDATE ON paydesk.journal
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.state IS DISTINCT FROM NEW.state OR OLD.status IS DISTINCT FROM NEW.status
        OR OLD.settled_by IS DISTINCT FROM NEW.settled_by)
  EXECUTE FUNCTION paydesk.journal_require_answer();

-- An answer is recorded by the login that writes it, says the state its entry is in, and goes
-- only under an open entry, or under one closed (or changed) by this same transaction.
CREATE OR REPLACE FUNCTION paydesk.journal_answers_before_insert() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog AS $fn$
DECLARE
  entry record;
BEGIN
  IF NEW.recorded_by IS DISTINCT FROM session_user THEN
    RAISE EXCEPTION 'An answer is recorded by the login that writes it (%), not %.',
      session_user, NEW.recorded_by USING ERRCODE = '42501';
  END IF;
  SELECT j.client_orderid, j.state, j.status, j.updated_at, j.settled_by INTO entry
    FROM paydesk.journal j WHERE j.id = NEW.journal_id FOR SHARE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'No journal entry has the id %.', NEW.journal_id USING ERRCODE = '23503';
  END IF;
  IF entry.state IN ('final', 'refused') AND entry.updated_at <> now() THEN
    RAISE EXCEPTION 'Journal entry % is % and takes no more answers.', entry.client_orderid,
      entry.state || coalesce(' (' || entry.status || ')', '') USING ERRCODE = 'PD001';
  END IF;
  IF (NEW.state, NEW.status) IS DISTINCT FROM (entry.state, entry.status) THEN
    RAISE EXCEPTION 'An answer records what its entry became: journal entry % is %, not %. Change the entry and record its answer in one transaction.',
      entry.client_orderid, entry.state || coalesce(' (' || entry.status || ')', ''),
      NEW.state || coalesce(' (' || NEW.status || ')', '') USING ERRCODE = 'PD001';
  END IF;
  IF NEW.kind = 'by-hand' AND (entry.settled_by IS DISTINCT FROM session_user OR entry.updated_at <> now()) THEN
    RAISE EXCEPTION 'A settling by hand is recorded with the settling itself, by the login that settles journal entry %.',
      entry.client_orderid USING ERRCODE = '42501';
  END IF;
  NEW.received_at := now();
  RETURN NEW;
END
$fn$;
`;

export const MIGRATION_4_DESCRIPTION =
  'four eyes on two-step payouts: paid by someone other than who checked it';

// The per-profile rule, on the shared profile an admin edits; the journal refuses, for anyone,
// a pay of a payout whose check the same login wrote (PD006). A check made outside Paydesk has
// no entry to compare with, and is not refused here.
export const MIGRATION_4_SQL = `
ALTER TABLE paydesk.profiles ADD COLUMN payout_four_eyes boolean NOT NULL DEFAULT false;

CREATE FUNCTION paydesk.journal_four_eyes() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog AS $fn$
DECLARE
  profile_name text;
  checked_by text;
BEGIN
  SELECT p.name INTO profile_name FROM paydesk.profiles p
   WHERE p.id = NEW.profile_id AND p.payout_four_eyes;
  IF NOT FOUND THEN
    RETURN NEW;
  END IF;
  SELECT c.operator INTO checked_by FROM paydesk.journal c
   WHERE c.profile_id = NEW.profile_id AND c.operation = 'PAYOUT_V4_CHECK' AND c.orderid = NEW.target_orderid
   ORDER BY c.id LIMIT 1;
  IF checked_by IS NOT DISTINCT FROM session_user THEN
    RAISE EXCEPTION 'You (%) checked this payout, and the profile "%" wants payouts paid by someone other than who checked them. Ask another finance colleague to pay it.',
      session_user, profile_name USING ERRCODE = 'PD006';
  END IF;
  RETURN NEW;
END
$fn$;
CREATE TRIGGER journal_four_eyes BEFORE INSERT ON paydesk.journal
  FOR EACH ROW WHEN (NEW.operation = 'PAYOUT_V4_PAY')
  EXECUTE FUNCTION paydesk.journal_four_eyes();
`;
