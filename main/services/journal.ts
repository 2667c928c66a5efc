// The journal as the Journal screen reads it: searched and paged, amounts as exact text, and
// exported to CSV. Nobody edits or deletes an entry from here. It reads the journal port, so the
// same screen works on the desk's SQLite and on a team's PostgreSQL (every desk's entries); on
// SQLite the export takes the adapter's fast path (raw rows to CSV text, journal-pages.ts).

import { formatMinor } from '../gateway/amount';
import { CSV_COLUMN_NAMES } from '../store/journal/csv';
import { csvLineWriter } from '../store/csv-record';
import type { JournalEntry, JournalFilter, JournalPort } from '../store/journal/port';
import { actionLabel } from '../../common/journal-actions';
import { ServiceError } from './errors';

/** Lines per chunk of a CSV export: about 190 KB, a few milliseconds of work. */
const EXPORT_BATCH = 1_000;

export interface ExportProgress {
  done: number;
  total: number;
}

export interface JournalRowView {
  id: number;
  createdAt: string;
  operator: string;
  profileId: string;
  operation: string;
  clientOrderId: string;
  orderId: string | null;
  targetOrderId: string | null;
  targetClientOrderId: string | null;
  action: string | null;
  actionLabel: string;
  amount: string | null;
  currency: string | null;
  reason: string | null;
  note: string | null;
  email: string | null;
  state: JournalEntry['state'];
  status: string | null;
  errorMessage: string | null;
  finalAt: string | null;
  result: Record<string, string>;
}

export function journalRowView(e: JournalEntry): JournalRowView {
  return {
    id: e.id,
    createdAt: e.createdAt,
    operator: e.operator,
    profileId: e.profileId,
    operation: e.operation,
    clientOrderId: e.clientOrderId,
    orderId: e.orderId,
    targetOrderId: e.targetOrderId,
    targetClientOrderId: e.targetClientOrderId,
    action: e.action,
    actionLabel: actionLabel(e.action, e.operation),
    amount: e.amountMinor === null ? null : formatMinor(e.amountMinor, e.currency),
    currency: e.currency,
    reason: e.reason,
    note: e.note,
    email: e.email,
    state: e.state,
    status: e.status,
    errorMessage: e.errorMessage,
    finalAt: e.finalAt,
    result: e.result,
  };
}

export class JournalService {
  constructor(private readonly journal: JournalPort) {}

  /**
   * One entry in full for its detail view: every field, the redacted request as it was sent
   * (card numbers masked, secrets never stored), and every answer in the order it came.
   */
  async entry(clientOrderId: string) {
    const entry = await this.journal.get(clientOrderId.trim());
    if (!entry)
      throw new ServiceError('NOT_FOUND', `No journal entry has the action id ${clientOrderId}.`);
    return {
      row: journalRowView(entry),
      errorCode: entry.errorCode,
      updatedAt: entry.updatedAt,
      settledBy: entry.settledBy,
      settleReason: entry.settleReason,
      uploaded: entry.uploaded ?? null,
      request: entry.summary,
      history: await this.journal.history(entry.clientOrderId),
    };
  }

  async search(filter: JournalFilter, offset: number, limit: number) {
    const page = await this.journal.search(filter, offset, limit);
    return { ...page, rows: page.rows.map(journalRowView) };
  }

  /**
   * The CSV of the filter's entries, newest first, in chunks of EXPORT_BATCH lines (UTF-8 bytes
   * from SQLite, text from another port), to be written to the file as they come: memory holds
   * a few chunks, not the whole file, and the event loop turns between chunks (one takes a few
   * milliseconds), so the main process keeps answering the window through a million entries.
   * Each store makes its chunks (JournalPort.csvChunks) from one view of the journal: entries
   * written or changed after the export started are not in it. `onProgress` hears how many
   * lines of how many are done, from when the store has counted them (SQLite may count beside
   * the first lines), and last the whole count.
   */
  async *csvChunks(
    filter: JournalFilter,
    onProgress?: (progress: ExportProgress) => void,
  ): AsyncGenerator<string | Uint8Array> {
    let done = 0;
    let total: number | undefined;
    yield (await csvLineWriter())(CSV_COLUMN_NAMES);
    for await (const chunk of this.journal.csvChunks(filter, EXPORT_BATCH)) {
      const counted = total === undefined && chunk.total !== undefined;
      total ??= chunk.total;
      if (chunk.entries > 0 || chunk.content.length > 0) {
        yield chunk.content;
        done += chunk.entries;
      } else if (!counted) continue;
      if (total !== undefined) onProgress?.({ done, total: Math.max(total, done) });
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    if (total === undefined) onProgress?.({ done, total: done });
  }
}
