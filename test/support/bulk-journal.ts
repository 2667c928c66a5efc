// A large journal written straight into the desk's SQLite by one INSERT ... SELECT (a million
// entries through the app would take minutes): approved refunds of the same profile, entry i
// one minute after entry i - 1 from BULK_START, named bulk-0000000, bulk-0000001, ... Used where
// the size of the journal is what is tested or measured (the 1,000,000-entry list, backups of a
// large journal, the first-render bench row), so all of them measure the same journal.

import type Database from 'better-sqlite3';

/** When entry 0 was written. */
export const BULK_START = Date.parse('2024-01-01T00:00:00Z');

/** Entry i's client_orderid. */
export const bulkRef = (i: number): string => `bulk-${String(i).padStart(7, '0')}`;

/** Writes `entries` bulk entries of `profileId` into the journal of `db`. */
export function fillBulkJournal(db: Database.Database, profileId: string, entries: number): void {
  db.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < @last)
     INSERT INTO journal (client_orderid, profile_id, operator, operation, target_orderid,
       orderid, amount_minor, currency, reason, email, summary, state, status, created_at,
       updated_at, final_at, action, target_client_orderid)
     SELECT printf('bulk-%07d', i), @profile, 'bulk-clerk', 'RETURN', CAST(5000000 + i AS TEXT),
       CAST(6000000 + i AS TEXT), 100 + i % 9000, 'EUR', 'Customer request',
       'c' || i || '@example.com', '{}', 'final', 'approved', t, t, t, 'refund',
       printf('shop-bulk-%07d', i)
     FROM (SELECT i, strftime('%Y-%m-%dT%H:%M:%fZ', @start + i * 60, 'unixepoch') AS t FROM n)`,
  ).run({ last: entries - 1, profile: profileId, start: BULK_START / 1000 });
}
