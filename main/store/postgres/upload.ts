// Uploading a desk's settled journal entries to the team's journal through
// paydesk.upload_local_entries (migration 2), one batch per transaction: a crash or a lost
// connection loses at most the batch in hand, and the next run skips what is there. The function
// is the only way an uploaded entry gets in; it names the uploader (session_user) as operator
// whatever the batch says, and keeps the desk's operator apart as recorded_operator.

import type pg from 'pg';

import { toTeamError } from './errors';

/** One entry as the SQLite journal holds it, with its profile already the shared one. */
export interface UploadEntry {
  client_orderid: string;
  profile_id: string;
  /** The desk's operator: kept as "recorded on the desk as", never as the operator. */
  operator: string;
  operation: string;
  target_orderid: string | null;
  target_client_orderid: string | null;
  action: string | null;
  changed_elsewhere: boolean;
  orderid: string | null;
  /** Minor units as a decimal string: exact, whatever its size. */
  amount_minor: string | null;
  currency: string | null;
  reason: string | null;
  note: string | null;
  email: string | null;
  summary: Record<string, string>;
  state: 'final' | 'refused';
  status: string | null;
  error_code: string | null;
  error_message: string | null;
  created_at: string;
  updated_at: string;
  final_at: string | null;
  sent_at: string | null;
  settled_by: string | null;
  settle_reason: string | null;
  result: Record<string, string>;
}

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
