// The team journal's reads of one entry or one order: an entry by client_orderid, the entries
// acting on an order (what a claim decides on, under the order's lock), an order's page, what is
// still in flight, and an entry's history of changes from every desk. Queries by a filter (search,
// pages, totals) are journal-search.ts. Each read takes whatever runs the query, so the class
// (journal.ts) decides which connection and how errors are mapped.

import type pg from 'pg';

import type { JournalEntry } from '../journal/types';
import type { JournalStep } from '../journal/port';
import { IN_FLIGHT_SQL } from '../journal/filter';
import { entryOfRow, stepOfRow, type JournalRow, type StepRow } from '../journal/row';

/** A query on the pool whose failures come out as StoreError / JournalError (journal.ts). */
export type JournalQuery = <R extends pg.QueryResultRow>(
  text: string,
  values?: unknown[],
) => Promise<pg.QueryResult<R>>;

export async function readEntry(client: pg.ClientBase | pg.Pool, clientOrderId: string) {
  const { rows } = await client.query<JournalRow>(
    'SELECT * FROM paydesk.journal WHERE client_orderid = $1',
    [clientOrderId],
  );
  return rows[0] ? entryOfRow(rows[0]) : undefined;
}

export async function entriesForTarget(client: pg.ClientBase | pg.Pool, orderId: string) {
  const { rows } = await client.query<JournalRow>(
    'SELECT * FROM paydesk.journal WHERE target_orderid = $1 ORDER BY id',
    [orderId],
  );
  return rows.map(entryOfRow);
}

/** An order's page: what entriesForTarget reads, and the entry that made the order. */
export async function entriesOfOrder(client: pg.ClientBase | pg.Pool, orderId: string) {
  const { rows } = await client.query<JournalRow>(
    'SELECT * FROM paydesk.journal WHERE target_orderid = $1 OR orderid = $1 ORDER BY id',
    [orderId],
  );
  return rows.map(entryOfRow);
}

export async function inFlightEntries(
  query: JournalQuery,
  profileId?: string,
): Promise<JournalEntry[]> {
  const { rows } = await query<JournalRow>(
    `SELECT * FROM paydesk.journal WHERE ${IN_FLIGHT_SQL}
     ${profileId ? 'AND profile_id = $1' : ''} ORDER BY id`,
    profileId ? [profileId] : [],
  );
  return rows.map(entryOfRow);
}

/**
 * The write-ahead as the first step, then every change any desk recorded (journal_answers),
 * oldest first: the same steps the SQLite journal's history trigger keeps.
 */
export async function historyOf(
  query: JournalQuery,
  clientOrderId: string,
): Promise<JournalStep[]> {
  const { rows } = await query<StepRow & { at: Date }>(
    `SELECT 'sending' AS state, NULL AS status, NULL AS orderid, NULL AS error_code,
            NULL AS error_message, j.created_at AS at, 0 AS step, 0::bigint AS id
       FROM paydesk.journal j WHERE j.client_orderid = $1
     UNION ALL
     SELECT a.state, a.status, COALESCE(a.fields->>'orderid', j.orderid), a.error_code,
            a.error_message, a.received_at, 1, a.id
       FROM paydesk.journal_answers a JOIN paydesk.journal j ON j.id = a.journal_id
      WHERE j.client_orderid = $1
     ORDER BY step, id`,
    [clientOrderId],
  );
  return rows.map(stepOfRow);
}
