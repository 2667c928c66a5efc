// Uploading a desk's settled journal entries to the team's journal through
// paydesk.upload_local_entries (migration 2), one batch per transaction: a crash or a lost
// connection loses at most the batch in hand, and the next run skips what is there. The function
// is the only way an uploaded entry gets in; it names the uploader (session_user) as operator
// whatever the batch says, and keeps the desk's operator apart as recorded_operator.

import type pg from 'pg';

import type { EntryColumns } from '../journal/row';
import { toTeamError } from './errors';

/**
 * One settled entry as the desk's journal holds it (journal-row.ts), with its profile already the
 * shared one; its operator is kept as "recorded on the desk as", never as the operator.
 */
export type UploadEntry = EntryColumns & { state: 'final' | 'refused' };

export type UploadOutcome = 'uploaded' | 'present' | 'clash';

export async function uploadBatch(
  pool: pg.Pool,
  where: string,
  desk: string,
  entries: readonly UploadEntry[],
): Promise<{ entry: string; outcome: UploadOutcome }[]> {
  try {
    const { rows } = await pool.query<{ entry: string; outcome: UploadOutcome }>(
      'SELECT entry, outcome FROM paydesk.upload_local_entries($1, $2::jsonb)',
      [desk, JSON.stringify(entries)],
    );
    return rows;
  } catch (error) {
    throw toTeamError(error, where);
  }
}
