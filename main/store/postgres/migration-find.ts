// Team migration 5: the Journal screen finds an entry by what a clerk has in hand, as the desk's
// SQLite migration 13 does (main/store/journal/filter.ts says what each search means). Kept
// apart from migrations.ts, which is long already; like every migration, never edited once
// shipped.
//
// - card_last_four: the card's last four digits, written with the entry (the order's status
//   read before acting, or the card number the request carries). Frozen like everything sent:
//   journal_before_update lists only the answer's columns as changeable. Entries written before
//   get them where their summary holds a card number; the trigger is set aside for that one
//   UPDATE, which changes nothing else. paydesk.upload_local_entries is migration 2's with the
//   column added, so an entry uploaded from a desk's journal keeps its last four too.
// - Indexes: the last four, the amount, and each id's prefix (text_pattern_ops: LIKE 'abc%'
//   uses it whatever the database's collation; a plain index serves it only under "C").

export const MIGRATION_5_DESCRIPTION =
  "the journal's search by card, amount and the start of an id";

export const MIGRATION_5_SQL = `
ALTER TABLE paydesk.journal ADD COLUMN card_last_four text
  CHECK (card_last_four IS NULL OR card_last_four ~ '^[0-9]{4}$');
GRANT INSERT (card_last_four) ON paydesk.journal TO paydesk_finance;

ALTER TABLE paydesk.journal DISABLE TRIGGER journal_before_update;
UPDATE paydesk.journal
   SET card_last_four = right(coalesce(summary ->> 'credit_card_number', summary ->> 'destination-card-no'), 4)
 WHERE coalesce(summary ->> 'credit_card_number', summary ->> 'destination-card-no') ~ '^[0-9*]{8,}[0-9]{4}$';
ALTER TABLE paydesk.journal ENABLE TRIGGER journal_before_update;

-- Migration 2's upload, which also keeps an uploaded entry's card_last_four (four digits or none).
CREATE OR REPLACE FUNCTION paydesk.upload_local_entries(p_desk text, p_entries jsonb)
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
      final_at, sent_at, settled_by, recorded_settled_by, settle_reason, result, uploaded_at,
      card_last_four)
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
      coalesce(e -> 'result', '{}'), now(),
      CASE WHEN e ->> 'card_last_four' ~ '^[0-9]{4}$' THEN e ->> 'card_last_four' END)
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

CREATE INDEX journal_card_last_four ON paydesk.journal (card_last_four);
CREATE INDEX journal_amount ON paydesk.journal (amount_minor);
CREATE INDEX journal_orderid_prefix ON paydesk.journal (orderid text_pattern_ops);
CREATE INDEX journal_target_prefix ON paydesk.journal (target_orderid text_pattern_ops);
CREATE INDEX journal_client_orderid_prefix ON paydesk.journal (client_orderid text_pattern_ops);
CREATE INDEX journal_target_client_prefix ON paydesk.journal (target_client_orderid text_pattern_ops);
`;
