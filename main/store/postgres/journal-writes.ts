// The team journal's writes in SQL, on a connection the caller (journal.ts) already holds under
// the order's advisory lock: the write-ahead INSERT of a new entry, and a move of an entry's state
// decided by the state machine (../journal/rules.ts) on its locked row, with the change kept in
// paydesk.journal_answers. Apart from the class so that what each write sends to PostgreSQL reads
// in one place; taking the lock and mapping errors stay with the class.

import type pg from 'pg';

import { JournalError, type JournalEntry } from '../journal/types';
import { illegalMove, refuseCardData, type Rule } from '../journal/rules';
import type { NewJournalEntry } from '../journal/port';
import { entryOfRow, type JournalRow } from '../journal/row';
import { cardLastFourOf, redactFields } from '../journal/redact';

/** What journal_answers calls each kind of change. */
export type AnswerKind = 'answer' | 'error' | 'by-hand';

/** The write-ahead INSERT of `entry`, stored with this `desk`'s name. */
export async function insertEntry(
  client: pg.ClientBase,
  desk: string,
  entry: NewJournalEntry,
): Promise<JournalEntry> {
  refuseCardData(entry);
  try {
    const { rows } = await client.query<JournalRow>(
      `INSERT INTO paydesk.journal (client_orderid, profile_id, desk, operation, target_orderid,
         amount_minor, currency, reason, note, email, summary, lease_owner, lease_until,
         target_client_orderid, action, changed_elsewhere, card_last_four)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
       RETURNING *`,
      [
        entry.clientOrderId,
        entry.profileId,
        desk,
        entry.operation,
        entry.targetOrderId ?? null,
        entry.amountMinor === undefined ? null : entry.amountMinor.toString(),
        entry.currency ?? null,
        entry.reason ?? null,
        entry.note ?? null,
        entry.email ?? null,
        JSON.stringify(redactFields(entry.fields)),
        entry.lease?.owner ?? null,
        entry.lease?.until ?? null,
        entry.targetClientOrderId ?? null,
        entry.action ?? null,
        entry.changedElsewhere ?? false,
        cardLastFourOf(entry.cardLastFour, entry.fields),
      ],
    );
    return entryOfRow(rows[0] as JournalRow);
  } catch (error) {
    const e = error as { code?: string; constraint?: string };
    if (e.code === '23505' && e.constraint === 'journal_client_orderid_key') {
      throw new JournalError(
        `client_orderid ${entry.clientOrderId} is already in the journal; every operation needs a fresh one.`,
      );
    }
    throw error;
  }
}

/**
 * Reads the entry with its row locked, decides by `rule`, writes, and records the change in
 * journal_answers with this `desk`'s name. The database's triggers check the move again.
 */
export async function applyRule(
  c: pg.ClientBase,
  desk: string,
  clientOrderId: string,
  rule: Rule,
  kind: AnswerKind,
  fields: Record<string, string>,
): Promise<JournalEntry> {
  const { rows } = await c.query<JournalRow>(
    'SELECT * FROM paydesk.journal WHERE client_orderid = $1 FOR UPDATE',
    [clientOrderId],
  );
  const current = entryOfRow(rows[0] as JournalRow);
  const set = rule.decide(current);
  if (set === 'same') return current;
  if (set === 'illegal') throw illegalMove(clientOrderId, current, rule.to);
  // COALESCE keeps an orderid learned earlier when a later answer does not repeat it;
  // settled_by is the login, whatever the desk said.
  const values: unknown[] = [clientOrderId];
  const assignments = Object.entries(set).map(([column, value]) => {
    if (column === 'settled_by') return 'settled_by = session_user';
    values.push(value);
    if (column === 'result') return `result = $${values.length}::jsonb`;
    return column === 'orderid'
      ? `orderid = COALESCE($${values.length}, orderid)`
      : `${column} = $${values.length}`;
  });
  const updated = await c.query<JournalRow>(
    `UPDATE paydesk.journal SET ${assignments.join(', ')} WHERE client_orderid = $1 RETURNING *`,
    values,
  );
  const after = updated.rows[0] as JournalRow;
  await c.query(
    `INSERT INTO paydesk.journal_answers (journal_id, kind, state, status, fields, error_code,
       error_message, desk) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      after.id,
      kind,
      after.state,
      after.status,
      JSON.stringify({
        ...fields,
        ...(after.settle_reason ? { reason: after.settle_reason } : {}),
      }),
      set.error_code ?? null,
      set.error_message ?? null,
      desk,
    ],
  );
  return entryOfRow(after);
}

/** Runs `work` in a bare transaction (a write with no order to lock). */
export async function transaction<T>(
  client: pg.ClientBase,
  work: (client: pg.ClientBase) => Promise<T>,
): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
