// Team migration 5: the Journal screen finds an entry by what a clerk has in hand, as the desk's
// SQLite migration 13 does (main/store/journal/filter.ts says what each search means). Kept
// apart from migrations.ts, which is long already; like every migration, never edited once
// shipped.
//
// - card_last_four: the card's last four digits, written with the entry (the order's status
//   read before acting, or the card number the request carries). Frozen like everything sent:
//   journal_before_update lists only the answer's columns as changeable. Entries written before
//   get them where their summary holds a card number; the trigger is set aside for that one
//   UPDATE, which changes nothing else. Entries uploaded from a desk's journal do not carry
//   them (paydesk.upload_local_entries names its columns).
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

CREATE INDEX journal_card_last_four ON paydesk.journal (card_last_four);
CREATE INDEX journal_amount ON paydesk.journal (amount_minor);
CREATE INDEX journal_orderid_prefix ON paydesk.journal (orderid text_pattern_ops);
CREATE INDEX journal_target_prefix ON paydesk.journal (target_orderid text_pattern_ops);
CREATE INDEX journal_client_orderid_prefix ON paydesk.journal (client_orderid text_pattern_ops);
CREATE INDEX journal_target_client_prefix ON paydesk.journal (target_client_orderid text_pattern_ops);
`;
